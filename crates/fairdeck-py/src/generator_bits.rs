//! The bit generator of a `fairdeck.Generator`: numpy's C interface (a
//! `PyCapsule` named `"BitGenerator"` holding a `bitgen_t`) over the very
//! stream the generator's exact methods draw from, so that numpy's
//! distributions (`g.normal`, `g.gamma`, …) and fairdeck's shuffles and
//! samples take turns on one stream and a run that mixes them replays from
//! the seed.
//!
//! numpy's functions take the stream's next word with the generator's own
//! `RngDice` (`next_uint64` is the generator's `next_u64`, `next_uint32` its
//! `next_u32`, `next_double` `(next_u64 >> 11) · 2⁻⁵³`). For ChaCha the place
//! in the stream is the generator's 32-bit word offset, shown to Python in
//! bytes (4 a word); for xoshiro256++ it is the four state words.
//!
//! A standalone `fairdeck.ChaCha20(seed)` is a different object
//! (`bitgen.rs`): a byte stream of its own, as `fairdeck rng` writes it.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use numpy::PyArray1;
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule};
use rand_core::Rng;

use crate::bitgen::{BitSource, capsule, unit_double};
use crate::convert::to_usize;
use crate::generator::Generator;
use crate::stream::Stream;

impl BitSource for Stream {
    fn next_u64(&self) -> u64 {
        self.with(|dice| dice.rng_mut().next_u64())
    }

    fn next_u32(&self) -> u32 {
        self.with(|dice| dice.rng_mut().next_u32())
    }
}

/// A `fairdeck.Generator`'s stream as numpy reads a bit generator's; the
/// Python classes `fairdeck.ChaCha20` … wrap it for `g.bit_generator`.
#[pyclass(module = "fairdeck._fairdeck", frozen)]
pub struct GeneratorBits {
    core: Py<Generator>,
    stream: Arc<Stream>,
    capsule: Py<PyCapsule>,
}

#[pymethods]
impl GeneratorBits {
    /// `GeneratorBits(core)`: the stream of the generator core `core`.
    #[new]
    fn new(py: Python<'_>, core: Py<Generator>) -> PyResult<Self> {
        let stream = Arc::clone(&core.get().stream);
        let capsule = capsule(py, &stream)?;
        Ok(GeneratorBits {
            core,
            stream,
            capsule,
        })
    }

    /// The capsule `np.random.Generator` reads (`"BitGenerator"`, a `bitgen_t`).
    #[getter]
    fn capsule(&self, py: Python<'_>) -> Py<PyCapsule> {
        self.capsule.clone_ref(py)
    }

    /// The generator's name, as the CLI's `--generator` takes it.
    #[getter]
    fn generator(&self) -> &'static str {
        self.stream.kind.name()
    }

    /// The 256-bit key, as 64 hex digits.
    #[getter]
    fn key(&self) -> String {
        self.core.get().key.seed.to_hex()
    }

    /// A ChaCha stream's place: bytes handed out since the key was set (4
    /// per 32-bit word); `None` for xoshiro256++ (see `xoshiro`).
    #[getter]
    fn position(&self) -> Option<u128> {
        self.stream.position().map(|words| words * 4)
    }

    /// A xoshiro256++ stream's four state words (`None` for ChaCha).
    #[getter]
    fn xoshiro(&self) -> Option<[u64; 4]> {
        self.stream.xoshiro_state()
    }

    /// Moves a ChaCha stream to byte `position` (a multiple of 4, as
    /// `position` gives it), in place: numpy keeps a pointer to the stream.
    fn seek(&self, position: u128) -> PyResult<()> {
        if !position.is_multiple_of(4) || position / 4 >= 1 << 68 {
            return Err(PyValueError::new_err(
                "position must be a multiple of 4 below 2**70 (a ChaCha stream moves by 32-bit words)",
            ));
        }
        if !self.stream.seek(position / 4) {
            return Err(PyValueError::new_err(
                "a xoshiro256pp stream's state is its four words, not a position",
            ));
        }
        Ok(())
    }

    /// Puts a xoshiro256++ stream in the state `words`, in place.
    fn set_xoshiro(&self, words: [u64; 4]) -> PyResult<()> {
        self.stream.set_xoshiro(words)
    }

    /// Children spawned so far (shared with `Generator.spawn`).
    #[getter]
    fn spawned(&self) -> u64 {
        self.core.get().spawned.load(Ordering::Relaxed)
    }

    /// Sets the spawn count (a saved state's).
    #[setter]
    fn set_spawned(&self, spawned: u64) {
        self.core.get().spawned.store(spawned, Ordering::Relaxed);
    }

    /// Takes the next `n` child indexes and returns the first.
    fn reserve_spawns(&self, n: u64) -> PyResult<u64> {
        let spawned = &self.core.get().spawned;
        spawned
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| s.checked_add(n))
            .map_err(|_| PyValueError::new_err("a bit generator spawns at most 2**64 children"))
    }

    /// The next `count` 64-bit words of the stream, as a numpy `uint64` array.
    fn words<'py>(
        &self,
        py: Python<'py>,
        count: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let n = to_usize(count, "size")?;
        let mut out = Vec::new();
        out.try_reserve_exact(n)
            .map_err(|_| PyMemoryError::new_err(format!("{n} words do not fit in memory")))?;
        py.detach(|| {
            self.stream
                .with(|dice| out.extend((0..n).map(|_| dice.rng_mut().next_u64())))
        });
        Ok(PyArray1::from_vec(py, out))
    }

    /// The next `count` bytes of the stream (whole 32-bit words are taken).
    fn bytes<'py>(
        &self,
        py: Python<'py>,
        count: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let n = to_usize(count, "length")?;
        let mut out = Vec::new();
        out.try_reserve_exact(n)
            .map_err(|_| PyMemoryError::new_err(format!("{n} bytes do not fit in memory")))?;
        out.resize(n, 0);
        py.detach(|| self.stream.with(|dice| dice.rng_mut().fill_bytes(&mut out)));
        Ok(PyBytes::new(py, &out))
    }

    /// A double in [0, 1) from the next word (as numpy's `next_double`).
    fn double(&self) -> f64 {
        unit_double(self.stream.with(|dice| dice.rng_mut().next_u64()))
    }
}
