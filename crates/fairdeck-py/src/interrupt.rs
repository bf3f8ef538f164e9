//! Ctrl-C during a long call: signals are checked between chunks of work.
//!
//! Python runs its signal handlers (raising `KeyboardInterrupt` for SIGINT)
//! only in the main thread and only when that thread runs Python code or
//! calls `PyErr_CheckSignals`. A call that works for seconds with the GIL
//! released therefore checks, about every [`PERIOD`], from the main thread:
//! it takes the GIL for a moment and calls [`Python::check_signals`], as
//! numpy's long loops do. Work is only ever stopped between two steps that
//! each leave the data whole — between chunks of draws, between rows, and
//! inside a shuffle only where the library allows a panic (a dice answer or
//! the start of a pass), after which its slice still holds every element
//! once — so an interrupted shuffle leaves the array a permutation.
//!
//! A pending exception is carried out of the library's code by unwinding
//! with a private payload ([`std::panic::resume_unwind`], which prints
//! nothing) and turned back into the Python exception by [`Watch::run`].

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fairdeck::dice::Dice;
use fairdeck::shuffle::shuffle_by_passes;
use pyo3::prelude::*;

/// How often a long call looks for a signal: short enough that Ctrl-C
/// stops it within about a tenth of a second, long enough that taking the
/// GIL costs nothing measurable (a few microseconds per check).
const PERIOD: Duration = Duration::from_millis(20);

/// The unwinding payload that carries a pending exception out of library code.
struct Interrupted;

/// Watches one call for signals.
pub struct Watch {
    /// Signals are only handled in the main thread: elsewhere nothing is checked.
    main: bool,
    /// When the next check is due, and the exception a check found.
    state: Mutex<(Instant, Option<PyErr>)>,
}

impl Watch {
    /// A watch for a call made by this thread (the GIL is held).
    pub fn new(py: Python<'_>) -> PyResult<Self> {
        let threading = py.import("threading")?;
        let main = threading
            .call_method0("main_thread")?
            .getattr("ident")?
            .eq(threading.call_method0("get_ident")?)?;
        Ok(Watch {
            main,
            state: Mutex::new((Instant::now() + PERIOD, None)),
        })
    }

    /// A watch that never checks (for calls too short to need one).
    pub fn none() -> Self {
        Watch {
            main: false,
            state: Mutex::new((Instant::now(), None)),
        }
    }

    /// Checks for a signal now (`Err`: the exception its handler raised).
    /// Takes the GIL if this thread does not hold it.
    pub fn check(&self) -> PyResult<()> {
        if !self.main {
            return Ok(());
        }
        Python::attach(|py| py.check_signals())
    }

    /// Checks for a signal when one is due; unwinds with the exception
    /// (to be caught by [`Watch::run`]) if a handler raised one. Called from
    /// inside library code, at points where unwinding is allowed.
    pub fn poll(&self) {
        if !self.main {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        if now < state.0 {
            return;
        }
        state.0 = now + PERIOD;
        if let Err(e) = self.check() {
            state.1 = Some(e);
            drop(state);
            resume_unwind(Box::new(Interrupted));
        }
    }

    /// Runs `f`, turning an unwinding started by [`Watch::poll`] back into
    /// the exception it carries (any other panic goes on unwinding).
    pub fn run<R>(&self, f: impl FnOnce() -> R) -> PyResult<R> {
        catch_unwind(AssertUnwindSafe(f)).or_else(|payload| {
            if payload.is::<Interrupted>() {
                let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
                if let Some(e) = state.1.take() {
                    return Err(e);
                }
            }
            resume_unwind(payload)
        })
    }
}

/// `fairdeck::shuffle::shuffle` of `slice` (the same order), polling
/// `watch` as each pass begins and while the labels are drawn: the points
/// where the library allows the dice to unwind, leaving `slice` a
/// permutation of its elements.
pub fn watched_shuffle<T, D: Dice + ?Sized>(slice: &mut [T], dice: &mut D, watch: &Watch) {
    let mut watched = Watched { dice, watch };
    shuffle_by_passes(slice, &mut watched, &mut |_| watch.poll());
}

/// A dice that polls a [`Watch`] while it draws the labels of a large
/// shuffle (the one long run of draws with no pass boundary in it); every
/// answer is the inner dice's, so the shuffle's order is unchanged.
pub struct Watched<'a, D: ?Sized> {
    /// The dice answering.
    pub dice: &'a mut D,
    /// The watch polled.
    pub watch: &'a Watch,
}

impl<D: Dice + ?Sized> Dice for Watched<'_, D> {
    fn roll(&mut self, n: u64) -> u64 {
        self.dice.roll(n)
    }
    fn roll_many(&mut self, bounds: &[u64], out: &mut [u64]) {
        self.dice.roll_many(bounds, out);
    }
    fn roll_many_below(&mut self, bits: u32, bounds: &[u64], out: &mut [u64]) {
        self.dice.roll_many_below(bits, bounds, out);
    }
    fn roll_descending_below(&mut self, bits: u32, top: u64, out: &mut [u64]) {
        self.dice.roll_descending_below(bits, top, out);
    }
    fn roll_pow2_many(&mut self, bits: u32, out: &mut [u8]) {
        self.watch.poll();
        self.dice.roll_pow2_many(bits, out);
    }
    fn exhausted(&self) -> bool {
        self.dice.exhausted()
    }
    fn roll_range(&mut self, lo: u64, hi: u64) -> u64 {
        self.dice.roll_range(lo, hi)
    }
}
