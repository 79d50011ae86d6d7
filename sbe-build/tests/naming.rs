//! The naming rules written in sbe-build's crate docs (`# Names`), checked
//! against the generator: every example there is generated here from a
//! schema that has it, and the docs still show each example. README.md
//! keeps only the file stem rule and points to the crate docs.

use std::path::Path;

const SCHEMA: &str = r#"<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe"
                   package="MDP3.Market-Data" id="1" version="0" byteOrder="littleEndian"
                   description="20180308">
    <types>
        <composite name="messageHeader">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="templateId" primitiveType="uint16"/>
            <type name="schemaId" primitiveType="uint16"/>
            <type name="version" primitiveType="uint16"/>
        </composite>
        <composite name="groupSize">
            <type name="blockLength" primitiveType="uint16"/>
            <type name="numInGroup" primitiveType="uint8"/>
        </composite>
        <composite name="PRICENULL9">
            <type name="mantissa" primitiveType="int64" presence="optional"/>
            <type name="exponent" primitiveType="int8" presence="constant">-9</type>
        </composite>
        <enum name="MDUpdateAction" encodingType="uint8">
            <validValue name="New">0</validValue>
            <validValue name="DeleteThru">3</validValue>
        </enum>
        <enum name="MDEntryType" encodingType="char">
            <validValue name="Bid">0</validValue>
            <validValue name="BID">1</validValue>
        </enum>
        <type name="Symbol" primitiveType="char" length="6"/>
        <set name="self" encodingType="uint8">
            <choice name="a">0</choice>
        </set>
        <enum name="Message" encodingType="uint8">
            <validValue name="A">0</validValue>
        </enum>
        <set name="SettlPriceType" encodingType="uint8">
            <choice name="Final">0</choice>
            <choice name="ReservedBits">1</choice>
        </set>
    </types>
    <sbe:message name="MDIncrementalRefreshBook46" id="46">
        <field name="SecurityID" id="48" type="int32"/>
        <field name="type" id="1" type="SettlPriceType"/>
        <field name="self" id="2" type="uint8"/>
        <field name="header" id="3" type="uint8"/>
        <field name="mdEntryPx" id="4" type="uint8"/>
        <field name="MdEntryPx" id="5" type="uint8"/>
        <field name="v1" id="6" type="uint8"/>
        <field name="V1" id="7" type="uint8"/>
        <field name="Symbol" id="8" type="Symbol"/>
        <field name="flags" id="9" type="self"/>
        <field name="kind" id="10" type="Message"/>
        <field name="visit" id="11" type="uint8"/>
        <group name="NoMDEntries" id="268" dimensionType="groupSize">
            <field name="MDEntryPx" id="270" type="PRICENULL9"/>
            <field name="MDUpdateAction" id="279" type="MDUpdateAction"/>
            <field name="MDEntryType" id="269" type="MDEntryType"/>
        </group>
    </sbe:message>
    <sbe:message name="MDEntryType" id="47">
        <field name="x" id="1" type="uint8"/>
    </sbe:message>
</sbe:messageSchema>
"#;

/// (schema name, a line the generated code must have): the examples of
/// the docs, and where the generated file shows them.
const EXAMPLES: &[(&str, &str)] = &[
    // Messages, composites, enums, sets.
    (
        "MDIncrementalRefreshBook46",
        "pub struct MdIncrementalRefreshBook46Decoder<'a> {",
    ),
    (
        "MDIncrementalRefreshBook46",
        "pub struct MdIncrementalRefreshBook46Encoder<'a> {",
    ),
    (
        "MDIncrementalRefreshBook46",
        "    MdIncrementalRefreshBook46(MdIncrementalRefreshBook46Decoder<'a>),",
    ),
    ("PRICENULL9", "pub struct Pricenull9Decoder<'a> {"),
    ("PRICENULL9", "pub struct Pricenull9Encoder<'b> {"),
    ("MDUpdateAction", "pub struct MdUpdateAction(pub u8);"),
    ("DeleteThru", "    pub const DeleteThru: Self = Self(3u8);"),
    ("SettlPriceType", "pub struct SettlPriceType(pub u8);"),
    (
        "ReservedBits",
        "    pub const fn reserved_bits(self) -> bool {",
    ),
    (
        "ReservedBits",
        "    pub const fn with_reserved_bits(self, on: bool) -> Self {",
    ),
    (
        "ReservedBits",
        "    pub const RESERVED_BITS: Self = Self(2u8);",
    ),
    // Fields, char arrays, groups.
    ("MDEntryPx", "md_entry_px : Pricenull9Decoder ="),
    ("SecurityID", "security_id : i32 ="),
    ("Symbol", "symbol_str = symbol"),
    (
        "NoMDEntries",
        "    pub fn no_md_entries(&self) -> MdIncrementalRefreshBook46NoMdEntriesDecoder<'_> {",
    ),
    (
        "NoMDEntries",
        "pub struct MdIncrementalRefreshBook46NoMdEntriesEntry<'a> {",
    ),
    // Keywords.
    ("type", "r#type : SettlPriceType ="),
    ("Final", "    pub const fn r#final(self) -> bool {"),
    ("self", "self_ : u8 ="),
    ("self", "pub struct Self_(pub u8);"),
    // Clashes.
    ("mdEntryPx", "md_entry_px : u8 ="),
    ("MdEntryPx", "md_entry_px2 : u8 ="),
    ("v1", "v1 : u8 ="),
    ("V1", "v1_2 : u8 ="),
    ("Bid", "    pub const Bid: Self = Self(48u8);"),
    ("BID", "    pub const Bid2: Self = Self(49u8);"),
    ("header", "header2 : u8 ="),
    ("Message", "pub struct Message2(pub u8);"),
    ("MDEntryType", "pub struct MdEntryType(pub u8);"),
    ("MDEntryType", "pub struct MdEntryType2Decoder<'a> {"),
    ("MDEntryType", "pub struct MdEntryType2Encoder<'a> {"),
    ("MDEntryType", "    MdEntryType(MdEntryType2Decoder<'a>),"),
];

fn generated() -> String {
    let schema = sbe_ir::ir::load_str("naming.xml", SCHEMA).expect("schema loads");
    sbe_build::generate(&schema, &sbe_build::Config::new()).expect("generates")
}

#[test]
fn the_documented_names_are_the_generated_ones() {
    let text = generated();
    let text = one_line(&text);
    let missing: Vec<&str> = EXAMPLES
        .iter()
        .map(|(_, line)| *line)
        .filter(|line| !text.contains(line.trim()))
        .collect();
    assert!(missing.is_empty(), "not generated: {missing:#?}");
    // The names a clash or keyword would have had without the rules are
    // not there.
    for wrong in [
        "pub fn type(",
        "pub fn self(",
        "pub fn header(&self) -> u8",
        " header : u8 =",
        "pub struct MdEntryTypeDecoder",
        "pub const BID:",
    ] {
        assert!(!text.contains(wrong), "{wrong:?} generated");
    }
}

#[test]
fn the_documented_file_names_are_the_generated_ones() {
    let schema = sbe_ir::ir::load_str("naming.xml", SCHEMA).expect("schema loads");
    assert_eq!(schema.package, "MDP3.Market-Data");
    assert_eq!(
        sbe_build::Config::new().file_name_for(&schema),
        "mdp3_market_data.rs"
    );
    assert_eq!(sbe_build::file_stem("MDP3.Market-Data"), "mdp3_market_data");
    assert_eq!(sbe_build::file_stem("baseline"), "baseline");
    assert_eq!(
        sbe_build::file_stem("uk.co.real_logic.sbe.benchmarks.fix"),
        "uk_co_real_logic_sbe_benchmarks_fix"
    );
    assert_eq!(sbe_build::file_stem("a.b"), "a_b");
    assert_eq!(sbe_build::file_stem("a_b"), "a_b");
}

/// The Rust name a generated line shows (`md_entry_px2` of
/// `pub fn md_entry_px2(&self) -> u8 {`).
/// `text` with every run of white space one space: where prettyplease
/// breaks the line of an `sbe_rt::getter!` call (a field's accessor,
/// `name : Type = ...`) depends on the names' lengths.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn rust_name(line: &str) -> &str {
    let line = line.trim_start();
    let rest = ["pub const fn ", "pub fn ", "pub struct ", "pub const "]
        .iter()
        .find_map(|p| line.strip_prefix(p))
        .unwrap_or(line);
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '#'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Whether `text` has `name` as a whole word (`Bid` in `` `Bid` `` or
/// `X::Bid`, not in `Bid2`).
fn shows(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '#';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// The text of `doc` (relative to this crate) from its Names heading on.
fn names_section(doc: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(doc)).expect("doc");
    let start = text
        .find("Names")
        .unwrap_or_else(|| panic!("{doc} has no Names section"));
    text[start..].to_string()
}

#[test]
fn the_docs_show_every_example() {
    let names = names_section("src/lib.rs");
    for (schema_name, line) in EXAMPLES {
        let rust = rust_name(line);
        for name in [*schema_name, rust] {
            assert!(
                shows(&names, name),
                "src/lib.rs: `{name}` ({schema_name} -> {rust}) not shown"
            );
        }
    }
    for stem in ["mdp3_market_data", "uk_co_real_logic_sbe_benchmarks_fix"] {
        assert!(names.contains(stem), "src/lib.rs: {stem} not shown");
    }
}

#[test]
fn the_readme_gives_the_file_stem_and_points_to_the_crate_docs() {
    let names = names_section("../README.md");
    assert!(
        names.contains("mdp3_market_data"),
        "README.md: no stem example"
    );
    assert!(
        names.contains("(sbe-build/src/lib.rs)") && names.contains("cargo doc -p sbe-build"),
        "README.md: no pointer to sbe-build's crate docs"
    );
}

#[test]
fn a_field_does_not_hide_a_method_of_the_runtime_traits() {
    // An inherent `visit()` would hide `sbe_rt::visit::Visit::visit` from
    // `decoder.visit(&mut v)`.
    let text = one_line(&generated());
    assert!(text.contains(" visit2 : u8 ="), "{text}");
    assert!(!text.contains(" visit : u8 =") && !text.contains("pub fn visit(&self) -> u8"));
}
