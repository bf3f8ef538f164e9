//! Fisher–Yates with batched dice: up to eight rolls per 64-bit word.
//!
//! The swaps are exactly those of the scalar loop; only the way the rolls
//! are asked for changes: consecutive bounds go to
//! [`Dice::roll_descending_below`] in groups whose product stays below about
//! 2^56, so the production dice answers each group from one word
//! (Brackett-Rozinsky & Lemire 2024) and the division of its rejection test
//! runs with probability below 2^-8; a group's rolls are asked for before
//! the previous group's swaps run. Any other dice (the enumerator, counting)
//! sees the same bounds in the same order.

use crate::dice::Dice;
use lagged::Lagged;

mod lagged;

/// How many consecutive rolls to batch when the largest bound is `bound`:
/// as many as keep the sum of their bit lengths `s ≤ 56`, at most eight, so
/// the dice's exact rejection test is needed with probability `2^(s−64) ≤ 2^−8`.
#[inline]
pub(crate) fn batch_len(bound: usize) -> usize {
    const BY_BIT_LENGTH: [u8; 65] = {
        let mut table = [1u8; 65];
        let mut bits = 1;
        while bits <= 64 {
            let k = 56 / bits;
            table[bits] = if k > 8 {
                8
            } else if k < 1 {
                1
            } else {
                k as u8
            };
            bits += 1;
        }
        table
    };
    usize::from(BY_BIT_LENGTH[(usize::BITS - bound.leading_zeros()) as usize])
}

/// Calls `$f::<K>(args)` for the runtime batch length `$k` in `1..=8`.
macro_rules! dispatch {
    ($k:expr, $f:ident($($arg:expr),*)) => {
        match $k {
            1 => $f::<1, _, _>($($arg),*),
            2 => $f::<2, _, _>($($arg),*),
            3 => $f::<3, _, _>($($arg),*),
            4 => $f::<4, _, _>($($arg),*),
            5 => $f::<5, _, _>($($arg),*),
            6 => $f::<6, _, _>($($arg),*),
            7 => $f::<7, _, _>($($arg),*),
            _ => $f::<8, _, _>($($arg),*),
        }
    };
}

/// Durstenfeld's backward loop: for `i` from `n` down to 2, swap position
/// `i − 1` with a position uniform in `[0, i)`. Rolls `n, n−1, …, 2`.
///
/// Slices larger than the L2 cache run the same swaps, in the same order,
/// [`LAG`](lagged::LAG) steps behind their rolls, each swap's random target prefetched
/// when its roll comes in: the rolls do not depend on the slice, so only
/// the memory traffic changes (several cache misses in flight instead of
/// one at a time), never the result.
pub(crate) fn fisher_yates<T, D: Dice + ?Sized>(slice: &mut [T], dice: &mut D) {
    fisher_yates_until(slice, dice, usize::MAX, &mut || false);
}

/// [`fisher_yates`], asking `stop` before each piece of at most `poll_len`
/// steps (and where the bound's bit length changes) and returning `false`
/// as soon as it says so: the slice then holds every element once, its
/// last positions shuffled. Until then the dice sees the same requests and
/// the slice gets the same swaps as in [`fisher_yates`] — a piece ends only
/// where a batch ends, and the next piece goes on with the same batches.
pub(crate) fn fisher_yates_until<T, D, S>(
    slice: &mut [T],
    dice: &mut D,
    poll_len: usize,
    stop: &mut S,
) -> bool
where
    D: Dice + ?Sized,
    S: FnMut() -> bool + ?Sized,
{
    let n = slice.len();
    if size_of_val(slice) > LAG_BYTES {
        let mut lagged = Lagged::new();
        let done = backward_steps(n, dice, poll_len, stop, |a, b| lagged.swap(slice, a, b));
        // The swaps still held back run even when stopped.
        lagged.finish(slice);
        done
    } else {
        backward_steps(n, dice, poll_len, stop, |a, b| slice.swap(a, b))
    }
}

/// The rolls of [`fisher_yates`] on `n` elements, each handed to `swap` as
/// the pair of positions to exchange, in order; asks `stop` between pieces
/// of at most `poll_len` steps (`false`: stopped).
#[inline(always)]
fn backward_steps<D, S, F>(
    n: usize,
    dice: &mut D,
    poll_len: usize,
    stop: &mut S,
    mut swap: F,
) -> bool
where
    D: Dice + ?Sized,
    S: FnMut() -> bool + ?Sized,
    F: FnMut(usize, usize),
{
    let mut i = n;
    while i > 1 {
        if stop() {
            return false;
        }
        // One tight loop per bit length of the bound: the batch size and the
        // dice's hint are fixed inside it (bit scans are slow on some CPUs).
        let bits = bit_len(i);
        let k = batch_len(i).min(i - 1);
        let floor = i.saturating_sub(poll_len);
        i = dispatch!(k, backward_run(i, bits, floor, dice, &mut swap));
    }
    true
}

/// One request of [`fisher_yates`] to the dice: `len` rolls with the
/// bounds `top, top − 1, …`, all below `2^bits`
/// ([`Dice::roll_descending_below`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Batch {
    pub(super) top: usize,
    pub(super) len: usize,
    pub(super) bits: u32,
}

/// The requests [`fisher_yates`] makes on `n` elements, in order: the
/// batching of [`backward_steps`] and [`backward_run`], listed once for
/// callers that shuffle many slices of the same length (tested against the
/// requests the loop makes).
pub(super) fn backward_batches(n: usize) -> Vec<Batch> {
    let mut batches = Vec::new();
    let mut i = n;
    while i > 1 {
        let bits = bit_len(i);
        let len = batch_len(i).min(i - 1);
        let floor = (1usize << (bits - 1)).max(len + 1);
        loop {
            batches.push(Batch { top: i, len, bits });
            i -= len;
            if i < floor {
                break;
            }
        }
    }
    batches
}

/// The rolls of `batch` into `out` (`batch.len` of them), asked for with a
/// batch length fixed at compile time, as [`backward_run`] asks.
#[inline(always)]
pub(super) fn roll_batch<D: Dice + ?Sized>(batch: Batch, dice: &mut D, out: &mut [u64]) {
    #[inline(always)]
    fn fixed<const K: usize, D: Dice + ?Sized>(batch: Batch, dice: &mut D, out: &mut [u64]) {
        out[..K].copy_from_slice(&descending_rolls::<K, D>(batch.top, batch.bits, dice));
    }
    match batch.len {
        1 => fixed::<1, D>(batch, dice, out),
        2 => fixed::<2, D>(batch, dice, out),
        3 => fixed::<3, D>(batch, dice, out),
        4 => fixed::<4, D>(batch, dice, out),
        5 => fixed::<5, D>(batch, dice, out),
        6 => fixed::<6, D>(batch, dice, out),
        7 => fixed::<7, D>(batch, dice, out),
        _ => fixed::<8, D>(batch, dice, out),
    }
}

/// Slices above this many bytes (beyond a 1 MiB L2 cache) swap [`LAG`](lagged::LAG) steps behind.
const LAG_BYTES: usize = 1 << 20;

/// Batches of `K` backward steps while the bound `i` keeps its bit length
/// `bits`, at least `K` steps remain and the bound is not below `piece_floor`;
/// returns the next bound.
///
/// Software-pipelined from [`PIPELINE_FROM`] rolls per batch on: each
/// batch's rolls are asked for before the previous batch's swaps run, so
/// the multiply chain of the next word overlaps the memory traffic of the
/// current swaps. The dice sees the same bounds in the
/// same order and the swaps run in the same order: only the interleaving of
/// two independent streams of work changes.
#[inline(always)]
fn backward_run<const K: usize, D: Dice + ?Sized, F: FnMut(usize, usize)>(
    mut i: usize,
    bits: u32,
    piece_floor: usize,
    dice: &mut D,
    swap: &mut F,
) -> usize {
    let floor = (1usize << (bits - 1)).max(K + 1).max(piece_floor);
    if K < PIPELINE_FROM {
        return backward_run_plain::<K, D, F>(i, floor, bits, dice, swap);
    }
    let mut rolls = descending_rolls::<K, D>(i, bits, dice);
    loop {
        let next = i - K;
        if next < floor {
            backward_swaps(i, &rolls, swap);
            return next;
        }
        let ahead = descending_rolls::<K, D>(next, bits, dice);
        backward_swaps(i, &rolls, swap);
        rolls = ahead;
        i = next;
    }
}

/// [`backward_run`] without the pipelining: each batch's swaps right after its rolls.
#[inline(always)]
fn backward_run_plain<const K: usize, D: Dice + ?Sized, F: FnMut(usize, usize)>(
    mut i: usize,
    floor: usize,
    bits: u32,
    dice: &mut D,
    swap: &mut F,
) -> usize {
    loop {
        let rolls = descending_rolls::<K, D>(i, bits, dice);
        backward_swaps(i, &rolls, swap);
        i -= K;
        if i < floor {
            return i;
        }
    }
}

/// The smallest batch length whose runs are pipelined. Measured (A/B,
/// Xoshiro256++, ns): pipelining from 6 rolls per word, from 4, from 1 and
/// never gave 20.6 / 22.5 / 22.1 / 22.7 per hold'em deal, 1.11 / 1.23 /
/// 1.22 / 1.08 per element of 10⁴ (mostly 4 rolls per word, where holding a
/// second batch costs more registers than the overlap gains) and 1.53 /
/// 1.54 / 1.52 / 1.57 per card of a 52-card deck.
const PIPELINE_FROM: usize = 6;

/// Number of significant bits of `x`.
#[inline]
fn bit_len(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

/// The rolls of one batch of `K` steps whose first bound is `top`: bounds
/// `top, top−1, …, top−K+1`, all below `2^bits`.
#[inline(always)]
fn descending_rolls<const K: usize, D: Dice + ?Sized>(
    top: usize,
    bits: u32,
    dice: &mut D,
) -> [u64; K] {
    let mut out = [0u64; K];
    dice.roll_descending_below(bits, top as u64, &mut out);
    out
}

/// The swaps of one batch of backward steps starting with bound `i`.
#[inline(always)]
fn backward_swaps<const K: usize, F: FnMut(usize, usize)>(
    i: usize,
    rolls: &[u64; K],
    swap: &mut F,
) {
    for (t, &j) in rolls.iter().enumerate() {
        swap(i - 1 - t, j as usize);
    }
}

/// The forward loop stopped after `steps` steps: step `i` swaps position `i`
/// with a position uniform in `[i, n)`. Rolls `n, n−1, …, n−steps+1`.
pub(crate) fn forward_steps<T, D: Dice + ?Sized>(slice: &mut [T], steps: usize, dice: &mut D) {
    let n = slice.len();
    debug_assert!(steps < n.max(1));
    let mut i = 0;
    while i < steps {
        let bits = bit_len(n - i);
        let k = batch_len(n - i).min(steps - i);
        i = dispatch!(k, forward_run(slice, i, steps, bits, dice));
    }
}

/// Batches of `K` forward steps while the bound `n − i` keeps its bit
/// length `bits` and at least `K` of the `steps` remain; returns the next
/// `i`. Pipelined like [`backward_run`]: the next batch's rolls are asked
/// for before the current batch's swaps run.
#[inline(always)]
fn forward_run<const K: usize, T, D: Dice + ?Sized>(
    slice: &mut [T],
    mut i: usize,
    steps: usize,
    bits: u32,
    dice: &mut D,
) -> usize {
    let n = slice.len();
    // Continue while n − i ≥ 2^(bits−1), i.e. i ≤ n − 2^(bits−1), and i + K ≤ steps.
    let last = (n - (1usize << (bits - 1))).min(steps - K);
    if K < PIPELINE_FROM {
        return forward_run_plain::<K, T, D>(slice, i, last, bits, dice);
    }
    let mut rolls = descending_rolls::<K, D>(n - i, bits, dice);
    loop {
        let next = i + K;
        if next > last {
            forward_swaps(slice, i, &rolls);
            return next;
        }
        let ahead = descending_rolls::<K, D>(n - next, bits, dice);
        forward_swaps(slice, i, &rolls);
        rolls = ahead;
        i = next;
    }
}

/// [`forward_run`] without the pipelining: each batch's swaps right after its rolls.
#[inline(always)]
fn forward_run_plain<const K: usize, T, D: Dice + ?Sized>(
    slice: &mut [T],
    mut i: usize,
    last: usize,
    bits: u32,
    dice: &mut D,
) -> usize {
    let n = slice.len();
    loop {
        let rolls = descending_rolls::<K, D>(n - i, bits, dice);
        forward_swaps(slice, i, &rolls);
        i += K;
        if i > last {
            return i;
        }
    }
}

/// The swaps of one batch of forward steps starting at position `i`.
#[inline(always)]
fn forward_swaps<const K: usize, T>(slice: &mut [T], i: usize, rolls: &[u64; K]) {
    for (t, &j) in rolls.iter().enumerate() {
        slice.swap(i + t, i + t + j as usize);
    }
}

#[cfg(test)]
mod tests;
