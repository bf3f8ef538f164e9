//! Output arrays filled in chunks: the memory of `integers`, `random` and
//! `bytes` is their output's, plus one chunk.
//!
//! Each chunk is drawn with the GIL released and followed by a check for
//! Ctrl-C ([`Watch`]), so a long call can be interrupted between chunks.

use numpy::PyUntypedArray;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::arrays::RawItems;
pub use crate::boundary::empty;
use crate::interrupt::Watch;
use crate::stream::DETACH_LEN;

/// Unsigned integers of an item's width: the bits written into an array of
/// any dtype of that width (signed, unsigned, bool, float).
pub trait Bits: Copy + Send + Default {
    /// The low bits of `v` (two's complement truncation).
    fn truncate(v: u64) -> Self;
}

macro_rules! bits {
    ($($t:ty)*) => {$(
        impl Bits for $t {
            fn truncate(v: u64) -> Self {
                v as $t
            }
        }
    )*};
}
bits!(u8 u16 u32 u64);

/// Fills the items of `out` (C-contiguous, writeable, items `T` wide) with
/// `produce`, `chunk` items at a time, checking `watch` between chunks.
///
/// # Errors
///
/// The exception a signal handler raised (the items after the last whole
/// chunk are then left as they were), or `RuntimeError` if `out` is not
/// laid out as promised.
pub fn fill<T: Bits>(
    py: Python<'_>,
    out: &Bound<'_, PyAny>,
    chunk: usize,
    watch: &Watch,
    mut produce: impl FnMut(&mut [T]) + Send,
) -> PyResult<()> {
    let flat = out
        .call_method1("reshape", (-1,))?
        .cast_into::<PyUntypedArray>()?;
    let raw = RawItems::of(&flat)?;
    if raw.len == 0 {
        return Ok(());
    }
    // SAFETY: `out` (and its view `flat`) stay referenced for the whole
    // call; the array is fresh or checked C-contiguous and writeable, and
    // no other Rust code holds a reference into it.
    let items = unsafe { raw.slice::<T>() }
        .ok_or_else(|| PyRuntimeError::new_err("fill: the output array is not contiguous"))?;
    for piece in items.chunks_mut(chunk) {
        if piece.len() >= DETACH_LEN {
            py.detach(|| produce(piece));
        } else {
            produce(piece);
        }
        watch.check()?;
    }
    Ok(())
}
