//! Errors to exit codes, in one place: usage errors exit 2, runtime errors 1.
//! Never a panic or a backtrace: the lines for stderr go through [`note`],
//! which (unlike `eprintln!`) does not panic when stderr itself cannot be
//! written.
//!
//! A reader of stdout that went away (EPIPE) is met as GNU's tools meet it
//! (see [`Hangup`]): the process dies of SIGPIPE (exit status 141 in a
//! shell, no message), or, when the caller started it with SIGPIPE ignored
//! (`trap '' PIPE`), says `write error: Broken pipe` and exits 1.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use fairdeck_fair::{Given, Spelling};

/// A mistake in how the command was called (exit 2).
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// A request field as the CLI spells it: `-n` for a one-letter field,
/// `--max-shuffles` for `max_shuffles`, `--seat-key` (repeated) for the
/// list `seat_keys`. Every field the report layer names is a flag of the
/// command it refuses.
pub fn flag(field: fairdeck_report::Field) -> Option<String> {
    if field == fairdeck_report::Field::SeatKeys {
        return Some("--seat-key".into());
    }
    let name = field.name();
    Some(if name.len() == 1 {
        format!("-{name}")
    } else {
        format!("--{}", name.replace('_', "-"))
    })
}

/// The evidence in the verdict's words: its flag, and how to give it
/// with its value's placeholder (`--commitment C`).
pub struct Flags;

impl Spelling for Flags {
    fn name(&self, given: Given) -> String {
        let field = fairdeck_report::verify::field(given);
        flag(field).unwrap_or_else(|| field.name().to_string())
    }

    fn usage(&self, given: Given) -> String {
        let value = match given {
            Given::Commitment => "C",
            Given::Lock => "L",
            Given::Seat => "NAME",
            Given::Seed => "T",
            Given::Played => "LIST",
            _ => "A-B",
        };
        format!("{} {value}", self.name(given))
    }
}

/// The error's chain on one line, as anyhow's `{:#}` writes it, with the
/// report layer's refusals in the CLI's words ([`flag`]).
pub fn one_line(e: &anyhow::Error) -> String {
    e.chain()
        .map(|c| match c.downcast_ref::<fairdeck_report::Error>() {
            Some(e) => e.render(&flag),
            None => match c.downcast_ref::<fairdeck_report::RequestError>() {
                Some(r) => r.message.render(&flag),
                None => c.to_string(),
            },
        })
        .collect::<Vec<_>>()
        .join(": ")
}

/// Shorthand for returning a usage error.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    UsageError(message.into()).into()
}

/// What a reader of stdout that hangs up (EPIPE) means for a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hangup {
    /// As GNU's tools: death by SIGPIPE, or `write error: Broken pipe` and
    /// exit 1 when SIGPIPE was ignored at start. The default.
    Signal,
    /// The normal end of an endless stream (`rng` without `--bytes`): exit 0.
    EndOfStream,
    /// Output that cannot be made again (a fresh secret or commitment):
    /// always `write error: Broken pipe` and exit 1, so that the loss is said.
    Undelivered,
}

/// A failed write to stdout, shown as `write error: CAUSE`; it carries what
/// a closed pipe means for the run. Wrapped in an `io::Error` of the
/// cause's kind (an undelivered closed pipe becomes `Other`, so that it is
/// not taken for a reader that hung up).
#[derive(Debug)]
pub struct WriteError {
    cause: io::Error,
    hangup: Hangup,
}

impl WriteError {
    /// `cause` as an `io::Error` that reports itself as a write error.
    pub fn wrap(cause: io::Error, hangup: Hangup) -> io::Error {
        let kind = match (cause.kind(), hangup) {
            (io::ErrorKind::BrokenPipe, Hangup::Undelivered) => io::ErrorKind::Other,
            (kind, _) => kind,
        };
        io::Error::new(kind, WriteError { cause, hangup })
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "write error: {}", self.cause)
    }
}

impl std::error::Error for WriteError {}

/// What a closed pipe means for `e`, if `e` is one (a bare EPIPE, not
/// wrapped by the output layer, is a [`Hangup::Signal`]).
fn hangup(e: &anyhow::Error) -> Option<Hangup> {
    e.chain().find_map(|c| {
        let io = c.downcast_ref::<io::Error>()?;
        let ours = io.get_ref().and_then(|r| r.downcast_ref::<WriteError>());
        (io.kind() == io::ErrorKind::BrokenPipe).then(|| ours.map_or(Hangup::Signal, |w| w.hangup))
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
    match hangup(e) {
        Some(Hangup::EndOfStream) => return ExitCode::SUCCESS,
        Some(Hangup::Signal) if !sigpipe_was_ignored() => die_of_sigpipe(),
        _ => {}
    }
    note(one_line(e));
    let is_usage = e.chain().any(|c| {
        c.is::<UsageError>()
            || c.is::<fairdeck_report::RequestError>()
            || c.downcast_ref::<fairdeck::Error>()
                .is_some_and(is_usage_error)
            || c.downcast_ref::<fairdeck_report::Error>()
                .is_some_and(|e| match e {
                    fairdeck_report::Error::Refused(_) => true,
                    fairdeck_report::Error::Core(e) => is_usage_error(e),
                    _ => false,
                })
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

/// Prints a clap usage error on stderr and returns clap's exit code (2).
/// Help and version go to stdout through [`crate::output`] instead, so that
/// a failed write is reported.
pub fn clap_error(e: clap::Error) -> ExitCode {
    let code = e.exit_code();
    let _ = e.print();
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}

/// SIGPIPE was ignored when the process started.
static SIGPIPE_IGNORED_AT_START: AtomicBool = AtomicBool::new(false);

/// The Rust runtime sets SIGPIPE to "ignore" before `main`, so the
/// disposition the process inherited is recorded earlier, by a function the
/// C runtime calls from `.init_array` (on ELF systems; elsewhere SIGPIPE is
/// taken as not ignored).
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
#[used]
#[unsafe(link_section = ".init_array")]
static RECORD_SIGPIPE: extern "C" fn() = record_sigpipe;

/// Runs before the Rust runtime touches SIGPIPE.
#[allow(dead_code, unsafe_code)] // only referenced from `.init_array` on some systems
extern "C" fn record_sigpipe() {
    // SAFETY: `sigaction` with a null new action only reads the current
    // disposition into a zeroed struct we own; async-signal-safe, so it may
    // run before `main`.
    let ignored = unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGPIPE, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    };
    SIGPIPE_IGNORED_AT_START.store(ignored, Ordering::Relaxed);
}

/// Whether SIGPIPE was ignored when the process started: then a closed
/// reader is GNU's `write error: Broken pipe`, status 1.
pub fn sigpipe_was_ignored() -> bool {
    SIGPIPE_IGNORED_AT_START.load(Ordering::Relaxed)
}

/// The reader of our output went away: GNU's tools are killed by SIGPIPE
/// there. Rust ignores SIGPIPE, so the write failed with EPIPE instead and
/// the run cleaned up on its way here; now restore the default action and
/// raise the signal. Returns only if the signal did not end the process
/// (it is blocked): the caller then reports a write error.
pub fn die_of_sigpipe() {
    // SAFETY: `signal` and `raise` are async-signal-safe C calls with valid
    // constant arguments; no Rust state is touched, and the only effect is
    // the default disposition of SIGPIPE, whose default action ends the
    // process at once.
    #[allow(unsafe_code)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
}
