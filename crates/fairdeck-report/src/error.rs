//! The one error a request's validation gives: which parameter, and why.

use std::fmt;

/// A request that cannot be run as given: the parameter at fault (its name
/// in the request, e.g. `max_paths`) and a one-line message that states the
/// limit. Front ends show the message (the CLI as a usage error, exit 2; the
/// web as a 400 answer naming the parameter).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestError {
    /// The request field at fault.
    pub parameter: &'static str,
    /// What is wrong and what would be accepted.
    pub message: String,
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RequestError {}

/// A [`RequestError`] as an [`anyhow::Error`], for `?` in `validate` and `run`.
pub fn refuse(parameter: &'static str, message: impl Into<String>) -> anyhow::Error {
    RequestError {
        parameter,
        message: message.into(),
    }
    .into()
}
