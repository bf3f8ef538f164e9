//! One call at a time on a shared `Generator`.
//!
//! A generator's stream has its own mutex, but a call is more than its
//! draws: a threaded shuffle (`threads=k`) takes a key from the stream and
//! then moves the array's items with the stream unlocked, and arrays of
//! other widths are shuffled through a copy or an index written back by
//! numpy. Two Python threads shuffling one array with one generator ran
//! those steps at once and left the array no longer a permutation. So each
//! call takes the generator's turn first and holds it to the end.
//!
//! The turn is waited for with the GIL released (the thread holding the turn
//! may need the GIL to finish), and a call that comes back into its own
//! generator from a callback on the same thread (an array subclass's
//! `__setitem__`, say) is refused instead of waiting for itself forever.
//!
//! The turn is the `holder` word itself: taking a free turn is one
//! compare-and-swap of 0 to the thread's token, giving it back one store
//! and one load, with no mutex and no system call. Only a thread that
//! finds the turn taken counts itself in `waiting` and sleeps on the
//! condition variable; the holder signals it only when someone waits
//! (std's `notify_one` always makes a `futex` call, which was a fifth of a
//! 52-card shuffle's time when every call made it).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// A number for the current thread, never 0 and never reused.
fn thread_token() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local! {
        static TOKEN: u64 = NEXT.fetch_add(1, Ordering::Relaxed);
    }
    TOKEN.with(|t| *t)
}

/// The turn of one generator.
#[derive(Default)]
pub struct Turns {
    /// The token of the thread holding the turn (0: the turn is free).
    holder: AtomicU64,
    /// Threads sleeping until the turn is given back.
    waiting: AtomicUsize,
    /// Held by a sleeper from its last look at `holder` until it sleeps,
    /// so that a wake-up cannot fall between the two.
    sleep: Mutex<()>,
    /// Signalled when the turn is given back and someone waits.
    free: Condvar,
}

/// A held turn: given back when dropped (also when the call unwinds).
pub struct Turn<'a> {
    turns: &'a Turns,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let turns = self.turns;
        // SeqCst on both sides: either this load sees a sleeper's count, or
        // that sleeper's next compare-and-swap sees the turn free.
        turns.holder.store(0, Ordering::SeqCst);
        if turns.waiting.load(Ordering::SeqCst) > 0 {
            // Taking the mutex waits until a sleeper that counted itself
            // is really asleep, so the signal reaches it.
            drop(turns.sleep.lock().unwrap_or_else(PoisonError::into_inner));
            turns.free.notify_one();
        }
    }
}

impl Turns {
    /// Takes the turn for `me` if it is free.
    fn try_take(&self, me: u64) -> bool {
        self.holder
            .compare_exchange(0, me, Ordering::SeqCst, Ordering::Relaxed)
            .is_ok()
    }

    /// Waits for the turn (with the GIL released while another thread has it).
    ///
    /// # Errors
    ///
    /// `RuntimeError` when this thread already holds it: a callback called
    /// the generator again from inside one of its calls.
    pub fn take(&self, py: Python<'_>) -> PyResult<Turn<'_>> {
        let me = thread_token();
        if self.try_take(me) {
            return Ok(Turn { turns: self });
        }
        if self.holder.load(Ordering::Acquire) == me {
            return Err(PyRuntimeError::new_err(
                "this thread is already inside a call of this fairdeck.Generator \
                 (a callback called it again); use another generator there",
            ));
        }
        py.detach(|| {
            let mut asleep = self.sleep.lock().unwrap_or_else(PoisonError::into_inner);
            self.waiting.fetch_add(1, Ordering::SeqCst);
            while !self.try_take(me) {
                asleep = self
                    .free
                    .wait(asleep)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        });
        Ok(Turn { turns: self })
    }
}
