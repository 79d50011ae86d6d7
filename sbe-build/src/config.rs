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
    codegen::generate(schema, &config.options)
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
    options: Options,
    quiet: bool,
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
    /// `package` `<name>.rs` instead of the package-derived name.
    pub fn file_name(&mut self, package: impl Into<String>, name: impl Into<String>) -> &mut Self {
        self.file_names.insert(package.into(), name.into());
        self
    }

    /// Adds an attribute (e.g. `#[derive(serde::Serialize)]`) to the
    /// generated enum or set named `type_name` in the schema, or to all of
    /// them with `"."`.
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

    /// Whether to generate `Debug` impls for decoders (default `true`).
    pub fn debug(&mut self, on: bool) -> &mut Self {
        self.options.debug = on;
        self
    }

    /// Do not print `cargo:` lines (for use outside build scripts).
    pub fn quiet(&mut self, on: bool) -> &mut Self {
        self.quiet = on;
        self
    }

    /// The name of the file generated for `schema`, without the folder.
    pub fn file_name_for(&self, schema: &ir::Schema) -> String {
        match self.file_names.get(&schema.package) {
            Some(n) if n.ends_with(".rs") => n.clone(),
            Some(n) => format!("{n}.rs"),
            None => format!("{}.rs", file_stem(&schema.package)),
        }
    }

    /// Generates the code of one loaded schema (see [`generate`]).
    pub fn generate(&self, schema: &ir::Schema) -> Result<String, Error> {
        generate(schema, self)
    }

    /// Compiles every schema: one file each in the output folder, written
    /// only when its content changed; prints `cargo:rerun-if-changed` for
    /// every file read.
    pub fn compile(&self, schemas: &[impl AsRef<Path>]) -> Result<(), Error> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    Error::Config("OUT_DIR is not set: call out_dir() outside build scripts".into())
                })?,
        };
        for path in schemas {
            let path = path.as_ref();
            if !self.quiet {
                println!("cargo:rerun-if-changed={}", path.display());
            }
            let schema = ir::load(path)?;
            if !self.quiet {
                for f in schema.files.iter().skip(1) {
                    println!("cargo:rerun-if-changed={}", f.display());
                }
                for w in &schema.warnings {
                    println!("cargo:warning={w}");
                }
            }
            let text = self.generate(&schema)?;
            let file = out_dir.join(self.file_name_for(&schema));
            write_if_changed(&file, &text)?;
        }
        Ok(())
    }
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
