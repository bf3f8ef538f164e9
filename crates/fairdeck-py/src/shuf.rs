//! `fairdeck.shuf`: `fairdeck shuf FILE -o OUT` from Python, through the
//! `fairdeck-shuf` library (in memory, or out of core beyond `memory`).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use fairdeck_shuf::memory::{SystemMemory, parse_size};
use fairdeck_shuf::quote::Quotes;
use fairdeck_shuf::{Cancel, Error, Method, Options, Randomness, Stats, shuffle_file};
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyString};

use crate::convert::{to_u64, type_name};
use crate::seed::Key;

/// How often a running shuffle looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Shuffles the lines of the file ``input_path`` into ``output_path``
/// (which may be the input itself: it is replaced only once the output is
/// complete), uniformly over all orders, as ``fairdeck shuf INPUT -o OUTPUT``.
/// Lines are bytes; a missing final newline is added, as GNU shuf does.
///
/// ``memory`` is the RAM budget: bytes (an int) or a size such as
/// ``"64M"`` or ``"25%"``; the default is the CLI's (half of the memory the
/// process may use). Larger files are shuffled out of core through
/// temporary bucket files in ``temp_dir`` (default ``/tmp``). ``seed`` as in
/// ``Generator``: the same seed and input give the output of
/// ``fairdeck shuf --seed SEED``; ``None`` draws a fresh key.
///
/// Returns a dict: ``records`` and ``bytes`` written, ``method``
/// (``"in-memory"``, ``"out-of-core"``, ...) and the ``seed`` used.
/// Runs without the GIL; Ctrl-C stops it, removes its temporary files and
/// raises KeyboardInterrupt. Raises OSError for unreadable input or
/// unwritable output (a full disk is reported, never half-written over the
/// input), ValueError for a bad memory size.
#[pyfunction]
#[pyo3(signature = (input_path, output_path, memory=None, seed=None, temp_dir=None))]
pub fn shuf<'py>(
    py: Python<'py>,
    input_path: PathBuf,
    output_path: PathBuf,
    memory: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    temp_dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let key = Key::from_arg(seed)?;
    let flag = Arc::new(AtomicBool::new(false));
    let mut options = Options::new(Randomness::Seed(key.seed));
    options.memory = budget(memory)?;
    options.cancel = Cancel::new(Arc::clone(&flag));
    if let Some(dir) = temp_dir {
        options.temp_dir = dir;
    }
    let stats = run_interruptible(py, &options, &input_path, &output_path)?;
    let doc = PyDict::new(py);
    doc.set_item("records", stats.records)?;
    doc.set_item("bytes", stats.bytes)?;
    doc.set_item("method", method_name(stats.method))?;
    doc.set_item("seed", key.seed.to_hex())?;
    Ok(doc)
}

/// Runs the shuffle on another thread while this one, without the GIL,
/// checks for Ctrl-C every [`SIGNAL_POLL`] and raises the cancel flag on it.
fn run_interruptible(
    py: Python<'_>,
    options: &Options,
    input: &std::path::Path,
    output: &std::path::Path,
) -> PyResult<Stats> {
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| shuffle_file(input, output, options));
        let mut interrupt = None;
        while !worker.is_finished() {
            py.detach(|| std::thread::sleep(SIGNAL_POLL));
            if let Err(e) = py.check_signals() {
                options.cancel.raise();
                interrupt = Some(e);
                break;
            }
        }
        let result = py.detach(|| worker.join());
        match (result, interrupt) {
            (_, Some(e)) => Err(e),
            (Ok(result), None) => result.map_err(to_py),
            (Err(_), None) => Err(PyOSError::new_err("the shuffle thread failed")),
        }
    })
}

/// `memory=`: bytes, a size text (`"64M"`, `"25%"`), or the CLI's default.
fn budget(memory: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    let system = SystemMemory::probe();
    let Some(memory) = memory.filter(|m| !m.is_none()) else {
        return Ok(system.default_budget());
    };
    let size = if let Ok(text) = memory.cast::<PyString>() {
        parse_size(text.to_str()?, Quotes::Ascii).map_err(to_py)?
    } else if memory.is_instance_of::<PyInt>() {
        fairdeck_shuf::memory::MemorySize::Bytes(to_u64(memory, "memory")?)
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "memory must be a number of bytes or a size like \"64M\", not {}",
            type_name(memory)
        )));
    };
    Ok(system.resolve(size))
}

fn method_name(method: Method) -> &'static str {
    match method {
        Method::InMemory { mapped: true } => "in-memory (mapped)",
        Method::InMemory { mapped: false } => "in-memory",
        Method::OutOfCore { .. } => "out-of-core",
        Method::Reservoir => "reservoir",
        _ => "other",
    }
}

/// The library's errors as Python exceptions, with GNU's wording.
fn to_py(e: Error) -> PyErr {
    match e {
        Error::Io { .. } | Error::RandomSourceEnd(_) => PyOSError::new_err(e.to_string()),
        Error::MemoryExhausted(_) => PyMemoryError::new_err(e.to_string()),
        Error::Interrupted => PyKeyboardInterrupt::new_err("shuffle interrupted"),
        _ => PyValueError::new_err(e.to_string()),
    }
}
