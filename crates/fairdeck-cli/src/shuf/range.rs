//! `-i LO-HI`: the numbers of a range as lines, up to the whole 64-bit range.

use std::collections::HashSet;

use fairdeck::dice::Dice;
use fairdeck::sample::sample;
use fairdeck::shuffle::partial_shuffle;

use super::dice::ShufDice;
use super::failure::ShufError;
use super::lines::repeat;
use super::sink::Sink;

/// Bytes of memory one number of a dense range takes.
const DENSE_BYTES: u64 = 8;
/// Bytes of memory one number of a sparse sample takes (hash map entry and output).
const SPARSE_BYTES: u64 = 48;

/// The numbers `lo..=hi` and what to do with them.
pub struct Range {
    /// First number.
    pub lo: u64,
    /// Last number; `None` for the empty range.
    pub hi: Option<u64>,
    /// `-n`.
    pub limit: Option<u64>,
    /// `-r`.
    pub repeat: bool,
    /// The line delimiter.
    pub delimiter: u8,
    /// The memory budget in bytes.
    pub memory: u64,
}

/// Writes the numbers of `range` in random order, or drawn with replacement.
///
/// Without `-r`: `k = min(-n, size)` distinct numbers. A dense range
/// (`k` at least a quarter of the size) is an array dealt with
/// `partial_shuffle`; otherwise [`fairdeck::sample::sample`] deals from a
/// virtual array in O(k) memory, so `-n 5 -i 1-18446744073709551614` is
/// instant. The full range `0-18446744073709551615` (2⁶⁴ numbers, one more
/// than a `u64` can count) is sampled by drawing uniform 64-bit numbers and
/// redrawing repeats, which is exact too: each new number is uniform over
/// the ones not yet drawn.
///
/// # Errors
///
/// "no lines to repeat" (`-r` on an empty range), a range too large for the
/// memory budget, the random source running out, write errors.
pub fn run(range: &Range, dice: &mut ShufDice, sink: &mut Sink) -> Result<(), ShufError> {
    let Some(hi) = range.hi else {
        return if range.repeat {
            Err(ShufError::fatal("no lines to repeat"))
        } else {
            Ok(())
        };
    };
    let lo = range.lo;
    let size = (hi - lo).checked_add(1);
    let d = range.delimiter;
    if range.repeat {
        return repeat(range.limit, dice, |dice| {
            let x = match size {
                Some(n) => lo + dice.roll(n),
                None => full_word(dice),
            };
            sink.number(x, d)
        });
    }
    let (k, numbers) = match (size, range.limit) {
        (None, None) => {
            return Err(ShufError::fatal(format!(
                "invalid input range: '{lo}-{hi}' (2^64 numbers: add -n)"
            )));
        }
        (None, Some(k)) => (k, None),
        (Some(n), limit) => (limit.map_or(n, |k| k.min(n)), Some(n)),
    };
    let dense = numbers.is_some_and(|n| k >= n / 4);
    let need = if dense {
        numbers.unwrap_or(k) * DENSE_BYTES
    } else {
        k.saturating_mul(SPARSE_BYTES)
    };
    if need > range.memory {
        return Err(ShufError::fatal(format!(
            "memory exhausted: {k} numbers need about {need} bytes (--memory is {}; use -n or -r)",
            range.memory
        )));
    }
    let picks = match numbers {
        Some(_) if dense => {
            let mut all: Vec<u64> = (lo..=hi).collect();
            partial_shuffle(&mut all, k as usize, dice);
            all.truncate(k as usize);
            all
        }
        Some(n) => {
            let offsets = sample(k, n, dice).map_err(|e| ShufError::fatal(e.to_string()))?;
            offsets.into_iter().map(|x| lo + x).collect()
        }
        None => distinct_words(k, dice),
    };
    if let Some(e) = dice.failure() {
        return Err(e);
    }
    picks.into_iter().try_for_each(|x| sink.number(x, d))
}

/// A uniform 64-bit number from two exact 32-bit rolls.
fn full_word(dice: &mut ShufDice) -> u64 {
    (dice.roll(1 << 32) << 32) | dice.roll(1 << 32)
}

/// `k` distinct uniform 64-bit numbers in selection order, by redrawing repeats.
fn distinct_words(k: u64, dice: &mut ShufDice) -> Vec<u64> {
    let mut seen = HashSet::with_capacity(k as usize);
    let mut out = Vec::with_capacity(k as usize);
    while (out.len() as u64) < k && !dice.exhausted() {
        let x = full_word(dice);
        if seen.insert(x) {
            out.push(x);
        }
    }
    out
}
