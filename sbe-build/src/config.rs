//! The `build.rs` API: [`compile`] and [`Config`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::codegen::{self, Options};
use crate::error::Error;
use crate::ir;

/// Compiles one schema with the default [`Config`]: the generated file
/// goes to `$OUT_DIR/<package>.rs`.
///
/// ```no_run
/// // in build.rs's main:
/// sbe_build::compile("schemas/car.xml").unwrap();
/// ```
pub fn compile(schema: impl AsRef<Path>) -> Result<(), Error> {
    Config::new().compile(&[schema])
}

/// Generates the Rust file for a loaded schema, formatted: exactly the text
/// [`Config::compile`] writes (the `sbe generate` command uses it too).
pub fn generate(schema: &ir::Schema, config: &Config) -> Result<String, Error> {
    for (type_name, attribute) in &config.options.type_attributes {
        check_attribute(attribute).map_err(|reason| Error::TypeAttribute {
            type_name: type_name.clone(),
            attribute: attribute.clone(),
            reason,
        })?;
    }
    codegen::generate(schema, &config.options)
}

/// `attribute` is one or more outer attributes, `#[...]` each.
fn check_attribute(attribute: &str) -> Result<(), &'static str> {
    use proc_macro2::{Delimiter, TokenStream, TokenTree};
    let tokens: TokenStream = attribute
        .parse()
        .map_err(|_| "does not lex as Rust tokens (unbalanced brackets or quotes?)")?;
    let mut trees = tokens.clone().into_iter().peekable();
    if trees.peek().is_none() {
        return Err("is empty");
    }
    while let Some(token) = trees.next() {
        let pound = matches!(&token, TokenTree::Punct(p) if p.as_char() == '#');
        let bracket = matches!(
            trees.next(),
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket
        );
        if !(pound && bracket) {
            return Err("is not an attribute of the form #[...]");
        }
    }
    // The generated code is parsed with syn before it is printed.
    syn::parse::Parser::parse2(syn::Attribute::parse_outer, tokens)
        .map_err(|_| "is not of the form #[path], #[path(...)] or #[path = value]")?;
    Ok(())
}

/// The file name stem [`Config::compile`] uses for a schema's package:
/// lower snake case, every character that is not alphanumeric made `_`.
///
/// ```
/// assert_eq!(
///     sbe_build::file_stem("uk.co.real_logic.sbe.benchmarks.fix"),
///     "uk_co_real_logic_sbe_benchmarks_fix"
/// );
/// ```
pub fn file_stem(package: &str) -> String {
    codegen::names::package_file_stem(package)
}

/// Configures code generation, like `prost_build::Config`.
///
/// ```no_run
/// // in build.rs's main:
/// sbe_build::Config::new()
///     .out_dir(std::env::var("OUT_DIR").unwrap())
///     .type_attribute(".", "#[derive(PartialOrd)]")
///     .compile(&["schemas/a.xml", "schemas/b.xml"])
///     .unwrap();
/// ```
#[derive(Debug, Clone, Default)]
pub struct Config {
    out_dir: Option<PathBuf>,
    file_names: HashMap<String, String>,
    /// Per schema file: (the path as given, the name).
    schema_file_names: Vec<(PathBuf, String)>,
    options: Options,
    quiet: bool,
    includes: ir::IncludePolicy,
    meanings: ir::DeclaredMeanings,
}

impl Config {
    /// The default configuration: output to `$OUT_DIR`, with `to_json` and
    /// `Debug`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Where to write the generated files (default: `$OUT_DIR`).
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Names the file generated for the schema whose `package` is
    /// `package` `<name>.rs` instead of the package-derived name (see
    /// [`file_stem`]); include it with `sbe_rt::include_schema!("<name>")`.
    ///
    /// Two schemas of the same package (say two versions of CME's MDP3,
    /// both `package="mktdata"`) cannot be told apart this way: name them
    /// per schema file with [`schema_file_name`](Self::schema_file_name).
    pub fn file_name(&mut self, package: impl Into<String>, name: impl Into<String>) -> &mut Self {
        self.file_names.insert(package.into(), name.into());
        self
    }

    /// Names the file generated from the schema file `schema` `<name>.rs`
    /// (a trailing `.rs` in `name` is not doubled), whatever its package;
    /// it takes precedence over [`file_name`](Self::file_name). `schema` is
    /// matched against the paths given to [`compile`](Self::compile) as
    /// given, or as the same file on disk.
    ///
    /// This is how two schemas with the same `package` are compiled side
    /// by side, which would otherwise be an
    /// [`Error::SameOutputFile`]:
    ///
    /// ```no_run
    /// // in build.rs's main:
    /// sbe_build::Config::new()
    ///     .schema_file_name("schemas/mdp3-1.9.xml", "mktdata_v9")
    ///     .schema_file_name("schemas/mdp3-1.12.xml", "mktdata_v12")
    ///     .compile(&["schemas/mdp3-1.9.xml", "schemas/mdp3-1.12.xml"])
    ///     .unwrap();
    /// // and in the crate:
    /// // mod mdp3_v9 { sbe_rt::include_schema!("mktdata_v9"); }
    /// // mod mdp3_v12 { sbe_rt::include_schema!("mktdata_v12"); }
    /// ```
    pub fn schema_file_name(
        &mut self,
        schema: impl Into<PathBuf>,
        name: impl Into<String>,
    ) -> &mut Self {
        let schema = schema.into();
        let name = name.into();
        match self
            .schema_file_names
            .iter_mut()
            .find(|(p, _)| *p == schema)
        {
            Some(entry) => entry.1 = name,
            None => self.schema_file_names.push((schema, name)),
        }
        self
    }

    /// Adds an attribute (e.g. `#[derive(serde::Serialize)]`) to the
    /// generated enum or set named `type_name` in the schema, or to all of
    /// them with `"."`. Text that is not one or more `#[...]` attributes is
    /// an [`Error::TypeAttribute`] when the code is generated.
    ///
    /// ```
    /// let xml = r#"<messageSchema package="p" id="1"><types>
    ///   <composite name="messageHeader">
    ///     <type name="blockLength" primitiveType="uint16"/><type name="templateId" primitiveType="uint16"/>
    ///     <type name="schemaId" primitiveType="uint16"/><type name="version" primitiveType="uint16"/>
    ///   </composite>
    ///   <enum name="Side" encodingType="uint8"><validValue name="Buy">1</validValue></enum>
    /// </types><message name="Order" id="1"><field name="side" id="1" type="Side"/></message>
    /// </messageSchema>"#;
    /// let schema = sbe_ir::load_str("p.xml", xml).unwrap();
    /// let mut config = sbe_build::Config::new();
    /// config.type_attribute("Side", "#[derive(PartialOrd, Ord)]");
    /// assert!(config.generate(&schema).unwrap().contains("#[derive(PartialOrd, Ord)]"));
    /// config.type_attribute("Side", "derive(Ord)");
    /// assert!(matches!(
    ///     config.generate(&schema),
    ///     Err(sbe_build::Error::TypeAttribute { .. })
    /// ));
    /// ```
    pub fn type_attribute(
        &mut self,
        type_name: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.options
            .type_attributes
            .push((type_name.into(), attribute.into()));
        self
    }

    /// Whether to generate `to_json` / `write_json` (default `true`;
    /// without it the generated code needs no `alloc`). `Message::to_json`
    /// goes with it.
    pub fn json(&mut self, on: bool) -> &mut Self {
        self.options.json = on;
        self
    }

    /// The unit of an integer timestamp whose schema does not state one:
    /// a field with `semanticType` `UTCTimestamp`, `UTCTimeOnly`,
    /// `TZTimestamp` or `TZTimeOnly` on an integer type, with no time
    /// composite and no `timeUnit` (default: nanoseconds, as CME's
    /// schemas mean them). Its typed accessor reads the count in this
    /// unit; a time composite's own unit always wins.
    ///
    /// ```no_run
    /// // in build.rs's main: a venue that counts milliseconds
    /// sbe_build::Config::new()
    ///     .timestamp_unit(sbe_build::TimeUnit::Millis)
    ///     .compile(&["schemas/venue.xml"])
    ///     .unwrap();
    /// ```
    pub fn timestamp_unit(&mut self, unit: sbe_rt::TimeUnit) -> &mut Self {
        self.options.timestamp_unit = unit;
        self
    }

    /// Whether to generate `Debug` impls for decoders (default `true`).
    pub fn debug(&mut self, on: bool) -> &mut Self {
        self.options.debug = on;
        self
    }

    /// Whether to generate the owned messages (default `true`; they need
    /// `sbe-rt`'s `alloc` feature): per message, group entry and composite
    /// a plain struct of its values (`Car`, `CarFuelFigures`, `Engine`),
    /// made by the decoder's `to_owned()` and written by its
    /// `encode(buf)`, and `OwnedMessage`, the owned twin of `Message`. See
    /// the crate docs' naming table.
    ///
    /// They are most of a release build of the generated code for a large
    /// schema (their conversions are compiled whether or not they are
    /// used; `#[inline]` on them made them slower): a crate that only
    /// reads and writes through the flyweights can turn them off.
    pub fn owned(&mut self, on: bool) -> &mut Self {
        self.options.owned = on;
        self
    }

    /// Whether the owned messages, enums and sets implement `serde`'s
    /// `Serialize` and `Deserialize` (default `false`; needs `sbe-rt`'s
    /// `serde` feature, which brings serde along: the consumer's crate
    /// needs no dependency of its own). The JSON is FORMAT.md's, the body
    /// of `Message::to_json`. Implies [`Config::owned`].
    pub fn serde(&mut self, on: bool) -> &mut Self {
        self.options.serde = on;
        if on {
            self.options.owned = true;
        }
        self
    }

    /// Let schemas `xi:include` files outside their own folder: absolute
    /// paths, paths that climb out with `..`, `file:` URLs (default
    /// `false`: a schema from elsewhere reads nothing but its folder; see
    /// [`IncludePolicy`](sbe_ir::IncludePolicy)).
    pub fn allow_includes_outside(&mut self, on: bool) -> &mut Self {
        self.includes.allow_outside = on;
        self
    }

    /// Declares that values of the schema type `type_name` mean `meaning`
    /// where the schema does not say: Binance's `utcTimestampUs` (a bare
    /// `int64`) as a timestamp in microseconds. The declaration is made
    /// when the schema loads, a meaning fact of its IR like the schema's
    /// own, so that the typed accessors (`<field>_value()`), the owned
    /// types and `to_json` all read it. A timestamp, a time of day or a
    /// date of an integer type can be declared; one the schema contradicts
    /// (the type already means something, or is not an integer) is a
    /// `cargo:warning` and is not applied.
    ///
    /// ```no_run
    /// use sbe_build::{Meaning, TimeUnit};
    /// // in build.rs's main:
    /// sbe_build::Config::new()
    ///     .meaning("utcTimestampUs", Meaning::timestamp(TimeUnit::Micros))
    ///     .meaning("utcTimestampMs", Meaning::timestamp(TimeUnit::Millis))
    ///     .compile(&["schemas/spot_3_5.xml"])
    ///     .unwrap();
    /// ```
    pub fn meaning(&mut self, type_name: impl Into<String>, meaning: ir::Meaning) -> &mut Self {
        self.meanings = std::mem::take(&mut self.meanings).declare(type_name, meaning);
        self
    }

    /// Loads the schema at `path` as [`compile`](Self::compile) does:
    /// includes as [`allow_includes_outside`](Self::allow_includes_outside)
    /// says, types meaning what [`meaning`](Self::meaning) declares.
    pub fn load(&self, path: impl AsRef<Path>) -> Result<ir::Schema, Error> {
        let options = ir::LoadOptions::new()
            .includes(self.includes)
            .meanings(self.meanings.clone());
        Ok(ir::load_with_options(path, &options)?)
    }

    /// Do not print `cargo:` lines (for use outside build scripts).
    pub fn quiet(&mut self, on: bool) -> &mut Self {
        self.quiet = on;
        self
    }

    /// The name of the file generated for `schema`, without the folder:
    /// the name given for its schema file by
    /// [`schema_file_name`](Self::schema_file_name), else the one given for
    /// its package by [`file_name`](Self::file_name), else
    /// `<file_stem(package)>.rs`.
    pub fn file_name_for(&self, schema: &ir::Schema) -> String {
        let by_path = schema.files.first().and_then(|path| {
            self.schema_file_names
                .iter()
                .find(|(p, _)| same_file(p, path))
                .map(|(_, n)| n)
        });
        match by_path.or_else(|| self.file_names.get(&schema.package)) {
            Some(n) if n.ends_with(".rs") => n.clone(),
            Some(n) => format!("{n}.rs"),
            None => format!("{}.rs", file_stem(&schema.package)),
        }
    }

    /// Generates the code of one loaded schema (see [`generate`]).
    pub fn generate(&self, schema: &ir::Schema) -> Result<String, Error> {
        generate(schema, self)
    }

    /// Compiles every schema: one file each in the output folder (named
    /// by [`file_name_for`](Self::file_name_for)), written only when its
    /// content changed; prints `cargo:rerun-if-changed` for every file
    /// read.
    ///
    /// Every schema is loaded before anything is written. Two schemas that
    /// would be written to the same file (the same `package`, two packages
    /// with the same [`file_stem`] such as `a.b` and `a_b`, or the same
    /// name given twice; names that differ only in ASCII case count as the
    /// same, as they are on case-insensitive file systems) are an
    /// [`Error::SameOutputFile`]: name one with
    /// [`schema_file_name`](Self::schema_file_name). The same schema file
    /// given twice is compiled once.
    pub fn compile(&self, schemas: &[impl AsRef<Path>]) -> Result<(), Error> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    Error::Config("OUT_DIR is not set: call out_dir() outside build scripts".into())
                })?,
        };
        let mut loaded: Vec<(&Path, ir::Schema, String)> = Vec::with_capacity(schemas.len());
        for path in schemas {
            let path = path.as_ref();
            if !self.quiet {
                println!("cargo:rerun-if-changed={}", path.display());
            }
            let schema = self.load(path)?;
            if !self.quiet {
                for f in schema.files.iter().skip(1) {
                    println!("cargo:rerun-if-changed={}", f.display());
                }
                for w in &schema.warnings {
                    println!("cargo:warning={w}");
                }
            }
            let name = self.file_name_for(&schema);
            let taken = loaded
                .iter()
                .find(|(_, _, n)| n.eq_ignore_ascii_case(&name));
            if let Some((first, first_schema, _)) = taken {
                if same_file(first, path) {
                    continue;
                }
                return Err(Error::SameOutputFile {
                    file: out_dir.join(&name),
                    first: (first.to_path_buf(), first_schema.package.clone()),
                    second: (path.to_path_buf(), schema.package),
                });
            }
            loaded.push((path, schema, name));
        }
        for (_, schema, name) in &loaded {
            let text = self.generate(schema)?;
            write_if_changed(&out_dir.join(name), &text)?;
        }
        Ok(())
    }
}

/// Whether `a` and `b` are the same path, or name the same file on disk.
fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (a.canonicalize(), b.canonicalize()),
            (Ok(x), Ok(y)) if x == y
        )
}

/// Writes `text` to `file` unless it already holds exactly that.
pub fn write_if_changed(file: &Path, text: &str) -> Result<(), Error> {
    if std::fs::read(file).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(());
    }
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    std::fs::write(file, text).map_err(|source| Error::Io {
        path: file.to_path_buf(),
        source,
    })
}
