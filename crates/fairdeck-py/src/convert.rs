//! Python arguments in, Python exceptions out: integers, sizes and errors.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyTuple};

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
    let wide: i128 = index.extract().map_err(|_| {
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

/// A Python integer (or anything with `__index__`) as an `i128`, for
/// numpy-style bounds: `TypeError` for a non-integer, `ValueError`
/// ("out of bounds") beyond 128 bits.
pub fn to_i128(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<i128> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an integer, not bool"
        )));
    }
    let index = obj
        .call_method0(pyo3::intern!(obj.py(), "__index__"))
        .map_err(|_| {
            PyTypeError::new_err(format!("{name} must be an integer, not {}", type_name(obj)))
        })?;
    index
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{name} = {index} is out of bounds for int64")))
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
    /// Reads numpy's `size=` argument.
    pub fn from_arg(size: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(size) = size.filter(|s| !s.is_none()) else {
            return Ok(Size::Scalar);
        };
        if let Ok(tuple) = size.cast::<PyTuple>() {
            let dims = tuple
                .iter()
                .map(|d| to_usize(&d, "size"))
                .collect::<PyResult<Vec<_>>>()?;
            return Ok(Size::Shape(dims));
        }
        Ok(Size::Shape(vec![to_usize(size, "size")?]))
    }

    /// How many values the shape holds (1 for a scalar).
    pub fn count(&self) -> PyResult<usize> {
        match self {
            Size::Scalar => Ok(1),
            Size::Shape(dims) => dims
                .iter()
                .try_fold(1usize, |acc, &d| acc.checked_mul(d))
                .ok_or_else(|| PyOverflowError::new_err("size has too many elements")),
        }
    }
}

/// An error of the report layer as a `ValueError`, in the words of keyword
/// arguments: the CLI's `--cards` and `--players` become `cards=` and
/// `players=`.
pub fn report_error(e: anyhow::Error) -> PyErr {
    PyValueError::new_err(keyword_words(&format!("{e:#}")))
}

/// `--name` → `name=` wherever a flag starts a word.
fn keyword_words(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("--") {
        let (before, flag) = rest.split_at(at);
        out.push_str(before);
        let name_len = flag[2..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(flag.len() - 2);
        let starts_word = out.chars().last().is_none_or(|c| !c.is_alphanumeric());
        if starts_word && name_len > 0 {
            out.push_str(&flag[2..2 + name_len].replace('-', "_"));
            out.push('=');
        } else {
            out.push_str("--");
        }
        rest = &flag[2 + if starts_word { name_len } else { 0 }..];
    }
    out.push_str(rest);
    out
}
