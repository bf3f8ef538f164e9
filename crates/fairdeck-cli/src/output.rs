//! Where results go: text or one JSON document on stdout, notes on stderr.
//!
//! A failed write to stdout is reported as `write error: …` (exit 1); a
//! reader that hangs up is met as [`crate::failure::Hangup`] says (as GNU's
//! tools: death by SIGPIPE). Help and version text goes through here too
//! ([`Output::clap_text`]). A stdout that was closed when the process
//! started (`fairdeck deal >&-`) is reported before anything runs: Rust's runtime reopens a closed fd 1 on
//! /dev/null before `main`, so without [`stdout_was_closed`] every write
//! would "succeed" and the output vanish with exit 0.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::failure::{Hangup, WriteError};

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

/// Stdout whose errors say they are write errors.
struct Stdout {
    inner: io::Stdout,
    /// What a reader that hangs up means (see [`Output::must_deliver`]).
    hangup: Hangup,
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let hangup = self.hangup;
        self.inner
            .write(buf)
            .map_err(|e| WriteError::wrap(e, hangup))
    }

    fn flush(&mut self) -> io::Result<()> {
        let hangup = self.hangup;
        self.inner.flush().map_err(|e| WriteError::wrap(e, hangup))
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
                hangup: Hangup::Signal,
            }),
        }
    }

    /// Fails with `write error: Bad file descriptor` when stdout was closed
    /// at start ([`stdout_was_closed`]): called before a subcommand runs, so
    /// nothing is computed for output that would be lost.
    pub fn check_open(&self) -> io::Result<()> {
        match stdout_was_closed() {
            true => Err(WriteError::wrap(
                io::Error::from_raw_os_error(9), // EBADF
                Hangup::Signal,
            )),
            false => Ok(()),
        }
    }

    /// Makes a reader that hangs up a failure (exit 1, `write error: Broken
    /// pipe`) instead of the quiet end of the output: for output that cannot
    /// be made again, such as `fair commit`'s fresh secret.
    pub fn must_deliver(&mut self) {
        self.stdout.get_mut().hangup = Hangup::Undelivered;
    }

    /// Makes a reader that hangs up the normal end of the output (exit 0,
    /// nothing said): for an endless stream, whose only end that is.
    pub fn endless(&mut self) {
        self.stdout.get_mut().hangup = Hangup::EndOfStream;
    }

    /// Writes clap's help or version text (`fairdeck --help`, `help`,
    /// `table --help`, `--version`) and flushes it, so that a failed write
    /// is an error like any other output's. Styled only where text may be.
    pub fn clap_text(&mut self, message: &clap::Error) -> io::Result<()> {
        self.check_open()?;
        let text = message.render();
        match self.color {
            true => write!(self.stdout, "{}", text.ansi())?,
            false => write!(self.stdout, "{text}")?,
        }
        self.stdout.flush()
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
        // A failed write inside serde_json is handed back as the `io::Error`
        // it was, so that its kind (a closed pipe) is seen.
        serde_json::to_writer_pretty(&mut self.stdout, value).map_err(io::Error::from)?;
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

/// Creates `path` (never overwriting) readable by its owner only.
pub fn write_private(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    // The file is this run's (created new): a failed write removes it, so
    // that no partial secret stays and a retry may create it again.
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .inspect_err(|_| drop(std::fs::remove_file(path)))
        .with_context(|| format!("cannot write {}", path.display()))
}
