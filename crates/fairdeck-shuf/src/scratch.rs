//! Temporary files: a private directory under the scratch directory, named
//! `fairdeck-shuf.PID.XXXXXX`, removed when the run ends (RAII: success,
//! error and [`Error::Interrupted`] alike), and listed with the run's
//! [`Cancel`] so that [`Cancel::abandon`] can remove it too.
//!
//! A process killed with SIGKILL runs no cleanup at all. Its leftovers carry
//! its process id, so every later run removes the `fairdeck-shuf.PID.*`
//! directories (and the `.fairdeck-shuf.PID.*` partial outputs next to an
//! output file, see [`crate::sink`]) whose process no longer exists, as
//! [`remove_stale`] describes.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tempfile::TempDir;

use crate::cancel::Cancel;
use crate::error::{Error, IoContext};

/// The name every temporary directory starts with (then `PID.`).
pub const DIR_PREFIX: &str = "fairdeck-shuf.";

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
        remove_stale(parent, DIR_PREFIX);
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

/// Removes the entries of `dir` named `PREFIX PID . anything` whose process
/// `PID` no longer runs: the leftovers of a run killed by SIGKILL (or a
/// power cut). An entry of a live process is kept, and so is everything
/// when process ids cannot be checked (no `/proc`). A process id reused by
/// an unrelated live process keeps the leftover until that process ends.
/// Scratch directories shared between machines (NFS) may hold another
/// machine's live run: point each machine at its own directory.
///
/// O(entries of `dir`). Errors are ignored: this is housekeeping.
pub fn remove_stale(dir: &Path, prefix: &str) {
    let proc_root = Path::new("/proc");
    if !proc_root.join("self").exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = stale_pid(&name.to_string_lossy(), prefix) else {
            continue;
        };
        if pid != std::process::id() && !proc_root.join(pid.to_string()).exists() {
            let path = entry.path();
            let _ = fs::remove_dir_all(&path).or_else(|_| fs::remove_file(&path));
        }
    }
}

/// The process id in `PREFIX PID . rest`, if `name` has that shape.
fn stale_pid(name: &str, prefix: &str) -> Option<u32> {
    let rest = name.strip_prefix(prefix)?;
    let (pid, tail) = rest.split_once('.')?;
    let all_digits = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
    (all_digits && !tail.is_empty()).then(|| pid.parse().ok())?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_the_process_id() {
        assert_eq!(stale_pid("fairdeck-shuf.123.AbC", DIR_PREFIX), Some(123));
        assert_eq!(stale_pid("fairdeck-shuf.AbC", DIR_PREFIX), None);
        assert_eq!(stale_pid("fairdeck-shuf.12.", DIR_PREFIX), None);
        assert_eq!(stale_pid("other.12.x", DIR_PREFIX), None);
    }

    #[test]
    fn leftovers_of_dead_processes_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        // Process ids above the kernel's maximum (2^22) never run.
        let dead = dir.path().join("fairdeck-shuf.99999999.x1");
        let live = dir
            .path()
            .join(format!("fairdeck-shuf.{}.x2", std::process::id()));
        let other = dir.path().join("unrelated.99999999.x");
        for d in [&dead, &live, &other] {
            fs::create_dir(d).unwrap();
        }
        fs::write(dead.join("bucket-1"), b"x").unwrap();
        remove_stale(dir.path(), DIR_PREFIX);
        assert!(!dead.exists() && live.exists() && other.exists());
    }
}
