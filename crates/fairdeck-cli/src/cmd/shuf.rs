//! `fairdeck shuf` (and `fairdeck` run under the name `shuf`): a thin caller
//! of the `fairdeck-shuf` library. This file reads what a library may not —
//! the environment, the OS entropy, the signals, the state of file
//! descriptors 0–2 — and turns the library's errors into GNU's messages and
//! exit codes.
//!
//! GNU's option grammar (abbreviated long options, `-n` repeated, exit code 1
//! for usage errors, shuf's own `--help`) differs from the other
//! subcommands', so clap hands every argument after `shuf` to the library's
//! parser.

use std::ffi::{OsStr, OsString};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use fairdeck_shuf::memory::SystemMemory;
use fairdeck_shuf::options::{self, Config, Request, Syntax};
use fairdeck_shuf::quote::Quotes;
use fairdeck_shuf::{Cancel, Error, Method, Options, Randomness};

use crate::output::Output;
use crate::signals;

/// The raw arguments of `fairdeck shuf` (see `fairdeck shuf --help`).
#[derive(Debug, clap::Args)]
#[command(disable_help_flag = true, disable_version_flag = true)]
pub struct Args {
    /// GNU shuf's arguments: `[OPTION]... [FILE]`, `-e [ARG]...` or `-i LO-HI`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub raw: Vec<OsString>,
}

/// Runs `fairdeck shuf`; output goes straight to standard output, not through `out`.
pub fn run(args: &Args, _out: &mut Output) -> anyhow::Result<ExitCode> {
    Ok(main("fairdeck shuf", &args.raw))
}

/// Whether `argv0` (the name `fairdeck` was run under) is `shuf`, as when it
/// is installed or linked under that name: then it acts as `fairdeck shuf`.
pub fn invoked_as_shuf(argv0: &OsStr) -> bool {
    Path::new(argv0).file_name() == Some(OsStr::new("shuf"))
}

/// Runs shuf with `args` (after the program name); `program` starts every
/// message ("shuf", "/usr/local/bin/shuf" or "fairdeck shuf").
pub fn main(program: &str, args: &[OsString]) -> ExitCode {
    reopen_closed_std_fds();
    let env = Environment::read();
    let syntax = Syntax {
        posixly_correct: env.posixly_correct,
        quotes: env.quotes,
    };
    let cancel = Cancel::new(Arc::new(AtomicBool::new(false)));
    let result = match options::parse(args, &syntax) {
        Ok(Request::Help) => print(&help(program)),
        Ok(Request::Version) => print(&version(program)),
        Ok(Request::Run(config)) => execute(program, &config, &env, &cancel),
        Err(e) => Err(e),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) if cancel.is_raised() => ExitCode::from(130),
        // A caller that ignored SIGPIPE gets GNU's "write error: Broken pipe".
        Err(e) if e.is_broken_pipe() && !crate::failure::sigpipe_was_ignored() => {
            // Should the signal not end the process (it is blocked), GNU's
            // message for an ignored SIGPIPE follows.
            crate::failure::die_of_sigpipe();
            report(program, &e)
        }
        // GNU's write fails first, then its check of stdout at exit again.
        Err(e) if e.is_broken_pipe() => {
            report(program, &e);
            say(&format!("{program}: write error\n"));
            ExitCode::FAILURE
        }
        Err(e) => report(program, &e),
    }
}

/// What shuf reads from the environment.
struct Environment {
    quotes: Quotes,
    posixly_correct: bool,
    temp_dir: PathBuf,
    fail_scratch_after: Option<u64>,
}

impl Environment {
    fn read() -> Self {
        let var = |name: &str| std::env::var(name).ok();
        let (all, ctype, lang) = (var("LC_ALL"), var("LC_CTYPE"), var("LANG"));
        Self {
            quotes: Quotes::for_locale([all.as_deref(), ctype.as_deref(), lang.as_deref()]),
            posixly_correct: std::env::var_os("POSIXLY_CORRECT").is_some(),
            temp_dir: std::env::var_os("TMPDIR")
                .filter(|t| !t.is_empty())
                .map_or_else(|| PathBuf::from("/tmp"), PathBuf::from),
            // Fault injection for the test suite: a full scratch disk.
            fail_scratch_after: var("FAIRDECK_SHUF_FAIL_SCRATCH_AFTER")
                .and_then(|t| t.parse().ok()),
        }
    }
}

/// One shuffle, as configured.
fn execute(
    program: &str,
    config: &Config,
    env: &Environment,
    cancel: &Cancel,
) -> Result<(), Error> {
    let randomness = match (&config.random_source, &config.seed) {
        (Some(path), _) => Randomness::Source(path.clone()),
        (None, Some(text)) => Randomness::Seed(fairdeck::rng::Seed::parse(text)),
        (None, None) => Randomness::Seed(
            crate::random::fresh_seed().map_err(|e| Error::Invalid(format!("{e:#}")))?,
        ),
    };
    if let (true, Randomness::Seed(seed)) = (config.verbose, &randomness) {
        say(&format!("{program}: seed {seed}\n"));
    }
    let system = SystemMemory::probe();
    let mut options = Options::new(randomness);
    options.input = config.input.clone();
    options.output = config.output.clone();
    options.head_count = config.limit;
    options.repeat = config.repeat;
    options.delimiter = config.delimiter;
    options.memory = config
        .memory
        .map_or_else(|| system.default_budget(), |m| system.resolve(m));
    options.temp_dir = config
        .temp_dir
        .clone()
        .unwrap_or_else(|| env.temp_dir.clone());
    options.progress = io::stderr().is_terminal();
    options.quotes = env.quotes;
    options.cancel = cancel.clone();
    options.fail_scratch_after = env.fail_scratch_after;
    signals::watch(cancel);
    let result = fairdeck_shuf::run(&options);
    for warning in options.warnings.take() {
        say(&format!("{program}: {warning}\n"));
    }
    let stats = result?;
    if config.verbose {
        say(&format!(
            "{program}: {}, {} lines\n",
            describe(stats.method, &options),
            stats.records
        ));
    }
    Ok(())
}

fn describe(method: Method, options: &Options) -> String {
    match method {
        Method::InMemory { mapped: true } => "in memory (mapped)".into(),
        Method::InMemory { mapped: false } => "in memory".into(),
        Method::OutOfCore { buckets } => {
            format!(
                "out of core: {buckets} buckets in {}",
                options.temp_dir.display()
            )
        }
        Method::Reservoir => "reservoir".into(),
        Method::Range => "range".into(),
        Method::Echo => "arguments".into(),
        _ => "nothing read".into(),
    }
}

/// Writes `text` to standard error in one call, so that no message is torn.
fn say(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

fn report(program: &str, e: &Error) -> ExitCode {
    // Run as `shuf`, GNU's exact line; `fairdeck shuf` says how much was needed.
    let gnu_name = Path::new(program).file_name() == Some(OsStr::new("shuf"));
    if gnu_name && matches!(e, Error::MemoryExhausted(_)) {
        say(&format!("{program}: memory exhausted\n"));
        return ExitCode::FAILURE;
    }
    let mut text = format!("{program}: {e}\n");
    if e.wants_hint() {
        text.push_str(&format!("Try '{program} --help' for more information.\n"));
    }
    say(&text);
    ExitCode::FAILURE
}

/// When the process was started with file descriptor 0, 1 or 2 closed
/// (`shuf f >&-`), the Rust runtime opens `/dev/null` read-write in its
/// place before `main`, so writes would vanish and the run would "succeed"
/// with its output lost. GNU shuf reports "write error: Bad file
/// descriptor" (exit 1) there. A standard descriptor that is `/dev/null`
/// opened read-write is taken to be such a stand-in (a shell's `>/dev/null`
/// is write-only, `</dev/null` read-only) and is reopened on `/dev/null` in
/// the direction that fails — write-only for 0, read-only for 1 and 2 — so
/// reading or writing it gives GNU's EBADF messages.
#[allow(unsafe_code)]
fn reopen_closed_std_fds() {
    for fd in 0..=2 {
        // SAFETY: `fstat` writes into a zeroed `stat` we own; `fcntl`,
        // `open` and `dup2` take plain integers and a NUL-terminated
        // constant path; `close` closes only the descriptor `open` returned
        // here, after `dup2` copied it. No Rust object owns descriptors 0–2
        // in a way this invalidates: std's handles only hold the numbers.
        unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            if libc::fstat(fd, &mut st) != 0 {
                continue;
            }
            let null_device = st.st_mode & libc::S_IFMT == libc::S_IFCHR
                && libc::major(st.st_rdev) == 1
                && libc::minor(st.st_rdev) == 3;
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if !null_device || flags < 0 || flags & libc::O_ACCMODE != libc::O_RDWR {
                continue;
            }
            let mode = if fd == 0 {
                libc::O_WRONLY
            } else {
                libc::O_RDONLY
            };
            let replacement = libc::open(c"/dev/null".as_ptr(), mode | libc::O_CLOEXEC);
            if replacement >= 0 {
                libc::dup2(replacement, fd);
                libc::close(replacement);
            }
        }
    }
}

fn print(text: &str) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("write error", e))
}

/// `--help`, in GNU's shape under the name the program was run as.
fn help(program: &str) -> String {
    format!(
        "\
Usage: {program} [OPTION]... [FILE]
  or:  {program} -e [OPTION]... [ARG]...
  or:  {program} -i LO-HI [OPTION]...
Write a random permutation of the input lines to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -e, --echo                treat each ARG as an input line
  -i, --input-range=LO-HI   treat each number LO through HI as an input line
  -n, --head-count=COUNT    output at most COUNT lines
  -o, --output=FILE         write result to FILE instead of standard output
      --random-source=FILE  get random bytes from FILE
  -r, --repeat              output lines can be repeated
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

fairdeck extensions:
      --seed=SEED           replay a run: 64 hex digits, or any text (hashed
                              with SHA-256); default: a fresh seed from the OS
      --verbose             print the seed and the method used to stderr
      --memory=SIZE         shuffle in memory up to SIZE bytes of input, out
                              of core beyond (K, M, G, T suffixes or P% of
                              the memory available; default: half of RAM, at
                              most a third of the ulimit -v or cgroup limit)
      --temporary-directory=DIR  where out-of-core buckets go
                              (default: $TMPDIR, else /tmp)

Every order of the lines is exactly equally likely. -i accepts the whole
range 0-18446744073709551615 with -n or -r, in O(COUNT) memory.

fairdeck {version}: exactly uniform shuffles, deals and samples.
",
        version = env!("CARGO_PKG_VERSION")
    )
}

/// `--version`, in GNU's shape.
fn version(program: &str) -> String {
    let name = Path::new(program)
        .file_name()
        .map_or_else(|| program.to_string(), |n| n.to_string_lossy().into_owned());
    format!(
        "{name} (fairdeck) {}\nLicense: {}.\nThis is free software: you are free to change and redistribute it.\nThere is NO WARRANTY, to the extent permitted by law.\n",
        env!("CARGO_PKG_VERSION"),
        env!("CARGO_PKG_LICENSE")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_name_shuf_dispatches() {
        assert!(invoked_as_shuf(OsStr::new("shuf")));
        assert!(invoked_as_shuf(OsStr::new("/usr/local/bin/shuf")));
        assert!(!invoked_as_shuf(OsStr::new("fairdeck")));
        assert!(!invoked_as_shuf(OsStr::new("shuffle")));
    }

    #[test]
    fn version_names_the_program_without_its_directory() {
        assert!(version("/usr/bin/shuf").starts_with("shuf (fairdeck) "));
        assert!(version("fairdeck shuf").starts_with("fairdeck shuf (fairdeck) "));
    }
}
