// build.rs
fn main() {
    sbe_build::compile("schemas/car.xml").unwrap(); // writes $OUT_DIR/baseline.rs (the package)
}
