//! Bounded integers and samples without replacement, as numpy arrays.

use fairdeck::dice::Dice;
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyTuple};

use crate::arrays::numpy;
use crate::convert::{Size, to_u64, value_error};
use crate::stream::{DETACH_LEN, Stream};

/// Most values one `sample` or `choice(replace=False)` call returns: the
/// sampler keeps up to 32 bytes per value, so this caps it near 8 GiB.
pub const MAX_SAMPLE: u64 = 1 << 28;

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

/// `count` exact rolls below `n`, one `Dice::roll(n)` each, in order.
pub fn rolls(py: Python<'_>, stream: &Stream, n: u64, count: usize) -> Vec<u64> {
    let draw = || stream.with(|dice| (0..count).map(|_| dice.roll(n)).collect());
    if count >= DETACH_LEN {
        py.detach(draw)
    } else {
        draw()
    }
}

/// `k` distinct values of `0..n` in selection order (`fairdeck::sample::sample`).
pub fn distinct(py: Python<'_>, stream: &Stream, k: u64, n: u64) -> PyResult<Vec<u64>> {
    if k > n {
        return Err(PyValueError::new_err(format!(
            "cannot pick {k} distinct values from range({n})"
        )));
    }
    if k > MAX_SAMPLE {
        return Err(PyValueError::new_err(format!(
            "k = {k} is too many values for one call (at most {MAX_SAMPLE}); draw in parts"
        )));
    }
    let draw = || stream.with(|dice| fairdeck::sample::sample(k, n, dice));
    let values = if k as usize >= DETACH_LEN {
        py.detach(draw)
    } else {
        draw()
    };
    values.map_err(value_error)
}

/// `integers(n, size)`: exact uniform integers in `[0, n)`.
pub fn integers<'py>(
    py: Python<'py>,
    stream: &Stream,
    n: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let n = to_u64(n, "n")?;
    if n == 0 {
        return Err(PyValueError::new_err(
            "n must be at least 1 (integers are drawn from 0..n-1)",
        ));
    }
    match Size::from_arg(size)? {
        Size::Scalar => Ok(PyInt::new(py, rolls(py, stream, n, 1)[0]).into_any()),
        Size::Shape(dims) => {
            let count = Size::Shape(dims.clone()).count()?;
            shaped(py, rolls(py, stream, n, count), n, &dims)
        }
    }
}

/// The population of `choice(a, …)`: `range(a)` for an integer, else an array.
enum Population<'py> {
    Range(u64),
    Items(Bound<'py, PyAny>, u64),
}

impl<'py> Population<'py> {
    fn of(a: &Bound<'py, PyAny>) -> PyResult<Self> {
        if a.is_instance_of::<PyInt>() {
            return Ok(Population::Range(to_u64(a, "a")?));
        }
        let arr = numpy(a.py())?.call_method1("asarray", (a,))?;
        let ndim: usize = arr.getattr("ndim")?.extract()?;
        if ndim == 0 {
            let is_integer = arr.getattr("dtype")?.getattr("kind")?.extract::<String>()?;
            if is_integer == "i" || is_integer == "u" {
                return Ok(Population::Range(to_u64(a, "a")?));
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

/// `choice(a, size, replace)`: uniform picks from `range(a)` or from an array's items.
pub fn choice<'py>(
    py: Python<'py>,
    stream: &Stream,
    a: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
    replace: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let population = Population::of(a)?;
    let n = population.len();
    let size = Size::from_arg(size)?;
    let count = size.count()?;
    if n == 0 && count > 0 {
        return Err(PyValueError::new_err(
            "a cannot be empty unless no samples are taken",
        ));
    }
    let values = if replace {
        rolls(py, stream, n, count)
    } else if count as u64 > n {
        return Err(PyValueError::new_err(format!(
            "cannot take a sample of {count} from a population of {n} with replace=False"
        )));
    } else {
        distinct(py, stream, count as u64, n)?
    };
    match size {
        Size::Scalar => population.pick(PyInt::new(py, values[0]).into_any()),
        Size::Shape(dims) => population.pick(shaped(py, values, n, &dims)?),
    }
}
