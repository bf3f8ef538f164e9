//! `Generator.integers` with array bounds: `low` and `high` broadcast
//! together (and to `size`), one exact draw of its own range per element,
//! drawn in Rust.
//!
//! A broadcast bound repeats: `integers([5, 10], size=(10**6, 2))` has a
//! `high` of period 2 and a `low` of period 1. Each bound is kept as its
//! period (the broadcast view with its leading all-repeated axes dropped,
//! copied C-contiguous), and element `e` reads `pattern[e % period]`, so no
//! array of the output's size is made for the bounds.
//!
//! Every range is checked before anything is drawn (over one common period
//! of both bounds), and the dtype comes from the bounds alone: `int64`, or
//! `uint64` when a bound passes 2**63 - 1 and no low is negative, never from
//! the values drawn.

use numpy::{PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyTuple};
use rand_core::Rng;

use crate::arrays::numpy;
use crate::convert::to_bound;
use crate::fill::{Bits, empty, fill};
use crate::interrupt::Watch;
use crate::rolls::CHUNK;
use crate::stream::Stream;

/// `integers(low, high, size, endpoint=, dtype=)` with an array bound
/// (`bounds.1` None: `integers(high)`, from 0).
///
/// Each value is one exact draw below its width, as a scalar call draws it
/// (Lemire's rejection on one word at a time, a raw word for all 2^64
/// values): the call gives what one scalar call per element would.
/// O(elements) time; O(period) memory beyond the output.
pub fn integers_between<'py>(
    py: Python<'py>,
    stream: &Stream,
    bounds: (&Bound<'py, PyAny>, Option<&Bound<'py, PyAny>>),
    size: Option<&Bound<'py, PyAny>>,
    endpoint: bool,
    dtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let np = numpy(py)?;
    let (low, high) = match bounds {
        (high, None) => (PyInt::new(py, 0).into_any(), high.clone()),
        (low, Some(high)) => (low.clone(), high.clone()),
    };
    let (low, high) = (wide(&low)?, wide(&high)?);
    let pair = np.call_method1("broadcast_arrays", (&low, &high))?;
    let (mut lows, mut highs) = (pair.get_item(0)?, pair.get_item(1)?);
    if let Some(size) = size.filter(|s| !s.is_none()) {
        lows = np.call_method1("broadcast_to", (&lows, size))?;
        highs = np.call_method1("broadcast_to", (&highs, size))?;
    }
    let shape: Vec<usize> = lows.getattr("shape")?.extract()?;
    if shape.contains(&0) {
        // No element, nothing to check or draw (and no period to take).
        let (no_lows, no_highs): (&[i64], &[i64]) = (&[], &[]);
        let ask = Ask {
            stream,
            endpoint,
            dtype,
            shape: &shape,
        };
        return draw(py, no_lows, no_highs, ask);
    }
    let lows = Pattern::of(&period(&lows)?, "low")?;
    let highs = Pattern::of(&period(&highs)?, "high")?;
    let ask = Ask {
        stream,
        endpoint,
        dtype,
        shape: &shape,
    };
    macro_rules! with_slice {
        ($pattern:expr, |$slice:ident| $body:expr) => {
            match &$pattern {
                Pattern::Signed(a) => {
                    let $slice = a.as_slice()?;
                    $body
                }
                Pattern::Unsigned(a) => {
                    let $slice = a.as_slice()?;
                    $body
                }
                Pattern::Exact(v) => {
                    let $slice = &v[..];
                    $body
                }
            }
        };
    }
    with_slice!(lows, |l| with_slice!(highs, |h| draw(py, l, h, ask)))
}

/// One period of a bound: `int64` or `uint64` items read in place, or
/// (from floats and objects) the values as a scalar bound is read.
enum Pattern<'py> {
    Signed(numpy::PyReadonlyArrayDyn<'py, i64>),
    Unsigned(numpy::PyReadonlyArrayDyn<'py, u64>),
    Exact(Vec<i128>),
}

impl<'py> Pattern<'py> {
    fn of(period: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        Ok(match kind(period)? {
            'i' => Pattern::Signed(period.cast::<PyArrayDyn<i64>>()?.readonly()),
            'u' => Pattern::Unsigned(period.cast::<PyArrayDyn<u64>>()?.readonly()),
            _ => Pattern::Exact(
                period
                    .call_method0("tolist")?
                    .try_iter()?
                    .map(|v| to_bound(&v?, name))
                    .collect::<PyResult<_>>()?,
            ),
        })
    }
}

/// What the call asks besides its bounds.
struct Ask<'a, 'py> {
    stream: &'a Stream,
    endpoint: bool,
    dtype: Option<&'a Bound<'py, PyAny>>,
    shape: &'a [usize],
}

fn kind(array: &Bound<'_, PyAny>) -> PyResult<char> {
    array.getattr("dtype")?.getattr("kind")?.extract()
}

/// A bound as an `int64` or `uint64` array (integer and bool arrays, cast
/// by numpy: the same values), or else as an `object` array whose items
/// are read as a scalar bound is read ([`to_bound`], on one period only):
/// floats, objects, and lists of ints past 2**63, which numpy would turn
/// into floats.
fn wide<'py>(bound: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let np = numpy(bound.py())?;
    let array = np.call_method1("asarray", (bound,))?;
    match kind(&array)? {
        'u' => array.call_method1("astype", ("uint64",)),
        'i' | 'b' => array.call_method1("astype", ("int64",)),
        _ if bound.is_instance_of::<PyList>() || bound.is_instance_of::<PyTuple>() => {
            np.call_method1("array", (bound, "object"))
        }
        _ => array.call_method1("astype", ("object",)),
    }
}

/// The period of a broadcast view: the view with its leading axes of
/// stride 0 (repeats) dropped, as a C-contiguous 1-D array. Element `e` of
/// the broadcast array is `period[e % len]`.
fn period<'py>(view: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let strides: Vec<isize> = view.getattr("strides")?.extract()?;
    let repeated = strides.iter().take_while(|&&s| s == 0).count();
    let zeros = PyTuple::new(view.py(), vec![0usize; repeated])?;
    let rest = view.get_item(zeros)?;
    numpy(view.py())?
        .call_method1("ascontiguousarray", (rest,))?
        .call_method1("reshape", (-1,))
}

/// Draws between bounds given as periods of element types `L` and `H`:
/// checks every range, picks the dtype, fills the output.
fn draw<'py, L, H>(
    py: Python<'py>,
    lows: &[L],
    highs: &[H],
    ask: Ask<'_, 'py>,
) -> PyResult<Bound<'py, PyAny>>
where
    L: Copy + Into<i128> + Sync,
    H: Copy + Into<i128> + Sync,
{
    let total: usize = ask.shape.iter().product();
    let endpoint = ask.endpoint;
    let range = move |e: usize| {
        let low: i128 = lows[e % lows.len()].into();
        let high: i128 = highs[e % highs.len()].into();
        (low, if endpoint { high } else { high - 1 })
    };
    // Both bounds repeat with the least common multiple of their periods.
    let common = if total == 0 {
        0
    } else {
        lcm(lows.len(), highs.len()).min(total)
    };
    let span = checked_span((0..common).map(range))?;
    let dtype = match ask.dtype {
        Some(dtype) => checked_dtype(py, dtype, span)?,
        None => {
            let name = if span.1 <= i128::from(i64::MAX) {
                "int64"
            } else {
                "uint64"
            };
            numpy(py)?.call_method1("dtype", (name,))?
        }
    };
    let out = empty(py, ask.shape, &dtype, "integers")?;
    if total == 0 {
        return Ok(out);
    }
    let watch = Watch::new(py)?;
    let (mut at_low, mut at_high) = (0, 0);
    let stream = ask.stream;
    macro_rules! fill_as {
        ($t:ty) => {
            fill::<$t>(py, &out, CHUNK, &watch, |chunk| {
                crate::with_dice!(stream, |dice| {
                    let rng = dice.rng_mut();
                    for o in chunk.iter_mut() {
                        let low: i128 = lows[at_low].into();
                        let high: i128 = highs[at_high].into();
                        let top = if endpoint { high } else { high - 1 };
                        // 2^64 values wrap to a width of 0: a raw word.
                        let offset = match (top - low + 1) as u64 {
                            0 => rng.next_u64(),
                            n => roll_one(rng, n),
                        };
                        *o = <$t>::truncate((low as u64).wrapping_add(offset));
                        at_low = if at_low + 1 == lows.len() {
                            0
                        } else {
                            at_low + 1
                        };
                        at_high = if at_high + 1 == highs.len() {
                            0
                        } else {
                            at_high + 1
                        };
                    }
                })
            })
        };
    }
    match dtype.getattr("itemsize")?.extract::<usize>()? {
        1 => fill_as!(u8)?,
        2 => fill_as!(u16)?,
        4 => fill_as!(u32)?,
        _ => fill_as!(u64)?,
    }
    Ok(out)
}

/// The least common multiple of two periods (`usize::MAX` past it).
fn lcm(a: usize, b: usize) -> usize {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x).saturating_mul(b)
}

/// Checks each range `(low, top)` as a scalar pair is checked (the first
/// bad one is reported) and that one dtype holds them all; returns the
/// lowest and highest value any element can take (`(0, 0)` for none).
fn checked_span(ranges: impl Iterator<Item = (i128, i128)>) -> PyResult<(i128, i128)> {
    let mut span = (i128::MAX, i128::MIN);
    for (low, top) in ranges {
        if top < low {
            return Err(PyValueError::new_err(
                "low >= high (integers(low, high) draws from low..high-1; low > high with endpoint=True)",
            ));
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
        span = (span.0.min(low), span.1.max(top));
    }
    if span.0 > span.1 {
        return Ok((0, 0));
    }
    if span.0 < 0 && span.1 > i128::from(i64::MAX) {
        return Err(PyValueError::new_err(
            "the bounds need both int64 (a negative low) and uint64 (a high above \
             2**63 - 1): no integer dtype holds them all",
        ));
    }
    Ok(span)
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

/// numpy's `dtype=`: an integer or bool dtype in the machine's byte order,
/// refused when a bound (`range`: the lowest and highest value that could
/// be drawn) does not fit it (checked before anything is drawn), with
/// numpy's exception types. Returns the `numpy.dtype`.
pub(crate) fn checked_dtype<'py>(
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
