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

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyInt;
use rand_core::Rng;

use crate::arrays::numpy;
use crate::bounds::checked_dtype;
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
        return crate::bounds::integers_between(py, stream, (low, high), size, endpoint, dtype);
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
