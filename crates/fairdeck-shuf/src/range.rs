//! `-i LO-HI`: the numbers of a range as lines, up to the whole 64-bit range.

use std::collections::{HashMap, HashSet};

use fairdeck::dice::Dice;
use fairdeck::sample::sample;
use fairdeck::shuffle::partial_shuffle;

use crate::dice::ShufDice;
use crate::error::Error;
use crate::error::reserve;
use crate::lines::{deal, repeat};
use crate::sink::Sink;

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
/// the ones not yet drawn. With a `--random-source` file the numbers are
/// GNU's `randperm` (see [`gnu_randperm`]).
///
/// # Errors
///
/// "no lines to repeat" (`-r` on an empty range), a range too large for the
/// memory budget or for the memory there is ("memory exhausted"), the
/// random source running out, write errors.
pub fn run(range: &Range, dice: &mut ShufDice, sink: &mut Sink) -> Result<(), Error> {
    let Some(hi) = range.hi else {
        return if range.repeat {
            Err(Error::NoLinesToRepeat)
        } else {
            Ok(())
        };
    };
    let lo = range.lo;
    let size = (hi - lo).checked_add(1);
    let d = range.delimiter;
    if range.repeat {
        return repeat(
            range.limit,
            dice,
            |dice| match size {
                Some(n) => lo + dice.roll(n),
                None => full_word(dice),
            },
            |x| sink.number(x, d),
        );
    }
    let (k, numbers) = match (size, range.limit) {
        (None, None) => {
            return Err(Error::Invalid(format!(
                "invalid input range: '{lo}-{hi}' (2^64 numbers: add -n)"
            )));
        }
        (None, Some(k)) => (k, None),
        (Some(n), limit) => (limit.map_or(n, |k| k.min(n)), Some(n)),
    };
    let dense = numbers.is_some_and(|n| k >= n / 4);
    check_memory(k, numbers.filter(|_| dense), range.memory)?;
    let picks = match numbers {
        Some(n) if dice.is_gnu() => gnu_randperm(k, n, dense, dice)?,
        Some(n) if dense => dense_deal(n, k, dice)?,
        Some(n) => sample(k, n, dice).map_err(|e| Error::Invalid(e.to_string()))?,
        None => distinct_words(k, dice)?,
    };
    if let Some(e) = dice.failure() {
        return Err(e);
    }
    let offset = if numbers.is_some() { lo } else { 0 };
    picks
        .into_iter()
        .try_for_each(|x| sink.number(offset + x, d))
}

/// Refuses a range whose array (`dense`: all `n` numbers) or sample (`k`
/// numbers) needs more than `memory` bytes; the figure is computed with
/// checked arithmetic, so it never wraps.
fn check_memory(k: u64, dense: Option<u64>, memory: u64) -> Result<(), Error> {
    let need = match dense {
        Some(n) => n.checked_mul(DENSE_BYTES),
        None => k.checked_mul(SPARSE_BYTES),
    };
    let fits = need.is_some_and(|b| b <= memory && usize::try_from(b).is_ok());
    if fits {
        return Ok(());
    }
    let why = match need {
        Some(bytes) => format!(
            "{k} numbers would take about {bytes} bytes, over the memory budget of {memory} bytes (--memory); use -n or -r"
        ),
        None => format!(
            "{k} numbers would take more bytes than a 64-bit address space holds; use -n or -r"
        ),
    };
    Err(Error::MemoryExhausted(Some(why)))
}

/// The offsets `0..n` dealt `k` deep with the production partial shuffle.
fn dense_deal(n: u64, k: u64, dice: &mut ShufDice) -> Result<Vec<u64>, Error> {
    let mut all: Vec<u64> = Vec::new();
    reserve(&mut all, n as usize)?;
    all.extend(0..n);
    if dice.is_gnu() {
        deal(&mut all, k as usize, dice);
    } else {
        // The production path since the first release: pinned outputs depend on it.
        partial_shuffle(&mut all, k as usize, dice);
    }
    all.truncate(k as usize);
    Ok(all)
}

/// The first `k` offsets of GNU's `randperm` of `0..n`: for `i` in `0..k`,
/// swap positions `i` and `i + choose(n − i)`; an array when `dense`, a map
/// of the moved positions otherwise (GNU switches the same way; the
/// numbers drawn and the result do not depend on it).
pub fn gnu_randperm(k: u64, n: u64, dense: bool, dice: &mut ShufDice) -> Result<Vec<u64>, Error> {
    if dense {
        return dense_deal(n, k, dice);
    }
    let mut moved: HashMap<u64, u64> = HashMap::new();
    moved
        .try_reserve((k as usize).saturating_mul(2))
        .map_err(|_| Error::MemoryExhausted(None))?;
    let mut out = Vec::new();
    reserve(&mut out, k as usize)?;
    for i in 0..k {
        let j = i + dice.roll(n - i);
        let at_j = moved.get(&j).copied().unwrap_or(j);
        let at_i = moved.get(&i).copied().unwrap_or(i);
        moved.insert(j, at_i);
        out.push(at_j);
    }
    Ok(out)
}

/// A uniform 64-bit number from two exact 32-bit rolls.
fn full_word(dice: &mut ShufDice) -> u64 {
    (dice.roll(1 << 32) << 32) | dice.roll(1 << 32)
}

/// `k` distinct uniform 64-bit numbers in selection order, by redrawing repeats.
fn distinct_words(k: u64, dice: &mut ShufDice) -> Result<Vec<u64>, Error> {
    let mut seen = HashSet::new();
    seen.try_reserve(k as usize)
        .map_err(|_| Error::MemoryExhausted(None))?;
    let mut out = Vec::new();
    reserve(&mut out, k as usize)?;
    while (out.len() as u64) < k && !dice.exhausted() {
        let x = full_word(dice);
        if seen.insert(x) {
            out.push(x);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_figures_never_wrap() {
        let e = check_memory(1 << 62, Some(1 << 62), u64::MAX).unwrap_err();
        assert!(
            e.to_string()
                .contains("more bytes than a 64-bit address space"),
            "{e}"
        );
        let e = check_memory(4611686018427387904, None, 1 << 30).unwrap_err();
        assert!(
            e.to_string()
                .contains("more bytes than a 64-bit address space"),
            "{e}"
        );
        assert!(check_memory(10, Some(100), 800).is_ok());
    }
}
