// src/main.rs
// `pub`: a program uses a part of the generated module; in a private one
// every decoder, encoder and constant it does not use warns as dead code.
pub mod car {
    sbe_rt::include_schema!("baseline");
}

fn main() -> Result<(), sbe_rt::Error> {
    let mut buf = [0u8; 256];
    let len = write(&mut buf)?;
    read(&buf[..len])
}

fn read(buf: &[u8]) -> Result<(), sbe_rt::Error> {
    // Header, template and every count checked here, once:
    let car::Message::Car(c) = car::decode(buf)?;
    // then plain values, no per-field Result.
    println!("{} {:?}", c.serial_number(), c.code());
    for fuel in c.fuel_figures() {
        println!("{} mph: {}", fuel.speed(), fuel.usage_description_str()?);
    }
    println!("{}", car::decode(buf)?.to_json()); // FORMAT.md's JSON
    Ok(())
}

// An encoder's error displays the schema element it is about
// (`car::EncodeError`, an `sbe_rt::Error` that `?` converts both ways).
fn write(buf: &mut [u8]) -> Result<usize, car::EncodeError> {
    // The header is written here; a buffer too small is an Err.
    let mut e = car::CarEncoder::wrap(buf)?;
    e.serial_number(1234).model_year(2013).code(car::Model::A);
    // Groups and var data in schema order, each call returning the encoder
    // of what may follow: going back does not compile.
    let mut ff = e.fuel_figures(1)?; // for at most 1 entry
    let mut entry = ff.next_entry()?;
    entry.speed(30).mpg(35.9);
    entry.usage_description("Urban Cycle")?;
    // `end()` writes the count of entries written; `performanceFigures`,
    // skipped, is written empty.
    let e = ff.end()?;
    e.manufacturer("Honda")?.model("Civic VTi")?.finish() // the length
}
