//! The engine of `fairdeck shuf`: a GNU `shuf`–compatible line shuffler
//! that is exactly uniform, replayable with `--seed`, and not limited by RAM.
//!
//! * [`options`] — GNU's command-line grammar and messages;
//! * [`lines`] — splitting lines, the in-memory shuffle, reservoir, repeat;
//! * [`buckets`] — the out-of-core shuffle through random temporary buckets;
//! * [`range`] — `-i LO-HI` up to the whole 64-bit range;
//! * [`dice`] — the seeded dice or `--random-source` bytes;
//! * [`sink`] — buffered output, `-o`, safe replacement of the input file;
//! * [`scratch`] — temporary files and their removal, Ctrl-C included;
//! * [`spill`] — the thread that writes bucket files;
//! * [`budget`] — `--memory` and its default.

pub mod buckets;
pub mod budget;
pub mod dice;
pub mod failure;
pub mod lines;
pub mod options;
pub mod range;
pub mod scratch;
pub mod sink;
pub mod spill;

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::os::fd::AsFd;
use std::process::ExitCode;

use self::buckets::{Plan, shuffle_out_of_core};
use self::dice::{ByteDice, ShufDice};
use self::failure::{IoContext, ShufError};
use self::lines::{Job, read_all, reservoir, run_job};
use self::options::{Config, Input, Request};
use self::scratch::Scratch;
use self::sink::Sink;

/// Runs `fairdeck shuf` with the arguments after `shuf`; returns the exit code.
pub fn main(args: &[OsString]) -> ExitCode {
    let result = options::parse(args).and_then(|request| match request {
        Request::Help => print(HELP),
        Request::Version => print(&format!("fairdeck shuf {}\n", env!("CARGO_PKG_VERSION"))),
        Request::Run(config) => execute(&config),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fairdeck shuf: {e}");
            if e.wants_hint() {
                eprintln!("Try 'fairdeck shuf --help' for more information.");
            }
            ExitCode::FAILURE
        }
    }
}

fn print(text: &str) -> Result<(), ShufError> {
    let mut sink = Sink::new(None, None);
    sink.line(text.as_bytes())?;
    sink.finish()
}

/// One shuffle, as configured.
fn execute(config: &Config) -> Result<(), ShufError> {
    let mut dice = make_dice(config)?;
    // `-o` naming the input file is detected through `/dev/stdin` too (`-o F < F`).
    let input_path = match &config.input {
        Input::File(path) => Some(path.clone().unwrap_or_else(|| "/dev/stdin".into())),
        _ => None,
    };
    let mut sink = Sink::new(config.output.clone(), input_path);
    if config.limit == Some(0) {
        // GNU reads nothing at all for -n 0, but still creates -o FILE.
        return sink.finish();
    }
    let d = config.delimiter;
    match &config.input {
        Input::Range { lo, hi } => {
            let range = range::Range {
                lo: *lo,
                hi: *hi,
                limit: config.limit,
                repeat: config.repeat,
                delimiter: d,
                memory: config.memory,
            };
            range::run(&range, &mut dice, &mut sink)?;
        }
        Input::Echo(args) => {
            let mut data = Vec::new();
            for a in args {
                data.extend_from_slice(a);
                data.push(d);
            }
            run_job(&data, d, job(config), &mut dice, &mut sink)?;
        }
        Input::File(_) => shuffle_file(config, &mut dice, &mut sink)?,
    }
    sink.finish()
}

fn job(config: &Config) -> Job {
    if config.repeat {
        Job::Repeat(config.limit)
    } else {
        Job::Shuffle(config.limit)
    }
}

fn make_dice(config: &Config) -> Result<ShufDice, ShufError> {
    if let Some(path) = &config.random_source {
        return Ok(ShufDice::Bytes(ByteDice::open(path)?));
    }
    let seed = match &config.seed {
        Some(text) => fairdeck::rng::Seed::parse(text),
        None => crate::random::fresh_seed().map_err(|e| ShufError::fatal(format!("{e:#}")))?,
    };
    if config.verbose {
        eprintln!("fairdeck shuf: seed {seed}");
    }
    Ok(ShufDice::seeded(&seed))
}

/// The input file (standard input when none), and its size when it is a
/// regular file.
fn open_input(config: &Config) -> Result<(File, Option<u64>), ShufError> {
    let file = match &config.input {
        Input::File(Some(path)) => File::open(path).on(path.display())?,
        _ => File::from(io::stdin().as_fd().try_clone_to_owned().on("read error")?),
    };
    let size = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    Ok((file, size))
}

/// Shuffles lines read from a file or standard input: in memory when the
/// input fits the budget, out of core otherwise; `-n` keeps a reservoir.
fn shuffle_file(config: &Config, dice: &mut ShufDice, sink: &mut Sink) -> Result<(), ShufError> {
    let (mut file, size) = open_input(config)?;
    let d = config.delimiter;
    if let (Some(k), false) = (config.limit, config.repeat) {
        let kept = reservoir(&mut file, k, d, dice)?;
        return kept.iter().try_for_each(|line| sink.line(line));
    }
    if let Some(map) = size
        .filter(|&s| config.repeat || s <= config.memory)
        .and_then(|_| map(&file))
    {
        if config.verbose {
            eprintln!("fairdeck shuf: in memory (mapped): {} bytes", map.len());
        }
        return run_job(&map, d, job(config), dice, sink);
    }
    let mut data = Vec::new();
    let fits = match size {
        _ if config.repeat => true,
        Some(s) => s <= config.memory,
        None => {
            read_all(&mut (&mut file).take(config.memory + 1), &mut data)?;
            data.len() as u64 <= config.memory
        }
    };
    if fits {
        data.reserve_exact(size.map_or(1, |s| s as usize + 1));
        read_all(&mut file, &mut data)?;
        if config.verbose {
            eprintln!("fairdeck shuf: in memory: {} bytes", data.len());
        }
        return run_job(&data, d, job(config), dice, sink);
    }
    let mut scratch = Scratch::new(&config.temp_dir)?;
    let mut plan = Plan {
        memory: config.memory,
        delimiter: d,
        scratch: &mut scratch,
        verbose: config.verbose,
        progress: io::stderr().is_terminal(),
        buffer: Vec::new(),
    };
    let rest = io::Cursor::new(data).chain(file);
    shuffle_out_of_core(Box::new(rest), size, &mut plan, dice, sink)
}

/// Maps a regular file into memory, read-only, with its pages loaded up
/// front; `None` when it cannot be mapped (an empty file, say): the caller
/// then reads it instead.
///
/// Mapping saves copying the input and faulting in as much fresh memory
/// (measured: see the README).
fn map(file: &File) -> Option<memmap2::Mmap> {
    // SAFETY: a mapping is undefined behaviour if the file is truncated or
    // written while mapped. fairdeck never writes its input: `-o` naming the
    // input writes a new file and renames it over the old name, which leaves
    // the mapped file intact. Another process changing the file during the
    // run is the same hazard every tool reading a changing file has (GNU
    // shuf would read a mix of old and new lines); here it may also end the
    // run with SIGBUS. The mapping is private and read-only.
    unsafe { memmap2::MmapOptions::new().populate().map(file) }.ok()
}

/// `fairdeck shuf --help`.
const HELP: &str = "\
Usage: fairdeck shuf [OPTION]... [FILE]
  or:  fairdeck shuf -e [OPTION]... [ARG]...
  or:  fairdeck shuf -i LO-HI [OPTION]...
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
      --help                display this help and exit
      --version             output version information and exit

fairdeck extensions:
      --seed=SEED           replay a run: 64 hex digits, or any text (hashed
                              with SHA-256); default: a fresh seed from the OS
      --verbose             print the seed and the method used to stderr
      --memory=SIZE         shuffle in memory up to SIZE bytes of input, out
                              of core beyond (K, M, G, T suffixes or P% of
                              RAM; default: half of physical RAM)
      --temporary-directory=DIR  where out-of-core buckets go
                              (default: $TMPDIR, else /tmp)

Every order of the lines is exactly equally likely. -i accepts the whole
range 0-18446744073709551615 with -n or -r, in O(COUNT) memory.
";
