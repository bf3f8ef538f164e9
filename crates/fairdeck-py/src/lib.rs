//! # fairdeck-py
//!
//! The Python package `fairdeck`: the extension module `fairdeck._fairdeck`
//! (this crate, PyO3, stable ABI for CPython ≥ 3.11) and the pure-Python
//! modules beside it in `python/fairdeck/`. Build and install it with
//! `pip install ./crates/fairdeck-py` or `maturin develop`.
//!
//! ```python
//! import numpy as np, fairdeck
//! g = fairdeck.Generator("friday night")    # the CLI's --seed
//! deck = np.arange(52)
//! g.shuffle(deck)                            # in place, exactly uniform
//! ```
//!
//! Every random choice goes through the `fairdeck` library's dice (exact
//! bounded draws), keyed by the same seeds as the CLI, so the same seed gives
//! the same shuffle, sample and deal in Python, in Rust and on the command
//! line. Errors are Python exceptions (`ValueError`, `TypeError`,
//! `OverflowError`, `MemoryError` for memory the caller asked for that is
//! not there); no input makes the Rust code panic, and a panic (a bug)
//! would reach Python as a `RuntimeError` (see `boundary`).
//!
//! The crate has no Rust tests of its own (see `Cargo.toml`): its tests are
//! the pytest suite in `crates/fairdeck-py/tests`, run by `scripts/test-python`.

// FFI crate: `unsafe` is needed to shuffle a numpy array's memory in place
// (arrays.rs, one function, with its invariant stated there) and to hand
// numpy a bit generator (bitgen.rs: the capsule's state pointer).
#![deny(unsafe_op_in_unsafe_fn)]

use pyo3::prelude::*;

mod analysis;
mod arrays;
mod bitgen;
mod boundary;
mod bounds;
mod convert;
mod deal;
mod distributed;
mod draws;
mod fill;
mod floats;
mod generator;
mod generator_bits;
mod integers;
mod interrupt;
mod rolls;
mod rows;
mod seed;
mod shuf;
mod stream;
mod turns;
mod verify;
mod weights;

/// The extension module: everything `fairdeck/__init__.py` re-exports.
#[pymodule]
fn _fairdeck(m: &Bound<'_, PyModule>) -> PyResult<()> {
    numpy_api(m.py())?;
    m.add_class::<generator::Generator>()?;
    m.add_function(wrap_pyfunction!(generator::_restore_generator, m)?)?;
    m.add_class::<bitgen::BitStream>()?;
    m.add_class::<generator_bits::GeneratorBits>()?;
    m.add_function(wrap_pyfunction!(analysis::exact, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::audit, m)?)?;
    distributed::register(m)?;
    m.add_function(wrap_pyfunction!(shuf::shuf, m)?)?;
    m.add_function(wrap_pyfunction!(verify::verify, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Which backend makes ChaCha20's keystream on this CPU (the benchmark prints it).
    m.add("_chacha20_backend", fairdeck::rng::chacha20_backend())?;
    Ok(())
}

/// Loads numpy's C API now, at import, rather than inside the first call
/// that makes an array: the numpy crate loads it lazily and panics if that
/// fails, and a Ctrl-C pending at that moment made it fail (the call then
/// raised "internal error … please report it" instead of
/// `KeyboardInterrupt`). Here a pending signal is raised first, as the
/// import's `KeyboardInterrupt`; if one arrives while the API loads (it
/// runs a little Python code), the load is tried again and the interrupt
/// reported the same way.
fn numpy_api(py: Python<'_>) -> PyResult<()> {
    py.check_signals()?;
    py.import("numpy")?;
    let load = || std::panic::catch_unwind(|| numpy::PyArray1::<u8>::zeros(py, 0, false).len());
    if load().is_ok() {
        return Ok(());
    }
    match load() {
        Ok(_) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(())),
        Err(_) => Err(pyo3::exceptions::PyImportError::new_err(
            "fairdeck: numpy's C API could not be loaded (is numpy >= 1.21 installed?)",
        )),
    }
}
