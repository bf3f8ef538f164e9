//! `Generator.random` and `Generator.bytes`: numpy's signatures, on the
//! generator's stream.
//!
//! A float64 is 53 random bits scaled by 2^-53: `(w >> 11) · 2^-53` of one
//! 64-bit word `w`, so every value is a multiple of 2^-53 in [0, 1) and
//! each of the 2^53 values has probability 2^-53 exactly (numpy's
//! construction too). A float32 is 24 bits: `(w >> 40) · 2^-24`, one word
//! each.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rand_core::Rng;

use crate::arrays::numpy;
use crate::boundary::buffer;
use crate::convert::{Size, to_count};
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
        let dtype = numpy(dtype.py())?.call_method1("dtype", (dtype,))?;
        let name: String = dtype.getattr("name")?.extract()?;
        let native: bool = dtype.getattr("isnative")?.extract()?;
        match (name.as_str(), native) {
            ("float64", true) => Ok(Float::F64),
            ("float32", true) => Ok(Float::F32),
            _ => Err(PyTypeError::new_err(format!(
                "Unsupported dtype {} for random: float64 or float32 in the machine's byte order",
                dtype.repr()?
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

/// numpy's checks of `out=`, in numpy's order and with its exception
/// types: a numpy array, contiguous, writeable, aligned and in the
/// machine's byte order (`ValueError`), of the dtype drawn (`TypeError`).
fn check_out(out: &Bound<'_, PyAny>, float: Float) -> PyResult<()> {
    let np = numpy(out.py())?;
    let usable = out.is_instance(&np.getattr("ndarray")?)? && {
        let flags = out.getattr("flags")?;
        let flag = |name: &str| -> PyResult<bool> { flags.getattr(name)?.extract() };
        (flag("c_contiguous")? || flag("f_contiguous")?)
            && flag("writeable")?
            && flag("aligned")?
            && out
                .getattr("dtype")?
                .getattr("isnative")?
                .extract::<bool>()?
    };
    if !usable {
        return Err(PyValueError::new_err(
            "Supplied output array must be a numpy array that is contiguous, writeable, \
             aligned, and in the machine's byte order",
        ));
    }
    let out_dtype: String = out.getattr("dtype")?.getattr("name")?.extract()?;
    if out_dtype != float.name() {
        return Err(PyTypeError::new_err(format!(
            "Supplied output array has the wrong type: {out_dtype}, expected {}",
            float.name()
        )));
    }
    Ok(())
}

/// Whether `out` (checked) can be filled in place: C-contiguous; an
/// F-contiguous one is filled through a fresh array and a copy.
fn fills_in_place(out: &Bound<'_, PyAny>) -> PyResult<bool> {
    out.getattr("flags")?.getattr("c_contiguous")?.extract()
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
    if let Some(o) = out {
        check_out(o, float)?;
    }
    let size = shape_of(size, out)?;
    let dims = match (&size, out) {
        (Size::Scalar, None) => {
            let w = stream.with(|dice| dice.rng_mut().next_u64());
            return match float {
                Float::F64 => Ok(unit_f64(w).into_pyobject(py)?.into_any()),
                // A Python float, as numpy gives for float32 too.
                Float::F32 => Ok(f64::from(unit_f32(w)).into_pyobject(py)?.into_any()),
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
    let length = to_count(length, "length")?;
    // numpy gives bytes even for a negative length (`bytes(-1)` is 3 of
    // them): refused here, a difference listed in the README.
    let length = usize::try_from(length).map_err(|_| match length < 0 {
        true => PyValueError::new_err(format!("length must be non-negative, got {length}")),
        false => PyOverflowError::new_err(format!("length = {length} is too large")),
    })?;
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
