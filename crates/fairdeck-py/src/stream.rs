//! The generator's stream of dice rolls, and the `threads=` option.

use std::sync::{Mutex, PoisonError};

use fairdeck::dice::RngDice;
use fairdeck::rng::{AnyRng, Generator, Seed};
use fairdeck::shuffle::Scratch;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rand_core::Rng;
use sha2::{Digest, Sha256};

use crate::convert::to_usize;

/// Work at least this long (in elements) runs with the GIL released: about
/// 3 µs of shuffling, more than the cost of releasing and taking it back.
pub const DETACH_LEN: usize = 1024;

/// The most scratch memory a generator keeps between calls: 2 GiB, what a
/// shuffle of 4·10⁸ `uint32` (5 bytes an item) needs. A call that needed
/// more frees it before it returns (`Scratch::with_limit`).
pub const KEEP_SCRATCH_BYTES: usize = 2 << 30;

/// Runs `$body` with `$dice` bound to `&mut RngDice<&mut G>` for the
/// stream's concrete generator `G`: the same draws as through the stream's
/// `with`, but compiled once per generator, so a loop of draws does not
/// dispatch on the generator's kind at every word.
#[macro_export]
macro_rules! with_dice {
    ($stream:expr, |$dice:ident| $body:expr) => {{
        let mut guard = $stream.lock();
        match guard.rng_mut() {
            ::fairdeck::rng::AnyRng::ChaCha20(r) => {
                let $dice = &mut ::fairdeck::dice::RngDice::new(&mut **r);
                $body
            }
            ::fairdeck::rng::AnyRng::ChaCha12(r) => {
                let $dice = &mut ::fairdeck::dice::RngDice::new(&mut **r);
                $body
            }
            ::fairdeck::rng::AnyRng::ChaCha8(r) => {
                let $dice = &mut ::fairdeck::dice::RngDice::new(&mut **r);
                $body
            }
            ::fairdeck::rng::AnyRng::Xoshiro256PlusPlus(r) => {
                let $dice = &mut ::fairdeck::dice::RngDice::new(r);
                $body
            }
        }
    }};
}

/// One generator's dice, shared by its methods.
///
/// The mutex lets a method run with the GIL released while another Python
/// thread calls the same generator: the second call waits for the first,
/// so every call sees the stream in a well-defined state. Code holding the
/// lock never waits for the GIL, so the two locks cannot deadlock.
pub struct Stream {
    /// Which generator the seed keys.
    pub kind: Generator,
    dice: Mutex<RngDice<AnyRng>>,
    /// The buffers of the last large shuffle, kept for the next one so its
    /// memory is not faulted in and zeroed by the kernel again (up to
    /// [`KEEP_SCRATCH_BYTES`]; `Generator.release_scratch()` frees it).
    scratch: Mutex<Scratch>,
}

impl Stream {
    /// The dice of `kind` keyed with `seed`: the CLI's `--seed`/`--generator`.
    pub fn new(seed: &Seed, kind: Generator) -> Self {
        Stream::of(kind, RngDice::new(kind.build(seed)))
    }

    fn of(kind: Generator, dice: RngDice<AnyRng>) -> Self {
        Stream {
            kind,
            dice: Mutex::new(dice),
            scratch: Mutex::new(Scratch::with_limit(KEEP_SCRATCH_BYTES)),
        }
    }

    /// The generator's kept scratch memory (see [`KEEP_SCRATCH_BYTES`]).
    pub fn scratch(&self) -> std::sync::MutexGuard<'_, Scratch> {
        // Stale bytes are all a scratch holds between calls: poison is harmless.
        self.scratch.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` with the dice (waiting for another thread's call to finish).
    pub fn with<R>(&self, f: impl FnOnce(&mut RngDice<AnyRng>) -> R) -> R {
        f(&mut self.lock())
    }

    /// The dice, locked (waiting for another thread's call to finish).
    /// [`with_dice!`](crate::with_dice) uses it to run loops of draws on
    /// the concrete generator, with no per-draw dispatch.
    pub fn lock(&self) -> std::sync::MutexGuard<'_, RngDice<AnyRng>> {
        // A panic cannot leave the generator half-updated in a way that
        // matters (its state is always a valid state), so poison is ignored.
        self.dice.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Where a ChaCha stream is: its offset in 32-bit words from the start
    /// (the generator's own `get_word_pos`); `None` for xoshiro256++, whose
    /// state is not exposed.
    pub fn position(&self) -> Option<u128> {
        self.with(|dice| match dice.rng_mut() {
            AnyRng::ChaCha20(r) => Some(r.get_word_pos()),
            AnyRng::ChaCha12(r) => Some(r.get_word_pos()),
            AnyRng::ChaCha8(r) => Some(r.get_word_pos()),
            AnyRng::Xoshiro256PlusPlus(_) => None,
        })
    }

    /// A xoshiro256++ stream's four state words (`None` for ChaCha, whose
    /// place is [`Stream::position`]).
    pub fn xoshiro_state(&self) -> Option<[u64; 4]> {
        self.with(|dice| match dice.rng_mut() {
            // Its serde form is `{"s": [four words]}`.
            AnyRng::Xoshiro256PlusPlus(r) => serde_json::to_value(&*r)
                .ok()
                .and_then(|v| serde_json::from_value::<[u64; 4]>(v["s"].clone()).ok()),
            _ => None,
        })
    }

    /// A xoshiro256++ stream in the state `s` (as [`Stream::xoshiro_state`] gave it).
    ///
    /// # Errors
    ///
    /// A state of all zeros (not a state the generator can be in).
    pub fn xoshiro_at(s: [u64; 4]) -> PyResult<Self> {
        if s == [0; 4] {
            return Err(PyValueError::new_err(
                "a xoshiro256pp state cannot be all zeros",
            ));
        }
        let rng: rand_xoshiro::Xoshiro256PlusPlus =
            serde_json::from_value(serde_json::json!({ "s": s }))
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Stream::of(
            Generator::Xoshiro256PlusPlus,
            RngDice::new(AnyRng::Xoshiro256PlusPlus(rng)),
        ))
    }

    /// The stream of `kind` keyed with `seed`, at word offset `position`.
    pub fn at(seed: &Seed, kind: Generator, position: u128) -> Self {
        let stream = Stream::new(seed, kind);
        stream.seek(position);
        stream
    }

    /// Moves a ChaCha stream to word offset `position` in place (what
    /// [`Stream::position`] gave); `false` for xoshiro256++, which has no
    /// offset (see [`Stream::set_xoshiro`]).
    pub fn seek(&self, position: u128) -> bool {
        self.with(|dice| {
            match dice.rng_mut() {
                AnyRng::ChaCha20(r) => r.set_word_pos(position),
                AnyRng::ChaCha12(r) => r.set_word_pos(position),
                AnyRng::ChaCha8(r) => r.set_word_pos(position),
                AnyRng::Xoshiro256PlusPlus(_) => return false,
            }
            true
        })
    }

    /// Puts a xoshiro256++ stream in the state `s` in place (as
    /// [`Stream::xoshiro_state`] gave it).
    ///
    /// # Errors
    ///
    /// A ChaCha stream (its place is an offset), or a state of all zeros.
    pub fn set_xoshiro(&self, s: [u64; 4]) -> PyResult<()> {
        let Stream { dice, .. } = Stream::xoshiro_at(s)?;
        let fresh = dice.into_inner().unwrap_or_else(PoisonError::into_inner);
        let mut current = self.lock();
        if !matches!(current.rng_mut(), AnyRng::Xoshiro256PlusPlus(_)) {
            return Err(PyValueError::new_err(
                "a ChaCha stream's state is its position, not xoshiro256pp words",
            ));
        }
        *current = fresh;
        Ok(())
    }

    /// A stream in exactly this one's state, drawing independently from now on.
    pub fn duplicate(&self, seed: &Seed) -> Self {
        let copy = self.with(|dice| match dice.rng_mut() {
            AnyRng::Xoshiro256PlusPlus(r) => Some(r.clone()),
            _ => None,
        });
        match (copy, self.position()) {
            (Some(rng), _) => Stream::of(self.kind, RngDice::new(AnyRng::Xoshiro256PlusPlus(rng))),
            (None, position) => Stream::at(seed, self.kind, position.unwrap_or(0)),
        }
    }

    /// A new 256-bit key taken from the stream (32 bytes of generator
    /// output), for work that runs on several threads with derived keys.
    pub fn subkey(&self) -> Seed {
        let mut key = [0u8; 32];
        self.with(|dice| dice.rng_mut().fill_bytes(&mut key));
        Seed::from_bytes(key)
    }
}

/// The dice of task `index` of a threaded job keyed by `key`: the
/// generator of the same kind keyed by SHA-256 of a label, the key and the
/// index, so tasks draw from independent keys whatever the thread count.
pub fn task_dice(key: &Seed, kind: Generator, label: &[u8], index: usize) -> RngDice<AnyRng> {
    let derived = Sha256::new()
        .chain_update(b"fairdeck-py/")
        .chain_update(label)
        .chain_update(key.as_bytes())
        .chain_update((index as u64).to_le_bytes())
        .finalize();
    RngDice::new(kind.build(&Seed::from_bytes(derived.into())))
}

/// `threads=`: `None` runs the sequential algorithm on the generator's own
/// stream (the order the CLI and the Rust library give); an integer runs
/// the parallel algorithm on that many threads, keyed by 32 bytes taken
/// from the stream, with the same result for every thread count (so a
/// count above [`max_threads`] is lowered to it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threads {
    /// The sequential algorithm on the generator's stream.
    Sequential,
    /// The parallel algorithm on a pool of this many threads.
    Pool(usize),
}

impl Threads {
    /// Reads `threads=` (None or an integer ≥ 1).
    pub fn from_arg(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(threads) = threads.filter(|t| !t.is_none()) else {
            return Ok(Threads::Sequential);
        };
        match to_usize(threads, "threads")? {
            0 => Err(PyValueError::new_err(
                "threads must be at least 1 (or None for the sequential shuffle)",
            )),
            k => Ok(Threads::Pool(k.min(max_threads()))),
        }
    }
}

/// The most threads one call starts: the cores this process may use
/// (`std::thread::available_parallelism`). A larger `threads=` is lowered
/// to it: every thread count gives the same result, so more threads could
/// only add start-up time and memory.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A rayon pool of `threads` threads.
pub fn pool(threads: usize) -> PyResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start {threads} threads: {e}")))
}
