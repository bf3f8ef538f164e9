//! `Generator.integers`: exact uniform integers between numpy's bounds.
//!
//! An array of one range is drawn in chunks straight into the output array
//! of the requested dtype (`int64`/`uint64` by default), each value
//! written once in the dtype's width ([`crate::rolls`]), so its memory is
//! the output's alone: `integers(5, size=2e8, dtype=uint8)` takes 0.2 GB,
//! not the 1.8 GB an array of 64-bit values and its conversion took. The
//! chunks draw exactly what one pass would (see
//! [`ROLL_GROUPS`](crate::rolls::ROLL_GROUPS)), so the values do not depend
//! on the chunking.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyInt;
use rand_core::Rng;

use crate::arrays::numpy;
use crate::convert::{Size, to_bound};
use crate::draws::rolls;
use crate::fill::{Bits, empty, fill};
use crate::interrupt::Watch;
use crate::rolls::{CHUNK, fill_rolls};
use crate::stream::Stream;

/// The bounds of `integers`: values `low ..= top`, `width` of them (1 ..= 2^64).
struct Bounds {
    low: i128,
    top: i128,
}

impl Bounds {
    /// numpy's `integers(low, high=None, endpoint=False)`: `[0, low)` when
    /// `high` is None, else `[low, high)` (`[low, high]` with `endpoint`).
    /// `int64` values, or `uint64` when `top ≥ 2^63` and `low ≥ 0`.
    fn of(
        low: &Bound<'_, PyAny>,
        high: Option<&Bound<'_, PyAny>>,
        endpoint: bool,
    ) -> PyResult<Self> {
        let (low, high, one) = match high.filter(|h| !h.is_none()) {
            None => (0, to_bound(low, "high")?, true),
            Some(high) => (to_bound(low, "low")?, to_bound(high, "high")?, false),
        };
        let top = if endpoint { high } else { high - 1 };
        if top < low {
            return Err(PyValueError::new_err(match (one, endpoint) {
                (true, false) => "high <= 0 (integers(high) draws from 0..high-1)",
                (true, true) => "high < 0 (integers(high, endpoint=True) draws from 0..high)",
                (false, false) => "low >= high (integers(low, high) draws from low..high-1)",
                (false, true) => "low > high",
            }));
        }
        let signed = low >= i128::from(i64::MIN) && top <= i128::from(i64::MAX);
        let unsigned = low >= 0 && top <= i128::from(u64::MAX);
        if !signed && !unsigned {
            let which = if low < i128::from(i64::MIN) {
                "low"
            } else {
                "high"
            };
            return Err(PyValueError::new_err(format!(
                "{which} is out of bounds for int64 (and for uint64)"
            )));
        }
        Ok(Bounds { low, top })
    }

    /// How many values there are, when fewer than 2^64 (`None`: all of them).
    fn width(&self) -> Option<u64> {
        u64::try_from(self.top - self.low + 1).ok()
    }

    /// The default dtype: `int64` when every value fits it, else `uint64`.
    fn dtype<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let name = if self.top <= i128::from(i64::MAX) {
            "int64"
        } else {
            "uint64"
        };
        numpy(py)?.call_method1("dtype", (name,))
    }

    /// One exact draw: `low` plus a roll of the width, or one raw 64-bit
    /// word when the width is all of 2^64.
    fn draw_one(&self, py: Python<'_>, stream: &Stream) -> PyResult<i128> {
        let offset = match self.width() {
            Some(n) => rolls(py, stream, n, 1, "integers")?[0],
            None => stream.with(|dice| dice.rng_mut().next_u64()),
        };
        Ok(self.low + i128::from(offset))
    }

    /// Fills `out` (fresh, C-contiguous, of a dtype every value fits) in
    /// chunks: `low + offset` in the dtype's width (two's complement
    /// truncation is exact, since the true value fits).
    fn fill<T: Bits>(
        &self,
        py: Python<'_>,
        stream: &Stream,
        out: &Bound<'_, PyAny>,
        watch: &Watch,
    ) -> PyResult<()> {
        let (low, width) = (self.low as u64, self.width());
        fill::<T>(py, out, CHUNK, watch, |chunk| match width {
            Some(n) => crate::with_dice!(stream, |dice| fill_rolls(dice.rng_mut(), n, low, chunk)),
            None => crate::with_dice!(stream, |dice| chunk
                .iter_mut()
                .for_each(|c| *c = T::truncate(low.wrapping_add(dice.rng_mut().next_u64())))),
        })
    }
}

/// `integers(low, high, size, endpoint, dtype)`: exact uniform integers
/// between numpy's bounds (see [`Bounds::of`]); `low + roll(width)` each.
/// A `dtype` is checked against the bounds before anything is drawn.
pub fn integers<'py>(
    py: Python<'py>,
    stream: &Stream,
    low: &Bound<'py, PyAny>,
    high: Option<&Bound<'py, PyAny>>,
    size: Option<&Bound<'py, PyAny>>,
    endpoint: bool,
    dtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let high = high.filter(|h| !h.is_none());
    let dtype = dtype.filter(|d| !d.is_none());
    if is_array_like(low)? || high.map(is_array_like).transpose()?.unwrap_or(false) {
        return broadcast(py, stream, low, high, size, endpoint, dtype);
    }
    let bounds = Bounds::of(low, high, endpoint)?;
    let chosen = match dtype {
        Some(dtype) => Some(checked_dtype(py, dtype, (bounds.low, bounds.top))?),
        None => None,
    };
    let dtype = chosen.map_or_else(|| bounds.dtype(py), Ok)?;
    match Size::from_arg(size)? {
        Size::Scalar => {
            // A numpy scalar of the dtype (`numpy.int64` by default), as numpy.
            let value = bounds.draw_one(py, stream)?.into_pyobject(py)?;
            dtype.getattr("type")?.call1((value,))
        }
        Size::Shape(dims) => {
            let out = empty(py, &dims, &dtype, "integers")?;
            let watch = Watch::new(py)?;
            match dtype.getattr("itemsize")?.extract::<usize>()? {
                1 => bounds.fill::<u8>(py, stream, &out, &watch)?,
                2 => bounds.fill::<u16>(py, stream, &out, &watch)?,
                4 => bounds.fill::<u32>(py, stream, &out, &watch)?,
                _ => bounds.fill::<u64>(py, stream, &out, &watch)?,
            }
            Ok(out)
        }
    }
}

/// Whether a bound is an array (or a list) rather than one number.
fn is_array_like(x: &Bound<'_, PyAny>) -> PyResult<bool> {
    if x.is_instance_of::<PyInt>() {
        return Ok(false);
    }
    let ndim: usize = numpy(x.py())?.call_method1("ndim", (x,))?.extract()?;
    Ok(ndim > 0)
}

/// numpy's `dtype=`: an integer or bool dtype in the machine's byte order,
/// refused when a bound (`range`: the lowest and highest value that could
/// be drawn) does not fit it (checked before anything is drawn), with
/// numpy's exception types. Returns the `numpy.dtype`.
fn checked_dtype<'py>(
    py: Python<'py>,
    dtype: &Bound<'py, PyAny>,
    range: (i128, i128),
) -> PyResult<Bound<'py, PyAny>> {
    let np = numpy(py)?;
    let dtype = np.call_method1("dtype", (dtype,))?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    let name: String = dtype.getattr("name")?.extract()?;
    let (min, max): (i128, i128) = match kind.as_str() {
        "b" => (0, 1),
        "i" | "u" => {
            let info = np.call_method1("iinfo", (&dtype,))?;
            (
                info.getattr("min")?.extract()?,
                info.getattr("max")?.extract()?,
            )
        }
        _ => {
            return Err(PyTypeError::new_err(format!(
                "Unsupported dtype {name:?} for integers"
            )));
        }
    };
    if !dtype.getattr("isnative")?.extract::<bool>()? {
        return Err(PyValueError::new_err(format!(
            "dtype {name:?} is not in the machine's byte order (numpy refuses it too): \
             draw in the native order and call .byteswap() or .astype()"
        )));
    }
    let (low, high) = range;
    if low < min || high > max {
        let which = if low < min { "low" } else { "high" };
        return Err(PyValueError::new_err(format!(
            "{which} is out of bounds for {name}"
        )));
    }
    Ok(dtype)
}

/// Bounds that are arrays: each element of `low` and `high`, broadcast
/// together (and to `size` when given), gets one exact draw of its own
/// range, in Rust. Every range is checked before anything is drawn, and the
/// dtype comes from the bounds alone (`int64`, or `uint64` when a bound
/// passes 2**63 - 1 and no low is negative), never from the values drawn.
///
/// Each value is the draw `Bounds::draw_one` makes (Lemire's rejection on
/// one word at a time, a raw word for a range of all 2^64 values), so a
/// call gives what one scalar call per element would.
/// O(elements) time; the broadcast bounds take 32 bytes an element.
fn broadcast<'py>(
    py: Python<'py>,
    stream: &Stream,
    low: &Bound<'py, PyAny>,
    high: Option<&Bound<'py, PyAny>>,
    size: Option<&Bound<'py, PyAny>>,
    endpoint: bool,
    dtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let np = numpy(py)?;
    let (low, high) = match high {
        None => (PyInt::new(py, 0).into_any(), low.clone()),
        Some(h) => (low.clone(), h.clone()),
    };
    let pair = np.call_method1("broadcast_arrays", (&low, &high))?;
    let (mut lows, mut highs) = (pair.get_item(0)?, pair.get_item(1)?);
    if let Some(size) = size.filter(|s| !s.is_none()) {
        lows = np.call_method1("broadcast_to", (&lows, size))?;
        highs = np.call_method1("broadcast_to", (&highs, size))?;
    }
    let shape: Vec<usize> = lows.getattr("shape")?.extract()?;
    let ranges = Ranges::of(&column(&lows, "low")?, &column(&highs, "high")?, endpoint)?;
    let dtype = match dtype {
        Some(dtype) => checked_dtype(py, dtype, ranges.span)?,
        None => ranges.dtype(py)?,
    };
    let out = empty(py, &shape, &dtype, "integers")?;
    let watch = Watch::new(py)?;
    match dtype.getattr("itemsize")?.extract::<usize>()? {
        1 => ranges.fill::<u8>(py, stream, &out, &watch)?,
        2 => ranges.fill::<u16>(py, stream, &out, &watch)?,
        4 => ranges.fill::<u32>(py, stream, &out, &watch)?,
        _ => ranges.fill::<u64>(py, stream, &out, &watch)?,
    }
    Ok(out)
}

/// The elements of a bound array, flattened in C order: integer arrays
/// through numpy's own cast to 64 bits (no Python object per element),
/// anything else (floats, objects) element by element as a scalar bound
/// is read (`to_bound`).
fn column(values: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<i128>> {
    let py = values.py();
    let np = numpy(py)?;
    let kind: String = values.getattr("dtype")?.getattr("kind")?.extract()?;
    let wide = match kind.as_str() {
        "u" => "uint64",
        "i" | "b" => "int64",
        _ => {
            let items = values.call_method0("ravel")?.call_method0("tolist")?;
            return items.try_iter()?.map(|v| to_bound(&v?, name)).collect();
        }
    };
    let flat = np
        .call_method1("ascontiguousarray", (values, wide))?
        .call_method1("reshape", (-1,))?;
    Ok(if wide == "uint64" {
        let array = flat.cast_into::<PyArray1<u64>>()?;
        let items = array.readonly();
        items.as_slice()?.iter().map(|&v| i128::from(v)).collect()
    } else {
        let array = flat.cast_into::<PyArray1<i64>>()?;
        let items = array.readonly();
        items.as_slice()?.iter().map(|&v| i128::from(v)).collect()
    })
}

/// Checked ranges of broadcast bounds: element `i` draws from
/// `low[i] ..= low[i] + width[i] - 1` (a width of 0 stands for all 2^64).
struct Ranges {
    /// Each low, as the 64 bits written (two's complement for a negative one).
    lows: Vec<u64>,
    widths: Vec<u64>,
    /// The lowest and highest value any element can take (`(0, 0)` for none).
    span: (i128, i128),
}

impl Ranges {
    /// Checks every pair of bounds as `Bounds::of` checks a scalar pair
    /// (the first bad one is reported), and that one dtype holds them all.
    fn of(lows: &[i128], highs: &[i128], endpoint: bool) -> PyResult<Self> {
        let mut ranges = Ranges {
            lows: Vec::with_capacity(lows.len()),
            widths: Vec::with_capacity(lows.len()),
            span: (i128::MAX, i128::MIN),
        };
        for (&low, &high) in lows.iter().zip(highs) {
            let top = if endpoint { high } else { high - 1 };
            if top < low {
                return Err(PyValueError::new_err(if endpoint {
                    "low > high"
                } else {
                    "low >= high (integers(low, high) draws from low..high-1)"
                }));
            }
            if low < i128::from(i64::MIN) || top > i128::from(u64::MAX) {
                let which = if low < i128::from(i64::MIN) {
                    "low"
                } else {
                    "high"
                };
                return Err(PyValueError::new_err(format!(
                    "{which} is out of bounds for int64 (and for uint64)"
                )));
            }
            ranges.span = (ranges.span.0.min(low), ranges.span.1.max(top));
            ranges.lows.push(low as u64);
            // 2^64 values wrap to 0, the stand-in for "all of them".
            ranges.widths.push((top - low + 1) as u64);
        }
        if ranges.lows.is_empty() {
            ranges.span = (0, 0);
        }
        if ranges.span.0 < 0 && ranges.span.1 > i128::from(i64::MAX) {
            return Err(PyValueError::new_err(
                "the bounds need both int64 (a negative low) and uint64 (a high above \
                 2**63 - 1): no integer dtype holds them all",
            ));
        }
        Ok(ranges)
    }

    /// The default dtype, from the bounds alone: `int64` when every value
    /// the bounds allow fits it, else `uint64`.
    fn dtype<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let name = if self.span.1 <= i128::from(i64::MAX) {
            "int64"
        } else {
            "uint64"
        };
        numpy(py)?.call_method1("dtype", (name,))
    }

    /// Fills `out` (fresh, C-contiguous, of a dtype every value fits) with
    /// one draw per element, in chunks with Ctrl-C checks between them.
    fn fill<T: Bits>(
        &self,
        py: Python<'_>,
        stream: &Stream,
        out: &Bound<'_, PyAny>,
        watch: &Watch,
    ) -> PyResult<()> {
        let mut done = 0;
        fill::<T>(py, out, CHUNK, watch, |chunk| {
            let lows = &self.lows[done..done + chunk.len()];
            let widths = &self.widths[done..done + chunk.len()];
            crate::with_dice!(stream, |dice| {
                let rng = dice.rng_mut();
                for ((o, &low), &width) in chunk.iter_mut().zip(lows).zip(widths) {
                    let offset = match width {
                        0 => rng.next_u64(),
                        n => roll_one(rng, n),
                    };
                    *o = T::truncate(low.wrapping_add(offset));
                }
            });
            done += chunk.len();
        })
    }
}

/// One exact roll below `n` (≥ 1) from whole words: Lemire's
/// nearly-divisionless method (Lemire 2019, "Fast Random Integer Generation
/// in an Interval"). A word `x` gives the high half of `x·n` unless the low
/// half is below `2^64 mod n`, then the next word is tried; the division
/// that computes `2^64 mod n` is made only when the low half is below `n`
/// (it is always above the threshold otherwise). The same values from the
/// same words as `fill_rolls` of one value.
#[inline]
fn roll_one<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    let mut threshold = None;
    loop {
        let m = u128::from(rng.next_u64()) * u128::from(n);
        let low = m as u64;
        if low >= n || low >= *threshold.get_or_insert_with(|| n.wrapping_neg() % n) {
            return (m >> 64) as u64;
        }
    }
}
