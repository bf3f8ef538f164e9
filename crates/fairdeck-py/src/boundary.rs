//! What crosses from Rust into Python: memory sized by the caller, and panics.
//!
//! Every buffer whose size a caller chooses is allocated fallibly
//! ([`buffer`]), and the scratch memory the library's shuffles take
//! infallibly is reserved first ([`reserve_scratch`]), so running out of
//! memory is a `MemoryError` (or numpy's `ValueError` for a size no array
//! can have), never an abort of the interpreter. [`guard`] turns a panic
//! (a bug: no input is meant to cause one) into a `RuntimeError`, which
//! `except Exception` catches, instead of PyO3's `PanicException`.

use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::convert::numpy;

/// Bytes an array may hold: numpy's own limit (`isize::MAX`).
const MAX_BYTES: usize = isize::MAX as usize;

/// Slices up to this many bytes are shuffled in place by the library;
/// longer ones take `n · (1 + size_of::<T>())` bytes of scratch memory
/// (`Shuffle::run_parallel` from 8 MiB; `fairdeck::shuffle::shuffle` only from 64 MiB,
/// but one check for both is simpler, and it only reserves, never touches).
const IN_PLACE_BYTES: usize = 8 << 20;

/// `len` items of `size` bytes: `ValueError` when no array can be that big
/// (numpy's "array is too big"), `MemoryError` when the memory is not there.
pub fn bytes_for(len: usize, size: usize, what: &str) -> PyResult<usize> {
    len.checked_mul(size.max(1))
        .filter(|&b| b <= MAX_BYTES)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{what}: array is too big ({len} items of {size} bytes is more than any array can hold)"
            ))
        })
}

/// The `MemoryError` for `bytes` that could not be allocated.
pub fn out_of_memory(bytes: usize, what: &str) -> PyErr {
    PyMemoryError::new_err(format!(
        "{what}: memory exhausted (cannot allocate {bytes} bytes)"
    ))
}

/// An empty `Vec` with room for exactly `len` items, or a Python error.
pub fn buffer<T>(len: usize, what: &str) -> PyResult<Vec<T>> {
    let bytes = bytes_for(len, size_of::<T>(), what)?;
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| out_of_memory(bytes, what))?;
    Ok(v)
}

/// Checks that the scratch memory a library shuffle of `len` items of `T`
/// takes can be allocated now (it is taken infallibly inside the library):
/// reserves it and gives it back. O(1): the memory is never touched.
pub fn reserve_scratch<T>(len: usize, what: &str) -> PyResult<()> {
    let bytes = bytes_for(len, size_of::<T>(), what)?;
    if bytes <= IN_PLACE_BYTES {
        return Ok(());
    }
    let scratch = bytes_for(len, 1 + size_of::<T>(), what)?;
    let mut probe: Vec<u8> = Vec::new();
    probe
        .try_reserve_exact(scratch)
        .map_err(|_| out_of_memory(scratch, what))
}

/// Runs `f`, turning a panic into a `RuntimeError` that names the call.
pub fn guard<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".to_string());
        Err(PyRuntimeError::new_err(format!(
            "{what}: internal error in fairdeck ({message}); please report it"
        )))
    })
}

/// A fresh C-contiguous `numpy.empty(dims, dtype)`: `ValueError` when no
/// array can be that big, `MemoryError` naming `what` when the memory is
/// not there (checked before numpy is asked).
pub fn empty<'py>(
    py: Python<'py>,
    dims: &[usize],
    dtype: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let count = dims
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .unwrap_or(usize::MAX);
    let itemsize: usize = dtype.getattr("itemsize")?.extract()?;
    let bytes = bytes_for(count, itemsize, what)?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", dtype)?;
    numpy(py)?
        .call_method("empty", (PyTuple::new(py, dims)?,), Some(&kwargs))
        .map_err(|e| {
            if e.is_instance_of::<PyMemoryError>(py) {
                out_of_memory(bytes, what)
            } else {
                e
            }
        })
}
