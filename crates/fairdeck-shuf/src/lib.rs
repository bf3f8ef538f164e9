//! `fairdeck-shuf`: GNU `shuf` as a library — a random permutation of the
//! lines of a file, of arguments or of a range of numbers, exactly uniform,
//! replayable from a seed, and not limited by RAM (larger inputs are
//! shuffled through temporary bucket files).
//!
//! Quick start: shuffle a file into another with a fixed seed.
//!
//! ```
//! use fairdeck::rng::Seed;
//! use fairdeck_shuf::{shuffle_file, Options, Randomness};
//! let dir = tempfile::tempdir().unwrap();
//! let (input, output) = (dir.path().join("in"), dir.path().join("out"));
//! std::fs::write(&input, "a\nb\nc\nd\n").unwrap();
//! let options = Options::new(Randomness::Seed(Seed::parse("demo")));
//! let stats = shuffle_file(&input, &output, &options).unwrap();
//! assert_eq!(stats.records, 4);
//! let mut lines: Vec<String> = std::fs::read_to_string(&output).unwrap().lines().map(String::from).collect();
//! lines.sort();
//! assert_eq!(lines, ["a", "b", "c", "d"]);
//! // The same seed gives the same order.
//! let again = dir.path().join("again");
//! shuffle_file(&input, &again, &options).unwrap();
//! assert_eq!(std::fs::read(&output).unwrap(), std::fs::read(&again).unwrap());
//! ```
//!
//! * [`options`] — GNU's command-line grammar and messages (pure; fuzzable);
//! * [`memory`] — `--memory` and the default that respects the process's limits;
//! * [`cancel`] — stopping a run from a signal handler, cleanly;
//! * [`quote`] — GNU's quoting of names in messages;
//! * [`dice`] — the seeded dice or `--random-source` bytes (GNU's mapping);
//! * [`seeded`] — the seeded in-memory shuffle on every core, and exactly
//!   which order a seed gives;
//! * [`lines`], [`range`], [`buckets`] — the other in-memory jobs, ranges and
//!   the out-of-core shuffle;
//! * [`sink`], [`scratch`], [`spill`] — output, temporary files, the bucket writer;
//! * [`leftover`] — what killed runs leave, and when it is removed.
//!
//! The library never reads the clock, the OS random generator, the
//! environment or signal state: the caller passes a seed (or a random
//! source file), a memory budget (see [`memory::SystemMemory`]) and a
//! cancellation flag.

#![deny(unsafe_code)]

mod background;
pub mod buckets;
pub mod cancel;
pub mod dice;
mod engine;
pub mod error;
mod gather;
pub mod leftover;
pub mod lines;
pub mod memory;
mod offset;
pub mod options;
pub mod quote;
pub mod range;
mod replacement;
mod scan;
pub mod scratch;
pub mod seeded;
pub mod sink;
pub mod spill;

use std::path::{Path, PathBuf};

use fairdeck::rng::Seed;

pub use crate::cancel::Cancel;
pub use crate::error::Error;
pub use crate::leftover::Warnings;
pub use crate::options::Input;
use crate::quote::Quotes;

/// Where the draws come from.
#[derive(Debug, Clone)]
pub enum Randomness {
    /// The production dice: ChaCha20 keyed with this seed.
    Seed(Seed),
    /// `--random-source FILE`: its bytes become draws as GNU's do.
    Source(PathBuf),
}

/// Everything one run needs. Build with [`Options::new`] and set fields.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Options {
    /// The lines to shuffle (default: standard input).
    pub input: Input,
    /// The output file (`None`: standard output). May name the input file:
    /// it is then replaced only once the output is complete.
    pub output: Option<PathBuf>,
    /// `-n`: output at most this many lines.
    pub head_count: Option<u64>,
    /// `-r`: draw with replacement (forever without `head_count`).
    pub repeat: bool,
    /// The line delimiter: `b'\n'`, or 0 for `-z`.
    pub delimiter: u8,
    /// The seed or the random source.
    pub randomness: Randomness,
    /// Bytes of input shuffled in memory; larger inputs go out of core.
    /// Default 1 GiB; [`memory::SystemMemory::default_budget`] is the CLI's.
    pub memory: u64,
    /// Where out-of-core buckets go (default `/tmp`).
    pub temp_dir: PathBuf,
    /// Draw a progress bar on standard error while scattering buckets.
    pub progress: bool,
    /// How names are quoted in messages.
    pub quotes: Quotes,
    /// The cancellation flag (default: never raised).
    pub cancel: Cancel,
    /// Where warnings go (kept outputs of interrupted runs), for the caller to print.
    pub warnings: Warnings,
    /// Tests only: temporary-file writes fail with "No space left on
    /// device" after this many bytes.
    #[doc(hidden)]
    pub fail_scratch_after: Option<u64>,
}

impl Options {
    /// Options for shuffling standard input to standard output with
    /// `randomness`; every other field has its GNU default.
    pub fn new(randomness: Randomness) -> Self {
        Self {
            input: Input::File(None),
            output: None,
            head_count: None,
            repeat: false,
            delimiter: b'\n',
            randomness,
            memory: 1 << 30,
            temp_dir: PathBuf::from("/tmp"),
            progress: false,
            quotes: Quotes::Ascii,
            cancel: Cancel::default(),
            warnings: Warnings::default(),
            fail_scratch_after: None,
        }
    }
}

/// How a run went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stats {
    /// Lines (records) written.
    pub records: u64,
    /// Bytes written.
    pub bytes: u64,
    /// How the lines were shuffled.
    pub method: Method,
}

/// How the lines were shuffled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// `-n 0`: nothing was read.
    Nothing,
    /// `-e` arguments.
    Echo,
    /// `-i LO-HI`.
    Range,
    /// `-n K` from a stream: a reservoir of `K` lines.
    Reservoir,
    /// The whole input in memory (`mapped`: a memory map of the file).
    InMemory {
        /// Whether the file was mapped rather than read.
        mapped: bool,
    },
    /// Through temporary bucket files.
    OutOfCore {
        /// Buckets at the first level.
        buckets: u64,
    },
}

/// Runs one `shuf` as `options` say.
///
/// O(n) time for n lines; memory: at most about the budget (out of core
/// beyond it), or O(k) for `-n k` and ranges. Every order (or `k`-subset
/// in random order) is exactly equally likely; the same seed and input give
/// the same output.
///
/// # Errors
///
/// [`Error`] with GNU's wording: unreadable input, write errors (a full disk,
/// a closed pipe), the random source running out, memory exhausted,
/// [`Error::Interrupted`] when the cancellation flag was raised.
pub fn run(options: &Options) -> Result<Stats, Error> {
    engine::run(options)
}

/// Shuffles the lines of the file `input` into the file `output` (which may
/// be `input` itself: it is replaced only once the output is complete).
/// `options.input` and `options.output` are ignored.
///
/// ```
/// use fairdeck::rng::Seed;
/// use fairdeck_shuf::{shuffle_file, Options, Randomness};
/// let dir = tempfile::tempdir().unwrap();
/// let file = dir.path().join("lines");
/// std::fs::write(&file, "1\n2\n3\n").unwrap();
/// let mut options = Options::new(Randomness::Seed(Seed::parse("x")));
/// options.memory = 4096;
/// shuffle_file(&file, &file, &options).unwrap();
/// assert_eq!(std::fs::read(&file).unwrap().len(), 6);
/// ```
///
/// # Errors
///
/// As [`run`].
pub fn shuffle_file(input: &Path, output: &Path, options: &Options) -> Result<Stats, Error> {
    let mut options = options.clone();
    options.input = Input::File(Some(input.to_path_buf()));
    options.output = Some(output.to_path_buf());
    run(&options)
}
