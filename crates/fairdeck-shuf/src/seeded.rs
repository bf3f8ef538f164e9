//! The seeded in-memory shuffle, on every core, with an order fixed by the
//! seed alone (the same for any number of threads and any memory budget).
//!
//! For `n` lines and seed `S` the order is defined as follows (all streams
//! are ChaCha20 keyed by `SHA-256("fairdeck-shuf/v2/" ‖ phase ‖ S ‖ i)`,
//! `i` a little-endian `u64`, and all draws are exact):
//!
//! 1. `bits = ⌈log₂ ⌈n / 2¹⁷⌉⌉` (at most 16), `B = 2^bits` buckets;
//! 2. the lines are cut into chunks of 2¹⁶ consecutive lines; chunk `c`'s
//!    labels come from the stream (`"labels"`, `c`): one call of
//!    [`Dice::roll_pow2_many`] with `min(8, bits)` bits for all of the
//!    chunk's lines, then, when `bits > 8`, a second with `bits − 8` bits;
//!    a line's label is `first << (bits − 8) | second` (or `first`);
//! 3. bucket `b` holds the lines labelled `b`, in input order, and is
//!    shuffled by [`fairdeck::shuffle::shuffle`] with the dice of the stream
//!    (`"bucket"`, `b`);
//! 4. the output is bucket 0, then bucket 1, and so on.
//!
//! Every order is exactly equally likely: labels are independent and
//! uniform, each bucket's shuffle is uniform whatever order its lines came
//! in, and so the probability of any order σ is a sum over bucket sizes that
//! does not depend on σ (the argument of [`crate::buckets`]; Sanders 1998,
//! "Random permutations on distributed, external and hierarchical memory").
//! The keyed streams stand in for independent dice, as in
//! [`fairdeck::shuffle::Shuffle::run_parallel`].
//!
//! The order does not depend on the number of threads, on the memory
//! budget (as long as the input is shuffled in memory) or on the width of
//! the line offsets. It is not the order [`fairdeck::shuffle::shuffle`]
//! gives a list of the lines with the same seed. Out of core, each bucket
//! file is shuffled this way with its own seed, drawn from the seed's main
//! stream (see [`crate::buckets`]); `-e`, `-i`, `-n`, `-r` and
//! `--random-source` do not use it.
//!
//! How it runs: the data is cut into one stretch of whole lines per thread;
//! each thread counts its lines, then the labels of its
//! lines per bucket; a prefix sum gives each (bucket, thread) pair its place
//! in the index; each thread then finds its line starts and writes each into
//! its bucket's place — the index is built already bucketed, with no label
//! array and no extra pass. Buckets (about 2¹⁷ lines, 512 KiB of `u32`
//! offsets: in the core's L2 cache) are then taken in order by the threads,
//! shuffled, and their lines gathered into output blocks, which are written
//! strictly in bucket order, so that while one thread writes the others
//! gather. Memory: the data plus one offset per line (4 bytes below 4 GiB).

use fairdeck::dice::{Dice, RngDice};
use fairdeck::rng::{AnyRng, Seed};

use crate::dice::stream;
use crate::error::{Error, reserve};
use crate::gather::{Gather, bucket_shuffle, write_buckets};
use crate::offset::Offset;
use crate::scan::{Part, for_each_start, run_all, split};
use crate::sink::Sink;

/// The sizes that fix the order; tests shrink them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan {
    /// Target lines per bucket (a power of two).
    pub bucket_lines: u64,
    /// Lines labelled by one stream.
    pub label_chunk: u64,
}

/// The production plan: the order of a seed is pinned to these numbers.
pub(crate) const PLAN: Plan = Plan {
    bucket_lines: 1 << 17,
    label_chunk: 1 << 16,
};

/// At most 2¹⁶ buckets.
const MAX_BITS: u32 = 16;

impl Plan {
    /// Label bits for `lines` lines.
    pub(crate) fn bits(&self, lines: u64) -> u32 {
        let buckets = lines.div_ceil(self.bucket_lines).max(1);
        (u64::BITS - (buckets - 1).leading_zeros()).min(MAX_BITS)
    }
}

/// Writes every line of `data` to `sink` in the order `seed` gives (see the
/// module docs), using `threads` threads; a last line without a delimiter
/// gets one.
///
/// O(n) work spread over the threads; memory: one offset per line.
///
/// # Errors
///
/// Memory exhausted; write errors; [`Error::Interrupted`].
pub(crate) fn shuffle_lines(
    data: &[u8],
    delimiter: u8,
    seed: &Seed,
    threads: usize,
    sink: &mut Sink,
) -> Result<(), Error> {
    let parts = split(data, delimiter, threads);
    shuffle_parts(data, delimiter, &parts, seed, PLAN, sink)
}

/// [`shuffle_lines`] on data already cut into `parts` (one thread each).
pub(crate) fn shuffle_parts(
    data: &[u8],
    delimiter: u8,
    parts: &[Part],
    seed: &Seed,
    plan: Plan,
    sink: &mut Sink,
) -> Result<(), Error> {
    if u32::try_from(data.len()).is_ok() {
        run::<u32, _>(data, delimiter, parts, seed, plan, bucket_shuffle, sink)
    } else {
        run::<u64, _>(data, delimiter, parts, seed, plan, bucket_shuffle, sink)
    }
}

fn run<T: Offset + Send + Sync, S: Fn(&mut [T], &mut RngDice<AnyRng>) + Sync>(
    data: &[u8],
    delimiter: u8,
    parts: &[Part],
    seed: &Seed,
    plan: Plan,
    shuffle: S,
    sink: &mut Sink,
) -> Result<(), Error> {
    let lines: u64 = parts.iter().map(|p| p.lines).sum();
    let bits = plan.bits(lines);
    let labels = Labels {
        seed,
        plan,
        bits,
        lines,
    };
    let counts: Vec<Vec<usize>> = on_parts(parts, |p| labels.histogram(p));
    let mut index: Vec<T> = Vec::new();
    reserve(&mut index, lines as usize)?;
    index.resize(lines as usize, T::new(0));
    // Carve the index into one slice per (bucket, part), bucket-major.
    let mut places: Vec<Vec<&mut [T]>> = parts.iter().map(|_| Vec::new()).collect();
    let mut rest = &mut index[..];
    for bucket in 0..1usize << bits {
        for (t, count) in counts.iter().enumerate() {
            let (mine, after) = rest.split_at_mut(count[bucket]);
            places[t].push(mine);
            rest = after;
        }
    }
    let labels = &labels;
    run_all(
        parts
            .iter()
            .zip(places)
            .map(|(part, places)| move || labels.scatter(data, delimiter, part, places))
            .collect(),
    );
    let buckets = bucket_slices(&mut index, &counts);
    let gather = Gather {
        data,
        delimiter,
        seed,
        shuffle,
    };
    write_buckets(&gather, buckets, parts.len(), sink)
}

/// Runs `work` on every part, one thread each, and collects the results in order.
fn on_parts<R: Send>(parts: &[Part], work: impl Fn(&Part) -> R + Sync) -> Vec<R> {
    let work = &work;
    run_all(parts.iter().map(|p| move || work(p)).collect())
}

/// Each bucket's whole slice of the index.
fn bucket_slices<'a, T>(index: &'a mut [T], counts: &[Vec<usize>]) -> Vec<&'a mut [T]> {
    let buckets = counts.first().map_or(0, Vec::len);
    let mut rest = index;
    let mut out = Vec::with_capacity(buckets);
    for bucket in 0..buckets {
        let size = counts.iter().map(|c| c[bucket]).sum();
        let (mine, after) = std::mem::take(&mut rest).split_at_mut(size);
        out.push(mine);
        rest = after;
    }
    out
}

/// The bucket labels of the lines.
struct Labels<'a> {
    seed: &'a Seed,
    plan: Plan,
    bits: u32,
    lines: u64,
}

impl Labels<'_> {
    /// The label of each line in turn, from line `first` on.
    fn cursor(&self, first: u64) -> Cursor<'_> {
        Cursor {
            labels: self,
            line: first,
            at: 0,
            high: Vec::new(),
            low: Vec::new(),
        }
    }

    /// The labels of chunk `c`: `high` (the first `min(8, bits)` bits) and `low` (the rest).
    fn chunk(&self, c: u64, high: &mut Vec<u8>, low: &mut Vec<u8>) {
        let chunk = self.plan.label_chunk;
        let len = (self.lines - c * chunk).min(chunk) as usize;
        high.resize(len, 0);
        if self.bits == 0 {
            return;
        }
        let mut dice = stream(self.seed, b"labels", c);
        dice.roll_pow2_many(self.bits.min(8), high);
        if self.bits > 8 {
            low.resize(len, 0);
            dice.roll_pow2_many(self.bits - 8, low);
        }
    }

    /// How many lines of `part` each bucket gets.
    fn histogram(&self, part: &Part) -> Vec<usize> {
        let mut counts = vec![0usize; 1 << self.bits];
        let mut cursor = self.cursor(part.first_line);
        for _ in 0..part.lines {
            counts[cursor.next_label()] += 1;
        }
        counts
    }

    /// Writes the start of every line of `part` into its bucket's place.
    fn scatter<T: Offset>(
        &self,
        data: &[u8],
        delimiter: u8,
        part: &Part,
        mut places: Vec<&mut [T]>,
    ) {
        let mut filled = vec![0usize; places.len()];
        let mut cursor = self.cursor(part.first_line);
        for_each_start(&data[part.start..part.end], delimiter, |s| {
            let b = cursor.next_label();
            places[b][filled[b]] = T::new(part.start + s);
            filled[b] += 1;
        });
    }
}

/// Walks the labels line by line, drawing each chunk's when it is entered.
struct Cursor<'a> {
    labels: &'a Labels<'a>,
    line: u64,
    /// The position of `line` in the current chunk's labels.
    at: usize,
    high: Vec<u8>,
    low: Vec<u8>,
}

impl Cursor<'_> {
    #[inline]
    fn next_label(&mut self) -> usize {
        if self.at == self.high.len() {
            let size = self.labels.plan.label_chunk;
            self.labels
                .chunk(self.line / size, &mut self.high, &mut self.low);
            self.at = (self.line % size) as usize;
        }
        let i = self.at;
        self.at += 1;
        self.line += 1;
        let bits = self.labels.bits;
        if bits > 8 {
            usize::from(self.high[i]) << (bits - 8) | usize::from(self.low[i])
        } else {
            usize::from(self.high[i])
        }
    }
}

#[cfg(test)]
mod tests;
