//! Generated code for every corpus schema the reference accepts (read in
//! place from `../shared`) and for the repo's own schemas, compiled under
//! the strictest lints: a plain `include!` must give no warning.
#![deny(warnings, missing_docs, clippy::all)]
#![forbid(unsafe_code)]

include!(concat!(env!("OUT_DIR"), "/corpus.rs"));

/// The decoder and the `message_length` of a schema path, if it was
/// compiled.
pub fn schema(path: &str) -> Option<(DecodeFn, LengthFn)> {
    SCHEMAS
        .iter()
        .find(|(p, ..)| *p == path)
        .map(|&(_, decode, length)| (decode, length))
}

/// A schema's owned round trip (`OwnedMessage::decode`, then `encode`), if
/// it was compiled with owned messages.
pub fn owned(path: &str) -> Option<OwnedFn> {
    OWNED
        .iter()
        .find(|(p, _)| *p == path)
        .map(|&(_, round_trip)| round_trip)
}

/// A message's owned value through serde: `serde_json::to_string` of it,
/// its `to_json`, and the bytes the owned value read back from the body of
/// that `to_json` encodes to (or why it could not).
#[derive(Debug)]
pub struct SerdeRun {
    /// `serde_json::to_string` of the owned message.
    pub json: String,
    /// The message's `to_json`.
    pub to_json: String,
    /// `serde_json::from_str` of the `body` of `to_json`, encoded.
    pub bytes: Result<Vec<u8>, String>,
    /// `serde_json::from_str` of the whole `to_json` (header and all) as
    /// the schema's `OwnedMessage`, encoded.
    pub message: Result<Vec<u8>, String>,
}

/// `run` with [`SerdeRun::message`]: `to_json` read whole as owned message
/// type `M`, written with `encode`.
pub fn with_message<M, E: std::fmt::Display>(
    mut run: SerdeRun,
    encode: fn(&M, &mut [u8]) -> Result<usize, E>,
) -> SerdeRun
where
    M: for<'de> sbe_rt::__private::serde::Deserialize<'de>,
{
    run.message = serde_json::from_str::<M>(&run.to_json)
        .map_err(|e| format!("from_str: {e}"))
        .and_then(|m| {
            let mut buf = vec![0u8; 1 << 20];
            let n = encode(&m, &mut buf).map_err(|e| format!("encode: {e}"))?;
            buf.truncate(n);
            Ok(buf)
        });
    run
}

/// [`SerdeRun`] of owned message `m`, whose `to_json` is `to_json` and
/// whose type encodes with `encode`.
pub fn serde_run<T, E: std::fmt::Display>(
    m: &T,
    to_json: &str,
    encode: fn(&T, &mut [u8]) -> Result<usize, E>,
) -> SerdeRun
where
    T: sbe_rt::__private::serde::Serialize + for<'de> sbe_rt::__private::serde::Deserialize<'de>,
{
    SerdeRun {
        json: serde_json::to_string(m).unwrap_or_else(|e| format!("serialize error: {e}")),
        to_json: to_json.to_string(),
        bytes: from_body(to_json, encode),
        message: Err("not read".to_string()),
    }
}

/// The owned message `serde_json` reads from the `body` of `to_json`,
/// encoded with `encode`.
fn from_body<T, E: std::fmt::Display>(
    to_json: &str,
    encode: fn(&T, &mut [u8]) -> Result<usize, E>,
) -> Result<Vec<u8>, String>
where
    T: for<'de> sbe_rt::__private::serde::Deserialize<'de>,
{
    let whole: serde_json::Value = serde_json::from_str(to_json).map_err(|e| e.to_string())?;
    let body = whole.get("body").ok_or("to_json has no body")?.to_string();
    let back: T = serde_json::from_str(&body).map_err(|e| format!("from_str: {e}"))?;
    let mut buf = vec![0u8; 1 << 20];
    let n = encode(&back, &mut buf).map_err(|e| format!("encode: {e}"))?;
    buf.truncate(n);
    Ok(buf)
}

/// A schema's serde run, if it was compiled with owned messages and JSON.
pub fn serde(path: &str) -> Option<SerdeFn> {
    SERDE.iter().find(|(p, _)| *p == path).map(|&(_, run)| run)
}
