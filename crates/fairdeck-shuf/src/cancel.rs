//! Stopping a run from outside (Ctrl-C, SIGTERM), with every temporary file
//! removed and the exit status telling the truth.
//!
//! The library never installs a signal handler. The caller owns an
//! `Arc<AtomicBool>` that its handler raises; the run checks it between
//! chunks of work and, once it is raised, stops with [`Error::Interrupted`]
//! and removes its temporary files on the way out (RAII, in one place: the
//! owners of the files). The output file replacing the input is renamed into
//! place under the same lock that [`Cancel::abandon`] takes, after a last
//! check of the flag: a run either finishes (renamed, success) or is
//! interrupted (not renamed), never both.
//!
//! A run blocked in a read that never returns (a pipe whose writer keeps it
//! open) cannot see the flag. For that case the caller may, after a grace
//! period, call [`Cancel::abandon`]: it removes every temporary file the run
//! registered, stops the run from creating or renaming any more, and tells
//! the caller whether it may exit as interrupted.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::error::Error;

/// The cancellation flag of a run and the temporary files it holds.
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    flag: Arc<AtomicBool>,
    ledger: Arc<Mutex<Ledger>>,
}

#[derive(Debug, Default)]
struct Ledger {
    live: Vec<PathBuf>,
    committed: bool,
    abandoned: bool,
}

impl Cancel {
    /// A cancellation handle watching `flag` (raised by the caller's signal handler).
    ///
    /// ```
    /// use std::sync::{Arc, atomic::{AtomicBool, Ordering}};
    /// use fairdeck_shuf::cancel::Cancel;
    /// let flag = Arc::new(AtomicBool::new(false));
    /// let cancel = Cancel::new(flag.clone());
    /// assert!(!cancel.is_raised());
    /// flag.store(true, Ordering::SeqCst);
    /// assert!(cancel.is_raised());
    /// ```
    pub fn new(flag: Arc<AtomicBool>) -> Self {
        Self {
            flag,
            ledger: Arc::default(),
        }
    }

    /// Whether the flag has been raised.
    pub fn is_raised(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Raises the flag (what a signal handler does): the run stops at its
    /// next check with [`Error::Interrupted`].
    pub fn raise(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Gives up on the run from another thread: removes every temporary file
    /// it registered and forbids it to create or rename any more. Returns
    /// `false` when the run had already renamed its output into place (it
    /// succeeded: the caller should let it finish), `true` otherwise (the
    /// caller may exit as interrupted).
    ///
    /// O(number of temporary paths) file removals.
    pub fn abandon(&self) -> bool {
        let mut ledger = self.lock();
        if ledger.committed {
            return false;
        }
        ledger.abandoned = true;
        for path in ledger.live.drain(..) {
            let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
        }
        true
    }

    /// `Err(Interrupted)` once the flag is raised.
    pub(crate) fn check(&self) -> Result<(), Error> {
        if self.is_raised() {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
    }

    /// Runs `create`, which makes a temporary file or directory and returns
    /// its path, and lists that path for [`abandon`](Self::abandon).
    /// Callers outside this crate (`fairdeck hidden`'s transcript and key
    /// files) use their own error type `E`, which takes [`Error::Interrupted`].
    ///
    /// # Errors
    ///
    /// [`Error::Interrupted`] (as `E`) once the flag is raised or the run
    /// abandoned: `create` is not run; `create`'s own error.
    pub fn create<T, E: From<Error>>(
        &self,
        create: impl FnOnce() -> Result<T, E>,
        path: impl Fn(&T) -> PathBuf,
    ) -> Result<T, E> {
        let mut ledger = self.lock();
        if ledger.abandoned || self.is_raised() {
            return Err(Error::Interrupted.into());
        }
        let made = create()?;
        ledger.live.push(path(&made));
        Ok(made)
    }

    /// Unlists `path` (it was removed, or is kept for good).
    pub fn forget(&self, path: &Path) {
        self.lock().live.retain(|p| p != path);
    }

    /// Runs `finish` (the rename of the output into place) unless the run
    /// was interrupted, and marks the run committed; unlists `path`.
    ///
    /// # Errors
    ///
    /// [`Error::Interrupted`] (as `E`) once the flag is raised or the run
    /// abandoned: `finish` is not run; `finish`'s own error.
    pub fn commit<E: From<Error>>(
        &self,
        path: &Path,
        finish: impl FnOnce() -> Result<(), E>,
    ) -> Result<(), E> {
        let mut ledger = self.lock();
        if ledger.abandoned || self.is_raised() {
            return Err(Error::Interrupted.into());
        }
        finish()?;
        ledger.live.retain(|p| p != path);
        ledger.committed = true;
        Ok(())
    }

    fn lock(&self) -> MutexGuard<'_, Ledger> {
        // A panic while holding the lock leaves a consistent ledger (every
        // update is a single push, retain or flag), so poisoning is ignored.
        self.ledger.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abandon_removes_what_was_registered_and_forbids_more() {
        let dir = tempfile::tempdir().unwrap();
        let cancel = Cancel::default();
        let file = dir.path().join("bucket");
        let made = cancel.create(
            || {
                std::fs::write(&file, b"x").map_err(|e| Error::io("w", e))?;
                Ok::<_, Error>(file.clone())
            },
            PathBuf::clone,
        );
        assert!(made.is_ok() && file.exists());
        assert!(cancel.abandon());
        assert!(!file.exists());
        assert!(matches!(
            cancel.commit(&file, || Ok::<(), Error>(())),
            Err(Error::Interrupted)
        ));
        assert!(
            cancel
                .create(|| Ok::<(), Error>(()), |_| file.clone())
                .is_err()
        );
    }

    #[test]
    fn a_committed_run_is_not_abandoned() {
        let cancel = Cancel::default();
        cancel
            .commit(Path::new("x"), || Ok::<(), Error>(()))
            .unwrap();
        assert!(!cancel.abandon());
        let raised = Cancel::new(Arc::new(AtomicBool::new(true)));
        assert!(raised.check().is_err());
        assert!(
            raised
                .commit(Path::new("x"), || Ok::<(), Error>(()))
                .is_err()
        );
    }
}
