//! Errors to exit codes, in one place: usage errors exit 2, runtime errors 1,
//! a closed output pipe exits 0 quietly. Never a panic or a backtrace: the
//! lines for stderr go through [`note`], which (unlike `eprintln!`) does not
//! panic when stderr itself cannot be written.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

/// A mistake in how the command was called (exit 2).
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Shorthand for returning a usage error.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    UsageError(message.into()).into()
}

/// Whether the error means the reader of our output went away.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes `fairdeck: MESSAGE` and a newline on stderr. A stderr that cannot
/// be written (a full disk, a closed pipe) is ignored: there is nowhere
/// left to report it, and the exit code still tells.
pub fn note(message: impl fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "fairdeck: {message}");
}

/// Prints the error on one line of stderr and picks the exit code.
pub fn report(e: &anyhow::Error) -> ExitCode {
    if is_broken_pipe(e) {
        return ExitCode::SUCCESS;
    }
    note(format_args!("{e:#}"));
    let is_usage = e.chain().any(|c| {
        c.is::<UsageError>()
            || c.is::<fairdeck_report::RequestError>()
            || c.downcast_ref::<fairdeck::Error>()
                .is_some_and(is_usage_error)
    });
    ExitCode::from(if is_usage { 2 } else { 1 })
}

/// Library errors that come from what the user typed.
fn is_usage_error(e: &fairdeck::Error) -> bool {
    use fairdeck::Error as E;
    matches!(
        e,
        E::InvalidSeed(_)
            | E::UnknownGenerator(_)
            | E::SampleTooLarge { .. }
            | E::InvalidCard(_)
            | E::UnknownDeck(_)
            | E::UnknownGame(_)
            | E::NotEnoughCards { .. }
            | E::InvalidDeal(_)
            | E::UnknownAlgorithm(_)
            | E::InvalidTable(_)
    )
}

/// Prints a clap error (or help/version) and returns clap's exit code (2 for usage).
pub fn clap_error(e: clap::Error) -> ExitCode {
    let code = e.exit_code();
    let _ = e.print();
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}
