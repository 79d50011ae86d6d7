// Encoders used out of schema order: each function must fail to compile,
// naming the stage the method is missing from (checked by
// `encoder_order.rs`, which compiles this file with rustc).
use corpus_tests::s_repo_schemas_car as car;

type R = Result<(), Box<dyn std::error::Error>>;

// A group after a var data that follows it.
fn group_after_later_data(buf: &mut [u8]) -> R {
    let e = car::CarEncoder::wrap(buf)?;
    e.manufacturer("Honda")?.fuel_figures(0)?.end()?;
    Ok(())
}

// A var data after a later one.
fn data_after_later_data(buf: &mut [u8]) -> R {
    let e = car::CarEncoder::wrap(buf)?;
    e.model("Civic")?.manufacturer("Honda")?;
    Ok(())
}

// The first group after the second.
fn group_after_later_group(buf: &mut [u8]) -> R {
    let e = car::CarEncoder::wrap(buf)?;
    e.performance_figures(0)?.end()?.fuel_figures(0)?.end()?;
    Ok(())
}

// A field of the root block after a section.
fn field_after_a_section(buf: &mut [u8]) -> R {
    let e = car::CarEncoder::wrap(buf)?;
    e.fuel_figures(0)?.end()?.serial_number(1);
    Ok(())
}

// A nested group written twice in one entry.
fn nested_group_twice(buf: &mut [u8]) -> R {
    let e = car::CarEncoder::wrap(buf)?;
    let mut pf = e.performance_figures(1)?;
    let entry = pf.next_entry()?;
    entry.acceleration(0)?.end()?.acceleration(0)?.end()?;
    pf.end()?;
    Ok(())
}

// An entry's var data written twice.
fn entry_data_twice(buf: &mut [u8]) -> R {
    let e = car::CarEncoder::wrap(buf)?;
    let mut ff = e.fuel_figures(1)?;
    let entry = ff.next_entry()?;
    entry.usage_description("a")?.usage_description("b")?;
    ff.end()?;
    Ok(())
}

// A group's entries written after its end.
fn entry_after_end(buf: &mut [u8]) -> R {
    let e = car::CarEncoder::wrap(buf)?;
    let ff = e.fuel_figures(1)?;
    let _next = ff.end()?;
    ff.next_entry()?;
    Ok(())
}

// A stage used again after it moved on.
fn stage_used_again(buf: &mut [u8]) -> R {
    let e = car::CarEncoder::wrap(buf)?;
    let _next = e.manufacturer("Honda")?;
    e.model("Civic")?;
    Ok(())
}

fn main() {
    let _ = (
        group_after_later_data,
        data_after_later_data,
        group_after_later_group,
        field_after_a_section,
        nested_group_twice,
        entry_data_twice,
        stage_used_again,
        entry_after_end,
    );
}
