//! Fisher–Yates with batched dice: up to eight rolls per 64-bit word.
//!
//! The swaps are exactly those of the scalar loop; only the way the rolls
//! are asked for changes: consecutive bounds go to [`Dice::roll_many`] in
//! groups whose product stays below about 2^56, so the production dice
//! answers each group from one word (Brackett-Rozinsky & Lemire 2024) and the
//! division of its rejection test runs with probability below 2^-8. Any other
//! dice (the enumerator, counting) sees the same bounds in the same order.

use crate::dice::Dice;

/// How many consecutive rolls to batch when the largest bound is `bound`:
/// `bound^k ≤ 2^56` (2^54 for k = 6), at most eight.
#[inline]
pub(crate) fn batch_len(bound: usize) -> usize {
    match bound {
        b if b > 1 << 28 => 1,
        b if b > 1 << 18 => 2,
        b if b > 1 << 14 => 3,
        b if b > 1 << 11 => 4,
        b if b > 1 << 9 => 5,
        b if b > 1 << 8 => 6,
        b if b > 1 << 7 => 7,
        _ => 8,
    }
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
pub(crate) fn fisher_yates<T, D: Dice + ?Sized>(slice: &mut [T], dice: &mut D) {
    let mut i = slice.len();
    while i > 1 {
        let k = batch_len(i).min(i - 1);
        dispatch!(k, backward(slice, i, dice));
        i -= k;
    }
}

/// One batch of `K` backward steps starting with bound `i` (requires `i > K`).
#[inline(always)]
fn backward<const K: usize, T, D: Dice + ?Sized>(slice: &mut [T], i: usize, dice: &mut D) {
    let mut bounds = [0u64; K];
    for (t, b) in bounds.iter_mut().enumerate() {
        *b = (i - t) as u64;
    }
    let mut out = [0u64; K];
    dice.roll_many(&bounds, &mut out);
    for (t, &j) in out.iter().enumerate() {
        slice.swap(i - 1 - t, j as usize);
    }
}

/// The forward loop stopped after `steps` steps: step `i` swaps position `i`
/// with a position uniform in `[i, n)`. Rolls `n, n−1, …, n−steps+1`.
pub(crate) fn forward_steps<T, D: Dice + ?Sized>(slice: &mut [T], steps: usize, dice: &mut D) {
    let n = slice.len();
    debug_assert!(steps < n.max(1));
    let mut i = 0;
    while i < steps {
        let k = batch_len(n - i).min(steps - i);
        dispatch!(k, forward(slice, i, dice));
        i += k;
    }
}

/// One batch of `K` forward steps starting at position `i`.
#[inline(always)]
fn forward<const K: usize, T, D: Dice + ?Sized>(slice: &mut [T], i: usize, dice: &mut D) {
    let n = slice.len();
    let mut bounds = [0u64; K];
    for (t, b) in bounds.iter_mut().enumerate() {
        *b = (n - i - t) as u64;
    }
    let mut out = [0u64; K];
    dice.roll_many(&bounds, &mut out);
    for (t, &j) in out.iter().enumerate() {
        slice.swap(i + t, i + t + j as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_keep_the_product_below_2_to_56() {
        // Checked at every threshold and one past it: 2^k and 2^k ± 1.
        for k in 1..=40u32 {
            for bound in [(1usize << k) - 1, 1 << k, (1 << k) + 1] {
                let len = batch_len(bound);
                let product = (0..len).fold(1u128, |p, t| p * (bound - t.min(bound - 1)) as u128);
                assert!(len == 1 || product <= 1 << 56, "bound {bound}: {len}");
            }
        }
        assert_eq!(batch_len(52), 8);
    }
}
