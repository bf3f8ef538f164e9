//! Ctrl-C during a long call: signals are checked between chunks of work.
//!
//! Python runs its signal handlers (raising `KeyboardInterrupt` for SIGINT)
//! only in the main thread and only when that thread runs Python code or
//! calls `PyErr_CheckSignals`. A call that works for seconds with the GIL
//! released therefore checks, about every [`PERIOD`], from the main thread:
//! it takes the GIL for a moment and calls [`Python::check_signals`], as
//! numpy's long loops do.
//!
//! Work is only ever stopped where it leaves the data whole: between
//! chunks of draws, between rows, and inside a shuffle through the
//! library's stop hook (`fairdeck::shuffle::Shuffle::until`, on one
//! thread or all), which is asked between pieces of at most 65536
//! elements of work in every pass and leaves the slice a permutation of its
//! elements (not a uniformly random one) when it stops.
//!
//! * A sequential shuffle runs in the main thread: its hook is
//!   [`Watch::stop`], which checks when a check is due.
//! * A threaded call (`threads=k`) runs on its pool through
//!   [`Watch::run_parallel`] while the main thread checks every [`PERIOD`]
//!   and raises a flag that the workers' hook reads.
//!
//! The exception a handler raised is kept in the [`Watch`] and returned by
//! [`Watch::outcome`] once the library has stopped.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often a long call looks for a signal: short enough that Ctrl-C
/// stops it within about a tenth of a second, long enough that taking the
/// GIL costs nothing measurable (a few microseconds per check).
const PERIOD: Duration = Duration::from_millis(20);

/// [`Watch::stop`] reads the clock on one call in this many. A call of the
/// hook stands for at most one piece of at most 65536 elements of a shuffle
/// or one block of about as many items of `permuted` (a few hundred µs), so
/// 64 of them stay well within [`PERIOD`]. Reading the clock and taking the
/// lock on every call was 28 % of `permuted` on 10⁶ rows of 52 (perf,
/// `clock_gettime`), when the hook was still asked inside every row.
const CLOCK_STRIDE: u32 = 64;

/// Watches one call for signals.
pub struct Watch {
    /// Signals are only handled in the main thread: elsewhere nothing is checked.
    main: bool,
    /// When the next check is due, and the exception a check found.
    state: Mutex<(Instant, Option<PyErr>)>,
    /// Calls of [`Watch::stop`] so far (see [`CLOCK_STRIDE`]).
    calls: AtomicU32,
    /// Set once a check found an exception: later calls answer at once.
    raised: AtomicBool,
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
            calls: AtomicU32::new(0),
            raised: AtomicBool::new(false),
        })
    }

    /// A watch that never checks (for calls too short to need one). It
    /// reads no clock: a 52-card shuffle makes one, and `Instant::now` was
    /// a few percent of its time.
    pub fn none() -> Self {
        static EPOCH: OnceLock<Instant> = OnceLock::new();
        Watch {
            main: false,
            state: Mutex::new((*EPOCH.get_or_init(Instant::now), None)),
            calls: AtomicU32::new(0),
            raised: AtomicBool::new(false),
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

    /// The library's stop hook for work done by this (the main) thread:
    /// checks for a signal when a check is due, and answers `true` once a
    /// handler has raised (the exception is kept for [`Watch::outcome`]).
    pub fn stop(&self) -> bool {
        if !self.main {
            return false;
        }
        if self.raised.load(Ordering::Relaxed) {
            return true;
        }
        // Only the main thread calls this, so a plain load and store count
        // the calls (no locked read-modify-write on the hot path).
        let calls = self.calls.load(Ordering::Relaxed);
        self.calls.store(calls.wrapping_add(1), Ordering::Relaxed);
        if !calls.is_multiple_of(CLOCK_STRIDE) {
            return false;
        }
        let mut state = self.lock();
        if state.1.is_some() {
            return true;
        }
        let now = Instant::now();
        if now < state.0 {
            return false;
        }
        state.0 = now + PERIOD;
        match self.check() {
            Ok(()) => false,
            Err(e) => {
                state.1 = Some(e);
                self.raised.store(true, Ordering::Relaxed);
                true
            }
        }
    }

    /// The call's result once the library returned `result`: `Ok`, or the
    /// exception that made it stop.
    pub fn outcome<E>(&self, result: Result<(), E>) -> PyResult<()> {
        if result.is_ok() {
            return Ok(());
        }
        match self.lock().1.take() {
            Some(e) => Err(e),
            None => Err(PyRuntimeError::new_err(
                "fairdeck: a call stopped with no exception pending (please report it)",
            )),
        }
    }

    /// Runs `work` on `pool` and returns what it returns; meanwhile this
    /// thread checks for a signal every [`PERIOD`] and, once a handler
    /// raised, keeps the exception (for [`Watch::outcome`]) and makes the
    /// hook given to `work` answer `true`. Off the main thread the hook
    /// never stops.
    pub fn run_parallel<R: Send>(
        &self,
        pool: &rayon::ThreadPool,
        work: impl FnOnce(&(dyn Fn() -> bool + Sync)) -> R + Send,
    ) -> R {
        if !self.main {
            return pool.install(|| work(&|| false));
        }
        let raised = AtomicBool::new(false);
        let hook = || raised.load(Ordering::Relaxed);
        let (done, result) = mpsc::channel();
        pool.in_place_scope(|scope| {
            // Moved in, so that a panic of `work` drops the sender and the
            // loop below sees the channel disconnected.
            scope.spawn(move |_| {
                // The receiver waits until this is sent: it cannot be gone.
                let _ = done.send(work(&hook));
            });
            loop {
                match result.recv_timeout(PERIOD) {
                    Ok(r) => return r,
                    Err(RecvTimeoutError::Timeout) => {
                        if let Err(e) = self.check() {
                            self.lock().1.get_or_insert(e);
                            raised.store(true, Ordering::Relaxed);
                        }
                    }
                    // The work panicked: the scope raises its panic when it ends.
                    Err(RecvTimeoutError::Disconnected) => {
                        panic!("fairdeck: a parallel task panicked")
                    }
                }
            }
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (Instant, Option<PyErr>)> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}
