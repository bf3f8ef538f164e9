//! `Generator.random` and `Generator.bytes`: numpy's signatures, on the
//! generator's stream.
//!
//! A float64 is 53 random bits scaled by 2^-53: `(w >> 11) · 2^-53` of one
//! 64-bit word `w`, so every value is a multiple of 2^-53 in [0, 1) and
//! each of the 2^53 values has probability 2^-53 exactly (numpy's
//! construction too). A float32 is 24 bits: `(w >> 40) · 2^-24`, one word
//! each.

use numpy::PyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rand_core::Rng;

use crate::arrays::numpy;
use crate::boundary::buffer;
use crate::convert::{Size, to_usize};
use crate::fill::{empty, fill};
use crate::interrupt::Watch;
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

impl Float {
    fn name(self) -> &'static str {
        match self {
            Float::F64 => "float64",
            Float::F32 => "float32",
        }
    }
}

/// Words per chunk of `random` (1 MiB of float64).
const CHUNK: usize = 1 << 17;

/// `(w >> 11) · 2^-53`: 53 random bits of the word as a float64 in [0, 1).
fn unit_f64(w: u64) -> f64 {
    (w >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// `(w >> 40) · 2^-24`: 24 random bits of the word as a float32 in [0, 1).
fn unit_f32(w: u64) -> f32 {
    (w >> 40) as f32 * (1.0 / (1u32 << 24) as f32)
}

/// The shape to fill: `size`, or `out`'s shape (they must agree when both are given).
fn shape_of(size: Option<&Bound<'_, PyAny>>, out: Option<&Bound<'_, PyAny>>) -> PyResult<Size> {
    let Some(o) = out else {
        return Size::from_arg(size);
    };
    let shape = Size::from_arg(Some(&o.getattr("shape")?))?;
    match size.filter(|s| !s.is_none()) {
        Some(s) if Size::from_arg(Some(s))? != shape => Err(PyValueError::new_err(
            "size must match out.shape when used together",
        )),
        _ => Ok(shape),
    }
}

/// Whether `out` can be filled in place: a C-contiguous, writeable numpy
/// array (its dtype already checked); otherwise a fresh array is filled
/// and copied into it.
fn fills_in_place(out: &Bound<'_, PyAny>) -> PyResult<bool> {
    let flags = out.getattr("flags")?;
    Ok(flags.getattr("c_contiguous")?.extract::<bool>()?
        && flags.getattr("writeable")?.extract::<bool>()?)
}

/// `random(size=None, dtype=float64, out=None)`: floats in [0, 1), one
/// word of the stream each, drawn in chunks straight into the output (its
/// memory plus 1 MiB). `out`'s dtype and shape are checked before any draw.
pub fn random<'py>(
    py: Python<'py>,
    stream: &Stream,
    size: Option<&Bound<'py, PyAny>>,
    dtype: Option<&Bound<'py, PyAny>>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let float = Float::from_arg(dtype)?;
    let out = out.filter(|o| !o.is_none());
    let size = shape_of(size, out)?;
    if let Some(o) = out {
        let out_dtype: String = o.getattr("dtype")?.getattr("name")?.extract()?;
        if out_dtype != float.name() {
            return Err(PyTypeError::new_err(format!(
                "Supplied output array has the wrong type: {out_dtype}, expected {}",
                float.name()
            )));
        }
    }
    let dims = match (&size, out) {
        (Size::Scalar, None) => {
            let w = stream.with(|dice| dice.rng_mut().next_u64());
            return match float {
                Float::F64 => Ok(unit_f64(w).into_pyobject(py)?.into_any()),
                Float::F32 => PyArray1::from_vec(py, vec![unit_f32(w)]).get_item(0),
            };
        }
        (Size::Scalar, Some(_)) => Vec::new(),
        (Size::Shape(dims), _) => dims.clone(),
    };
    let np_dtype = numpy(py)?.call_method1("dtype", (float.name(),))?;
    let target = match out {
        Some(o) if fills_in_place(o)? => o.clone(),
        _ => empty(py, &dims, &np_dtype, "random")?,
    };
    let watch = Watch::new(py)?;
    let mut words = vec![0u64; CHUNK];
    match float {
        Float::F64 => fill::<u64>(py, &target, CHUNK, &watch, |chunk| {
            draw_words(stream, &mut words[..chunk.len()]);
            for (c, w) in chunk.iter_mut().zip(&words) {
                *c = unit_f64(*w).to_bits();
            }
        })?,
        Float::F32 => fill::<u32>(py, &target, CHUNK, &watch, |chunk| {
            draw_words(stream, &mut words[..chunk.len()]);
            for (c, w) in chunk.iter_mut().zip(&words) {
                *c = unit_f32(*w).to_bits();
            }
        })?,
    }
    match out {
        Some(o) if !o.is(&target) => {
            numpy(py)?.call_method1("copyto", (o, &target))?;
            Ok(o.clone())
        }
        _ => Ok(target),
    }
}

/// Fills `words` with the next words of the stream.
fn draw_words(stream: &Stream, words: &mut [u64]) {
    crate::with_dice!(stream, |dice| words
        .iter_mut()
        .for_each(|w| *w = dice.rng_mut().next_u64()));
}

/// Bytes per chunk of `bytes`: a multiple of 64, so that the chunks are the
/// bytes one fill of the whole buffer gives (every generator hands out
/// whole words).
const BYTES_CHUNK: usize = 1 << 20;

/// `bytes(length)`: `length` random bytes from the stream, drawn in chunks
/// with the GIL released (Ctrl-C is checked between them).
pub fn bytes<'py>(
    py: Python<'py>,
    stream: &Stream,
    length: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let length = to_usize(length, "length")?;
    let mut data = buffer::<u8>(length, "bytes")?;
    data.resize(length, 0);
    let watch = Watch::new(py)?;
    for piece in data.chunks_mut(BYTES_CHUNK) {
        let long = piece.len() >= DETACH_LEN;
        let mut draw = || stream.with(|dice| dice.rng_mut().fill_bytes(piece));
        if long {
            py.detach(draw);
        } else {
            draw();
        }
        watch.check()?;
    }
    Ok(PyBytes::new(py, &data))
}
