//! Shuffling more lines than fit in memory: random buckets on disk.
//!
//! Each line is appended to one of `B` temporary bucket files chosen by an
//! exact roll of a `B`-sided die; then each bucket is read back, shuffled in
//! memory, and written out, bucket after bucket. A bucket still larger than
//! the budget is shuffled the same way, recursively.
//!
//! Why the output is exactly uniform: fix any order `σ` of the `n` lines.
//! For the output to be `σ`, the buckets must receive consecutive blocks of
//! `σ` — sizes `c₁ + … + c_B = n`, bucket `j` getting exactly the lines in
//! block `j` — and each bucket's shuffle must then put its block in `σ`'s
//! order. Given the sizes, the assignment has probability `B^−n` and the
//! in-bucket shuffles `Π 1/c_j!` (each is uniform whatever order the lines
//! arrived in; by induction this holds for recursed buckets too). So
//! `P(σ) = Σ_c B^−n Π_j 1/c_j!`, a sum over size vectors that does not
//! mention `σ`: every order has the same probability, `1/n!`. This is the
//! scatter-then-shuffle method of Rao (1961) and Sandelius (1962).
//!
//! With a seed, the assignment to buckets is drawn from the seed's main
//! stream; each bucket that fits in memory is then shuffled as in
//! [`crate::seeded`], keyed by a fresh seed of 32 bytes drawn from the same
//! stream when its turn comes.

use std::fs::{self, File};
use std::io::Read;
use std::path::PathBuf;

use fairdeck::dice::Dice;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cancel::Cancel;
use crate::dice::ShufDice;
use crate::error::reserve;
use crate::error::{Error, IoContext};
use crate::lines::{Job, for_each_line, run_job};
use crate::scratch::Scratch;
use crate::sink::Sink;
use crate::spill::Spill;

/// Index bytes per line the in-memory shuffle adds to the data.
const INDEX_BYTES: u64 = 4;
/// At most this many buckets at once (open files, write buffers).
const MAX_BUCKETS: u64 = 256;

/// The settings of an out-of-core shuffle.
pub struct Plan<'a> {
    /// The memory budget in bytes.
    pub memory: u64,
    /// The line delimiter.
    pub delimiter: u8,
    /// Where the bucket files go.
    pub scratch: &'a mut Scratch,
    /// The run's cancellation flag.
    pub cancel: Cancel,
    /// How many buckets the first level used (0 until it is chosen).
    pub buckets: u64,
    /// Whether to draw a progress bar on stderr.
    pub progress: bool,
    /// The buffer buckets are read into, reused so that each bucket does
    /// not fault in fresh memory.
    pub buffer: Vec<u8>,
}

/// Bucket size that keeps a bucket's shuffle inside the processor caches.
const CACHE_FRIENDLY: u64 = 4 << 20;

/// How many buckets for `size` bytes: enough that each holds at most about
/// half the budget, and, budget allowing, few enough megabytes that its
/// in-memory shuffle stays in cache (the random swaps and reads of a
/// shuffle are much faster there). A power of two, so one roll can pick
/// buckets for several lines.
fn bucket_count(size: Option<u64>, memory: u64) -> u64 {
    match size {
        Some(s) => {
            let fit = s.saturating_mul(2).div_ceil(memory);
            let fast = s.div_ceil(CACHE_FRIENDLY);
            fit.max(fast).clamp(2, MAX_BUCKETS).next_power_of_two()
        }
        None => 64,
    }
}

/// Picks buckets for lines, several per roll.
///
/// With `B = 2^s` buckets, one exact roll below `2^(s·k)` (`s·k ≤ 63`) is a
/// uniform `s·k`-bit number whose `k` fields of `s` bits are independent and
/// each uniform over the `B` buckets — the same distribution as `k` separate
/// rolls of a `B`-sided die, for a `k`-th of the generator calls.
struct BucketPicker {
    shift: u32,
    per_roll: u32,
    digits: u64,
    left: u32,
}

impl BucketPicker {
    fn new(count: u64) -> Self {
        debug_assert!(count.is_power_of_two() && count >= 2);
        let shift = count.trailing_zeros();
        Self {
            shift,
            per_roll: 63 / shift,
            digits: 0,
            left: 0,
        }
    }

    #[inline]
    fn pick<D: Dice + ?Sized>(&mut self, dice: &mut D) -> usize {
        if self.left == 0 {
            self.digits = dice.roll(1 << (self.shift * self.per_roll));
            self.left = self.per_roll;
        }
        let bucket = self.digits & ((1 << self.shift) - 1);
        self.digits >>= self.shift;
        self.left -= 1;
        bucket as usize
    }
}

/// Shuffles every line of `reader` (about `size` bytes, if known) to `sink`;
/// `reader` is dropped once it has been scattered.
///
/// O(n) time per level of recursion, which is one level when the size is
/// known and lines are short; memory: the budget plus one write buffer per
/// bucket (at most a quarter of the budget in all).
///
/// # Errors
///
/// Read, write and temporary-file errors (a full disk among them), and the
/// random source running out.
pub fn shuffle_out_of_core(
    mut reader: Box<dyn Read + '_>,
    size: Option<u64>,
    plan: &mut Plan<'_>,
    dice: &mut ShufDice,
    sink: &mut Sink,
) -> Result<(), Error> {
    let count = bucket_count(size, plan.memory);
    if plan.buckets == 0 {
        plan.buckets = count;
    }
    let buckets = scatter(&mut reader, size, count, plan, dice)?;
    // The reader may hold buffered input (a pipe's first SIZE bytes): free it.
    drop(reader);
    if let Some(e) = dice.failure() {
        return Err(e);
    }
    // All input is read: the output can be written by a second thread
    // while this one reads and shuffles the buckets.
    sink.background()?;
    for bucket in buckets {
        gather(bucket, plan, dice, sink)?;
    }
    Ok(())
}

/// Writes each line to a bucket chosen by one roll; returns each bucket's
/// path, bytes and lines.
fn scatter(
    reader: &mut dyn Read,
    size: Option<u64>,
    count: u64,
    plan: &mut Plan<'_>,
    dice: &mut ShufDice,
) -> Result<Vec<(PathBuf, u64, u64)>, Error> {
    let buffer = (plan.memory / 4 / count).clamp(4096, 1 << 20) as usize;
    let files = (0..count)
        .map(|_| plan.scratch.create())
        .collect::<Result<Vec<_>, Error>>()?;
    let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
    let mut sizes = vec![(0u64, 0u64); files.len()];
    let mut spill = Spill::new(files, buffer);
    let bar = progress_bar(plan.progress, size);
    let mut pending = 0u64;
    let chunk = (plan.memory / 8).clamp(4096, 1 << 20) as usize;
    let mut picker = BucketPicker::new(count);
    for_each_line(reader, plan.delimiter, chunk, &plan.cancel, |line| {
        let bucket = picker.pick(dice);
        spill.push(bucket, line)?;
        let (bytes, lines) = &mut sizes[bucket];
        *bytes += line.len() as u64;
        *lines += 1;
        pending += line.len() as u64;
        if pending >= 1 << 22 {
            bar.inc(pending);
            pending = 0;
        }
        Ok(())
    })?;
    spill.finish()?;
    bar.finish_and_clear();
    Ok(paths
        .into_iter()
        .zip(sizes)
        .map(|(path, (bytes, lines))| (path, bytes, lines))
        .collect())
}

fn progress_bar(show: bool, size: Option<u64>) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = match size {
        Some(s) => ProgressBar::new(s),
        None => ProgressBar::new_spinner(),
    };
    bar.set_draw_target(ProgressDrawTarget::stderr());
    let template = "shuf: scattering {bar:20} {bytes}/{total_bytes} {binary_bytes_per_sec}";
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// Shuffles one bucket to `sink` (in memory, or recursively) and deletes it.
fn gather(
    (path, bytes, lines): (PathBuf, u64, u64),
    plan: &mut Plan<'_>,
    dice: &mut ShufDice,
    sink: &mut Sink,
) -> Result<(), Error> {
    plan.cancel.check()?;
    let mut file = File::open(&path).on(path.display())?;
    let need = INDEX_BYTES
        .checked_mul(lines)
        .and_then(|index| index.checked_add(bytes));
    if lines <= 1 || need.is_some_and(|n| n <= plan.memory) {
        let mut data = std::mem::take(&mut plan.buffer);
        data.clear();
        reserve(&mut data, usize::try_from(bytes).unwrap_or(usize::MAX))?;
        file.read_to_end(&mut data).on(path.display())?;
        drop(file);
        fs::remove_file(&path).on(path.display())?;
        // Each bucket's in-memory shuffle gets its own streams, keyed by a
        // seed drawn from the main dice (the same seed for every bucket
        // would give them correlated orders).
        let mut own = dice.draw_seed().map(|seed| ShufDice::seeded(&seed));
        let bucket_dice = own.as_mut().unwrap_or(dice);
        run_job(&data, plan.delimiter, Job::Shuffle(None), bucket_dice, sink)?;
        plan.buffer = data;
        Ok(())
    } else {
        // Unlinking first frees the disk space as soon as it has been read.
        fs::remove_file(&path).on(path.display())?;
        shuffle_out_of_core(Box::new(file), Some(bytes), plan, dice, sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Shuffles `input` out of core with a 4 KiB budget into a file; returns the output.
    fn shuffle_small(input: &[u8], delimiter: u8, seed: &str) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let cancel = Cancel::default();
        let mut scratch = Scratch::new(dir.path(), &cancel, None).unwrap();
        let mut plan = Plan {
            memory: 4096,
            delimiter,
            scratch: &mut scratch,
            cancel: cancel.clone(),
            buckets: 0,
            progress: false,
            buffer: Vec::new(),
        };
        let mut dice = ShufDice::seeded(&fairdeck::rng::Seed::parse(seed));
        let mut sink = Sink::new(Some(out.clone()), None, &cancel);
        let size = Some(input.len() as u64);
        shuffle_out_of_core(Box::new(input), size, &mut plan, &mut dice, &mut sink).unwrap();
        sink.finish().unwrap();
        std::fs::read(out).unwrap()
    }

    fn records(data: &[u8], delimiter: u8) -> Vec<Vec<u8>> {
        let mut v: Vec<Vec<u8>> = data
            .split_inclusive(|&b| b == delimiter)
            .map(|r| {
                let mut r = r.to_vec();
                if r.last() != Some(&delimiter) {
                    r.push(delimiter);
                }
                r
            })
            .collect();
        v.sort();
        v
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn out_of_core_output_is_the_input_multiset(
            input in proptest::collection::vec(any::<u8>(), 0..20_000),
            zero in any::<bool>(),
            seed in "[a-z]{1,8}",
        ) {
            let delimiter = if zero { 0 } else { b'\n' };
            let out = shuffle_small(&input, delimiter, &seed);
            prop_assert_eq!(records(&out, delimiter), records(&input, delimiter));
            prop_assert!(out.is_empty() || out.last() == Some(&delimiter));
        }
    }

    #[test]
    fn buckets_hold_about_half_the_budget() {
        assert_eq!(bucket_count(Some(1 << 30), 64 << 20), 256);
        assert_eq!(bucket_count(Some(100 << 20), 64 << 20), 32);
        assert_eq!(bucket_count(Some(100 << 20), 4 << 20), 64);
        assert_eq!(bucket_count(Some(10), 64 << 20), 2);
        assert_eq!(bucket_count(Some(u64::MAX), 4096), MAX_BUCKETS);
        assert_eq!(bucket_count(None, 4096), 64);
    }

    #[test]
    fn batched_bucket_picks_are_exactly_uniform() {
        // A picker with 4 buckets and 2 picks per roll (the real one takes
        // 31 per roll: too many paths to walk), run under the enumerator:
        // each of the 16 answers of its one roll must give a different pair
        // of buckets, so every pair has probability exactly 1/16.
        use fairdeck::dice::Enumerator;
        let mut e = Enumerator::new();
        let mut seen = Vec::new();
        loop {
            let mut p = BucketPicker {
                shift: 2,
                per_roll: 2,
                digits: 0,
                left: 0,
            };
            seen.push((p.pick(&mut e), p.pick(&mut e)));
            assert_eq!(e.depth(), 1);
            if !e.next_path() {
                break;
            }
        }
        seen.sort_unstable();
        let all: Vec<(usize, usize)> = (0..4).flat_map(|a| (0..4).map(move |b| (a, b))).collect();
        assert_eq!(seen, all);
        let p = BucketPicker::new(4);
        assert_eq!((p.shift, p.per_roll), (2, 31));
    }
}
