//! The stop hook as the parallel shuffle asks it: from many threads, never unwinding.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;

use crate::shuffle::Pass;

/// The stop hook of the parallel shuffle: asked from many threads; a panic
/// in it counts as "stop" and is kept to be raised again by [`Hook::finish`]
/// (a bucket task must not unwind before its bucket is settled); the
/// earliest pass stopped in is recorded.
pub(in crate::shuffle) struct Hook<'s, S> {
    stop: &'s S,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    stopped: Mutex<Option<Pass>>,
}

impl<'s, S: Fn() -> bool + Sync> Hook<'s, S> {
    pub(in crate::shuffle) fn new(stop: &'s S) -> Self {
        Hook {
            stop,
            panic: Mutex::new(None),
            stopped: Mutex::new(None),
        }
    }

    /// Whether to stop (after a panic of the hook: always).
    pub(in crate::shuffle) fn ask(&self) -> bool {
        match catch_unwind(AssertUnwindSafe(self.stop)) {
            Ok(answer) => answer,
            Err(payload) => {
                let mut panic = self.panic.lock().unwrap_or_else(|p| p.into_inner());
                panic.get_or_insert(payload);
                true
            }
        }
    }

    /// Records that a task stopped in `pass`.
    pub(in crate::shuffle) fn stopped_in(&self, pass: Pass) {
        let mut stopped = self.stopped.lock().unwrap_or_else(|p| p.into_inner());
        *stopped = Some(stopped.map_or(pass, |p| p.min(pass)));
    }

    /// The earliest pass a task stopped in, if any.
    pub(in crate::shuffle) fn outcome(&self) -> Result<(), Pass> {
        match *self.stopped.lock().unwrap_or_else(|p| p.into_inner()) {
            Some(pass) => Err(pass),
            None => Ok(()),
        }
    }

    /// Raises again a panic of the hook, now that the slice is whole.
    pub(in crate::shuffle) fn finish(self) {
        if let Some(payload) = self.panic.into_inner().unwrap_or_else(|p| p.into_inner()) {
            resume_unwind(payload);
        }
    }
}
