//! Temporary files: a private directory under `--temporary-directory`
//! that is removed when the run ends, whether it succeeds, fails, or is
//! interrupted with Ctrl-C.
//!
//! Success and error paths rely on RAII ([`tempfile::TempDir`] removes the
//! directory when dropped). Ctrl-C is different: the process is stopped by a
//! signal and no destructor runs, so every temporary path is also listed in a
//! process-wide registry that a signal handler (the `ctrlc` crate: SIGINT,
//! and SIGTERM and SIGHUP too) empties before exiting with status 130, as a
//! shell reports an interrupted command.
//!
//! Fault injection for tests: when the environment variable
//! `FAIRDECK_SHUF_FAIL_SCRATCH_AFTER=N` is set, writes to temporary files fail
//! with "No space left on device" once `N` bytes have been written — how the
//! test suite checks that a full disk is reported and cleaned up. Nothing but
//! the tests sets it.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once, OnceLock};

use tempfile::TempDir;

use super::failure::{IoContext, ShufError};

/// Paths to remove if the run is interrupted.
static REGISTRY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static HANDLER: Once = Once::new();

/// Lists `path` for removal on Ctrl-C (and installs the handler once).
pub fn remember(path: &Path) {
    install_handler();
    if let Ok(mut g) = REGISTRY.lock() {
        g.push(path.to_path_buf());
    }
}

/// Installs the signal handler that empties the registry, once.
fn install_handler() {
    HANDLER.call_once(|| {
        // If a handler cannot be installed, RAII cleanup still covers errors.
        let _ = ctrlc::set_handler(|| {
            let paths = REGISTRY.lock().map(|g| g.clone()).unwrap_or_default();
            for p in paths {
                let _ = std::fs::remove_dir_all(&p).or_else(|_| std::fs::remove_file(&p));
            }
            std::process::exit(130);
        });
    });
}

/// Removes `path` from the Ctrl-C list (it was removed or renamed).
pub fn forget(path: &Path) {
    if let Ok(mut g) = REGISTRY.lock() {
        g.retain(|p| p != path);
    }
}

/// The private temporary directory of one run.
pub struct Scratch {
    dir: TempDir,
    next: usize,
}

impl Scratch {
    /// Creates `fairdeck-shuf.XXXXXX` inside `parent`.
    ///
    /// # Errors
    ///
    /// When the directory cannot be created.
    pub fn new(parent: &Path) -> Result<Self, ShufError> {
        // Before the directory exists, so that no signal finds it unhandled.
        install_handler();
        let dir = tempfile::Builder::new()
            .prefix("fairdeck-shuf.")
            .tempdir_in(parent)
            .map_err(|e| {
                ShufError::io(
                    format!("cannot create temporary directory in {}", parent.display()),
                    &e,
                )
            })?;
        remember(dir.path());
        Ok(Self { dir, next: 0 })
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Creates a new empty temporary file.
    ///
    /// # Errors
    ///
    /// When the file cannot be created.
    pub fn create(&mut self) -> Result<(PathBuf, ScratchFile), ShufError> {
        self.next += 1;
        let path = self.dir.path().join(format!("bucket-{}", self.next));
        let file = File::create_new(&path).on(path.display())?;
        Ok((path, ScratchFile { file }))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        forget(self.dir.path());
    }
}

/// A temporary file being written (with the test-only fault injection).
pub struct ScratchFile {
    file: File,
}

/// Bytes temporary files may still take before the injected failure.
fn injected_room() -> &'static Option<AtomicU64> {
    static ROOM: OnceLock<Option<AtomicU64>> = OnceLock::new();
    ROOM.get_or_init(|| {
        let text = std::env::var("FAIRDECK_SHUF_FAIL_SCRATCH_AFTER").ok()?;
        text.parse().ok().map(AtomicU64::new)
    })
}

impl Write for ScratchFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(room) = injected_room() {
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
