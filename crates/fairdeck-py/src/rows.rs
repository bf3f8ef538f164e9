//! `permuted`: every row (or column, or lane along any axis) shuffled on its own.
//!
//! The lanes along `axis` are copied to the last axis of a C-contiguous
//! array, so each lane is one contiguous run of `m` items; then each run is
//! shuffled as `fairdeck::shuffle::shuffle` shuffles it (by
//! `fairdeck::shuffle::shuffle_runs`), in order, on the generator's
//! stream (sequential) or, with `threads=`, in blocks of rows each keyed
//! from 32 bytes of the stream (the same result for every thread count).
//! Rows along the last axis of a C-contiguous array, on one thread, are
//! copied and shuffled one at a time, each while it is in cache (the same
//! draws). An `out` of `x`'s dtype that is C-contiguous is written
//! directly, with no array in between.

use fairdeck::shuffle::{Shuffle, shuffle};
use numpy::{PyArray1, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyNotImplementedError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyModule};
use rayon::prelude::*;

use crate::arrays::{RawItems, numpy, shuffle_array, shuffled_range};
use crate::boundary::{buffer, reserve_scratch};
use crate::convert::{normalize_axis, type_name};
use crate::interrupt::Watch;
use crate::stream::{DETACH_LEN, Stream, Threads, pool, task_dice};

/// Rows of one task in a threaded `permuted`: about 2^16 items, fixed so
/// that the blocks (and their keys) do not depend on the thread count.
const BLOCK_ITEMS: usize = 1 << 16;

/// Checks that the scratch of a run of `m` items can be had, and makes the
/// Ctrl-C watch of a `permuted` pass (`detach`: the pass runs without the
/// GIL and looks for signals; otherwise it is short and is not watched).
fn prepare<T>(py: Python<'_>, m: usize, detach: bool) -> PyResult<Watch> {
    reserve_scratch::<T>(m, "permuted")?;
    if detach {
        Watch::new(py)
    } else {
        Ok(Watch::none())
    }
}

/// `run(data)`, without the GIL when `detach` is set.
fn released<T: Send>(
    py: Python<'_>,
    detach: bool,
    data: &mut [T],
    run: impl FnOnce(&mut [T]) -> PyResult<()> + Send,
) -> PyResult<()> {
    if detach {
        py.detach(|| run(data))
    } else {
        run(data)
    }
}

/// Shuffles each run of `m` consecutive items of `data` independently.
fn shuffle_runs<T: Send>(
    py: Python<'_>,
    data: &mut [T],
    m: usize,
    stream: &Stream,
    threads: Threads,
    detach: bool,
) -> PyResult<()> {
    let watch = prepare::<T>(py, m, detach)?;
    let run = |data: &mut [T]| -> PyResult<()> {
        match threads {
            // Rows shorter than a block are shuffled a block of rows at a
            // time, the hook asked once per block (asking it inside every
            // row's shuffle was several calls per row); a longer row is
            // shuffled with the hook inside it. `shuffle` and `Shuffle::until`
            // draw the same, so the orders do not depend on which.
            Threads::Sequential if m < BLOCK_ITEMS => crate::with_dice!(stream, |dice| {
                let block = (BLOCK_ITEMS / m).max(1) * m;
                let outcome = data.chunks_mut(block).try_for_each(|rows| {
                    if watch.stop() {
                        return Err(());
                    }
                    fairdeck::shuffle::shuffle_runs(rows, m, dice);
                    Ok(())
                });
                watch.outcome(outcome)
            }),
            Threads::Sequential => crate::with_dice!(stream, |dice| {
                let outcome = data
                    .chunks_exact_mut(m)
                    .try_for_each(|row| Shuffle::new().until(|| watch.stop()).run(row, dice));
                watch.outcome(outcome)
            }),
            Threads::Pool(k) => {
                let key = stream.subkey();
                let block = (BLOCK_ITEMS / m).max(1) * m;
                // Each block asks before it starts: a block's rows are
                // shuffled completely or not at all.
                let outcome = watch.run_parallel(&pool(k)?, |stop| {
                    data.par_chunks_mut(block)
                        .enumerate()
                        .try_for_each(|(index, rows)| {
                            if stop() {
                                return Err(());
                            }
                            let mut dice = task_dice(&key, stream.kind, b"permuted", index);
                            fairdeck::shuffle::shuffle_runs(rows, m, &mut dice);
                            Ok(())
                        })
                });
                watch.outcome(outcome)
            }
        }
    };
    released(py, detach, data, run)
}

/// `permuted`'s copy and shuffle in one pass, on one thread: each row is
/// copied from `source` into `data` and shuffled there while it is still in
/// cache, with the draws of copying everything first and then
/// [`shuffle_runs`] (which reads the copy back from memory); Ctrl-C is
/// looked for once per block of rows (about 2^16 items).
/// Stopped by Ctrl-C, it still copies the blocks it had not reached, so
/// `data` holds every row of `source`, some of them shuffled.
fn copy_and_shuffle_runs<T: Copy + Send + Sync>(
    py: Python<'_>,
    source: &[T],
    data: &mut [T],
    m: usize,
    stream: &Stream,
    detach: bool,
) -> PyResult<()> {
    let watch = prepare::<T>(py, m, detach)?;
    let block = (BLOCK_ITEMS / m).max(1) * m;
    let run = |data: &mut [T]| -> PyResult<()> {
        crate::with_dice!(stream, |dice| {
            let mut stopped = false;
            for (rows, from) in data.chunks_mut(block).zip(source.chunks(block)) {
                stopped = stopped || watch.stop();
                if stopped {
                    rows.copy_from_slice(from);
                    continue;
                }
                // Row by row: each row is shuffled while it is in the L1
                // cache (copying 2^10 to 2^16 items at a time measured 3-18 %
                // slower on 10^6 rows of 52; copying 2^10 items at a time
                // and shuffling them with `shuffle_runs`, two rows' swaps
                // interleaved, gave 3.0x numpy against 3.15x row by row).
                for (row, from) in rows.chunks_exact_mut(m).zip(from.chunks_exact(m)) {
                    row.copy_from_slice(from);
                    shuffle(row, dice);
                }
            }
            watch.outcome(if stopped { Err(()) } else { Ok(()) })
        })
    };
    released(py, detach, data, run)
}

/// `permuted` along the last axis of the C-contiguous `arr` into `out`, a
/// C-contiguous array of its dtype and shape that shares no memory with it,
/// by [`copy_and_shuffle_runs`]; `false`, with nothing written, where that
/// does not apply (threads, runs of one item or of a block or more, items
/// that are Python objects or of another width).
fn copy_and_shuffle_rows(
    arr: &Bound<'_, PyAny>,
    out: &Bound<'_, PyUntypedArray>,
    m: usize,
    stream: &Stream,
    threads: Threads,
) -> PyResult<bool> {
    if !matches!(threads, Threads::Sequential) || !(2..BLOCK_ITEMS).contains(&m) {
        return Ok(false);
    }
    let py = arr.py();
    let source = arr
        .call_method1("reshape", (-1,))?
        .cast_into::<PyUntypedArray>()?;
    let flat = out.reshape_flat()?;
    let (from, to) = (RawItems::of_source(&source)?, RawItems::of(&flat)?);
    if from.objects || from.len != to.len || from.len == 0 {
        return Ok(false);
    }
    let detach = from.len >= DETACH_LEN;
    macro_rules! widths {
        ($($t:ty),*) => {$(
            // SAFETY: `arr` and `out` (and the views `source` and `flat`)
            // stay referenced for the whole call, and share no memory.
            if let (Some(s), Some(d)) = unsafe { (from.slice_ref::<$t>(), to.slice::<$t>()) } {
                copy_and_shuffle_runs(py, s, d, m, stream, detach)?;
                return Ok(true);
            }
        )*};
    }
    widths!(u8, u16, u32, u64, u128);
    Ok(false)
}

/// Shuffles the last-axis runs of the C-contiguous array `y` in place;
/// `false` when its items are not a direct width (then the caller permutes
/// through indexes).
fn shuffle_rows_in_place(
    y: &Bound<'_, PyUntypedArray>,
    m: usize,
    stream: &Stream,
    threads: Threads,
) -> PyResult<bool> {
    let py = y.py();
    let flat = y.reshape_flat()?;
    let raw = RawItems::of(&flat)?;
    let detach = !raw.objects && raw.len >= DETACH_LEN;
    // SAFETY: `y` (and the view `flat`) stay referenced for the whole call.
    unsafe {
        if let Some(s) = raw.slice::<u8>() {
            shuffle_runs(py, s, m, stream, threads, detach)?;
        } else if let Some(s) = raw.slice::<u16>() {
            shuffle_runs(py, s, m, stream, threads, detach)?;
        } else if let Some(s) = raw.slice::<u32>() {
            shuffle_runs(py, s, m, stream, threads, detach)?;
        } else if let Some(s) = raw.slice::<u64>() {
            shuffle_runs(py, s, m, stream, threads, detach)?;
        } else if let Some(s) = raw.slice::<u128>() {
            shuffle_runs(py, s, m, stream, threads, detach)?;
        } else {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A flat view of a C-contiguous array (no copy).
trait ReshapeFlat<'py> {
    fn reshape_flat(&self) -> PyResult<Bound<'py, PyUntypedArray>>;
}

impl<'py> ReshapeFlat<'py> for Bound<'py, PyUntypedArray> {
    fn reshape_flat(&self) -> PyResult<Bound<'py, PyUntypedArray>> {
        Ok(self
            .call_method1("reshape", (-1,))?
            .cast_into::<PyUntypedArray>()?)
    }
}

/// `permuted(x, axis, out)` as numpy defines it, exactly uniform per lane.
pub fn permuted<'py>(
    x: &Bound<'py, PyAny>,
    axis: Option<isize>,
    out: Option<&Bound<'py, PyAny>>,
    stream: &Stream,
    threads: Threads,
) -> PyResult<Bound<'py, PyAny>> {
    let py = x.py();
    let np = numpy(py)?;
    let arr = np.call_method1("asarray", (x,))?;
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    if let (true, Some(axis)) = (shape.is_empty(), axis) {
        // numpy checks the axis first: AxisError for any axis of a 0-d array.
        normalize_axis(py, axis, 0)?;
    }
    if shape.is_empty() {
        // numpy: "len() of unsized object".
        return Err(PyTypeError::new_err(format!(
            "permuted() takes an array with at least one axis, not a 0-d {}",
            type_name(x)
        )));
    }
    let axis = axis
        .map(|axis| normalize_axis(py, axis, shape.len()))
        .transpose()?;
    // Lanes of `m` items along the last axis, or `None`: all items as one.
    let runs = axis.map(|axis| shape[axis]);
    // Rows along the last axis of a C-contiguous x: copied and shuffled in
    // one pass where that applies (see `copy_and_shuffle_rows`).
    let last_runs = match (axis, runs) {
        (Some(axis), Some(m)) if axis + 1 == shape.len() && c_contiguous(&arr)? => Some(m),
        _ => None,
    };
    if let Some(out) = out {
        check_out(np, &arr, out, &shape)?;
    }
    // Where the items can be shuffled without a copy in between: `out`
    // itself, else a fresh C-contiguous array for rows along the last axis.
    let into_out = match out {
        Some(out) if shuffles_in_out(&arr, out, axis, shape.len())? => Some(out),
        _ => None,
    };
    let target = match (into_out, last_runs) {
        (Some(out), _) => Some(out.clone()),
        (None, Some(_)) => {
            let kwargs = PyDict::new(py);
            kwargs.set_item("dtype", arr.getattr("dtype")?)?;
            Some(np.call_method("empty", (arr.getattr("shape")?,), Some(&kwargs))?)
        }
        (None, None) => None,
    };
    if let Some(target) = target {
        let items = target.cast::<PyUntypedArray>()?;
        let fused = match last_runs {
            Some(m)
                if !np
                    .call_method1("may_share_memory", (&arr, &target))?
                    .extract::<bool>()? =>
            {
                copy_and_shuffle_rows(&arr, items, m, stream, threads)?
            }
            _ => false,
        };
        if !fused {
            np.call_method1("copyto", (&target, &arr))?;
            shuffle_c_array(items, runs, stream, threads)?;
        }
        return match into_out {
            Some(out) => Ok(out.clone()),
            None => finish(np, target, out),
        };
    }
    let result = match axis {
        None => {
            let flat = c_copy(np, &arr.call_method1("reshape", (-1,))?)?;
            shuffle_c_array(&flat, None, stream, threads)?;
            flat.call_method1("reshape", (arr.getattr("shape")?,))?
        }
        Some(axis) => {
            let lanes = c_copy(np, &np.call_method1("moveaxis", (&arr, axis, -1))?)?;
            shuffle_c_array(&lanes, runs, stream, threads)?;
            np.call_method1("moveaxis", (&lanes, -1, axis))?
        }
    };
    finish(np, result, out)
}

/// `result`, or `out` once `result` is copied there (numpy's `safe` casting).
fn finish<'py>(
    np: &Bound<'py, PyModule>,
    result: Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    match out {
        None => Ok(result),
        Some(out) => {
            let kwargs = PyDict::new(np.py());
            kwargs.set_item("casting", "safe")?;
            np.call_method("copyto", (out, &result), Some(&kwargs))?;
            Ok(out.clone())
        }
    }
}

/// Whether the array `a` is C-contiguous.
fn c_contiguous(a: &Bound<'_, PyAny>) -> PyResult<bool> {
    a.getattr("flags")?.getattr("c_contiguous")?.extract()
}

/// Shuffles the C-contiguous array `y` in place: all its items as one run
/// (`runs` is `None`), or each run of `m` items along its last axis.
fn shuffle_c_array(
    y: &Bound<'_, PyUntypedArray>,
    runs: Option<usize>,
    stream: &Stream,
    threads: Threads,
) -> PyResult<()> {
    match runs {
        None => shuffle_array(&y.reshape_flat()?, stream, threads),
        Some(m) if m > 1 && !y.is_empty() => {
            if !shuffle_rows_in_place(y, m, stream, threads)? {
                permute_lanes_by_index(y, m, stream, threads)?;
            }
            Ok(())
        }
        Some(_) => Ok(()),
    }
}

/// Whether `permuted(arr, axis, out)` may copy `arr` into `out` and shuffle
/// there, with no array in between: `out` has `arr`'s dtype (the same items
/// moved by the same draws: the result is the one a copy would give) and is
/// C-contiguous, and the lanes, if any, run along its last axis.
fn shuffles_in_out(
    arr: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    axis: Option<usize>,
    ndim: usize,
) -> PyResult<bool> {
    Ok(axis.is_none_or(|axis| axis + 1 == ndim)
        && c_contiguous(out)?
        && arr.getattr("dtype")?.eq(out.getattr("dtype")?)?)
}

/// numpy's checks of `permuted(x, out=out)`, before any randomness is used:
/// `out` is a writeable `numpy.ndarray` of `x`'s shape whose dtype `x`'s
/// casts to under numpy's `safe` rule (int64 into int32 is refused, as
/// numpy refuses it: it would truncate).
fn check_out(
    np: &Bound<'_, PyModule>,
    arr: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    shape: &[usize],
) -> PyResult<()> {
    if !out.get_type().is(&np.getattr("ndarray")?) {
        return Err(PyTypeError::new_err("out must be a numpy array"));
    }
    if !out
        .getattr("flags")?
        .getattr("writeable")?
        .extract::<bool>()?
    {
        return Err(PyValueError::new_err("out is read-only"));
    }
    let out_shape: Vec<usize> = out.getattr("shape")?.extract()?;
    if out_shape != shape {
        return Err(PyValueError::new_err(format!(
            "out has shape {out_shape:?}, x has shape {shape:?}: they must match"
        )));
    }
    let (from, to) = (arr.getattr("dtype")?, out.getattr("dtype")?);
    if !np
        .call_method1("can_cast", (&from, &to, "safe"))?
        .extract::<bool>()?
    {
        return Err(PyTypeError::new_err(format!(
            "Cannot cast array data from {} to {} according to the rule 'safe'",
            from.repr()?,
            to.repr()?
        )));
    }
    Ok(())
}

/// Items of other widths: take each lane through its own shuffled index run.
fn permute_lanes_by_index(
    lanes: &Bound<'_, PyUntypedArray>,
    m: usize,
    stream: &Stream,
    threads: Threads,
) -> PyResult<()> {
    let py = lanes.py();
    // `len()` of an untyped array is its number of items (all axes).
    let total = lanes.len();
    let mut index: Vec<i64> = buffer(total, "permuted")?;
    index.extend((0..total).map(|i| (i % m) as i64));
    shuffle_runs(py, &mut index, m, stream, threads, total >= DETACH_LEN)?;
    let np = numpy(py)?;
    let index =
        PyArray1::from_vec(py, index).call_method1("reshape", (lanes.getattr("shape")?,))?;
    let taken = np.call_method1("take_along_axis", (lanes, index, -1))?;
    lanes.set_item(py.Ellipsis(), taken)?;
    Ok(())
}

/// A fresh C-contiguous copy of `a`.
fn c_copy<'py>(
    np: &Bound<'py, PyModule>,
    a: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let kwargs = PyDict::new(np.py());
    kwargs.set_item("order", "C")?;
    kwargs.set_item("copy", true)?;
    Ok(np
        .call_method("array", (a,), Some(&kwargs))?
        .cast_into::<PyUntypedArray>()?)
}

/// The axis of an array, normalised, when it is not the first (`None`:
/// axis 0, the whole-array fast paths). numpy's `AxisError` (a
/// `ValueError` and an `IndexError`) for an axis the array has not; a list
/// takes axis 0 only (`NotImplementedError`, as numpy).
pub fn other_axis(x: &Bound<'_, PyAny>, axis: isize) -> PyResult<Option<usize>> {
    if axis == 0 {
        return Ok(None);
    }
    let np = numpy(x.py())?;
    if !x.is_instance(&np.getattr("ndarray")?)? {
        return Err(PyNotImplementedError::new_err(
            "axis applies to numpy arrays only (a list is shuffled along axis 0)",
        ));
    }
    let normalised = normalize_axis(x.py(), axis, x.getattr("ndim")?.extract()?)?;
    Ok((normalised != 0).then_some(normalised))
}

/// A copy of `x` with its slices along `axis` in a uniformly random order:
/// one exact permutation of `x.shape[axis]` (the order `permutation(n)`
/// gives), applied with `take`.
pub fn along<'py>(
    x: &Bound<'py, PyAny>,
    axis: usize,
    stream: &Stream,
    threads: Threads,
) -> PyResult<Bound<'py, PyAny>> {
    let py = x.py();
    let n: usize = x.getattr("shape")?.get_item(axis)?.extract()?;
    let order = shuffled_range(py, n, stream, threads)?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("axis", axis)?;
    x.call_method("take", (PyArray1::from_vec(py, order),), Some(&kwargs))
}
