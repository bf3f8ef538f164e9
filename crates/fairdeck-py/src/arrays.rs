//! In-place shuffles of numpy arrays of any dtype, and of Python lists.
//!
//! An array is shuffled along its first axis: its "items" are `x[0]`,
//! `x[1]`, … When the items are 1, 2, 4, 8 or 16 bytes wide, contiguous and
//! aligned, the array's own memory is shuffled as a slice of unsigned
//! integers of that width, with no copy — the exact order
//! `fairdeck::shuffle::shuffle` gives a Rust slice of that element size.
//! Other layouts of those widths are shuffled in a contiguous copy (the same
//! order) that is written back. Items of any other width (structured
//! records, rows of a 2-D array) are moved through an index permutation,
//! the order a shuffle of `int64` values gives.

use fairdeck::shuffle::{Scratch, Shuffle};
use numpy::npyffi::{self, NPY_ARRAY_WRITEABLE};
use numpy::{PyArray1, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList};

use crate::boundary::{buffer, reserve_scratch};
pub use crate::convert::numpy;
use crate::interrupt::Watch;
use crate::stream::{DETACH_LEN, Stream, Threads, pool};

/// Whether `x` is a plain `numpy.ndarray` (not a subclass such as a masked
/// array): the common case, checked without a Python attribute lookup.
pub fn is_plain_array(x: &Bound<'_, PyAny>) -> bool {
    // SAFETY: `x` is a live object and the GIL is held.
    unsafe { npyffi::PyArray_CheckExact(x.py(), x.as_ptr()) != 0 }
}

/// An array's items along axis 0 as raw memory.
pub struct RawItems {
    data: *mut u8,
    /// Number of items (`x.shape[0]`).
    pub len: usize,
    /// Bytes per item: the itemsize times the product of the other axes.
    pub item: usize,
    /// Whether the items lie one after the other in memory.
    pub contiguous: bool,
    /// Whether the dtype holds Python objects (then the GIL stays held).
    pub objects: bool,
}

impl RawItems {
    /// Describes `arr` for an in-place shuffle along axis 0.
    ///
    /// # Errors
    ///
    /// `TypeError` for a 0-d array (as numpy: it has no length),
    /// `ValueError` for a read-only one.
    pub fn of(arr: &Bound<'_, PyUntypedArray>) -> PyResult<Self> {
        Self::describe(arr, true)
    }

    /// Describes `arr` to be read only (the source of a copy): a read-only
    /// array is taken.
    ///
    /// # Errors
    ///
    /// `TypeError` for a 0-d array.
    pub fn of_source(arr: &Bound<'_, PyUntypedArray>) -> PyResult<Self> {
        Self::describe(arr, false)
    }

    fn describe(arr: &Bound<'_, PyUntypedArray>, writing: bool) -> PyResult<Self> {
        let (shape, strides) = (arr.shape(), arr.strides());
        if shape.is_empty() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "cannot shuffle a 0-d array: give an array with at least one axis",
            ));
        }
        // SAFETY: `arr` is a live numpy array; its fields are read under the GIL.
        let fields = unsafe { &*npyffi::_PyArray_GET_ITEM_DATA(arr.as_array_ptr()) };
        if writing && fields.flags & NPY_ARRAY_WRITEABLE == 0 {
            return Err(PyValueError::new_err(
                "the array is read-only: shuffle a copy (x.copy()) or use permutation(x)",
            ));
        }
        let dtype = arr.dtype();
        let mut item = dtype.itemsize();
        let mut inner_contiguous = true;
        for k in (1..shape.len()).rev() {
            if shape[k] > 1 && strides[k] != item as isize {
                inner_contiguous = false;
            }
            item *= shape[k];
        }
        let len = shape[0];
        Ok(RawItems {
            data: fields.data.cast(),
            len,
            item,
            contiguous: inner_contiguous && (len < 2 || strides[0] == item as isize),
            objects: dtype.has_object(),
        })
    }

    /// The items as a slice of `T` when `T` is exactly one item wide and the
    /// memory is contiguous and aligned for `T`.
    ///
    /// # Safety
    ///
    /// The array described must stay alive, unmoved and not resized while
    /// the slice is used (the caller holds a reference to it), and no other
    /// Rust code may hold a reference into its memory meanwhile.
    pub unsafe fn slice<'a, T>(&self) -> Option<&'a mut [T]> {
        // SAFETY: `len` items of `size_of::<T>()` bytes lie contiguously at
        // `data`, aligned for `T`; every bit pattern is a valid unsigned
        // integer; the caller guarantees the memory outlives the slice.
        self.fits::<T>()
            .then(|| unsafe { std::slice::from_raw_parts_mut(self.data.cast::<T>(), self.len) })
    }

    /// [`RawItems::slice`] to read only (an array from [`RawItems::of_source`]).
    ///
    /// # Safety
    ///
    /// As for [`RawItems::slice`]; Rust code may read the memory meanwhile.
    pub unsafe fn slice_ref<'a, T>(&self) -> Option<&'a [T]> {
        // SAFETY: as in `slice`.
        self.fits::<T>().then(|| unsafe {
            std::slice::from_raw_parts(self.data.cast::<T>().cast_const(), self.len)
        })
    }

    /// Whether the items are `T`s: one `T` wide each, contiguous, aligned.
    fn fits<T>(&self) -> bool {
        self.contiguous
            && self.item == size_of::<T>()
            && (self.data as usize).is_multiple_of(align_of::<T>())
    }
}

/// Item widths shuffled directly as unsigned integers.
const WIDTHS: [usize; 5] = [1, 2, 4, 8, 16];

/// Slices at least this long are watched for Ctrl-C while they are
/// shuffled (a shorter one takes under a millisecond).
const WATCH_LEN: usize = 1 << 16;

/// Shuffles `slice` with the stream (or the parallel shuffle), releasing
/// the GIL when `detach` is set.
///
/// Both shuffles check for Ctrl-C about every 20 ms (see `interrupt`)
/// through the library's stop hook; when a signal handler raises, the
/// shuffle stops at its next piece of work (at most 65536 elements away),
/// `slice` still holds every element once (in no particular order), and
/// the exception is returned.
pub fn shuffle_slice<T: Send>(
    py: Python<'_>,
    slice: &mut [T],
    stream: &Stream,
    threads: Threads,
    detach: bool,
) -> PyResult<()> {
    if threads == Threads::Sequential && slice.len() < WATCH_LEN {
        // A short slice (a deck): the library's plain shuffle, the order
        // the stopping, scratch-keeping run below gives (no scatter below
        // 8 MiB), without the stop hook, the watch and the scratch that a
        // slice this short never needs: about 10 ns of a 52-card call's 120.
        let run = |slice: &mut [T]| {
            crate::with_dice!(stream, |dice| fairdeck::shuffle::shuffle(slice, dice))
        };
        if detach {
            py.detach(|| run(slice));
        } else {
            run(slice);
        }
        return Ok(());
    }
    let watch = if slice.len() >= WATCH_LEN {
        Watch::new(py)?
    } else {
        Watch::none()
    };
    let run = |slice: &mut [T]| -> PyResult<()> {
        // Only a slice this long can need scratch memory: a short one does
        // not take the generator's (its lock would cost a 52-card call).
        let mut kept = (slice.len() >= WATCH_LEN).then(|| stream.scratch());
        if let Some(held) = kept.as_deref_mut() {
            // Kept memory too small for this call is freed first, so the
            // check below covers all the call allocates.
            if held.held_bytes() < slice.len().saturating_mul(1 + size_of::<T>()) {
                held.release();
            }
        }
        reserve_scratch::<T>(slice.len(), "shuffle")?;
        let mut fresh = Scratch::new();
        let scratch = kept.as_deref_mut().unwrap_or(&mut fresh);
        match threads {
            Threads::Sequential => crate::with_dice!(stream, |dice| {
                let kept = Shuffle::new().scratch(scratch).until(|| watch.stop());
                watch.outcome(kept.run(slice, dice))
            }),
            Threads::Pool(k) => {
                let key = stream.subkey();
                let pool = pool(k)?;
                let outcome = watch.run_parallel(&pool, |stop| {
                    let kept = Shuffle::new().scratch(scratch).until(stop);
                    kept.run_parallel(slice, &key, stream.kind)
                });
                watch.outcome(outcome)
            }
        }
    };
    if detach {
        py.detach(|| run(slice))
    } else {
        run(slice)
    }
}

/// Shuffles the items of `arr` in place (see the module documentation).
pub fn shuffle_array(
    arr: &Bound<'_, PyUntypedArray>,
    stream: &Stream,
    threads: Threads,
) -> PyResult<()> {
    let raw = RawItems::of(arr)?;
    if raw.len < 2 || raw.item == 0 {
        return Ok(());
    }
    if shuffle_in_place(arr.py(), &raw, stream, threads)? {
        return Ok(());
    }
    if WIDTHS.contains(&raw.item) {
        shuffle_through_copy(arr, stream, threads)
    } else {
        shuffle_by_index(arr, raw.len, stream, threads)
    }
}

/// The zero-copy path; `false` when the layout does not allow it.
fn shuffle_in_place(
    py: Python<'_>,
    raw: &RawItems,
    stream: &Stream,
    threads: Threads,
) -> PyResult<bool> {
    // Object pointers are only moved with the GIL held: another thread
    // could otherwise replace (and free) an item we are carrying.
    let detach = !raw.objects && raw.len >= DETACH_LEN;
    // SAFETY: the caller holds `arr` (a reference to the array) for the
    // whole call; numpy cannot resize an array that is referenced.
    unsafe {
        if let Some(s) = raw.slice::<u8>() {
            shuffle_slice(py, s, stream, threads, detach)?;
        } else if let Some(s) = raw.slice::<u16>() {
            shuffle_slice(py, s, stream, threads, detach)?;
        } else if let Some(s) = raw.slice::<u32>() {
            shuffle_slice(py, s, stream, threads, detach)?;
        } else if let Some(s) = raw.slice::<u64>() {
            shuffle_slice(py, s, stream, threads, detach)?;
        } else if let Some(s) = raw.slice::<u128>() {
            shuffle_slice(py, s, stream, threads, detach)?;
        } else {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Strided or unaligned items of a direct width: shuffle a C-contiguous
/// copy (the same order as in place) and write it back.
fn shuffle_through_copy(
    arr: &Bound<'_, PyUntypedArray>,
    stream: &Stream,
    threads: Threads,
) -> PyResult<()> {
    let py = arr.py();
    let np = numpy(py)?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("order", "C")?;
    kwargs.set_item("copy", true)?;
    let copy = np.call_method("array", (arr,), Some(&kwargs))?;
    let copy = copy.cast::<PyUntypedArray>()?;
    let raw = RawItems::of(copy)?;
    if !shuffle_in_place(py, &raw, stream, threads)? {
        // A fresh numpy allocation is aligned; if it ever is not, fall back.
        return shuffle_by_index(arr, raw.len, stream, threads);
    }
    np.call_method1("copyto", (arr, copy))?;
    Ok(())
}

/// Items of any other width: `x[...] = x[p]` with `p` a shuffled `arange`.
fn shuffle_by_index(
    arr: &Bound<'_, PyUntypedArray>,
    len: usize,
    stream: &Stream,
    threads: Threads,
) -> PyResult<()> {
    let py = arr.py();
    let order = shuffled_range(py, len, stream, threads)?;
    let order = PyArray1::from_vec(py, order);
    let moved = arr.get_item(order)?;
    arr.set_item(py.Ellipsis(), moved)?;
    Ok(())
}

/// Shuffles a `numpy.ma.MaskedArray` along its first axis: its data and
/// its mask (when it has one) by the same permutation, the order an `int64`
/// array of the same length gets. `false` (nothing done) for anything else.
pub fn shuffle_masked(x: &Bound<'_, PyAny>, stream: &Stream, threads: Threads) -> PyResult<bool> {
    let py = x.py();
    static MASKED: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let masked = MASKED.get_or_try_init(py, || {
        numpy(py)?
            .getattr("ma")?
            .getattr("MaskedArray")
            .map(Bound::unbind)
    })?;
    if !x.is_instance(masked.bind(py))? {
        return Ok(false);
    }
    let ma = numpy(py)?.getattr("ma")?;
    // `.data` is a plain ndarray view of the masked array's memory.
    let data = x.getattr("data")?.cast_into::<PyUntypedArray>()?;
    let raw = RawItems::of(&data)?;
    if raw.len < 2 {
        return Ok(true);
    }
    let order = PyArray1::from_vec(py, shuffled_range(py, raw.len, stream, threads)?);
    data.set_item(py.Ellipsis(), data.get_item(&order)?)?;
    let mask = ma.call_method1("getmask", (x,))?;
    if !mask.is(&ma.getattr("nomask")?) {
        mask.set_item(py.Ellipsis(), mask.get_item(&order)?)?;
    }
    Ok(true)
}

/// `0..n` as `int64`, shuffled: the order `permutation(n)` returns.
pub fn shuffled_range(
    py: Python<'_>,
    n: usize,
    stream: &Stream,
    threads: Threads,
) -> PyResult<Vec<i64>> {
    let mut order: Vec<i64> = buffer(n, "permutation")?;
    order.extend(0..n as i64);
    shuffle_slice(py, &mut order, stream, threads, n >= DETACH_LEN)?;
    Ok(order)
}

/// `permutation(n)`: `0..n` in random order as a fresh `int64` array, the
/// order of [`shuffled_range`]. The array is numpy's own, shuffled in its
/// own memory: a 52-card call spends no time handing a Rust vector to
/// numpy, and a long one gets the memory numpy gives a large array (which
/// it asks the kernel to back with huge pages: the shuffle's random
/// accesses then miss the TLB far less often than in a vector's 4 KiB pages,
/// 5-15 % of a `permutation(10**6)`). A long one is allocated through
/// `numpy.empty` ([`crate::boundary::empty`]), so that running out of memory is a
/// `MemoryError`.
pub fn shuffled_range_array<'py>(
    py: Python<'py>,
    n: usize,
    stream: &Stream,
    threads: Threads,
) -> PyResult<Bound<'py, PyAny>> {
    let array = if n >= DETACH_LEN {
        let dtype = numpy(py)?.call_method1("dtype", ("int64",))?;
        crate::boundary::empty(py, &[n], &dtype, "permutation")?.cast_into::<PyArray1<i64>>()?
    } else {
        // SAFETY: every item is written below before the array is read.
        unsafe { PyArray1::<i64>::new(py, n, false) }
    };
    // SAFETY: the array is fresh, C-contiguous, and referenced nowhere else.
    let items = unsafe { array.as_slice_mut() }
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    for (i, item) in (0..).zip(items.iter_mut()) {
        *item = i;
    }
    shuffle_slice(py, items, stream, threads, n >= DETACH_LEN)?;
    Ok(array.into_any())
}

/// Shuffles a Python list in place, as a slice of its items (8-byte
/// references: the order of an `int64` array of the same length).
pub fn shuffle_list(list: &Bound<'_, PyList>, stream: &Stream, threads: Threads) -> PyResult<()> {
    let py = list.py();
    let mut items: Vec<Py<PyAny>> = buffer(list.len(), "shuffle")?;
    items.extend(list.iter().map(Bound::unbind));
    shuffle_slice(py, &mut items, stream, threads, false)?;
    for (i, item) in items.into_iter().enumerate() {
        list.set_item(i, item)?;
    }
    Ok(())
}

/// Shuffles a mutable sequence that is neither a list nor an array (a
/// `bytearray`, an `array.array`): its items are read, then assigned back
/// in the order of `permutation(len(x))`.
pub fn shuffle_sequence(x: &Bound<'_, PyAny>, stream: &Stream, threads: Threads) -> PyResult<()> {
    let n = x.len()?;
    let items = (0..n)
        .map(|i| x.get_item(i))
        .collect::<PyResult<Vec<_>>>()?;
    let order = shuffled_range(x.py(), n, stream, threads)?;
    for (i, j) in order.into_iter().enumerate() {
        x.set_item(i, &items[j as usize])?;
    }
    Ok(())
}
