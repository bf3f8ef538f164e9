//! Python arguments in, Python exceptions out: integers, sizes and errors.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyList, PyString, PyTuple};

use pyo3::sync::PyOnceLock;
use pyo3::types::PyModule;

/// The numpy module, imported once.
pub fn numpy(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    static NUMPY: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    Ok(NUMPY
        .get_or_try_init(py, || PyModule::import(py, "numpy").map(Bound::unbind))?
        .bind(py))
}

/// The library's errors are all about bad input: `ValueError` with its message.
pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A Python integer (or anything with `__index__`, such as `numpy.int64`)
/// in `[0, 2^64)`, with errors that name the argument:
/// `TypeError` for a non-integer, `ValueError` below zero, `OverflowError`
/// at 2^64 and above.
pub fn to_u64(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an integer, not bool"
        )));
    }
    let index = if obj.is_instance_of::<PyInt>() {
        obj.clone()
    } else {
        obj.call_method0(pyo3::intern!(obj.py(), "__index__"))
            .map_err(|_| {
                PyTypeError::new_err(format!("{name} must be an integer, not {}", type_name(obj)))
            })?
    };
    let wide: i128 = wide_int(&index).map_err(|_| {
        PyOverflowError::new_err(format!("{name} = {index} does not fit in 64 bits"))
    })?;
    if wide < 0 {
        return Err(PyValueError::new_err(format!(
            "{name} must be non-negative, got {wide}"
        )));
    }
    u64::try_from(wide).map_err(|_| {
        PyOverflowError::new_err(format!(
            "{name} = {wide} is too large (at most 2**64 - 1 = {})",
            u64::MAX
        ))
    })
}

/// A bound of `integers`, read as numpy reads one: Python's `int(obj)`,
/// so a float is truncated toward zero (`5.5` → 5), a bool is 0 or 1 and
/// a numeric str is its number; `int()`'s own errors otherwise (`TypeError`
/// for None or a complex, `ValueError` for NaN, `OverflowError` for an
/// infinity), and `ValueError` ("out of bounds") beyond 128 bits.
pub fn to_bound(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<i128> {
    let int = if obj.is_instance_of::<PyInt>() {
        obj.clone()
    } else {
        obj.py().get_type::<PyInt>().call1((obj,))?
    };
    wide_int(&int).map_err(|_| PyValueError::new_err(format!("{name} is out of bounds for int64")))
}

/// A Python int as an `i128`: one C call when it fits in 64 bits (the
/// stable ABI's `i128` conversion works through Python's `>>` and `&`
/// operators, about 50 ns of a 52-card `permutation`), the 128-bit
/// conversion otherwise.
pub fn wide_int(obj: &Bound<'_, PyAny>) -> PyResult<i128> {
    match obj.extract::<i64>() {
        Ok(v) => Ok(i128::from(v)),
        Err(_) => obj.extract::<i128>(),
    }
}

/// A count numpy reads into a C integer (`bytes(length)`,
/// `spawn(n_children)`): an int, a bool, anything with `__index__`, or a
/// float truncated toward zero (numpy takes `spawn(2.5)` as 2);
/// `TypeError` for anything else (a str, None, a list).
pub fn to_count(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<i128> {
    // A plain int first, with no Python lookups (`permutation(52)`).
    if obj.is_exact_instance_of::<PyInt>()
        && let Ok(count) = wide_int(obj)
    {
        return Ok(count);
    }
    let py = obj.py();
    let is_float =
        obj.is_instance_of::<PyFloat>() || obj.is_instance(&numpy(py)?.getattr("floating")?)?;
    let int = if is_float {
        py.get_type::<PyInt>().call1((obj,))?
    } else {
        let index = py.import("operator")?.getattr("index")?;
        index.call1((obj,)).map_err(|_| {
            PyTypeError::new_err(format!("{name} must be an integer, not {}", type_name(obj)))
        })?
    };
    int.extract()
        .map_err(|_| PyOverflowError::new_err(format!("{name} = {int} does not fit in 64 bits")))
}

/// A flag read as Python reads a condition (numpy's `endpoint`, `replace`,
/// `shuffle`): `endpoint=1` is true, `replace=0` and `replace=None` false.
#[derive(Debug, Clone, Copy)]
pub struct Truthy(pub bool);

impl<'a, 'py> FromPyObject<'a, 'py> for Truthy {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        obj.is_truthy().map(Truthy)
    }
}

/// [`to_u64`] for counts and lengths that must also fit in memory indices.
pub fn to_usize(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
    let v = to_u64(obj, name)?;
    usize::try_from(v).map_err(|_| PyOverflowError::new_err(format!("{name} = {v} is too large")))
}

/// The type name of `obj`, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string())
}

/// An output shape: `None` (a scalar), an integer, or a tuple of integers.
#[derive(Debug, PartialEq)]
pub enum Size {
    /// One value, returned as a Python scalar.
    Scalar,
    /// An array of this shape.
    Shape(Vec<usize>),
}

impl Size {
    /// Reads numpy's `size=` argument: None, an integer, or a sequence of
    /// integers (a tuple, a list, a 1-d array); `TypeError` for a float or
    /// a str, `ValueError` for a negative dimension.
    pub fn from_arg(size: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(size) = size.filter(|s| !s.is_none()) else {
            return Ok(Size::Scalar);
        };
        let dims: Vec<Bound<'_, PyAny>> =
            if size.is_instance_of::<PyTuple>() || size.is_instance_of::<PyList>() {
                size.try_iter()?.collect::<PyResult<_>>()?
            } else if is_sequence_array(size)? {
                size.call_method0("tolist")?
                    .try_iter()?
                    .collect::<PyResult<_>>()?
            } else if size.is_instance_of::<PyString>() || size.is_instance_of::<PyBytes>() {
                return Err(PyTypeError::new_err(format!(
                    "size must be an integer or a tuple of integers, not {}",
                    type_name(size)
                )));
            } else {
                return Ok(Size::Shape(vec![to_usize(size, "size")?]));
            };
        let dims = dims
            .iter()
            .map(|d| to_usize(d, "size"))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Size::Shape(dims))
    }

    /// How many values the shape holds (1 for a scalar).
    pub fn count(&self) -> PyResult<usize> {
        match self {
            Size::Scalar => Ok(1),
            Size::Shape(dims) => dims
                .iter()
                .try_fold(1usize, |acc, &d| acc.checked_mul(d))
                .ok_or_else(|| {
                    PyValueError::new_err(
                        "array is too big: size has more elements than any array can hold",
                    )
                }),
        }
    }
}

/// `axis` of an array of `ndim` axes, negative axes counting from the
/// end; numpy's `AxisError` (a `ValueError` and an `IndexError`) when the
/// array has no such axis.
pub fn normalize_axis(py: Python<'_>, axis: isize, ndim: usize) -> PyResult<usize> {
    let wrapped = if axis < 0 { axis + ndim as isize } else { axis };
    match usize::try_from(wrapped) {
        Ok(a) if a < ndim => Ok(a),
        _ => {
            let error = numpy(py)?.getattr("exceptions")?.getattr("AxisError")?;
            Err(PyErr::from_value(error.call1((axis, ndim))?))
        }
    }
}

/// Whether `x` is a numpy array with at least one axis.
fn is_sequence_array(x: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(x.is_instance(&numpy(x.py())?.getattr("ndarray")?)?
        && x.getattr("ndim")?.extract::<usize>()? > 0)
}

/// An error of the report layer as a `ValueError`, in the words of keyword
/// arguments: a refusal's `cards` and `players` fields read `cards=` and
/// `players=`, and asides about what Python does not take (`allow_long`)
/// are left out.
pub fn report_error(e: fairdeck_report::Error) -> PyErr {
    PyValueError::new_err(e.render(&keyword))
}

/// A field as a keyword argument, or `None` for one no function takes.
pub fn keyword(field: fairdeck_report::Field) -> Option<String> {
    use fairdeck_report::Field;
    let cli_only = [
        Field::AllowLong,
        Field::Max,
        Field::Distribution,
        Field::Format,
    ];
    (!cli_only.contains(&field)).then(|| format!("{}=", field.name()))
}
