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

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

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
    /// Whether a call holds the turn.
    busy: Mutex<bool>,
    /// Signalled when the turn is given back.
    free: Condvar,
    /// The token of the thread holding the turn (0: none).
    holder: AtomicU64,
}

/// A held turn: given back when dropped (also when the call unwinds).
pub struct Turn<'a> {
    turns: &'a Turns,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.turns.holder.store(0, Ordering::Release);
        *self.turns.busy() = false;
        self.turns.free.notify_one();
    }
}

impl Turns {
    /// The flag, locked (only ever for a moment; poison cannot leave it wrong).
    fn busy(&self) -> MutexGuard<'_, bool> {
        self.busy.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for the turn (with the GIL released while another thread has it).
    ///
    /// # Errors
    ///
    /// `RuntimeError` when this thread already holds it: a callback called
    /// the generator again from inside one of its calls.
    pub fn take(&self, py: Python<'_>) -> PyResult<Turn<'_>> {
        let me = thread_token();
        if self.holder.load(Ordering::Acquire) == me {
            return Err(PyRuntimeError::new_err(
                "this thread is already inside a call of this fairdeck.Generator \
                 (a callback called it again); use another generator there",
            ));
        }
        let free_now = !std::mem::replace(&mut *self.busy(), true);
        if !free_now {
            py.detach(|| {
                let mut busy = self.busy();
                while *busy {
                    busy = self.free.wait(busy).unwrap_or_else(PoisonError::into_inner);
                }
                *busy = true;
            });
        }
        self.holder.store(me, Ordering::Release);
        Ok(Turn { turns: self })
    }
}
