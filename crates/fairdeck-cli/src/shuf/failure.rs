//! `shuf`'s errors, worded and coded as GNU's: one line
//! `fairdeck shuf: MESSAGE` on stderr, plus the `--help` hint for usage
//! mistakes, and exit code 1 for every failure.

use std::fmt;
use std::io;

/// A failure of `fairdeck shuf`.
#[derive(Debug)]
pub struct ShufError {
    message: String,
    hint: bool,
    broken_pipe: bool,
}

impl ShufError {
    /// A malformed command line: the message is followed by the `--help` hint.
    pub fn usage(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            hint: true,
            broken_pipe: false,
        }
    }

    /// Any other failure.
    pub fn fatal(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            hint: false,
            broken_pipe: false,
        }
    }

    /// An I/O failure on `what` (a file name, or a phrase like "write error").
    pub fn io(what: impl fmt::Display, e: &io::Error) -> Self {
        Self {
            message: format!("{what}: {}", describe(e)),
            hint: false,
            broken_pipe: e.kind() == io::ErrorKind::BrokenPipe,
        }
    }

    /// Whether the reader of our output went away (a quiet exit 0, as in GNU).
    pub fn is_broken_pipe(&self) -> bool {
        self.broken_pipe
    }

    /// Whether the `--help` hint follows the message.
    pub fn wants_hint(&self) -> bool {
        self.hint
    }
}

impl fmt::Display for ShufError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ShufError {}

/// The C library's wording of an I/O error: Rust's text up to " (os error N)",
/// which also drops any context a library appended after it.
pub fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Shorthand: map an I/O error on `what` into a [`ShufError`].
pub trait IoContext<T> {
    /// Attaches `what` (a file name or "read error") to the error.
    fn on(self, what: impl fmt::Display) -> Result<T, ShufError>;
}

impl<T> IoContext<T> for io::Result<T> {
    fn on(self, what: impl fmt::Display) -> Result<T, ShufError> {
        self.map_err(|e| ShufError::io(what, &e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_read_like_the_c_library() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(
            ShufError::io("nosuch", &e).to_string(),
            "nosuch: No such file or directory"
        );
        let pipe = io::Error::from(io::ErrorKind::BrokenPipe);
        assert!(ShufError::io("write error", &pipe).is_broken_pipe());
    }
}
