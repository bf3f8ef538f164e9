//! Where shuffled lines go: standard output or `-o FILE`, through one large
//! buffer. `-o FILE` is opened only when the first byte is written, which is
//! after all input has been read, so `-o F F` is safe; when `FILE` is the
//! input file itself, the output goes to a temporary file in the same
//! directory that replaces `FILE` only after everything was written, so a
//! full disk leaves the input untouched.

use std::fs::{self, File};
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use super::failure::{IoContext, ShufError};
use super::scratch;

/// Bytes gathered before each write to the output.
const BUFFER: usize = 1 << 20;

/// The output of a run.
pub struct Sink {
    output: Option<PathBuf>,
    /// The input file, to detect `-o` naming it.
    input: Option<PathBuf>,
    state: State,
    buffer: Vec<u8>,
}

enum State {
    Closed,
    Open(File),
    Replacing(NamedTempFile, PathBuf),
}

impl Sink {
    /// A sink for `-o output` (standard output when `None`); `input` is the
    /// file being shuffled, if any.
    pub fn new(output: Option<PathBuf>, input: Option<PathBuf>) -> Self {
        Self {
            output,
            input,
            state: State::Closed,
            buffer: Vec::with_capacity(BUFFER),
        }
    }

    /// Appends one line, delimiter included.
    #[inline]
    pub fn line(&mut self, bytes: &[u8]) -> Result<(), ShufError> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= BUFFER {
            self.drain()?;
        }
        Ok(())
    }

    /// Appends one line, and the delimiter if the line lacks it (the last
    /// line of an input that does not end with one).
    #[inline]
    pub fn record(&mut self, bytes: &[u8], delimiter: u8) -> Result<(), ShufError> {
        self.buffer.extend_from_slice(bytes);
        if bytes.last() != Some(&delimiter) {
            self.buffer.push(delimiter);
        }
        if self.buffer.len() >= BUFFER {
            self.drain()?;
        }
        Ok(())
    }

    /// Appends `value` in decimal and the delimiter.
    #[inline]
    pub fn number(&mut self, value: u64, delimiter: u8) -> Result<(), ShufError> {
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
        if self.buffer.len() >= BUFFER {
            self.drain()?;
        }
        Ok(())
    }

    /// Writes everything, closes the output and, when replacing the input
    /// file, renames the finished temporary file over it.
    ///
    /// # Errors
    ///
    /// GNU's "write error" message (a closed pipe is flagged for a quiet exit).
    pub fn finish(mut self) -> Result<(), ShufError> {
        self.drain()?;
        match std::mem::replace(&mut self.state, State::Closed) {
            State::Closed => unreachable!("drain opens the output"),
            State::Open(_) => Ok(()),
            State::Replacing(temp, target) => {
                temp.as_file().sync_all().on("write error")?;
                let path = temp.path().to_path_buf();
                temp.persist(&target)
                    .map_err(|e| ShufError::io(target.display(), &e.error))?;
                scratch::forget(&path);
                Ok(())
            }
        }
    }

    fn drain(&mut self) -> Result<(), ShufError> {
        if matches!(self.state, State::Closed) {
            self.state = self.open()?;
        }
        let file = match &mut self.state {
            State::Open(f) => f,
            State::Replacing(t, _) => t.as_file_mut(),
            State::Closed => unreachable!("opened above"),
        };
        file.write_all(&self.buffer).on("write error")?;
        self.buffer.clear();
        Ok(())
    }

    fn open(&self) -> Result<State, ShufError> {
        let Some(path) = &self.output else {
            let fd = io::stdout()
                .as_fd()
                .try_clone_to_owned()
                .on("write error")?;
            return Ok(State::Open(File::from(fd)));
        };
        if self.input.as_deref().is_some_and(|i| same_file(i, path)) {
            return replacement(path);
        }
        let file = File::create(path).on(path.display())?;
        Ok(State::Open(file))
    }
}

/// Whether two paths name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// A temporary file next to `target`, with its permissions, to rename over it.
fn replacement(target: &Path) -> Result<State, ShufError> {
    let target = fs::canonicalize(target).on(target.display())?;
    let dir = target.parent().unwrap_or(Path::new("/"));
    let temp = tempfile::Builder::new()
        .prefix(".fairdeck-shuf-")
        .tempfile_in(dir)
        .on(dir.display())?;
    scratch::remember(temp.path());
    let permissions = fs::metadata(&target).on(target.display())?.permissions();
    fs::set_permissions(temp.path(), permissions).on(temp.path().display())?;
    Ok(State::Replacing(temp, target))
}
