//! Where shuffled lines go: standard output or `-o FILE`, through one large
//! buffer.
//!
//! `-o FILE` is opened only when the first byte is written, which is after
//! all input has been read, so `-o F F` is safe; a regular `FILE` is written
//! through a temporary sibling that replaces it only when complete (see the
//! `replacement` module), so an interrupt, a full disk or a kill leaves
//! `FILE` as it was or complete.

use std::fs::{self, File};
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::background::Background;
use crate::cancel::Cancel;
use crate::error::reserve;
use crate::error::{Error, IoContext};
use crate::quote::Quotes;
use crate::replacement::{self, Context, Opened, Replacement};

/// Bytes gathered before each write to the output.
const BUFFER: usize = 1 << 20;

/// The output of a run.
pub struct Sink {
    output: Option<PathBuf>,
    /// The input file, to detect `-o` naming it.
    input: Option<PathBuf>,
    /// The thread that writes full buffers, when one was started (stopped
    /// before `state` is dropped).
    background: Option<Background>,
    state: State,
    buffer: Vec<u8>,
    cancel: Cancel,
    quotes: Quotes,
    /// Records and bytes written so far.
    pub(crate) records: u64,
    pub(crate) bytes: u64,
}

enum State {
    Closed,
    Open(File),
    /// The output file itself, not yet truncated (it may be the input).
    InPlace(File),
    Replacing(Replacement),
    /// The standard output could not be duplicated (it is closed).
    Failed(io::ErrorKind, Option<i32>),
}

impl Sink {
    /// A sink for `-o output` (standard output when `None`); `input` is the
    /// file being shuffled, if any.
    pub fn new(output: Option<PathBuf>, input: Option<PathBuf>, cancel: &Cancel) -> Self {
        Self {
            output,
            input,
            background: None,
            state: State::Closed,
            buffer: Vec::new(),
            cancel: cancel.clone(),
            quotes: Quotes::default(),
            records: 0,
            bytes: 0,
        }
    }

    /// Quotes names in messages with `quotes`.
    pub(crate) fn with_quotes(mut self, quotes: Quotes) -> Self {
        self.quotes = quotes;
        self
    }

    /// When the output file is the input file, opens it now (before the
    /// input is read) and tells whether it will be written in place rather
    /// than replaced: then the input must not stay mapped while the output
    /// is written.
    ///
    /// # Errors
    ///
    /// The output cannot be opened.
    pub(crate) fn open_over_input(&mut self) -> Result<bool, Error> {
        let over_input = match (&self.input, &self.output) {
            (Some(i), Some(o)) => same_file(i, o),
            _ => false,
        };
        if over_input && matches!(self.state, State::Closed) {
            self.state = self.open()?;
        }
        Ok(over_input && matches!(self.state, State::InPlace(_)))
    }

    /// Appends one record: `bytes`, and the delimiter if `bytes` lacks it
    /// (the last line of an input that does not end with one).
    ///
    /// # Errors
    ///
    /// Write errors; [`Error::Interrupted`].
    #[inline]
    pub fn record(&mut self, bytes: &[u8], delimiter: u8) -> Result<(), Error> {
        self.buffer.extend_from_slice(bytes);
        if bytes.last() != Some(&delimiter) {
            self.buffer.push(delimiter);
        }
        self.records += 1;
        self.spill()
    }

    /// Appends one item and the delimiter, whatever bytes the item holds
    /// (an `-e` argument may contain the delimiter).
    ///
    /// # Errors
    ///
    /// Write errors; [`Error::Interrupted`].
    pub fn item(&mut self, bytes: &[u8], delimiter: u8) -> Result<(), Error> {
        self.buffer.extend_from_slice(bytes);
        self.buffer.push(delimiter);
        self.records += 1;
        self.spill()
    }

    /// Appends `value` in decimal and the delimiter.
    ///
    /// # Errors
    ///
    /// Write errors; [`Error::Interrupted`].
    #[inline]
    pub fn number(&mut self, value: u64, delimiter: u8) -> Result<(), Error> {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut v = value;
        loop {
            at -= 1;
            digits[at] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        self.buffer.extend_from_slice(&digits[at..]);
        self.buffer.push(delimiter);
        self.records += 1;
        self.spill()
    }

    /// Writes `bytes`, which hold `records` whole records, straight to the
    /// output (after anything buffered).
    ///
    /// # Errors
    ///
    /// Write errors; [`Error::Interrupted`].
    pub(crate) fn block(&mut self, bytes: &[u8], records: u64) -> Result<(), Error> {
        self.drain()?;
        self.write_out(bytes)?;
        self.records += records;
        Ok(())
    }

    #[inline]
    fn spill(&mut self) -> Result<(), Error> {
        if self.buffer.len() >= BUFFER {
            self.drain()?;
        }
        Ok(())
    }

    /// Bytes buffered and not yet written.
    pub(crate) fn pending(&self) -> u64 {
        self.buffer.len() as u64
    }

    /// Writes what is buffered so far (what was drawn before a failure).
    ///
    /// # Errors
    ///
    /// GNU's "write error" message.
    pub fn flush(&mut self) -> Result<(), Error> {
        self.foreground()
    }

    /// Writes everything, closes the output and, when replacing the input
    /// file, puts the finished temporary file in its place.
    ///
    /// # Errors
    ///
    /// GNU's "write error" message; [`Error::Interrupted`] (then the input
    /// file is left as it was).
    pub fn finish(mut self) -> Result<(), Error> {
        self.drain()?;
        self.foreground()?;
        match std::mem::replace(&mut self.state, State::Closed) {
            State::Replacing(r) => r.commit(&self.cancel),
            State::InPlace(f) => truncate(f).map(drop),
            _ => Ok(()),
        }
    }

    fn drain(&mut self) -> Result<(), Error> {
        if let Some(bg) = self.background.as_mut().filter(|_| !self.buffer.is_empty()) {
            self.cancel.check()?;
            let full = std::mem::take(&mut self.buffer);
            self.bytes += full.len() as u64;
            self.buffer = bg.send(full, BUFFER).on("write error")?;
            return Ok(());
        }
        let buffer = std::mem::take(&mut self.buffer);
        let written = self.write_out(&buffer);
        self.buffer = buffer;
        self.buffer.clear();
        written
    }

    /// From now on, full buffers are written by a second thread (opening
    /// the output now), until [`Sink::foreground`]. Only for callers that
    /// have read all their input (`-o` may name the input file). Without a
    /// thread (none could be started), writes stay on this one.
    ///
    /// # Errors
    ///
    /// The output cannot be opened.
    pub(crate) fn background(&mut self) -> Result<(), Error> {
        if self.background.is_some() {
            return Ok(());
        }
        self.drain()?;
        let file = match self.file()? {
            Some(f) => f.try_clone().ok(),
            None => None,
        };
        self.background = file.and_then(|f| Background::start(f).ok());
        Ok(())
    }

    /// Waits for the writer thread, if any, to write everything handed to
    /// it; later writes are made by this thread.
    ///
    /// # Errors
    ///
    /// GNU's "write error" message.
    pub(crate) fn foreground(&mut self) -> Result<(), Error> {
        self.drain()?;
        match self.background.take() {
            Some(mut bg) => bg.stop().on("write error"),
            None => Ok(()),
        }
    }

    /// The output file (opened first if needed); `None` when it failed to
    /// open as standard output.
    fn file(&mut self) -> Result<Option<&mut File>, Error> {
        if matches!(self.state, State::Closed) {
            self.state = self.open()?;
        }
        if let State::InPlace(_) = self.state {
            let State::InPlace(f) = std::mem::replace(&mut self.state, State::Closed) else {
                unreachable!("matched above")
            };
            self.state = State::Open(truncate(f)?);
        }
        Ok(match &mut self.state {
            State::Open(f) => Some(f),
            State::Replacing(r) => Some(r.file_mut()),
            State::Failed(..) | State::Closed | State::InPlace(_) => None,
        })
    }

    /// Writes `bytes` to the output, opening it first if needed.
    fn write_out(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.cancel.check()?;
        if let Some(bg) = &mut self.background {
            let mut full = Vec::new();
            reserve(&mut full, bytes.len())?;
            full.extend_from_slice(bytes);
            bg.send(full, 0).on("write error")?;
            self.bytes += bytes.len() as u64;
            return Ok(());
        }
        if let State::Failed(kind, raw) = self.state {
            return Err(Error::io("write error", rebuild(kind, raw)));
        }
        let Some(file) = self.file()? else {
            unreachable!("opened, or failed above")
        };
        file.write_all(bytes).on("write error")?;
        self.bytes += bytes.len() as u64;
        Ok(())
    }

    fn open(&self) -> Result<State, Error> {
        let Some(path) = &self.output else {
            return Ok(match io::stdout().as_fd().try_clone_to_owned() {
                Ok(fd) => State::Open(File::from(fd)),
                Err(e) => State::Failed(e.kind(), e.raw_os_error()),
            });
        };
        let cx = Context {
            cancel: &self.cancel,
            quotes: self.quotes,
        };
        Ok(match replacement::open(path, &cx)? {
            Opened::Direct(f) => State::Open(f),
            Opened::InPlace(f) => State::InPlace(f),
            Opened::Replace(r) => State::Replacing(r),
        })
    }
}

/// Empties the output file written in place (at its first write).
fn truncate(file: File) -> Result<File, Error> {
    file.set_len(0).on("write error")?;
    Ok(file)
}

fn rebuild(kind: io::ErrorKind, raw: Option<i32>) -> io::Error {
    raw.map_or_else(|| io::Error::from(kind), io::Error::from_raw_os_error)
}

/// Whether two paths name the same existing file.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}
