//! `fairdeck._fairdeck.distributed`: the Rust half of `fairdeck.spark`.
//!
//! Bindings of the `fairdeck-distributed` crate over Arrow-friendly
//! buffers: a text split comes out as one `bytes` of line data with int32
//! offsets (an Arrow binary array's two buffers), int64 byte offsets and
//! int32 buckets; bucket orders come out as int64 indices for
//! `pyarrow.Table.take`. Seeds are the CLI's (`Seed::parse`): the Python
//! side resolves a missing seed once, on the driver, so every task shares it.

use std::fs::File;

use fairdeck::rng::Seed;
use fairdeck_distributed::split::SplitLines;
use fairdeck_distributed::{RowId, ShuffleKey};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::boundary::buffer;

/// Adds the submodule `distributed` to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let sub = PyModule::new(m.py(), "distributed")?;
    sub.add_class::<TextSplit>()?;
    sub.add_function(wrap_pyfunction!(seed_hex, &sub)?)?;
    sub.add_function(wrap_pyfunction!(buckets_of, &sub)?)?;
    sub.add_function(wrap_pyfunction!(order_bucket, &sub)?)?;
    sub.add_function(wrap_pyfunction!(join_lines, &sub)?)?;
    sub.add_function(wrap_pyfunction!(buckets_for, &sub)?)?;
    m.add_submodule(&sub)
}

fn key_of(seed: &str) -> ShuffleKey {
    ShuffleKey::new(&Seed::parse(seed))
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The 64 hex digits of a seed text (64 hex digits are the key itself).
#[pyfunction]
fn seed_hex(seed: &str) -> String {
    Seed::parse(seed).to_hex()
}

/// `⌈3 · input_bytes / task_memory⌉`, at least 1: the default bucket count.
#[pyfunction]
fn buckets_for(input_bytes: u64, task_memory: u64) -> u64 {
    fairdeck_distributed::buckets_for(input_bytes, task_memory)
}

/// Row ids from two equally long int arrays, with a clear error for bad ones.
fn row_ids(files: &[i32], positions: &[i64]) -> PyResult<Vec<RowId>> {
    if files.len() != positions.len() {
        return Err(value_error(format!(
            "files and positions differ in length ({} and {})",
            files.len(),
            positions.len()
        )));
    }
    files
        .iter()
        .zip(positions)
        .map(|(&f, &p)| match (u32::try_from(f), u64::try_from(p)) {
            (Ok(f), Ok(p)) => Ok(RowId::new(f, p)),
            _ => Err(value_error(format!("negative row id ({f}, {p})"))),
        })
        .collect()
}

/// The bucket of each row (file index, position) among `buckets`.
#[pyfunction]
fn buckets_of<'py>(
    py: Python<'py>,
    seed: &str,
    buckets: u64,
    files: PyReadonlyArray1<'py, i32>,
    positions: PyReadonlyArray1<'py, i64>,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let ids = row_ids(files.as_slice()?, positions.as_slice()?)?;
    let bucket = bucket_fn(seed, buckets)?;
    let out: Vec<i32> = ids.into_iter().map(bucket).collect();
    Ok(PyArray1::from_vec(py, out))
}

/// The bucket function of a (seed, bucket count), checked once.
fn bucket_fn(seed: &str, buckets: u64) -> PyResult<impl Fn(RowId) -> i32 + Send + Sync + use<>> {
    if buckets == 0 || buckets > i32::MAX as u64 {
        return Err(value_error(format!(
            "buckets must be in 1..={}, got {buckets}",
            i32::MAX
        )));
    }
    let key = key_of(seed);
    Ok(move |id| key.bucket_of(id, buckets).expect("buckets ≥ 1") as i32)
}

/// The order of one bucket's rows: indices into the given arrays.
#[pyfunction]
fn order_bucket<'py>(
    py: Python<'py>,
    seed: &str,
    bucket: u64,
    files: PyReadonlyArray1<'py, i32>,
    positions: PyReadonlyArray1<'py, i64>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let ids = row_ids(files.as_slice()?, positions.as_slice()?)?;
    let order =
        fairdeck_distributed::order_bucket(&key_of(seed), bucket, &ids).map_err(value_error)?;
    Ok(PyArray1::from_vec(
        py,
        order.into_iter().map(|i| i as i64).collect(),
    ))
}

/// The lines `order` picks from an Arrow large-binary array (its data
/// bytes and int64 offsets), each followed by `\n`, as one `bytes`.
#[pyfunction]
fn join_lines<'py>(
    py: Python<'py>,
    data: PyReadonlyArray1<'py, u8>,
    offsets: PyReadonlyArray1<'py, i64>,
    order: PyReadonlyArray1<'py, i64>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (data, offsets, order) = (data.as_slice()?, offsets.as_slice()?, order.as_slice()?);
    let rows = offsets.len().saturating_sub(1);
    let mut out: Vec<u8> = buffer(data.len().saturating_add(order.len()), "join_lines")?;
    for &i in order {
        let i = usize::try_from(i)
            .ok()
            .filter(|&i| i < rows)
            .ok_or_else(|| value_error(format!("row {i} out of range (0..{rows})")))?;
        let (a, b) = (offsets[i], offsets[i + 1]);
        let line = usize::try_from(a)
            .ok()
            .zip(usize::try_from(b).ok())
            .and_then(|(a, b)| data.get(a..b))
            .ok_or_else(|| value_error(format!("bad offsets {a}..{b} of row {i}")))?;
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    Ok(PyBytes::new(py, &out))
}

/// One batch of a text split: line bytes, int32 offsets, int64 positions, int32 buckets.
type Batch<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i32>>,
);

/// The lines that start in one byte range of a text file, with their row
/// ids and buckets, in batches (`TextSplit(path, file, start, end, seed,
/// buckets).read(max_bytes)`, `None` at the end).
#[pyclass(module = "fairdeck._fairdeck.distributed")]
struct TextSplit {
    lines: SplitLines<File>,
    path: String,
    file: i32,
    bucket: Box<dyn Fn(RowId) -> i32 + Send + Sync>,
}

#[pymethods]
impl TextSplit {
    #[new]
    fn new(
        path: String,
        file: u32,
        start: u64,
        end: u64,
        seed: &str,
        buckets: u64,
    ) -> PyResult<Self> {
        let file = i32::try_from(file).map_err(|_| value_error("file index too large"))?;
        let bucket = Box::new(bucket_fn(seed, buckets)?);
        let open = File::open(&path).and_then(|f| SplitLines::new(f, start, end));
        let lines = open.map_err(|e| PyOSError::new_err(format!("{path}: {e}")))?;
        Ok(Self {
            lines,
            path,
            file,
            bucket,
        })
    }

    /// The next batch of about `max_bytes` of lines, or `None` after the last.
    fn read<'py>(&mut self, py: Python<'py>, max_bytes: usize) -> PyResult<Option<Batch<'py>>> {
        let (mut data, mut offsets, mut positions) = (Vec::new(), vec![0i32], Vec::new());
        let mut line = Vec::new();
        while data.len() < max_bytes.max(1) {
            let next = self.lines.next_line(&mut line);
            let Some(at) = next.map_err(|e| PyOSError::new_err(format!("{}: {e}", self.path)))?
            else {
                break;
            };
            data.extend_from_slice(&line);
            let end = i32::try_from(data.len())
                .map_err(|_| value_error(format!("{}: a batch over 2 GiB", self.path)))?;
            offsets.push(end);
            positions.push(at as i64);
        }
        if positions.is_empty() {
            return Ok(None);
        }
        let buckets = positions
            .iter()
            .map(|&p| (self.bucket)(RowId::new(self.file as u32, p as u64)))
            .collect();
        Ok(Some((
            PyBytes::new(py, &data),
            PyArray1::from_vec(py, offsets),
            PyArray1::from_vec(py, positions),
            PyArray1::from_vec(py, buckets),
        )))
    }
}
