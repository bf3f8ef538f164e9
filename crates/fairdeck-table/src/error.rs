//! What the table service refuses, and why.

use core::fmt;

/// How a front end should answer a refusal (an HTTP layer maps these to
/// 400, 401, 403, 404, 409, 500 and 503).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The request itself is malformed or breaks a rule (400).
    BadRequest,
    /// No token was given (401).
    Unauthenticated,
    /// The token does not grant this operation (403).
    Forbidden,
    /// No such table (404).
    NotFound,
    /// The table is not in a state that allows it (409).
    Conflict,
    /// The service failed (500): storage, entropy, a damaged record.
    Internal,
    /// The database cannot be reached for now (503): try again later.
    Unavailable,
}

/// Everything the table service can refuse.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The manifest breaks a rule of the specification (section 8.2).
    Manifest(String),
    /// A request field is malformed or out of bounds.
    Invalid {
        /// The field's name, as a JSON request spells it.
        parameter: &'static str,
        /// What is wrong with it (names the limit where there is one).
        why: String,
    },
    /// The operation needs a token and none was given.
    Unauthenticated,
    /// The token given is not the one this operation needs.
    Forbidden,
    /// No table has this id.
    NotFound(String),
    /// A table with this id already exists (ids are never reused).
    Exists(String),
    /// The operation is not allowed in the table's current phase.
    Phase {
        /// What was asked (`commit`, `reveal`, `deal`, …).
        action: &'static str,
        /// The phase the table is in.
        phase: &'static str,
    },
    /// The seat already did this (a commitment or a seed cannot change).
    Repeated {
        /// What was asked.
        action: &'static str,
        /// The seat's name.
        seat: String,
    },
    /// The phase's deadline has passed: the seat is late.
    Late {
        /// What was asked.
        action: &'static str,
        /// The deadline, in seconds since the Unix epoch.
        deadline: u64,
    },
    /// The table can only be voided for lateness once its deadline passed.
    NotLate {
        /// The deadline, in seconds since the Unix epoch.
        deadline: u64,
    },
    /// A revealed seed does not give the seat's commitment.
    SeedMismatch {
        /// The seat's name.
        seat: String,
    },
    /// The seat is claimed on another device: this one may not see or act
    /// for it (its link was opened elsewhere first).
    ClaimedElsewhere,
    /// The seat must be claimed on this device before it commits or reveals.
    Unclaimed,
    /// A community card release out of order, or one the game does not have.
    Street(String),
    /// The operating system's random source failed.
    Entropy(String),
    /// The database failed (the change was not made).
    Storage(String),
    /// The database cannot be reached, or the connection was lost (after
    /// one new connection and one retry): the change was not made, unless
    /// the message says the connection was lost during its commit.
    Unavailable(String),
    /// A stored record does not check: the log chain, a replayed event or
    /// the snapshot differ from what they must be.
    Corrupt(String),
}

impl Error {
    /// How a front end should answer it.
    pub fn refusal(&self) -> Refusal {
        match self {
            Error::Manifest(_) | Error::Invalid { .. } | Error::SeedMismatch { .. } => {
                Refusal::BadRequest
            }
            Error::Unauthenticated => Refusal::Unauthenticated,
            Error::Forbidden => Refusal::Forbidden,
            Error::NotFound(_) => Refusal::NotFound,
            Error::Exists(_)
            | Error::Phase { .. }
            | Error::Repeated { .. }
            | Error::Late { .. }
            | Error::NotLate { .. }
            | Error::ClaimedElsewhere
            | Error::Unclaimed
            | Error::Street(_) => Refusal::Conflict,
            Error::Entropy(_) | Error::Storage(_) | Error::Corrupt(_) => Refusal::Internal,
            Error::Unavailable(_) => Refusal::Unavailable,
        }
    }

    pub(crate) fn invalid(parameter: &'static str, why: impl Into<String>) -> Error {
        Error::Invalid {
            parameter,
            why: why.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Manifest(why) => write!(f, "invalid manifest: {why}"),
            Error::Invalid { parameter, why } => write!(f, "invalid {parameter}: {why}"),
            Error::Unauthenticated => f.write_str("a token is required"),
            Error::Forbidden => f.write_str("this token does not allow that"),
            Error::NotFound(id) => write!(f, "no table {id:?}"),
            Error::Exists(id) => write!(f, "table {id:?} already exists: ids are never reused"),
            Error::Phase { action, phase } => {
                write!(f, "cannot {action}: the table is in phase {phase}")
            }
            Error::Repeated { action, seat } => {
                write!(f, "cannot {action}: seat {seat:?} already did")
            }
            Error::Late { action, deadline } => {
                write!(f, "cannot {action}: the deadline {deadline} has passed")
            }
            Error::NotLate { deadline } => {
                write!(f, "no seat is late before the deadline {deadline}")
            }
            Error::SeedMismatch { seat } => {
                write!(f, "seat {seat:?}'s seed does not match its commitment")
            }
            Error::ClaimedElsewhere => {
                f.write_str("this seat is already claimed on another device")
            }
            Error::Unclaimed => {
                f.write_str("this seat is not claimed yet: claim it on this device first")
            }
            Error::Street(why) => write!(f, "cannot release: {why}"),
            Error::Entropy(why) => write!(f, "the random source failed: {why}"),
            Error::Storage(why) => write!(f, "storage failed: {why}"),
            Error::Unavailable(why) => write!(f, "the database is unavailable: {why}"),
            Error::Corrupt(why) => write!(f, "the stored record does not check: {why}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Error {
        Error::Storage(e.to_string())
    }
}

impl From<postgres::Error> for Error {
    fn from(e: postgres::Error) -> Error {
        Error::Storage(one_line(&e))
    }
}

/// An error and its causes on one line: the driver's own text names only
/// the kind ("db error"), the server's message is its source, and a
/// server's DETAIL and HINT come on lines of their own.
pub(crate) fn one_line(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.ends_with(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text.split(['\n', '\r'])
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}
