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
//! | [`Meaning::Decimal`] | a composite of `mantissa` (an integer of any width) and `exponent` (a constant, or an `int8` on the wire) |
//! | [`Meaning::Timestamp`] | the spec's time composite (`time` + `unit`, with `timezoneHour`/`timezoneMinute` for `TZTimestamp`), or an integer whose `semanticType` is `UTCTimestamp`, `UTCTimeOnly`, `TZTimestamp` or `TZTimeOnly` |
//! | [`Meaning::Date`] | an integer whose `semanticType` is `LocalMktDate` or `UTCDateOnly`: days since the Unix epoch |
//! | [`Meaning::MonthYear`] | the `MonthYear` composite (`year`, `month`, and optionally `day`, `week`) |
//! | [`Meaning::Text`] | a `char` value or array, and var data with a `characterEncoding` |
//! | [`Meaning::Plain`] | everything else: integers, floats (a float `Price` stays a float), enums, sets, binary data, other composites |
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
    /// The `mantissa` member's index.
    pub mantissa: usize,
    /// The exponent: a constant, or the `exponent` member on the wire.
    pub exponent: Exponent,
    /// The mantissa is optional: a null mantissa is no value at all.
    pub optional: bool,
}

/// A decimal's exponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exponent {
    /// Fixed by the schema (a constant `exponent` member).
    Constant(i8),
    /// Read from the wire: the `exponent` member's index.
    Member(usize),
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
