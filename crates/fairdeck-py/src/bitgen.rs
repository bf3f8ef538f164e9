//! `fairdeck.ChaCha20(seed)` and its siblings as numpy bit generators: the
//! byte stream of `fairdeck rng --seed SEED --generator G`, handed to numpy
//! through its C interface (a `PyCapsule` named `"BitGenerator"` holding a
//! `bitgen_t`: a state pointer and four `extern "C"` functions), so that
//! `np.random.Generator(fairdeck.ChaCha20(seed))` runs every numpy
//! distribution on fairdeck's seed-stable stream.
//!
//! The stream is read as bytes, in order: `next_uint64` takes the next 8
//! bytes (little-endian), `next_uint32` the next 4, `next_double` is
//! `(next_uint64 >> 11) · 2⁻⁵³`. Whatever mix of calls numpy makes, the bytes
//! consumed are the CLI's, in the CLI's order; [`BitStream::position`] counts
//! them (the state that pickling saves).
//!
//! numpy calls the functions with the GIL released, holding the bit
//! generator's `lock`; the state is behind a mutex as well, so that no caller
//! (numpy, this module's methods, another extension) can reach it unlocked.

use std::ffi::c_void;
use std::sync::{Arc, Mutex, PoisonError};

use fairdeck::rng::{AnyRng, Generator, Seed};
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule};
use rand_core::Rng;

use crate::convert::to_usize;
use crate::seed::Key;

/// Bytes generated at a time: a multiple of 8, so that the stream is the
/// same bytes `fairdeck rng` writes (it fills whole 64-bit words too).
const BLOCK: usize = 512;

/// The generator and the bytes of its current block not yet handed out.
struct Bytes {
    seed: Seed,
    rng: AnyRng,
    block: [u8; BLOCK],
    next: usize,
    /// Bytes handed out since the key was set.
    position: u64,
}

impl Bytes {
    fn new(kind: Generator, seed: &Seed) -> Self {
        Bytes {
            seed: *seed,
            rng: kind.build(seed),
            block: [0; BLOCK],
            next: BLOCK,
            position: 0,
        }
    }

    /// The next `N` bytes of the stream.
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        self.fill(&mut out);
        out
    }

    /// Fills `out` with the next bytes of the stream.
    fn fill(&mut self, out: &mut [u8]) {
        let mut done = 0;
        while done < out.len() {
            if self.next == BLOCK {
                self.rng.fill_bytes(&mut self.block);
                self.next = 0;
            }
            let n = (out.len() - done).min(BLOCK - self.next);
            out[done..done + n].copy_from_slice(&self.block[self.next..self.next + n]);
            self.next += n;
            done += n;
        }
        self.position += out.len() as u64;
    }

    /// Skips `count` bytes.
    fn skip(&mut self, mut count: u64) {
        let mut scratch = [0u8; BLOCK];
        while count > 0 {
            let n = count.min(BLOCK as u64) as usize;
            self.fill(&mut scratch[..n]);
            count -= n as u64;
        }
    }

    fn next_u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
}

/// The state numpy's functions receive (through a pointer to it).
struct Shared(Mutex<Bytes>);

impl Shared {
    fn with<R>(&self, f: impl FnOnce(&mut Bytes) -> R) -> R {
        // Every state of the generator is a valid state: poison is ignored.
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// numpy's `bitgen_t` (numpy/random/bitgen.h), field for field.
#[repr(C)]
struct BitGenT {
    state: *mut c_void,
    next_uint64: unsafe extern "C" fn(*mut c_void) -> u64,
    next_uint32: unsafe extern "C" fn(*mut c_void) -> u32,
    next_double: unsafe extern "C" fn(*mut c_void) -> f64,
    next_raw: unsafe extern "C" fn(*mut c_void) -> u64,
}

/// A stream numpy's functions may draw from on any thread (its state is
/// behind a mutex): a standalone byte stream ([`Shared`]) or a
/// `fairdeck.Generator`'s own stream (`generator_bits.rs`).
pub(crate) trait BitSource: Send + Sync + 'static {
    /// The next 64 bits.
    fn next_u64(&self) -> u64;
    /// The next 32 bits.
    fn next_u32(&self) -> u32;
}

/// What the capsule holds: the `bitgen_t` first (the capsule's pointer is a
/// pointer to it), then the owner of the state it points to.
#[repr(C)]
struct Capsule<T: BitSource> {
    bitgen: BitGenT,
    owner: Arc<T>,
}

// SAFETY: the only raw pointer, `bitgen.state`, points into the `T` that
// `owner` keeps alive, and `T` is `Sync`: moving the capsule's contents to
// another thread (numpy may free it on any thread) moves nothing that is
// tied to this one.
unsafe impl<T: BitSource> Send for Capsule<T> {}

/// The `T` behind numpy's state pointer.
///
/// # Safety
///
/// `state` must be the `state` of a `bitgen_t` made by [`capsule`] for a
/// `T`, whose capsule (and so the `Arc` owning the `T`) is still alive —
/// numpy guarantees it: a `Generator` holds its bit generator.
unsafe fn source<'a, T: BitSource>(state: *mut c_void) -> &'a T {
    // SAFETY: by the function's contract `state` came from `Arc::as_ptr` of
    // a live `Arc<T>`.
    unsafe { &*state.cast::<T>() }
}

unsafe extern "C" fn next_uint64<T: BitSource>(state: *mut c_void) -> u64 {
    // SAFETY: numpy passes the `state` of the `bitgen_t` it was given.
    unsafe { source::<T>(state) }.next_u64()
}

unsafe extern "C" fn next_uint32<T: BitSource>(state: *mut c_void) -> u32 {
    // SAFETY: as in `next_uint64`.
    unsafe { source::<T>(state) }.next_u32()
}

unsafe extern "C" fn next_double<T: BitSource>(state: *mut c_void) -> f64 {
    // SAFETY: as in `next_uint64`.
    unit_double(unsafe { source::<T>(state) }.next_u64())
}

/// numpy's C interface to `owner`: a `PyCapsule` named `"BitGenerator"`
/// holding a `bitgen_t` whose functions draw from it.
pub(crate) fn capsule<T: BitSource>(py: Python<'_>, owner: &Arc<T>) -> PyResult<Py<PyCapsule>> {
    let value = Capsule {
        bitgen: BitGenT {
            state: Arc::as_ptr(owner).cast_mut().cast(),
            next_uint64: next_uint64::<T>,
            next_uint32: next_uint32::<T>,
            next_double: next_double::<T>,
            next_raw: next_uint64::<T>,
        },
        owner: Arc::clone(owner),
    };
    Ok(PyCapsule::new_with_value(py, value, c"BitGenerator")?.unbind())
}

impl BitSource for Shared {
    fn next_u64(&self) -> u64 {
        self.with(Bytes::next_u64)
    }

    fn next_u32(&self) -> u32 {
        self.with(|b| u32::from_le_bytes(b.take()))
    }
}

/// The top 53 bits of `word` as a double in [0, 1): every value a multiple
/// of 2⁻⁵³, each equally likely (numpy's own bit generators do the same).
pub(crate) fn unit_double(word: u64) -> f64 {
    (word >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// One fairdeck generator's byte stream, with the capsule numpy reads.
/// (The Python classes `fairdeck.ChaCha20` … wrap it; see `bitgen.py`.)
#[pyclass(module = "fairdeck._fairdeck", frozen)]
pub struct BitStream {
    kind: Generator,
    shared: Arc<Shared>,
    capsule: Py<PyCapsule>,
}

#[pymethods]
impl BitStream {
    /// `BitStream(generator, seed=None)`: `generator` one of `chacha20`,
    /// `chacha12`, `chacha8`, `xoshiro256pp`; `seed` as `fairdeck.Generator`
    /// takes it (the CLI's `--seed`; `None` draws a fresh key).
    #[new]
    #[pyo3(signature = (generator, seed=None))]
    fn new(py: Python<'_>, generator: &str, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let kind: Generator = generator
            .parse()
            .map_err(|e| PyValueError::new_err(format!("{e}")))?;
        let key = Key::from_arg(seed)?.seed;
        let shared = Arc::new(Shared(Mutex::new(Bytes::new(kind, &key))));
        let capsule = capsule(py, &shared)?;
        Ok(BitStream {
            kind,
            shared,
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
        self.kind.name()
    }

    /// The 256-bit key, as 64 hex digits (`--seed` of the CLI takes it back).
    #[getter]
    fn key(&self) -> String {
        self.shared.with(|b| b.seed.to_hex())
    }

    /// Bytes of the stream handed out so far.
    #[getter]
    fn position(&self) -> u64 {
        self.shared.with(|b| b.position)
    }

    /// Re-keys the stream with `seed` and moves it to byte `position` (a
    /// saved state). The stream is changed in place: numpy keeps a pointer
    /// to it for as long as its `Generator` lives, so it is never replaced.
    fn reset(&self, py: Python<'_>, seed: &Bound<'_, PyAny>, position: u64) -> PyResult<()> {
        let key = Key::from_arg(Some(seed))?.seed;
        let kind = self.kind;
        py.detach(|| {
            let mut fresh = Bytes::new(kind, &key);
            fresh.skip(position);
            self.shared.with(|b| *b = fresh);
        });
        Ok(())
    }

    /// The next `count` 64-bit words of the stream, as a numpy `uint64` array.
    fn words<'py>(
        &self,
        py: Python<'py>,
        count: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let n = to_usize(count, "size")?;
        let mut out = Vec::new();
        out.try_reserve_exact(n).map_err(|_| {
            pyo3::exceptions::PyMemoryError::new_err(format!("{n} words do not fit in memory"))
        })?;
        py.detach(|| {
            self.shared
                .with(|b| out.extend((0..n).map(|_| b.next_u64())))
        });
        Ok(PyArray1::from_vec(py, out))
    }

    /// The next `count` bytes of the stream.
    fn bytes<'py>(
        &self,
        py: Python<'py>,
        count: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let n = to_usize(count, "length")?;
        let mut out = Vec::new();
        out.try_reserve_exact(n).map_err(|_| {
            pyo3::exceptions::PyMemoryError::new_err(format!("{n} bytes do not fit in memory"))
        })?;
        out.resize(n, 0);
        py.detach(|| self.shared.with(|b| b.fill(&mut out)));
        Ok(PyBytes::new(py, &out))
    }

    /// A double in [0, 1) from the next 8 bytes (as numpy's `next_double`).
    fn double(&self) -> f64 {
        unit_double(self.shared.with(Bytes::next_u64))
    }
}
