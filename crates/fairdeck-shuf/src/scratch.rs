//! Temporary files: a private directory under the scratch directory, named
//! `fairdeck-shuf.PID.XXXXXX`, removed when the run ends (RAII: success,
//! error and [`Error::Interrupted`] alike), and listed with the run's
//! [`Cancel`] so that [`Cancel::abandon`] can remove it too.
//!
//! A process killed with SIGKILL runs no cleanup at all. Its leftovers carry
//! its process id, and later runs remove them as [`crate::leftover`] says.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tempfile::TempDir;

use crate::cancel::Cancel;
use crate::error::{Error, IoContext};
use crate::leftover::sweep_scratch;

pub use crate::leftover::DIR_PREFIX;

/// The private temporary directory of one run.
pub struct Scratch {
    dir: Option<TempDir>,
    path: PathBuf,
    next: usize,
    cancel: Cancel,
    room: Option<Arc<AtomicU64>>,
}

impl Scratch {
    /// Creates `fairdeck-shuf.PID.XXXXXX` inside `parent`, after removing
    /// the stale directories of dead runs there. `fail_after` injects a full
    /// disk after that many bytes (tests only).
    ///
    /// # Errors
    ///
    /// When the directory cannot be created; [`Error::Interrupted`].
    pub fn new(parent: &Path, cancel: &Cancel, fail_after: Option<u64>) -> Result<Self, Error> {
        sweep_scratch(parent);
        let prefix = format!("{DIR_PREFIX}{}.", std::process::id());
        let dir = cancel.create(
            || {
                tempfile::Builder::new()
                    .prefix(&prefix)
                    .tempdir_in(parent)
                    .map_err(|e| {
                        let what =
                            format!("cannot create temporary directory in {}", parent.display());
                        Error::io(what, e)
                    })
            },
            |d| d.path().to_path_buf(),
        )?;
        Ok(Self {
            path: dir.path().to_path_buf(),
            dir: Some(dir),
            next: 0,
            cancel: cancel.clone(),
            room: fail_after.map(|n| Arc::new(AtomicU64::new(n))),
        })
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Creates a new empty temporary file.
    ///
    /// # Errors
    ///
    /// When the file cannot be created; [`Error::Interrupted`].
    pub fn create(&mut self) -> Result<(PathBuf, ScratchFile), Error> {
        self.cancel.check()?;
        self.next += 1;
        let path = self.path.join(format!("bucket-{}", self.next));
        let file = File::create_new(&path).on(path.display())?;
        let room = self.room.clone();
        Ok((path, ScratchFile { file, room }))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            let _ = dir.close();
        }
        self.cancel.forget(&self.path);
    }
}

/// A temporary file being written (with the test-only fault injection).
pub struct ScratchFile {
    file: File,
    room: Option<Arc<AtomicU64>>,
}

impl Write for ScratchFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(room) = &self.room {
            let left = room.load(Ordering::Relaxed);
            if (buf.len() as u64) > left {
                return Err(io::Error::from_raw_os_error(28)); // ENOSPC
            }
            room.store(left - buf.len() as u64, Ordering::Relaxed);
        }
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}
