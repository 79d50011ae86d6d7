//! Schema order is the encoders' types: writing a section before an
//! earlier one does not compile, and the error names the stage the method
//! is missing from; going forward compiles and writes the sections
//! skipped empty, the bytes the reference writes.

use std::path::{Path, PathBuf};
use std::process::Command;

use corpus_tests::s_repo_schemas_car as car;

/// The newest `lib{name}-*.rlib` in `dir`.
fn newest_rlib(dir: &Path, name: &str) -> Option<PathBuf> {
    let prefix = format!("lib{name}-");
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| {
            let file = e.file_name();
            let file = file.to_string_lossy();
            file.starts_with(&prefix) && file.ends_with(".rlib")
        })
        .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())
        .map(|e| e.path())
}

/// rustc's errors for `tests/order/wrong.rs`, compiled against this
/// crate as cargo built it for this test.
fn wrong_order_errors() -> String {
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe.parent().expect("deps dir");
    let lib = newest_rlib(deps, "corpus_tests").expect("libcorpus_tests rlib beside the test");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/order/wrong.rs");
    let out = std::env::temp_dir().join(format!("sbe-wrong-order-{}", std::process::id()));
    let output = Command::new(rustc)
        .args([
            "--edition",
            "2021",
            "--crate-type",
            "bin",
            "--emit",
            "metadata",
        ])
        .arg("-o")
        .arg(&out)
        .arg("-L")
        .arg(format!("dependency={}", deps.display()))
        .arg("--extern")
        .arg(format!("corpus_tests={}", lib.display()))
        .arg(&src)
        .output()
        .expect("run rustc");
    let _ = std::fs::remove_file(&out);
    assert!(
        !output.status.success(),
        "wrong.rs compiled: sections out of schema order were accepted"
    );
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn going_back_does_not_compile_and_names_the_stage() {
    let errors = wrong_order_errors();
    for (method, stage) in [
        ("fuel_figures", "CarEncoderAtModel"),
        ("manufacturer", "CarEncoderAtActivationCode"),
        ("fuel_figures", "CarEncoderAtManufacturer"),
        ("serial_number", "CarEncoderAtPerformanceFigures"),
        ("acceleration", "CarPerformanceFiguresEntryEncoderAtEnd"),
        ("usage_description", "CarFuelFiguresEntryEncoderAtEnd"),
    ] {
        let (named, found) = (
            format!("no method named `{method}` found for struct `"),
            format!("::{stage}<"),
        );
        assert!(
            errors
                .lines()
                .any(|l| l.contains(&named) && l.contains(&found)),
            "expected `{method}` missing from `{stage}` in rustc's errors:\n{errors}"
        );
    }
    // A stage moved on cannot be used again, nor a group after its end.
    assert!(
        errors.contains("use of moved value: `e`"),
        "expected a use of a moved stage to fail:\n{errors}"
    );
    assert!(
        errors.contains("borrow of moved value: `ff`"),
        "expected a group used after its end to fail:\n{errors}"
    );
    // Nothing else failed: the file is right but for the order.
    assert_eq!(
        errors.matches("error[E0599]").count(),
        6,
        "unexpected errors:\n{errors}"
    );
}

/// A car written in order, and with sections skipped: `skip_fuel` leaves
/// `fuelFigures` out, `skip_model` goes from `manufacturer` to
/// `activationCode`. (`encode_identical.rs` writes the reference's golden
/// cars through the same stages, byte for byte.)
fn car_bytes(skip_fuel: bool, skip_model: bool) -> Vec<u8> {
    let mut buf = vec![0u8; 256];
    let mut e = car::CarEncoder::wrap(&mut buf).expect("room");
    e.serial_number(1234).model_year(2013).code(car::Model::A);
    let mut pf = if skip_fuel {
        e.performance_figures(1).expect("performanceFigures")
    } else {
        let mut ff = e.fuel_figures(1).expect("fuelFigures");
        let mut entry = ff.next_entry().expect("entry");
        entry.speed(30).mpg(35.9);
        entry.usage_description("Urban Cycle").expect("usage");
        let e = ff.end().expect("end");
        e.performance_figures(1).expect("performanceFigures")
    };
    let mut entry = pf.next_entry().expect("entry");
    entry.octane_rating(95);
    let mut a = entry.acceleration(1).expect("acceleration");
    a.next_entry().expect("entry").mph(30).seconds(4.0);
    a.end().expect("end");
    let e = pf.end().expect("end");
    let e = e.manufacturer("Honda").expect("manufacturer");
    let e = if skip_model {
        e.activation_code("abcdef")
    } else {
        e.model("").and_then(|e| e.activation_code("abcdef"))
    }
    .expect("var data");
    let n = e.finish().expect("finish");
    buf.truncate(n);
    buf
}

#[test]
fn skipping_forward_writes_the_skipped_sections_empty() {
    // `model` written empty by hand, or skipped: the same bytes.
    assert_eq!(car_bytes(false, true), car_bytes(false, false));
    // `fuelFigures` skipped is the group with no entries.
    let skipped = car_bytes(true, true);
    let car::Message::Car(d) = car::decode(&skipped).expect("decodes");
    assert_eq!(d.fuel_figures().count(), 0);
    assert_eq!(d.performance_figures().count(), 1);
    assert_eq!(d.manufacturer(), b"Honda");
    assert_eq!(d.model(), b"");
    assert_eq!(d.activation_code(), b"abcdef");
    assert_eq!(d.checked_length().expect("checked"), skipped.len());
    // `finish` from the first stage writes every section empty: the
    // length of a car with no entries and no bytes of var data.
    let mut buf = vec![0u8; 256];
    let n = car::CarEncoder::wrap(&mut buf)
        .expect("room")
        .finish()
        .expect("finish");
    let block = car::CarEncoder::exact_length([], [], 0, 0, 0);
    assert_eq!(n, block);
    let car::Message::Car(d) = car::decode(&buf[..n]).expect("decodes");
    assert_eq!(d.checked_length().expect("checked"), n);
}

/// A car in `buf` up to its `performanceFigures`, started for `count`
/// entries (`fuelFigures` skipped: written empty).
fn performance_figures(buf: &mut [u8], count: usize) -> car::CarPerformanceFiguresEncoder<'_> {
    car::CarEncoder::wrap(buf)
        .and_then(|e| e.performance_figures(count))
        .expect("room")
}

/// A nested group's encoder holds its entry's stage until `end()`, which
/// writes its count. Dropped before then, the entry cannot go on: the
/// group's next entry and its end are refused, naming the nested group,
/// so a group without its count never reaches a finished message.
#[test]
fn a_nested_group_dropped_before_end_stops_its_entry() {
    let mut buf = vec![0u8; 256];
    let mut pf = performance_figures(&mut buf, 2);
    {
        let mut a = pf
            .next_entry()
            .expect("entry")
            .acceleration(2)
            .expect("acceleration");
        a.next_entry().expect("entry").mph(30).seconds(4.0);
        // Dropped here, without `a.end()`.
    }
    let err = pf
        .next_entry()
        .map(|_| ())
        .expect_err("the entry is incomplete");
    assert_eq!(err.error_kind(), sbe_rt::ErrorKind::GroupNotEnded);
    assert_eq!(
        car::explain(err).to_string(),
        "group not ended: its encoder was dropped before `end()` wrote its count, \
         in `Car.performanceFigures.acceleration`"
    );
    let err = pf
        .end()
        .map(|_| ())
        .expect_err("the group cannot end either");
    assert_eq!(err.error_kind(), sbe_rt::ErrorKind::GroupNotEnded);
}

/// A nested group refused at its start (here a count above its maximum)
/// leaves nothing written: the entry goes on as if the group were
/// skipped, and the message holds it empty.
#[test]
fn a_nested_group_refused_at_its_start_is_written_empty() {
    let mut buf = vec![0u8; 256];
    let mut pf = performance_figures(&mut buf, 1);
    let refused = pf.next_entry().expect("entry").acceleration(70_000);
    assert_eq!(
        refused.map(|_| ()).expect_err("count").error_kind(),
        sbe_rt::ErrorKind::CountOutOfRange
    );
    let n = pf
        .end()
        .and_then(|e| e.finish())
        .expect("the group ends with its entry's group empty");
    let car::Message::Car(d) = car::decode(&buf[..n]).expect("decodes");
    let entry = d.performance_figures().next().expect("one entry");
    assert_eq!(entry.acceleration().count(), 0);
    assert_eq!(d.checked_length().expect("checked"), n);
}
