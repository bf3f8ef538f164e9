//! Where results go: text or one JSON document on stdout, notes on stderr.
//!
//! A failed write to stdout is reported as `write error: …` (exit 1), and a
//! stdout that was closed when the process started (`fairdeck deal >&-`) is
//! reported before anything runs: Rust's runtime reopens a closed fd 1 on
//! /dev/null before `main`, so without [`stdout_was_closed`] every write
//! would "succeed" and the output vanish with exit 0.

use std::fmt;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

/// Set before `main` when fd 1 was closed at exec.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Runs before Rust's runtime start-up (an ELF constructor), while a closed
/// fd 1 is still closed. Linux only: elsewhere nothing is recorded.
#[cfg(target_os = "linux")]
#[used]
// SAFETY: a plain `extern "C" fn()` in .init_array is what the ELF loader
// calls; the function only reads /proc and stores an atomic.
#[unsafe(link_section = ".init_array")]
static RECORD_STDOUT: extern "C" fn() = record_stdout;

#[cfg(target_os = "linux")]
extern "C" fn record_stdout() {
    // /proc/self/fd/1 exists exactly when fd 1 is open; lstat opens no fd.
    // Without /proc, nothing can be told: assume open.
    let proc = std::path::Path::new("/proc/self/fd");
    if proc.is_dir() && std::fs::symlink_metadata("/proc/self/fd/1").is_err() {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// Whether stdout (fd 1) was closed when the process started.
pub fn stdout_was_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// A failed write to stdout, shown as `write error: CAUSE`; the cause's
/// kind is kept (so a closed pipe is still recognised as one).
#[derive(Debug)]
struct WriteError(io::Error);

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "write error: {}", self.0)
    }
}

impl std::error::Error for WriteError {}

fn write_error(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), WriteError(e))
}

/// A write that must reach its reader: a closed pipe is then an error like
/// any other (exit 1), not the quiet end of a stream — its kind is changed
/// so that [`crate::failure`] does not take it for a reader that hung up.
fn undelivered(e: io::Error) -> io::Error {
    match e.kind() {
        io::ErrorKind::BrokenPipe => io::Error::other(WriteError(e)),
        _ => write_error(e),
    }
}

/// Stdout whose errors say they are write errors.
struct Stdout {
    inner: io::Stdout,
    /// Set by [`Output::must_deliver`].
    must_deliver: bool,
}

impl Stdout {
    fn error(&self, e: io::Error) -> io::Error {
        match self.must_deliver {
            true => undelivered(e),
            false => write_error(e),
        }
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(|e| self.error(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| self.error(e))
    }
}

/// The kind of document a subcommand writes: text or JSON. (`--format pbn`
/// is a text document that only `deal` and `fair deal` can write; see
/// [`FormatChoice`] and [`Output::pbn`].)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// One JSON document on stdout.
    Json,
}

/// The output format chosen with the global `--format` flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatChoice {
    /// Human-readable text.
    Text,
    /// One JSON document on stdout.
    Json,
    /// Portable Bridge Notation 2.1 (bridge boards: `deal`, `fair deal`).
    Pbn,
}

/// The printer every subcommand writes through.
pub struct Output {
    format: Format,
    pbn: bool,
    color: bool,
    stdout: BufWriter<Stdout>,
}

impl Output {
    /// Text goes to a buffered stdout; colour only on a terminal without `NO_COLOR`.
    pub fn new(choice: FormatChoice) -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let format = match choice {
            FormatChoice::Json => Format::Json,
            FormatChoice::Text | FormatChoice::Pbn => Format::Text,
        };
        Self {
            format,
            pbn: choice == FormatChoice::Pbn,
            color: !no_color && io::stdout().is_terminal(),
            stdout: BufWriter::new(Stdout {
                inner: io::stdout(),
                must_deliver: false,
            }),
        }
    }

    /// Fails with `write error: Bad file descriptor` when stdout was closed
    /// at start ([`stdout_was_closed`]): called before a subcommand runs, so
    /// nothing is computed for output that would be lost.
    pub fn check_open(&self) -> io::Result<()> {
        match stdout_was_closed() {
            true => Err(write_error(io::Error::from_raw_os_error(9))), // EBADF
            false => Ok(()),
        }
    }

    /// Makes a reader that hangs up a failure (exit 1, `write error: Broken
    /// pipe`) instead of the quiet end of the output: for output that cannot
    /// be made again, such as `fair commit`'s fresh secret.
    pub fn must_deliver(&mut self) {
        self.stdout.get_mut().must_deliver = true;
    }

    /// The chosen format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Whether `--format pbn` was chosen (then [`Output::format`] is text).
    pub fn pbn(&self) -> bool {
        self.pbn
    }

    /// Whether text may use ANSI colours.
    pub fn color(&self) -> bool {
        self.color
    }

    /// Writes one JSON document (pretty-printed) and a newline.
    pub fn json<T: Serialize + ?Sized>(&mut self, value: &T) -> anyhow::Result<()> {
        serde_json::to_writer_pretty(&mut self.stdout, value)?;
        writeln!(self.stdout)?;
        Ok(())
    }

    /// The raw stdout stream, for text and for bulk data.
    pub fn stdout(&mut self) -> &mut impl Write {
        &mut self.stdout
    }

    /// Flushes stdout.
    pub fn flush(&mut self) -> io::Result<()> {
        self.stdout.flush()
    }
}

/// A picture file (`--plot FILE.svg`) opened before the work starts, so a
/// path that cannot be written is refused at once rather than after minutes
/// of work (issue 26). An existing file keeps its content until
/// [`PlotFile::write`]; a file created here is removed again if the run
/// fails before writing it.
pub struct PlotFile {
    path: std::path::PathBuf,
    file: Option<std::fs::File>,
    created: bool,
}

impl PlotFile {
    /// Opens `path` for writing without truncating it.
    ///
    /// # Errors
    ///
    /// A name that does not end in `.svg` (usage error); a path that cannot
    /// be opened for writing (a missing directory, no permission).
    pub fn open(path: &std::path::Path) -> anyhow::Result<Self> {
        if path.extension().and_then(|e| e.to_str()) != Some("svg") {
            return Err(crate::failure::usage(
                "--plot writes SVG only: give a FILE.svg",
            ));
        }
        let created = std::fs::symlink_metadata(path).is_err();
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        Ok(Self {
            path: path.to_path_buf(),
            file: Some(file),
            created,
        })
    }

    /// Replaces the file's content with `svg`.
    ///
    /// # Errors
    ///
    /// A failed write (a full disk).
    pub fn write(mut self, svg: &str) -> anyhow::Result<()> {
        let Some(mut file) = self.file.take() else {
            return Ok(()); // unreachable: `write` consumes the only handle
        };
        let cannot = |e: io::Error| anyhow::anyhow!("cannot write {}: {e}", self.path.display());
        file.set_len(0)
            .or_else(|e| match e.kind() {
                // Devices (/dev/null, /dev/full) cannot be truncated.
                io::ErrorKind::InvalidInput => Ok(()),
                _ => Err(e),
            })
            .and_then(|()| file.write_all(svg.as_bytes()))
            .and_then(|()| file.flush())
            .map_err(cannot)
    }
}

impl Drop for PlotFile {
    fn drop(&mut self) {
        if self.file.is_some() && self.created {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
