//! `Generator.random` and `Generator.bytes`: numpy's signatures, on the
//! generator's stream.
//!
//! A float64 is 53 random bits scaled by 2^-53: `(w >> 11) · 2^-53` of one
//! 64-bit word `w`, so every value is a multiple of 2^-53 in [0, 1) and
//! each of the 2^53 values has probability 2^-53 exactly (numpy's
//! construction too). A float32 is 24 bits: `(w >> 40) · 2^-24`, one word
//! each.

use numpy::PyArray1;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use rand_core::Rng;

use crate::boundary::buffer;
use crate::convert::{Size, to_usize};
use crate::stream::{DETACH_LEN, Stream};

/// The two float types `random` makes.
#[derive(Clone, Copy, PartialEq)]
enum Float {
    F64,
    F32,
}

impl Float {
    fn from_arg(dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(dtype) = dtype.filter(|d| !d.is_none()) else {
            return Ok(Float::F64);
        };
        let numpy = dtype.py().import("numpy")?;
        let name: String = numpy
            .call_method1("dtype", (dtype,))?
            .getattr("name")?
            .extract()?;
        match name.as_str() {
            "float64" => Ok(Float::F64),
            "float32" => Ok(Float::F32),
            other => Err(PyTypeError::new_err(format!(
                "Unsupported dtype {other:?} for random: float64 or float32"
            ))),
        }
    }
}

/// `count` words of the stream (without the GIL for long runs).
fn words(py: Python<'_>, stream: &Stream, count: usize) -> PyResult<Vec<u64>> {
    let mut values = buffer(count, "random")?;
    let mut draw = || {
        crate::with_dice!(stream, |dice| values
            .extend((0..count).map(|_| dice.rng_mut().next_u64())))
    };
    if count >= DETACH_LEN {
        py.detach(draw)
    } else {
        draw()
    }
    Ok(values)
}

/// `random(size=None, dtype=float64, out=None)`: floats in [0, 1).
pub fn random<'py>(
    py: Python<'py>,
    stream: &Stream,
    size: Option<&Bound<'py, PyAny>>,
    dtype: Option<&Bound<'py, PyAny>>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let float = Float::from_arg(dtype)?;
    let out = out.filter(|o| !o.is_none());
    let size = match (out, size.filter(|s| !s.is_none())) {
        (Some(o), None) => Size::from_arg(Some(&o.getattr("shape")?))?,
        (Some(o), Some(s)) => {
            let wanted = Size::from_arg(Some(s))?;
            if wanted != Size::from_arg(Some(&o.getattr("shape")?))? {
                return Err(pyo3::exceptions::PyValueError::new_err(
                    "size must match out.shape when used together",
                ));
            }
            wanted
        }
        (None, s) => Size::from_arg(s)?,
    };
    let w = words(py, stream, size.count()?)?;
    let values: Bound<'py, PyAny> = match float {
        Float::F64 => {
            let f: Vec<f64> = w
                .into_iter()
                .map(|w| (w >> 11) as f64 * (1.0 / (1u64 << 53) as f64))
                .collect();
            if let (Size::Scalar, None) = (&size, out) {
                return Ok(f[0].into_pyobject(py)?.into_any());
            }
            PyArray1::from_vec(py, f).into_any()
        }
        Float::F32 => {
            let f: Vec<f32> = w
                .into_iter()
                .map(|w| (w >> 40) as f32 * (1.0 / (1u32 << 24) as f32))
                .collect();
            let arr = PyArray1::from_vec(py, f).into_any();
            if let (Size::Scalar, None) = (&size, out) {
                return arr.get_item(0);
            }
            arr
        }
    };
    let shaped = match &size {
        Size::Shape(dims) if dims.len() != 1 => {
            values.call_method1("reshape", (PyTuple::new(py, dims)?,))?
        }
        _ => values,
    };
    match out {
        None => Ok(shaped),
        Some(o) => {
            let out_dtype: String = o.getattr("dtype")?.getattr("name")?.extract()?;
            let want = if float == Float::F64 {
                "float64"
            } else {
                "float32"
            };
            if out_dtype != want {
                return Err(PyTypeError::new_err(format!(
                    "Supplied output array has the wrong type: {out_dtype}, expected {want}"
                )));
            }
            let numpy = py.import("numpy")?;
            numpy.call_method1(
                "copyto",
                (o, shaped.call_method1("reshape", (o.getattr("shape")?,))?),
            )?;
            Ok(o.clone())
        }
    }
}

/// `bytes(length)`: `length` random bytes from the stream.
pub fn bytes<'py>(
    py: Python<'py>,
    stream: &Stream,
    length: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let length = to_usize(length, "length")?;
    let mut data = buffer::<u8>(length, "bytes")?;
    data.resize(length, 0);
    stream.with(|dice| dice.rng_mut().fill_bytes(&mut data));
    Ok(PyBytes::new(py, &data))
}
