//! Meaning facts: what a value stands for beyond its wire type, from the
//! schema alone. The resolver classifies every type, field and var data
//! once (`resolve::meaning`); codegen, `sbe decode`, the layout report and
//! the columnar and dissector outputs read [`Meaning`] and never match a
//! `semanticType` string or a member name themselves.
//!
//! The kinds are the FIX semantic types the SBE spec gives an encoding:
//!
//! | kind | what the schema holds |
//! |---|---|
//! | [`Meaning::Decimal`] | a composite of `mantissa` (an integer of any width) and `exponent` (a constant, or an `int8` on the wire); or a field whose `exponent` attribute in any namespace (Binance's `mbx:exponent`) names an earlier `int8` field of its block or an enclosing one, the field an integer or a 16-byte array holding a little-endian `i128` (Binance's `mantissa128`) |
//! | [`Meaning::Timestamp`] | the spec's time composite (`time` + `unit`, with `timezoneHour`/`timezoneMinute` for `TZTimestamp`) whose `semanticType` names a time or is missing (one that names anything else, `Int` say, is plain), or an integer whose `semanticType` is `UTCTimestamp`, `UTCTimeOnly`, `TZTimestamp` or `TZTimeOnly` |
//! | [`Meaning::Date`] | an integer whose `semanticType` is `LocalMktDate` or `UTCDateOnly`: days since the Unix epoch |
//! | [`Meaning::MonthYear`] | the `MonthYear` composite (`year`, `month`, and optionally `day`, `week`) |
//! | [`Meaning::Text`] | a `char` value or array, and var data with a `characterEncoding` |
//! | [`Meaning::Plain`] | everything else: integers, floats (a float `Price` stays a float), enums, sets, binary data, other composites |
//!
//! Where the schema says nothing (Binance's `utcTimestampUs` is a bare
//! `int64`), the user can say what a type means: [`DeclaredMeanings`],
//! given to [`load_with_options`](super::load_with_options) (and so to
//! `sbe_build::Config::meaning` and `sbe --meaning`). A declaration is a
//! fact of the IR like any other: every backend reads it from the fields'
//! [`Meaning`].
//!
//! ```
//! use sbe_ir::ir::{Exponent, Meaning};
//!
//! let xml = r#"<messageSchema package="demo" id="1">
//!   <types>
//!     <composite name="messageHeader">
//!       <type name="blockLength" primitiveType="uint16"/>
//!       <type name="templateId" primitiveType="uint16"/>
//!       <type name="schemaId" primitiveType="uint16"/>
//!       <type name="version" primitiveType="uint16"/>
//!     </composite>
//!     <composite name="PRICE9">
//!       <type name="mantissa" primitiveType="int64"/>
//!       <type name="exponent" primitiveType="int8" presence="constant">-9</type>
//!     </composite>
//!   </types>
//!   <message name="Trade" id="1">
//!     <field name="px" id="1" type="PRICE9"/>
//!     <field name="time" id="2" type="uint64" semanticType="UTCTimestamp"/>
//!   </message>
//! </messageSchema>"#;
//! let schema = sbe_ir::ir::load_str("demo.xml", xml).unwrap();
//! let fields = &schema.messages[0].block.fields;
//! let Meaning::Decimal(px) = &fields[0].meaning else { panic!() };
//! assert_eq!(px.exponent, Exponent::Constant(-9));
//! assert!(!px.optional);
//! assert_eq!(fields[1].meaning.kind(), "timestamp");
//! ```

/// What a value means. Composite parts are named by their index in the
/// composite's `members`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Meaning {
    /// Nothing beyond the wire type.
    Plain,
    /// A decimal: `mantissa × 10^exponent`.
    Decimal(DecimalParts),
    /// A point in time, or a time of day.
    Timestamp(TimeParts),
    /// A calendar date: days since the Unix epoch.
    Date(DateParts),
    /// FIX's MonthYear: a year and month, with a day or a week.
    MonthYear(MonthYearParts),
    /// Characters: a `char` value or array, or var data with a character
    /// encoding.
    Text,
}

impl Meaning {
    /// An instant as an integer count of `unit` since the Unix epoch (to
    /// declare what a type means, [`DeclaredMeanings`]).
    #[must_use]
    pub fn timestamp(unit: sbe_rt::TimeUnit) -> Meaning {
        Meaning::Timestamp(TimeParts {
            time: None,
            unit: TimeUnitSource::Constant(unit),
            of_day: false,
            zone: None,
            optional: false,
        })
    }

    /// A time of day as an integer count of `unit` since midnight.
    #[must_use]
    pub fn time_of_day(unit: sbe_rt::TimeUnit) -> Meaning {
        Meaning::Timestamp(TimeParts {
            time: None,
            unit: TimeUnitSource::Constant(unit),
            of_day: true,
            zone: None,
            optional: false,
        })
    }

    /// A date as an integer count of days since the Unix epoch.
    #[must_use]
    pub fn date() -> Meaning {
        Meaning::Date(DateParts { optional: false })
    }

    /// The kind's name, as the layout report and the docs write it:
    /// `plain`, `decimal`, `timestamp`, `date`, `monthYear` or `text`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Meaning::Plain => "plain",
            Meaning::Decimal(_) => "decimal",
            Meaning::Timestamp(_) => "timestamp",
            Meaning::Date(_) => "date",
            Meaning::MonthYear(_) => "monthYear",
            Meaning::Text => "text",
        }
    }

    /// Whether the value can be null on the wire: the mantissa, the time
    /// or the date is optional (a required value with a `nullValue`
    /// attribute is read as a value, as the reference reads it). `false` for the kinds that
    /// carry no such fact (plain and text values follow their type's
    /// presence).
    #[must_use]
    pub fn optional(&self) -> bool {
        match self {
            Meaning::Decimal(d) => d.optional,
            Meaning::Timestamp(t) => t.optional,
            Meaning::Date(d) => d.optional,
            Meaning::MonthYear(_) | Meaning::Plain | Meaning::Text => false,
        }
    }
}

/// Where a decimal's parts are.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecimalParts {
    /// The `mantissa` member's index; 0 for a field decimal
    /// ([`Exponent::Field`]), whose mantissa is the field's value itself.
    pub mantissa: usize,
    /// The exponent: a constant, the `exponent` member on the wire, or
    /// another field on the wire.
    pub exponent: Exponent,
    /// The mantissa is optional: a null mantissa is no value at all,
    /// whatever the exponent holds.
    pub optional: bool,
    /// The mantissa is a 16-byte array holding a two's-complement `i128`,
    /// little-endian (Binance's `mantissa128`), null at `i128::MIN` where
    /// it is optional; otherwise it is an integer of its own type.
    pub mantissa128: bool,
}

/// A decimal's exponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exponent {
    /// Fixed by the schema (a constant `exponent` member).
    Constant(i8),
    /// Read from the wire: the `exponent` member's index.
    Member(usize),
    /// Read from the wire: an `int8` field named by the mantissa field's
    /// `exponent` attribute (Binance's `mbx:exponent`), earlier in the
    /// mantissa's own block or in an enclosing one. Each entry of a group
    /// reads the exponent its enclosing message or entry holds.
    Field(FieldRef),
}

/// A field of the block holding a value, or of a block enclosing it,
/// named by position so that a backend finds it without a name lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldRef {
    /// How many blocks out: 0 the value's own block, 1 the block whose
    /// group holds it, and so on up to the message.
    pub up: usize,
    /// The field's index in that block's `fields`.
    pub field: usize,
}

/// Where a time's parts are.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TimeParts {
    /// The `time` member's index in the time composite; `None` when the
    /// value itself is the integer count.
    pub time: Option<usize>,
    /// The unit of that count.
    pub unit: TimeUnitSource,
    /// `UTCTimeOnly` / `TZTimeOnly`: a time since midnight, not since the
    /// epoch.
    pub of_day: bool,
    /// `TZTimestamp` / `TZTimeOnly`: the `timezoneHour` and
    /// `timezoneMinute` members' indices.
    pub zone: Option<(usize, usize)>,
    /// The time count is optional.
    pub optional: bool,
}

/// Where the unit of a time count comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnitSource {
    /// Fixed by the schema (a constant `unit` member, or a field's
    /// `timeUnit`).
    Constant(sbe_rt::TimeUnit),
    /// Read from the wire: the `unit` member's index (holding the spec's
    /// code, [`sbe_rt::TimeUnit::from_code`]).
    Member(usize),
    /// The schema does not say (an integer field with a time
    /// `semanticType` and no `timeUnit`): the backend's configured unit
    /// applies, nanoseconds unless configured (`Config::timestamp_unit`),
    /// as CME's schemas mean them.
    Unstated,
}

/// A date's facts.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DateParts {
    /// The value is optional.
    pub optional: bool,
}

/// Where a MonthYear's parts are (member indices).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MonthYearParts {
    /// The `year` member.
    pub year: usize,
    /// The `month` member.
    pub month: usize,
    /// The `day` member, if the composite has one.
    pub day: Option<usize>,
    /// The `week` member, if the composite has one.
    pub week: Option<usize>,
}

/// What the user says types mean where the schema does not: each a type
/// name and a [`Meaning`] (a timestamp, a time of day or a date, of an
/// integer type). Applied when the schema loads
/// ([`load_with_options`](super::load_with_options)): a field of a
/// declared type has the declared meaning, optional where the field or
/// its type is. A declaration the schema contradicts (the type already
/// means something, is not an integer, or does not exist) is a warning
/// and is not applied.
///
/// ```
/// use sbe_ir::ir::{DeclaredMeanings, Meaning};
/// use sbe_rt::TimeUnit;
///
/// let from_code = DeclaredMeanings::new().declare("utcTimestampUs", Meaning::timestamp(TimeUnit::Micros));
/// let from_text: DeclaredMeanings = "utcTimestampUs=timestamp:us".parse().unwrap();
/// assert_eq!(from_code, from_text);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeclaredMeanings {
    types: Vec<(String, Meaning)>,
}

impl DeclaredMeanings {
    /// No declarations.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares that values of type `type_name` mean `meaning` (a later
    /// declaration of the same type replaces an earlier one).
    #[must_use]
    pub fn declare(mut self, type_name: impl Into<String>, meaning: Meaning) -> Self {
        let name = type_name.into();
        self.types.retain(|(n, _)| *n != name);
        self.types.push((name, meaning));
        self
    }

    /// The meaning declared for `type_name`, if any.
    #[must_use]
    pub fn get(&self, type_name: &str) -> Option<&Meaning> {
        self.types
            .iter()
            .find(|(n, _)| n == type_name)
            .map(|(_, m)| m)
    }

    /// The declarations, in the order made.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Meaning)> {
        self.types.iter().map(|(n, m)| (n.as_str(), m))
    }

    /// Whether nothing is declared.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
}

/// The text form of declarations, as `sbe --meaning` takes them:
/// `TYPE=KIND` items separated by commas, KIND one of `timestamp:UNIT`,
/// `timeofday:UNIT` (UNIT `s`, `ms`, `us` or `ns`) and `date`; for example
/// `utcTimestampUs=timestamp:us,utcTimestampMs=timestamp:ms`.
impl std::str::FromStr for DeclaredMeanings {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let mut out = DeclaredMeanings::new();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let Some((name, kind)) = item.split_once('=') else {
                return Err(format!(
                    "{item:?}: expected TYPE=KIND (timestamp:UNIT, timeofday:UNIT or date)"
                ));
            };
            let unit = |u: &str| match u {
                "s" => Ok(sbe_rt::TimeUnit::Seconds),
                "ms" => Ok(sbe_rt::TimeUnit::Millis),
                "us" => Ok(sbe_rt::TimeUnit::Micros),
                "ns" => Ok(sbe_rt::TimeUnit::Nanos),
                other => Err(format!(
                    "{item:?}: unknown time unit {other:?} (s, ms, us or ns)"
                )),
            };
            let meaning = match kind.trim().split_once(':') {
                Some(("timestamp", u)) => Meaning::timestamp(unit(u)?),
                Some(("timeofday", u)) => Meaning::time_of_day(unit(u)?),
                None if kind.trim() == "date" => Meaning::date(),
                _ => {
                    return Err(format!(
                    "{item:?}: unknown meaning {kind:?} (timestamp:UNIT, timeofday:UNIT or date)"
                ))
                }
            };
            let name = name.trim();
            if name.is_empty() {
                return Err(format!("{item:?}: no type name before '='"));
            }
            out = out.declare(name, meaning);
        }
        Ok(out)
    }
}
