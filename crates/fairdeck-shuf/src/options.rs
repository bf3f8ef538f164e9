//! `fairdeck shuf`'s command line, parsed the way GNU `getopt_long` parses
//! `shuf`'s: options and operands in any order, `--` ends options, long
//! options may be abbreviated to any unique prefix, short options bundle
//! (`-rn3`), and every mistake is a one-line message plus the GNU hint
//! "Try '… --help' for more information." with exit code 1.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;

mod numbers;

use self::numbers::{parse_count, parse_range};
use crate::error::Error;
use crate::memory::{self, MemorySize};
use crate::quote::Quotes;

/// Where the lines come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A file, or standard input when `None` (no operand, or `-`).
    File(Option<PathBuf>),
    /// `-e`: each operand is a line.
    Echo(Vec<Vec<u8>>),
    /// `-i LO-HI`: the numbers `lo..=hi` (`hi = lo − 1` is the empty range).
    Range {
        /// First number.
        lo: u64,
        /// Last number; `None` for the empty range `LO-(LO−1)`.
        hi: Option<u64>,
    },
}

/// Everything a run of `fairdeck shuf` needs to know.
#[derive(Debug, Clone)]
pub struct Config {
    /// The lines to shuffle.
    pub input: Input,
    /// `-n`: the smallest count given, if any.
    pub limit: Option<u64>,
    /// `-o FILE`.
    pub output: Option<PathBuf>,
    /// `--random-source FILE`.
    pub random_source: Option<PathBuf>,
    /// `-r`.
    pub repeat: bool,
    /// The line delimiter: `\n`, or NUL with `-z`.
    pub delimiter: u8,
    /// `--seed`.
    pub seed: Option<String>,
    /// `--memory`; `None`: the caller's default (see [`memory::SystemMemory::default_budget`]).
    pub memory: Option<MemorySize>,
    /// `--temporary-directory`; `None`: the caller's default (`$TMPDIR`, `/tmp`).
    pub temp_dir: Option<PathBuf>,
    /// `--verbose`.
    pub verbose: bool,
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Request {
    /// `--help`.
    Help,
    /// `--version`.
    Version,
    /// A shuffle.
    Run(Box<Config>),
}

/// The options: long name, short letter, whether it takes an argument.
const OPTIONS: &[(&str, Option<char>, bool)] = &[
    ("echo", Some('e'), false),
    ("input-range", Some('i'), true),
    ("head-count", Some('n'), true),
    ("output", Some('o'), true),
    ("random-source", None, true),
    ("repeat", Some('r'), false),
    ("zero-terminated", Some('z'), false),
    ("help", None, false),
    ("version", None, false),
    ("seed", None, true),
    ("memory", None, true),
    ("temporary-directory", None, true),
    ("verbose", None, false),
];

/// The first entries of [`OPTIONS`] are GNU shuf's; the rest are fairdeck's.
const GNU_OPTIONS: usize = 9;

/// Options as they were seen, before cross-checks.
#[derive(Default)]
struct Seen {
    echo: bool,
    range: Option<(u64, Option<u64>)>,
    limit: Option<u64>,
    output: Option<OsString>,
    random_source: Option<OsString>,
    repeat: bool,
    zero: bool,
    help: bool,
    version: bool,
    seed: Option<String>,
    memory: Option<MemorySize>,
    temp_dir: Option<OsString>,
    verbose: bool,
    operands: Vec<OsString>,
}

/// How the command line is read and its messages are quoted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Syntax {
    /// `POSIXLY_CORRECT` is set: the first operand ends the options, so
    /// anything after it is an operand too (GNU `getopt`'s POSIX mode).
    pub posixly_correct: bool,
    /// The quotation marks of the locale, for values quoted in messages.
    pub quotes: Quotes,
}

/// Parses the arguments after `shuf` (without the program name).
///
/// Pure: reads nothing but its arguments (the caller reads
/// `POSIXLY_CORRECT`, the locale, `TMPDIR`). O(total length of the arguments
/// × number of options).
///
/// ```
/// use std::ffi::OsString;
/// use fairdeck_shuf::options::{parse, Input, Request, Syntax};
/// let args: Vec<OsString> = ["-n3", "-e", "a", "b"].iter().map(OsString::from).collect();
/// let Ok(Request::Run(config)) = parse(&args, &Syntax::default()) else { panic!() };
/// assert_eq!(config.limit, Some(3));
/// assert_eq!(config.input, Input::Echo(vec![b"a".to_vec(), b"b".to_vec()]));
/// ```
///
/// # Errors
///
/// An [`Error::Usage`] or [`Error::Invalid`] with GNU's wording for every
/// malformed command line.
pub fn parse(args: &[OsString], syntax: &Syntax) -> Result<Request, Error> {
    let mut seen = Seen::default();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_encoded_bytes();
        i += 1;
        if arg == b"--" {
            seen.operands.extend(args[i..].iter().cloned());
            break;
        } else if let Some(long) = arg.strip_prefix(b"--") {
            parse_long(long, args, &mut i, &mut seen, syntax)?;
            // GNU acts on --help and --version as soon as it meets them.
            if seen.help {
                return Ok(Request::Help);
            }
            if seen.version {
                return Ok(Request::Version);
            }
        } else if arg.len() > 1 && arg[0] == b'-' {
            parse_short(&arg[1..], args, &mut i, &mut seen, syntax)?;
        } else if syntax.posixly_correct {
            seen.operands.extend(args[i - 1..].iter().cloned());
            break;
        } else {
            seen.operands.push(args[i - 1].clone());
        }
    }
    finish(seen, syntax)
}

fn parse_long(
    text: &[u8],
    args: &[OsString],
    i: &mut usize,
    seen: &mut Seen,
    syntax: &Syntax,
) -> Result<(), Error> {
    let text = String::from_utf8_lossy(text);
    let (name, inline) = match text.split_once('=') {
        Some((n, v)) => (n, Some(v.to_string())),
        None => (&*text, None),
    };
    let exact = OPTIONS.iter().find(|o| o.0 == name);
    // A prefix of one of GNU's own options means that option, as in GNU
    // (`--v` is `--version`, not ambiguous with `--verbose`); only a prefix
    // of none of them is looked up among the fairdeck extensions.
    let prefixed = |table: &'static [(&str, Option<char>, bool)]| -> Vec<_> {
        table.iter().filter(|o| o.0.starts_with(name)).collect()
    };
    let mut candidates = prefixed(&OPTIONS[..GNU_OPTIONS]);
    if candidates.is_empty() {
        candidates = prefixed(&OPTIONS[GNU_OPTIONS..]);
    }
    let option = match (exact, candidates.as_slice()) {
        (Some(o), _) => o,
        (None, [o]) => *o,
        // getopt quotes the whole argument, `=value` included.
        (None, []) => return Err(Error::Usage(format!("unrecognized option '--{text}'"))),
        (None, many) => {
            let list: Vec<String> = many.iter().map(|o| format!("'--{}'", o.0)).collect();
            return Err(Error::Usage(format!(
                "option '--{text}' is ambiguous; possibilities: {}",
                list.join(" ")
            )));
        }
    };
    let value = match (option.2, inline) {
        (false, Some(_)) => {
            return Err(Error::Usage(format!(
                "option '--{}' doesn't allow an argument",
                option.0
            )));
        }
        (false, None) => None,
        (true, Some(v)) => Some(OsString::from(v)),
        (true, None) => match args.get(*i) {
            Some(v) => {
                *i += 1;
                Some(v.clone())
            }
            None => {
                return Err(Error::Usage(format!(
                    "option '--{}' requires an argument",
                    option.0
                )));
            }
        },
    };
    apply(option.0, value, seen, syntax)
}

fn parse_short(
    letters: &[u8],
    args: &[OsString],
    i: &mut usize,
    seen: &mut Seen,
    syntax: &Syntax,
) -> Result<(), Error> {
    for (at, &letter) in letters.iter().enumerate() {
        let c = letter as char;
        let Some(option) = OPTIONS.iter().find(|o| o.1 == Some(c)) else {
            return Err(Error::Usage(format!("invalid option -- '{c}'")));
        };
        if !option.2 {
            apply(option.0, None, seen, syntax)?;
            continue;
        }
        let rest = &letters[at + 1..];
        let value = if !rest.is_empty() {
            OsString::from_vec(rest.to_vec())
        } else if let Some(v) = args.get(*i) {
            *i += 1;
            v.clone()
        } else {
            return Err(Error::Usage(format!(
                "option requires an argument -- '{c}'"
            )));
        };
        return apply(option.0, Some(value), seen, syntax);
    }
    Ok(())
}

fn apply(
    name: &str,
    value: Option<OsString>,
    seen: &mut Seen,
    syntax: &Syntax,
) -> Result<(), Error> {
    let text = || {
        value
            .as_ref()
            .map(|v| v.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let q = syntax.quotes;
    match name {
        "echo" => seen.echo = true,
        "repeat" => seen.repeat = true,
        "zero-terminated" => seen.zero = true,
        "help" => seen.help = true,
        "version" => seen.version = true,
        "verbose" => seen.verbose = true,
        "input-range" => {
            if seen.range.is_some() {
                return Err(Error::Invalid("multiple -i options specified".into()));
            }
            seen.range = Some(parse_range(&text(), q)?);
        }
        "head-count" => {
            let n = parse_count(&text(), q)?;
            seen.limit = Some(seen.limit.map_or(n, |m| m.min(n)));
        }
        "output" => set_once(&mut seen.output, value, "multiple output files specified")?,
        "random-source" => set_once(
            &mut seen.random_source,
            value,
            "multiple random sources specified",
        )?,
        "seed" => seen.seed = Some(text()),
        "memory" => seen.memory = Some(memory::parse_size(&text(), q)?),
        "temporary-directory" => seen.temp_dir = value,
        _ => unreachable!("option table and apply() disagree on {name}"),
    }
    Ok(())
}

/// GNU accepts a repeated `-o`/`--random-source` only when it names the same file.
fn set_once(
    slot: &mut Option<OsString>,
    value: Option<OsString>,
    message: &str,
) -> Result<(), Error> {
    match (slot.as_ref(), value) {
        (Some(old), Some(new)) if *old != new => Err(Error::Invalid(message.into())),
        (_, new) => {
            *slot = new;
            Ok(())
        }
    }
}

/// Cross-checks the options and builds the configuration.
fn finish(seen: Seen, syntax: &Syntax) -> Result<Request, Error> {
    if seen.help {
        return Ok(Request::Help);
    }
    if seen.version {
        return Ok(Request::Version);
    }
    if seen.seed.is_some() && seen.random_source.is_some() {
        return Err(Error::Usage(
            "cannot combine --seed and --random-source".into(),
        ));
    }
    if seen.echo && seen.range.is_some() {
        return Err(Error::Usage("cannot combine -e and -i options".into()));
    }
    let input = if seen.echo {
        Input::Echo(seen.operands.into_iter().map(OsString::into_vec).collect())
    } else if let Some((lo, hi)) = seen.range {
        if let Some(extra) = seen.operands.first() {
            return Err(extra_operand(extra, syntax.quotes));
        }
        Input::Range { lo, hi }
    } else {
        if let Some(extra) = seen.operands.get(1) {
            return Err(extra_operand(extra, syntax.quotes));
        }
        let file = seen.operands.into_iter().next().filter(|f| f != "-");
        Input::File(file.map(PathBuf::from))
    };
    Ok(Request::Run(Box::new(Config {
        input,
        limit: seen.limit,
        output: seen.output.map(PathBuf::from),
        random_source: seen.random_source.map(PathBuf::from),
        repeat: seen.repeat,
        delimiter: if seen.zero { 0 } else { b'\n' },
        seed: seen.seed,
        memory: seen.memory,
        temp_dir: seen.temp_dir.map(PathBuf::from),
        verbose: seen.verbose,
    })))
}

fn extra_operand(extra: &OsString, quotes: Quotes) -> Error {
    Error::Usage(format!(
        "extra operand {}",
        quotes.quote(extra.as_encoded_bytes())
    ))
}

#[cfg(test)]
mod tests;
