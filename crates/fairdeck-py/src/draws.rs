//! Bounded integers and samples without replacement, as numpy arrays.

use numpy::PyArray1;
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyTuple};

use crate::arrays::numpy;
use crate::boundary::{buffer, out_of_memory};
use crate::convert::{Size, normalize_axis, to_u64, value_error};
use crate::fill::{empty, fill};
use crate::interrupt::Watch;
use crate::rolls::{CHUNK, fill_rolls};
use crate::stream::{DETACH_LEN, Stream};
use crate::weights::Weights;

/// Values below `n`, as `int64` when every value fits (`n ≤ 2^63`), else `uint64`.
pub fn to_array<'py>(py: Python<'py>, values: Vec<u64>, n: u64) -> Bound<'py, PyAny> {
    if n <= 1 << 63 {
        let signed: Vec<i64> = values.into_iter().map(|v| v as i64).collect();
        PyArray1::from_vec(py, signed).into_any()
    } else {
        PyArray1::from_vec(py, values).into_any()
    }
}

/// `values` shaped as `size` (a 1-D array is reshaped when `size` has other axes).
fn shaped<'py>(
    py: Python<'py>,
    values: Vec<u64>,
    n: u64,
    dims: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let flat = to_array(py, values, n);
    if dims.len() == 1 {
        return Ok(flat);
    }
    flat.call_method1("reshape", (PyTuple::new(py, dims)?,))
}

/// `count` exact rolls below `n`, one `Dice::roll(n)` each, in order
/// (`what` names the call in a `MemoryError`).
pub fn rolls(
    py: Python<'_>,
    stream: &Stream,
    n: u64,
    count: usize,
    what: &str,
) -> PyResult<Vec<u64>> {
    let mut values = buffer(count, what)?;
    values.resize(count, 0);
    let mut draw =
        || crate::with_dice!(stream, |dice| fill_rolls(dice.rng_mut(), n, 0, &mut values));
    if count >= DETACH_LEN {
        py.detach(draw)
    } else {
        draw()
    }
    Ok(values)
}

/// `k` distinct values of `0..n` in selection order (`fairdeck::sample::sample`).
pub fn distinct(py: Python<'_>, stream: &Stream, k: u64, n: u64) -> PyResult<Vec<u64>> {
    if k > n {
        return Err(PyValueError::new_err(format!(
            "cannot pick {k} distinct values from range({n})"
        )));
    }
    let draw = || crate::with_dice!(stream, |dice| fairdeck::sample::sample(k, n, dice));
    let values = if k as usize >= DETACH_LEN {
        py.detach(draw)
    } else {
        draw()
    };
    values.map_err(|e| match e {
        fairdeck::Error::MemoryExhausted { bytes } => {
            out_of_memory(usize::try_from(bytes).unwrap_or(usize::MAX), "sample")
        }
        e => value_error(e),
    })
}

/// The population of `choice(a, …)`: `range(a)` for an integer, else an array.
enum Population<'py> {
    Range(u64),
    Items(Bound<'py, PyAny>, u64),
}

impl<'py> Population<'py> {
    fn of(a: &Bound<'py, PyAny>) -> PyResult<Self> {
        if a.is_instance_of::<PyInt>() {
            return Ok(Population::Range(population_size(a)?));
        }
        let arr = numpy(a.py())?.call_method1("asarray", (a,))?;
        let ndim: usize = arr.getattr("ndim")?.extract()?;
        if ndim == 0 {
            let is_integer = arr.getattr("dtype")?.getattr("kind")?.extract::<String>()?;
            if is_integer == "i" || is_integer == "u" {
                return Ok(Population::Range(population_size(a)?));
            }
            return Err(PyValueError::new_err(
                "a must be an integer or an array with at least one axis",
            ));
        }
        let len = arr.len()? as u64;
        Ok(Population::Items(arr, len))
    }

    fn len(&self) -> u64 {
        match self {
            Population::Range(n) | Population::Items(_, n) => *n,
        }
    }

    /// The chosen items: the indexes themselves, or the array's items at them.
    fn pick(&self, indexes: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Population::Range(_) => Ok(indexes),
            Population::Items(arr, _) => arr.get_item(indexes),
        }
    }
}

/// `choice(a)` of an integer `a` (a bool is 0 or 1, as in numpy):
/// `ValueError` below zero and, as numpy's, beyond the largest bound
/// (here 2**64 - 1).
fn population_size(a: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(flag) = a.cast::<PyBool>() {
        return Ok(u64::from(flag.is_true()));
    }
    to_u64(a, "a").map_err(|e| {
        if e.is_instance_of::<PyOverflowError>(a.py()) {
            PyValueError::new_err(e.value(a.py()).to_string())
        } else {
            e
        }
    })
}

/// How `choice` picks: numpy's `replace`, `p`, `axis` and `shuffle`.
pub struct Pick<'a, 'py> {
    /// Whether an item may come out more than once.
    pub replace: bool,
    /// The weights, if any.
    pub p: Option<&'a Bound<'py, PyAny>>,
    /// The axis picked along.
    pub axis: isize,
    /// Whether a sample without replacement is in random order.
    pub shuffle: bool,
}

/// `choice(a, size, replace, p)`: picks from `range(a)` or from an array's
/// items, uniform or in proportion to `p` ([`crate::weights`]).
pub fn choice<'py>(
    py: Python<'py>,
    stream: &Stream,
    a: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
    how: Pick<'_, 'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let Pick {
        replace,
        p,
        axis,
        shuffle,
    } = how;
    // Along another axis than the first: the indices drawn over that axis,
    // the slices taken with `take` (numpy's own rule). An integer `a` (0-d)
    // has no axes: its `axis` is ignored, as numpy ignores it.
    let along = if axis == 0 || a.is_instance_of::<PyInt>() {
        None
    } else {
        let arr = numpy(py)?.call_method1("asarray", (a,))?;
        let ndim: usize = arr.getattr("ndim")?.extract()?;
        if ndim == 0 {
            None
        } else {
            Some((arr.clone(), normalize_axis(py, axis, ndim)?))
        }
    };
    let population = match &along {
        None => Population::of(a)?,
        Some((arr, axis)) => {
            let n: u64 = arr.getattr("shape")?.get_item(*axis)?.extract()?;
            Population::Range(n)
        }
    };
    let n = population.len();
    let size = Size::from_arg(size)?;
    let count = size.count()?;
    if n == 0 && count > 0 {
        return Err(PyValueError::new_err(
            "a cannot be empty unless no samples are taken",
        ));
    }
    let p = p.filter(|p| !p.is_none());
    if let (None, true, Size::Shape(dims)) = (p, replace, &size) {
        let indexes = uniform_indexes(py, stream, n, dims)?;
        return take(&population, along, indexes);
    }
    let values = if let Some(p) = p {
        let mut weights = Weights::from_p(p, n)?;
        if !replace && count > weights.nonzero() {
            return Err(PyValueError::new_err(
                "Fewer non-zero entries in p than size",
            ));
        }
        let mut values = crate::boundary::buffer(count, "choice")?;
        stream.with(|dice| values.extend((0..count).map(|_| weights.pick(dice, !replace) as u64)));
        values
    } else if replace {
        rolls(py, stream, n, count, "choice")?
    } else if count as u64 > n {
        return Err(PyValueError::new_err(format!(
            "cannot take a sample of {count} from a population of {n} with replace=False"
        )));
    } else {
        distinct(py, stream, count as u64, n)?
    };
    let mut values = values;
    if !replace && !shuffle {
        // numpy's `shuffle=False`: the sample need not be in random order;
        // here it is in index order.
        values.sort_unstable();
    }
    let indexes = match size {
        Size::Scalar => PyInt::new(py, values[0]).into_any(),
        Size::Shape(dims) => shaped(py, values, n, &dims)?,
    };
    take(&population, along, indexes)
}

/// The items `choice` picked: the indexes themselves, the population's
/// items at them, or (`along`: an array and an axis) its slices there.
fn take<'py>(
    population: &Population<'py>,
    along: Option<(Bound<'py, PyAny>, usize)>,
    indexes: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    match along {
        None => population.pick(indexes),
        Some((arr, axis)) => {
            let kwargs = pyo3::types::PyDict::new(arr.py());
            kwargs.set_item("axis", axis)?;
            arr.call_method("take", (indexes,), Some(&kwargs))
        }
    }
}

/// `choice(n, size)` with replacement: exact rolls below `n`, written
/// straight into a fresh array of shape `dims` (`int64`, or `uint64` when
/// `n > 2^63`), in chunks that Ctrl-C can stop between; the same values as
/// [`rolls`] of the whole count.
fn uniform_indexes<'py>(
    py: Python<'py>,
    stream: &Stream,
    n: u64,
    dims: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let name = if n <= 1 << 63 { "int64" } else { "uint64" };
    let dtype = numpy(py)?.call_method1("dtype", (name,))?;
    let out = empty(py, dims, &dtype, "choice")?;
    let watch = Watch::new(py)?;
    fill::<u64>(py, &out, CHUNK, &watch, |chunk| {
        crate::with_dice!(stream, |dice| fill_rolls(dice.rng_mut(), n, 0, chunk))
    })?;
    Ok(out)
}
