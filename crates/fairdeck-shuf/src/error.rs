//! The one error type of `fairdeck-shuf`, worded as GNU `shuf` words its
//! messages (the caller adds the program name and, for [`Error::Usage`],
//! GNU's "Try '… --help' for more information." hint).

use std::fmt;
use std::io;

/// Why a shuffle or a command line failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A malformed command line; GNU prints the `--help` hint after it.
    Usage(String),
    /// A value or a combination of options GNU rejects without the hint
    /// (a bad count, range or memory size, `-o` naming the random source).
    Invalid(String),
    /// An I/O failure; `what` names the file or stream as GNU does
    /// ("write error", "read error", a file name).
    Io {
        /// The file name or phrase the message starts with.
        what: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// `--random-source` ended before every draw was made; holds the quoted name.
    RandomSourceEnd(String),
    /// `-r` (or a range) with no lines to draw from.
    NoLinesToRepeat,
    /// An allocation failed, or would exceed the memory budget; the detail,
    /// if any, says how much was needed.
    MemoryExhausted(Option<String>),
    /// The run was stopped through its cancellation flag; temporary files
    /// were removed and the output, if it replaces a file, was not renamed.
    Interrupted,
}

impl Error {
    /// An I/O failure on `what` (a file name, or a phrase like "write error").
    pub fn io(what: impl fmt::Display, source: io::Error) -> Self {
        Error::Io {
            what: what.to_string(),
            source,
        }
    }

    /// Whether the reader of the output went away (`EPIPE`): GNU dies of
    /// `SIGPIPE` there, or reports "write error" when the signal is ignored.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }

    /// Whether GNU's `--help` hint follows the message.
    pub fn wants_hint(&self) -> bool {
        matches!(self, Error::Usage(_))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) | Error::Invalid(m) => f.write_str(m),
            Error::Io { what, source } => write!(f, "{what}: {}", describe(source)),
            Error::RandomSourceEnd(name) => write!(f, "{name}: end of file"),
            Error::NoLinesToRepeat => f.write_str("no lines to repeat"),
            Error::MemoryExhausted(None) => f.write_str("memory exhausted"),
            Error::MemoryExhausted(Some(why)) => write!(f, "memory exhausted: {why}"),
            Error::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The C library's wording of an I/O error: Rust's text up to " (os error N)",
/// which also drops any context a library appended after it.
pub fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Shorthand: map an I/O error on `what` into an [`Error`].
pub trait IoContext<T> {
    /// Attaches `what` (a file name or "read error") to the error.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] when `self` is an error.
    fn on(self, what: impl fmt::Display) -> Result<T, Error>;
}

impl<T> IoContext<T> for io::Result<T> {
    fn on(self, what: impl fmt::Display) -> Result<T, Error> {
        self.map_err(|e| Error::io(what, e))
    }
}

/// `v.try_reserve(extra)`, with GNU's "memory exhausted" on failure.
///
/// # Errors
///
/// [`Error::MemoryExhausted`].
pub fn reserve<T>(v: &mut Vec<T>, extra: usize) -> Result<(), Error> {
    v.try_reserve(extra)
        .map_err(|_| Error::MemoryExhausted(None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_read_like_the_c_library() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(
            Error::io("nosuch", e).to_string(),
            "nosuch: No such file or directory"
        );
        let pipe = io::Error::from(io::ErrorKind::BrokenPipe);
        assert!(Error::io("write error", pipe).is_broken_pipe());
        assert!(Error::Usage("x".into()).wants_hint());
        assert!(!Error::NoLinesToRepeat.wants_hint());
    }
}
