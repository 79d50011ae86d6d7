// Encoders used out of schema order: each function must fail to compile,
// naming the stage the method is missing from (checked by
// `encoder_order.rs`, which compiles this file with rustc).
use corpus_tests::s_repo_schemas_car as car;

type R = Result<(), Box<dyn std::error::Error>>;

// A group after a var data that follows it.
fn group_after_later_data(buf: &mut [u8]) -> R {
    let e = car::CarEncoder::wrap(buf)?;
    e.manufacturer("Honda")?.fuel_figures(0, |_| Ok(()))?;
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
    e.performance_figures(0, |_| Ok(()))?.fuel_figures(0, |_| Ok(()))?;
    Ok(())
}

// A field of the root block after a section.
fn field_after_a_section(buf: &mut [u8]) -> R {
    let e = car::CarEncoder::wrap(buf)?;
    e.fuel_figures(0, |_| Ok(()))?.serial_number(1);
    Ok(())
}

// A nested group written twice in one entry.
fn nested_group_twice(buf: &mut [u8]) -> R {
    let e = car::CarEncoder::wrap(buf)?;
    e.performance_figures(1, |pf| {
        let entry = pf.next_entry()?;
        entry.acceleration(0, |_| Ok(()))?.acceleration(0, |_| Ok(()))?;
        Ok(())
    })?;
    Ok(())
}

// An entry's var data written twice.
fn entry_data_twice(buf: &mut [u8]) -> R {
    let e = car::CarEncoder::wrap(buf)?;
    e.fuel_figures(1, |ff| {
        let entry = ff.next_entry()?;
        entry.usage_description("a")?.usage_description("b")?;
        Ok(())
    })?;
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
    );
}
