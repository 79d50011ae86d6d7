//! The meaning facts of `sbe_ir::ir`: each kind from a schema written
//! for it, and the shapes that stay plain.

use sbe_ir::ir::{
    load_str, load_str_with_options, DateParts, DecimalParts, DeclaredMeanings, Exponent, Field,
    FieldRef, LoadOptions, Meaning, MonthYearParts, TimeParts, TimeUnitSource,
};
use sbe_rt::TimeUnit;

const TYPES: &str = r#"
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="varString">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="uint8" length="0" characterEncoding="UTF-8"/>
    </composite>
    <composite name="varBytes">
      <type name="length" primitiveType="uint16"/>
      <type name="varData" primitiveType="uint8" length="0"/>
    </composite>
    <composite name="PRICE9">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8" presence="constant">-9</type>
    </composite>
    <composite name="PRICENULL">
      <type name="mantissa" primitiveType="int64" presence="optional"/>
      <type name="exponent" primitiveType="int8"/>
    </composite>
    <composite name="QTY">
      <type name="mantissa" primitiveType="uint32" nullValue="4294967295"/>
      <type name="exponent" primitiveType="int8" presence="constant">0</type>
    </composite>
    <composite name="wideExponent">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int32"/>
    </composite>
    <composite name="flaggedPrice">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8"/>
      <type name="isSettlement" primitiveType="uint8"/>
    </composite>
    <type name="floatPrice" primitiveType="double" semanticType="Price"/>
    <enum name="TimeUnit" encodingType="uint8">
      <validValue name="second">0</validValue>
      <validValue name="millisecond">3</validValue>
      <validValue name="microsecond">6</validValue>
      <validValue name="nanosecond">9</validValue>
    </enum>
    <composite name="UTCTimestampNanos" semanticType="UTCTimestamp">
      <type name="time" primitiveType="uint64"/>
      <type name="unit" primitiveType="uint8" presence="constant" valueRef="TimeUnit.nanosecond"/>
    </composite>
    <composite name="UTCTime" semanticType="UTCTimeOnly">
      <type name="time" primitiveType="uint64"/>
      <ref name="unit" type="TimeUnit"/>
    </composite>
    <composite name="tzTimestamp" semanticType="TZTimestamp">
      <type name="time" primitiveType="uint64"/>
      <type name="unit" primitiveType="uint8" presence="constant">3</type>
      <type name="timezoneHour" primitiveType="int8"/>
      <type name="timezoneMinute" primitiveType="uint8"/>
    </composite>
    <composite name="badUnit">
      <type name="time" primitiveType="uint64"/>
      <type name="unit" primitiveType="uint8" presence="constant">5</type>
    </composite>
    <type name="LocalMktDate" primitiveType="uint16" semanticType="LocalMktDate" presence="optional" nullValue="65535"/>
    <composite name="monthYear" semanticType="MonthYear">
      <type name="year" primitiveType="uint16" presence="optional" nullValue="65535"/>
      <type name="month" primitiveType="uint8"/>
      <type name="day" primitiveType="uint8" presence="optional" nullValue="255"/>
      <type name="week" primitiveType="uint8" presence="optional" nullValue="255"/>
    </composite>
    <type name="Symbol" primitiveType="char" length="8"/>
    <composite name="DeltaInMillis" semanticType="Int">
      <type name="time" primitiveType="uint64"/>
      <type name="unit" primitiveType="uint8" presence="constant">3</type>
    </composite>
    <composite name="unsaidTime">
      <type name="time" primitiveType="uint64"/>
      <type name="unit" primitiveType="uint8" presence="constant">3</type>
    </composite>
    <composite name="QtyDecimal" semanticType="Qty">
      <type name="mantissa" primitiveType="int64"/>
      <type name="exponent" primitiveType="int8" presence="constant">-2</type>
    </composite>
"#;

const FIELDS: &str = r#"
    <field name="px" id="1" type="PRICE9"/>
    <field name="pxNull" id="2" type="PRICENULL"/>
    <field name="qty" id="3" type="QTY"/>
    <field name="flagged" id="4" type="flaggedPrice"/>
    <field name="wide" id="20" type="wideExponent"/>
    <field name="floatPx" id="5" type="floatPrice"/>
    <field name="sent" id="6" type="UTCTimestampNanos"/>
    <field name="tod" id="7" type="UTCTime"/>
    <field name="zoned" id="8" type="tzTimestamp"/>
    <field name="bad" id="9" type="badUnit"/>
    <field name="transact" id="10" type="uint64" semanticType="UTCTimestamp"/>
    <field name="transactMs" id="11" type="uint64" semanticType="UTCTimestamp" timeUnit="millisecond"/>
    <field name="optTime" id="12" type="int64" semanticType="UTCTimeOnly" presence="optional"/>
    <field name="tradeDate" id="13" type="LocalMktDate"/>
    <field name="reqDate" id="14" type="uint16" semanticType="UTCDateOnly"/>
    <field name="mmy" id="15" type="monthYear"/>
    <field name="symbol" id="16" type="Symbol"/>
    <field name="side" id="17" type="char"/>
    <field name="count" id="18" type="uint32"/>
    <field name="textDate" id="19" type="Symbol" semanticType="LocalMktDate"/>
    <field name="keepAlive" id="21" type="DeltaInMillis"/>
    <field name="unsaid" id="22" type="unsaidTime"/>
    <field name="saidInt" id="23" type="unsaidTime" semanticType="Length"/>
    <field name="qtyDec" id="24" type="QtyDecimal"/>
"#;

fn fields() -> (Vec<Field>, Vec<Meaning>) {
    let xml = format!(
        r#"<messageSchema package="m" id="1"><types>{TYPES}</types>
        <message name="M" id="1">{FIELDS}
          <data name="note" id="30" type="varString"/>
          <data name="blob" id="31" type="varBytes"/>
        </message></messageSchema>"#
    );
    let schema = load_str("m.xml", &xml).unwrap_or_else(|e| panic!("{e}"));
    let block = &schema.messages[0].block;
    let data = block.data.iter().map(|d| d.meaning.clone()).collect();
    (block.fields.clone(), data)
}

fn meaning(name: &str) -> Meaning {
    let (fields, _) = fields();
    let field = fields.iter().find(|f| f.name == name).expect(name);
    field.meaning.clone()
}

fn decimal(mantissa: usize, exponent: Exponent, optional: bool) -> DecimalParts {
    let Meaning::Decimal(mut d) = meaning("px") else {
        unreachable!()
    };
    d.mantissa = mantissa;
    d.exponent = exponent;
    d.optional = optional;
    d
}

#[test]
fn decimals_with_a_constant_or_a_wire_exponent() {
    assert_eq!(
        meaning("px"),
        Meaning::Decimal(decimal(0, Exponent::Constant(-9), false))
    );
    assert_eq!(
        meaning("pxNull"),
        Meaning::Decimal(decimal(0, Exponent::Member(1), true))
    );
    // A required mantissa with a nullValue reads as a value, as the
    // reference reads it.
    assert_eq!(
        meaning("qty"),
        Meaning::Decimal(decimal(0, Exponent::Constant(0), false))
    );
}

#[test]
fn a_decimal_with_more_on_the_wire_and_a_float_price_stay_plain() {
    assert_eq!(meaning("flagged"), Meaning::Plain);
    // An exponent on the wire is an int8, as the spec's decimals have it.
    assert_eq!(meaning("wide"), Meaning::Plain);
    assert_eq!(meaning("floatPx"), Meaning::Plain);
    assert_eq!(meaning("count"), Meaning::Plain);
}

fn time(m: &Meaning) -> &TimeParts {
    match m {
        Meaning::Timestamp(t) => t,
        other => panic!("not a timestamp: {other:?}"),
    }
}

#[test]
fn time_composites_take_their_unit_constant_or_from_the_wire() {
    let sent = meaning("sent");
    let t = time(&sent);
    assert_eq!(
        (t.time, t.unit, t.of_day, t.zone),
        (
            Some(0),
            TimeUnitSource::Constant(TimeUnit::Nanos),
            false,
            None
        )
    );
    let tod = meaning("tod");
    let t = time(&tod);
    assert_eq!((t.unit, t.of_day), (TimeUnitSource::Member(1), true));
    let zoned = meaning("zoned");
    let t = time(&zoned);
    assert_eq!(
        (t.unit, t.zone),
        (TimeUnitSource::Constant(TimeUnit::Millis), Some((2, 3)))
    );
    // A unit code the spec does not define is no time unit.
    assert_eq!(meaning("bad"), Meaning::Plain);
}

#[test]
fn integer_timestamps_by_semantic_type_with_their_unit_unstated_or_given() {
    let transact = meaning("transact");
    assert_eq!(time(&transact).unit, TimeUnitSource::Unstated);
    assert_eq!(time(&transact).time, None);
    let ms = meaning("transactMs");
    assert_eq!(time(&ms).unit, TimeUnitSource::Constant(TimeUnit::Millis));
    let opt = meaning("optTime");
    assert!(time(&opt).of_day && time(&opt).optional);
}

#[test]
fn dates_month_years_and_text() {
    let Meaning::Date(DateParts { optional, .. }) = meaning("tradeDate") else {
        panic!("tradeDate is a date");
    };
    assert!(optional, "its type has a null value");
    assert_eq!(meaning("reqDate").kind(), "date");
    assert!(!meaning("reqDate").optional());
    let Meaning::MonthYear(MonthYearParts {
        year,
        month,
        day,
        week,
        ..
    }) = meaning("mmy")
    else {
        panic!("mmy is a MonthYear");
    };
    assert_eq!((year, month, day, week), (0, 1, Some(2), Some(3)));
    assert_eq!(meaning("symbol"), Meaning::Text);
    assert_eq!(meaning("side"), Meaning::Text);
    // A date semanticType on characters: still text.
    assert_eq!(meaning("textDate"), Meaning::Text);
    let (_, data) = fields();
    assert_eq!(data, vec![Meaning::Text, Meaning::Plain]);
}

#[test]
fn a_time_composite_whose_semantic_type_is_no_time_is_plain() {
    // B3's DeltaInMillis: an interval the schema calls `Int`.
    assert_eq!(meaning("keepAlive"), Meaning::Plain);
    // The field's own semanticType counts the same as the type's.
    assert_eq!(meaning("saidInt"), Meaning::Plain);
    // No semanticType at all: the shape decides.
    let unsaid = meaning("unsaid");
    assert_eq!(
        time(&unsaid).unit,
        TimeUnitSource::Constant(TimeUnit::Millis)
    );
    // A decimal is read by its shape under any semanticType.
    assert_eq!(meaning("qtyDec").kind(), "decimal");
}

const BINANCE: &str = r#"<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" xmlns:mbx="https://example.com/mbx" xmlns:other="urn:other" package="b" id="3">
  <types>
    <composite name="messageHeader">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="templateId" primitiveType="uint16"/>
      <type name="schemaId" primitiveType="uint16"/>
      <type name="version" primitiveType="uint16"/>
    </composite>
    <composite name="groupSizeEncoding">
      <type name="blockLength" primitiveType="uint16"/>
      <type name="numInGroup" primitiveType="uint16"/>
    </composite>
    <type name="mantissa64" primitiveType="int64"/>
    <type name="mantissa128" length="16" primitiveType="uint8"/>
    <type name="exponent8" primitiveType="int8"/>
    <type name="utcTimestampUs" primitiveType="int64"/>
  </types>
  <sbe:message name="Trades" id="1">
    <field name="priceExponent" id="1" type="exponent8"/>
    <field name="qtyExponent" id="2" type="exponent8"/>
    <field name="count" id="3" type="int32"/>
    <field name="time" id="4" type="utcTimestampUs"/>
    <field name="late" id="5" type="mantissa64" mbx:exponent="laterExponent"/>
    <field name="wrong" id="6" type="mantissa64" mbx:exponent="count"/>
    <field name="laterExponent" id="7" type="exponent8"/>
    <group name="trades" id="100" dimensionType="groupSizeEncoding">
      <field name="localExponent" id="1" type="exponent8"/>
      <field name="price" id="2" type="mantissa64" mbx:exponent="priceExponent"/>
      <field name="qty" id="3" type="mantissa64" presence="optional" other:exponent="qtyExponent"/>
      <field name="volume" id="4" type="mantissa128" mbx:exponent="localExponent"/>
    </group>
  </sbe:message>
</sbe:messageSchema>"#;

fn decimal_of(f: &Field) -> &DecimalParts {
    match &f.meaning {
        Meaning::Decimal(d) => d,
        other => panic!("{} is not a decimal: {other:?}", f.name),
    }
}

#[test]
fn a_field_names_its_exponent_field_in_any_namespace() {
    let schema = load_str("b.xml", BINANCE).unwrap_or_else(|e| panic!("{e}"));
    let root = &schema.messages[0].block;
    let trades = &root.groups[0].block;
    // The message's exponents, one block out.
    let price = decimal_of(&trades.fields[1]);
    assert_eq!(
        price.exponent,
        Exponent::Field(FieldRef { up: 1, field: 0 })
    );
    assert!(!price.optional && !price.mantissa128);
    let qty = decimal_of(&trades.fields[2]);
    assert_eq!(qty.exponent, Exponent::Field(FieldRef { up: 1, field: 1 }));
    assert!(qty.optional, "an optional mantissa");
    // A 128-bit mantissa at its own block's exponent.
    let volume = decimal_of(&trades.fields[3]);
    assert_eq!(
        volume.exponent,
        Exponent::Field(FieldRef { up: 0, field: 0 })
    );
    assert!(volume.mantissa128);
    // An exponent named after the field, or one that is no int8: a
    // warning each, and the field stays plain.
    assert_eq!(root.fields[4].meaning, Meaning::Plain);
    assert_eq!(root.fields[5].meaning, Meaning::Plain);
    let warnings: Vec<String> = schema.warnings.iter().map(ToString::to_string).collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("\"late\"") && w.contains("no earlier field \"laterExponent\"")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("\"wrong\"") && w.contains("not an int8")),
        "{warnings:?}"
    );
}

#[test]
fn a_declared_meaning_is_a_fact_of_the_ir() {
    let declared: DeclaredMeanings = "utcTimestampUs=timestamp:us, nothing=date"
        .parse()
        .expect("declarations");
    let options = LoadOptions::new().meanings(declared);
    let schema =
        load_str_with_options("b.xml", BINANCE, &options).unwrap_or_else(|e| panic!("{e}"));
    let time = &schema.messages[0].block.fields[3];
    assert_eq!(time.meaning, Meaning::timestamp(TimeUnit::Micros));
    // A type the schema does not define: a warning.
    assert!(schema
        .warnings
        .iter()
        .any(|w| w.to_string().contains("\"nothing\"")));
    // A declaration on a type the schema gives a meaning, or no integer:
    // a warning, not applied.
    let clash: DeclaredMeanings = "mantissa128=date".parse().expect("declaration");
    let schema = load_str_with_options("b.xml", BINANCE, &LoadOptions::new().meanings(clash))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(schema
        .warnings
        .iter()
        .any(|w| w.to_string().contains("\"mantissa128\" is not applied")));
    // Bad text says what to write.
    let err = "utcTimestampUs=instant"
        .parse::<DeclaredMeanings>()
        .unwrap_err();
    assert!(err.contains("timestamp:UNIT"), "{err}");
    let err = "utcTimestampUs=timestamp:hours"
        .parse::<DeclaredMeanings>()
        .unwrap_err();
    assert!(err.contains("s, ms, us or ns"), "{err}");
}
