//! The floor: decode and encode written by hand, with `from_le_bytes` /
//! `to_le_bytes` on slices.
//!
//! Each section (header and root block, a group's entries, a var-data
//! field) is length-checked once, up front; the fields inside it are then
//! read from a fixed-size array reference at constant offsets, so the
//! compiler drops every per-field bounds check. The encoders check the
//! whole message's length once and then write. No `unsafe`, no panics on
//! any input: a short or malformed buffer gives [`RawError`].
//!
//! The layouts are hard-coded from `schemas/car.xml` and
//! `schemas/market-data.xml`; a test checks the car encoding against the
//! reference implementation's golden bytes.

use crate::data::{Car, MdTrades};
use crate::fold::{fold, fold_bytes};

/// A buffer too short, or a header naming another message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawError;

/// `&buf[pos..pos + N]` as an array reference.
#[inline(always)]
fn chunk<const N: usize>(buf: &[u8], pos: usize) -> Result<&[u8; N], RawError> {
    buf.get(pos..)
        .and_then(<[u8]>::first_chunk::<N>)
        .ok_or(RawError)
}

/// `&buf[pos..pos + len]`.
#[inline(always)]
fn bytes(buf: &[u8], pos: usize, len: usize) -> Result<&[u8], RawError> {
    let end = pos.checked_add(len).ok_or(RawError)?;
    buf.get(pos..end).ok_or(RawError)
}

macro_rules! rd {
    ($t:ty, $a:expr, $o:expr) => {
        <$t>::from_le_bytes(
            *$a[$o..]
                .first_chunk::<{ core::mem::size_of::<$t>() }>()
                .unwrap_or(&[0; core::mem::size_of::<$t>()]),
        )
    };
}

macro_rules! wr {
    ($buf:expr, $pos:expr, $v:expr) => {{
        let b = $v.to_le_bytes();
        $buf[$pos..$pos + b.len()].copy_from_slice(&b);
    }};
}

/// Reads and checks the 8-byte message header; returns the root block length.
#[inline(always)]
fn header(buf: &[u8], template_id: u16, min_block: usize) -> Result<usize, RawError> {
    let h: &[u8; 8] = chunk(buf, 0)?;
    let block_length = usize::from(rd!(u16, h, 0));
    if rd!(u16, h, 2) != template_id || rd!(u16, h, 4) != 1 || block_length < min_block {
        return Err(RawError);
    }
    Ok(block_length)
}

/// Reads a group's dimension (blockLength, numInGroup) at `pos` and checks
/// that its fixed entry blocks can hold `min_block` bytes each.
#[inline(always)]
fn dimension(buf: &[u8], pos: usize, min_block: usize) -> Result<(usize, usize), RawError> {
    let d: &[u8; 4] = chunk(buf, pos)?;
    let block_length = usize::from(rd!(u16, d, 0));
    if block_length < min_block {
        return Err(RawError);
    }
    Ok((block_length, usize::from(rd!(u16, d, 2))))
}

/// Reads a var-data field (uint32 length, then the bytes) at `pos`; returns
/// the bytes and the position after them.
#[inline(always)]
fn var_data(buf: &[u8], pos: usize) -> Result<(&[u8], usize), RawError> {
    let len = rd!(u32, chunk::<4>(buf, pos)?, 0) as usize;
    let data = bytes(buf, pos + 4, len)?;
    Ok((data, pos + 4 + len))
}

/// Decodes a car, folding every field, group entry, nested entry and var
/// data into a checksum.
pub fn car_decode(buf: &[u8]) -> Result<u64, RawError> {
    let block_length = header(buf, 1, 45)?;
    let b: &[u8; 45] = chunk(buf, 8)?;
    let mut acc = 0u64;
    acc = fold(acc, rd!(u64, b, 0));
    acc = fold(acc, u64::from(rd!(u16, b, 8)));
    acc = fold(acc, u64::from(b[10]));
    acc = fold(acc, u64::from(b[11]));
    for i in 0..4 {
        acc = fold(acc, u64::from(rd!(u32, b, 12 + 4 * i)));
    }
    acc = fold_bytes(acc, &b[28..34]);
    acc = fold(acc, u64::from(b[34]));
    acc = fold(acc, u64::from(rd!(u16, b, 35)));
    acc = fold(acc, u64::from(b[37]));
    acc = fold_bytes(acc, &b[38..41]);
    acc = fold(acc, b[41] as i8 as u64);
    acc = fold(acc, u64::from(b[42]));
    acc = fold(acc, u64::from(b[43]));
    acc = fold(acc, u64::from(b[44]));

    let mut pos = 8 + block_length;
    let (entry_length, count) = dimension(buf, pos, 6)?;
    pos += 4;
    for _ in 0..count {
        let e: &[u8; 6] = chunk(buf, pos)?;
        acc = fold(acc, u64::from(rd!(u16, e, 0)));
        acc = fold(acc, u64::from(rd!(f32, e, 2).to_bits()));
        let (text, next) = var_data(buf, pos + entry_length)?;
        acc = fold_bytes(acc, text);
        pos = next;
    }

    let (entry_length, count) = dimension(buf, pos, 1)?;
    pos += 4;
    for _ in 0..count {
        acc = fold(acc, u64::from(chunk::<1>(buf, pos)?[0]));
        pos += entry_length;
        let (nested_length, nested) = dimension(buf, pos, 6)?;
        pos += 4;
        let span = nested_length.checked_mul(nested).ok_or(RawError)?;
        let entries = bytes(buf, pos, span)?;
        for i in 0..nested {
            let a: &[u8; 6] = chunk(entries, i * nested_length)?;
            acc = fold(acc, u64::from(rd!(u16, a, 0)));
            acc = fold(acc, u64::from(rd!(f32, a, 2).to_bits()));
        }
        pos += span;
    }

    for _ in 0..3 {
        let (text, next) = var_data(buf, pos)?;
        acc = fold_bytes(acc, text);
        pos = next;
    }
    Ok(acc)
}

/// The encoded length of `car` with its header.
#[must_use]
pub fn car_len(car: &Car) -> usize {
    let fuel: usize = car
        .fuel_figures
        .iter()
        .map(|f| 6 + 4 + f.usage_description.len())
        .sum();
    let perf: usize = car
        .performance_figures
        .iter()
        .map(|p| 1 + 4 + 6 * p.acceleration.len())
        .sum();
    8 + 45
        + 4
        + fuel
        + 4
        + perf
        + 12
        + car.manufacturer.len()
        + car.model.len()
        + car.activation_code.len()
}

/// Encodes `car` with its header into `buf`; returns the length written.
pub fn car_encode(car: &Car, buf: &mut [u8]) -> Result<usize, RawError> {
    let len = car_len(car);
    if buf.len() < len
        || car.fuel_figures.len() > usize::from(u16::MAX)
        || car.performance_figures.len() > usize::from(u16::MAX)
    {
        return Err(RawError);
    }
    let h: &mut [u8; 53] = buf.first_chunk_mut().ok_or(RawError)?;
    h[..8].copy_from_slice(&[45, 0, 1, 0, 1, 0, 0, 0]);
    wr!(h, 8, car.serial_number);
    wr!(h, 16, car.model_year);
    h[18] = u8::from(car.available);
    h[19] = car.code;
    for (i, n) in car.some_numbers.iter().enumerate() {
        wr!(h, 20 + 4 * i, n);
    }
    h[36..42].copy_from_slice(&car.vehicle_code);
    h[42] = car.extras;
    let e = &car.engine;
    wr!(h, 43, e.capacity);
    h[45] = e.num_cylinders;
    h[46..49].copy_from_slice(&e.manufacturer_code);
    h[49] = e.efficiency as u8;
    h[50] = u8::from(e.booster_enabled);
    h[51] = e.boost_type;
    h[52] = e.horse_power;

    let mut pos = 53;
    wr!(buf, pos, 6u16);
    wr!(buf, pos + 2, car.fuel_figures.len() as u16);
    pos += 4;
    for f in car.fuel_figures {
        wr!(buf, pos, f.speed);
        wr!(buf, pos + 2, f.mpg);
        pos += 6;
        pos = put_var(buf, pos, f.usage_description.as_bytes());
    }
    wr!(buf, pos, 1u16);
    wr!(buf, pos + 2, car.performance_figures.len() as u16);
    pos += 4;
    for p in car.performance_figures {
        buf[pos] = p.octane_rating;
        wr!(buf, pos + 1, 6u16);
        wr!(buf, pos + 3, p.acceleration.len() as u16);
        pos += 5;
        for a in p.acceleration {
            wr!(buf, pos, a.mph);
            wr!(buf, pos + 2, a.seconds);
            pos += 6;
        }
    }
    pos = put_var(buf, pos, car.manufacturer.as_bytes());
    pos = put_var(buf, pos, car.model.as_bytes());
    pos = put_var(buf, pos, car.activation_code.as_bytes());
    Ok(pos)
}

/// Writes a var-data field (uint32 length, then the bytes); the caller has
/// checked the length.
#[inline(always)]
fn put_var(buf: &mut [u8], pos: usize, data: &[u8]) -> usize {
    wr!(buf, pos, data.len() as u32);
    buf[pos + 4..pos + 4 + data.len()].copy_from_slice(data);
    pos + 4 + data.len()
}

/// Reads the car's four `someNumbers` (uint32) after checking the header.
#[inline]
pub fn car_some_numbers(buf: &[u8]) -> Result<[u32; 4], RawError> {
    header(buf, 1, 45)?;
    let b: &[u8; 16] = chunk(buf, 8 + 12)?;
    Ok([
        rd!(u32, b, 0),
        rd!(u32, b, 4),
        rd!(u32, b, 8),
        rd!(u32, b, 12),
    ])
}

/// Length of the market-data message at the start of `buf` (header, root
/// block and group); `Ok(None)` when too few bytes are there to tell.
#[inline]
pub fn md_len(buf: &[u8]) -> sbe_rt::Result<Option<usize>> {
    let Ok(block_length) = header(buf, 2, 11) else {
        return if buf.len() < 8 {
            Ok(None)
        } else {
            Err(sbe_rt::Error::unknown_template_id(u64::from(rd!(
                u16, buf, 2
            ))))
        };
    };
    let Ok((entry_length, count)) = dimension(buf, 8 + block_length, 33) else {
        return Ok(None);
    };
    Ok(Some(8 + block_length + 4 + entry_length * count))
}

/// Decodes a MarketDataIncrementalRefreshTrades, folding every field of the
/// root block and of each group entry into a checksum.
pub fn md_decode(buf: &[u8]) -> Result<u64, RawError> {
    let block_length = header(buf, 2, 11)?;
    let b: &[u8; 11] = chunk(buf, 8)?;
    let mut acc = 0u64;
    acc = fold(acc, rd!(u64, b, 0));
    acc = fold(acc, u64::from(rd!(u16, b, 8)));
    acc = fold(acc, u64::from(b[10]));
    let pos = 8 + block_length;
    let (entry_length, count) = dimension(buf, pos, 33)?;
    let span = entry_length.checked_mul(count).ok_or(RawError)?;
    let entries = bytes(buf, pos + 4, span)?;
    for i in 0..count {
        let e: &[u8; 33] = chunk(entries, i * entry_length)?;
        acc = fold(acc, rd!(u64, e, 0));
        acc = fold(acc, rd!(u64, e, 8));
        acc = fold(acc, rd!(i64, e, 16) as u64);
        acc = fold(acc, rd!(i32, e, 24) as u64);
        acc = fold(acc, u64::from(rd!(u16, e, 28)));
        acc = fold(acc, u64::from(e[30]));
        acc = fold(acc, u64::from(e[31]));
        acc = fold(acc, u64::from(e[32]));
    }
    Ok(acc)
}

/// Encodes `md` with its header into `buf`; returns the length written.
pub fn md_encode(md: &MdTrades, buf: &mut [u8]) -> Result<usize, RawError> {
    let count = md.entries.len();
    let len = 8 + 11 + 4 + 33 * count;
    if buf.len() < len || count > usize::from(u16::MAX) {
        return Err(RawError);
    }
    let h: &mut [u8; 23] = buf.first_chunk_mut().ok_or(RawError)?;
    h[..8].copy_from_slice(&[11, 0, 2, 0, 1, 0, 1, 0]);
    wr!(h, 8, md.transact_time);
    wr!(h, 16, md.event_time_delta);
    h[18] = md.match_event_indicator;
    wr!(h, 19, 33u16);
    wr!(h, 21, count as u16);
    let mut pos = 23;
    for e in md.entries {
        let d: &mut [u8; 33] = buf[pos..].first_chunk_mut().ok_or(RawError)?;
        wr!(d, 0, e.trade_id);
        wr!(d, 8, e.security_id);
        wr!(d, 16, e.px_mantissa);
        wr!(d, 24, e.size_mantissa);
        wr!(d, 28, e.number_of_orders);
        d[30] = e.update_action;
        d[31] = e.rpt_seq;
        d[32] = e.aggressor_side;
        pos += 33;
    }
    Ok(pos)
}
