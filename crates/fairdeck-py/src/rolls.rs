//! Exact rolls below one bound, written straight into an output buffer:
//! the kernel of `integers` and `choice(replace=True)`.
//!
//! As many rolls below `n` as fit one 64-bit word come from each word
//! (Brackett-Rozinsky and Lemire 2024, "Batched Ranged Random Integer
//! Generation"): with `b` the bit length of `n`, a word `x` gives
//! `k = 64 / b` rolls, the high halves of `x·n`, then of (low half)·n, and
//! so on, and is rejected (the next word tried for the same `k` rolls)
//! when the last low half is below `2^64 mod n^k`. That is Lemire's
//! nearly-divisionless draw below `n^k` (Lemire 2019, "Fast Random Integer
//! Generation in an Interval") read as `k` base-`n` digits, so the rolls
//! are exactly uniform and independent; no `%` of a drawn word and no
//! floating point is ever used.
//!
//! This is the rule of `fairdeck::dice::RngDice::roll_many_below` for `k`
//! equal bounds, and gives the same values from the same words. What
//! differs is only the bookkeeping: the bound is the same for every group,
//! so `2^64 mod n^k` (one division) is computed once per call instead of
//! on the slow path of each group, and every roll is written as
//! `low + roll` in the output's own width, with no buffer of 64-bit
//! offsets and no second pass to convert them.

use rand_core::Rng;

use crate::fill::Bits;

/// A multiple of every group size [`fill_rolls`] uses (1, 2, …, 10, 12,
/// 16, 21, 32 and 64 rolls per word): their least common multiple. Filling
/// a buffer in pieces whose lengths are multiples of it draws exactly what
/// one call for all of it draws.
pub const ROLL_GROUPS: usize = 20160;

/// Values drawn per chunk of an output array (between two checks for
/// Ctrl-C): a multiple of [`ROLL_GROUPS`], so the values do not depend on
/// the chunking.
pub const CHUNK: usize = 8 * ROLL_GROUPS;

/// Fills `out` with `low + r` (wrapping, truncated to `T`) for exact rolls
/// `r` below `n`, `64 / bit_length(n)` rolls per word of `rng` (see the
/// module documentation). The last group may be shorter; its rejection
/// threshold is that of its own length. Nothing is drawn for an empty `out`.
///
/// O(out.len()) time, O(1) extra memory; one division per call.
///
/// # Panics
///
/// Panics if `n == 0` and `out` is not empty (no value is below 0).
pub fn fill_rolls<T: Bits, R: Rng + ?Sized>(rng: &mut R, n: u64, low: u64, out: &mut [T]) {
    if out.is_empty() {
        return;
    }
    assert!(n > 0, "fill_rolls: no value is below 0");
    let bits = u64::BITS - n.leading_zeros();
    macro_rules! by {
        ($($k:literal)*) => {
            match (64 / bits) as usize {
                $($k => fill_by::<$k, T, R>(rng, n, low, out),)*
                _ => fill_by::<1, T, R>(rng, n, low, out),
            }
        };
    }
    by!(64 32 21 16 12 10 9 8 7 6 5 4 3 2)
}

/// `2^64 mod n^k`: how many words Lemire's method rejects for the product
/// of `k` bounds `n` (which the caller knows fits in 64 bits).
fn rejected(n: u64, k: usize) -> u64 {
    let product = (0..k).fold(1u64, |p, _| p.wrapping_mul(n));
    product.wrapping_neg() % product
}

/// Words asked of the generator at a time by [`fill_by`] (2 KiB on the stack).
const WORDS: usize = 256;

/// [`fill_rolls`] with `K` rolls per word (a constant, so the chain of
/// multiplications is unrolled).
///
/// The words come in batches of at most as many as groups remain (each
/// group takes at least one word), read with one `fill_bytes` call: for
/// every generator here `fill_bytes` of `8·m` bytes is the next `m` words
/// of `next_u64`, little-endian, so no word is drawn that one call per word
/// would not have drawn, and the values are the same (tested from Python
/// against the rule applied to the raw stream).
///
/// The common case, an accepted word, is one straight run: split the word
/// into the next group, move on. The rare rejection is a loop the CPU
/// predicts as not taken, so the place the next group is written never
/// waits for this group's multiplications (with the acceptance folded into
/// the output pointer, every word waited for the whole chain of the word
/// before it: 0.95 ns a value for 10**6 rolls below 10**6, three a word).
fn fill_by<const K: usize, T: Bits, R: Rng + ?Sized>(rng: &mut R, n: u64, low: u64, out: &mut [T]) {
    let threshold = rejected(n, K);
    let (groups, rest) = out.as_chunks_mut::<K>();
    let mut bytes = [0u8; 8 * WORDS];
    let total = groups.len();
    // The next group to fill.
    let mut g = 0;
    while g < total {
        // At most one word per group left.
        let m = (total - g).min(WORDS);
        rng.fill_bytes(&mut bytes[..8 * m]);
        let words = bytes[..8 * m].as_chunks::<8>().0;
        // Each word fills a group or is rejected, so the words of a batch
        // never outnumber the groups left: `g` stays below `total` here.
        let mut w = 0;
        'batch: while w < m {
            let group = &mut groups[g];
            let mut accepted = split(u64::from_le_bytes(words[w]), n, low, threshold, group);
            w += 1;
            // A rejected word: the same group takes the next one (a loop,
            // not a conditional move, so `g` never waits for the check).
            while !accepted {
                if w == m {
                    // The batch ended on a rejection: the group takes the next batch's first word.
                    break 'batch;
                }
                accepted = split(u64::from_le_bytes(words[w]), n, low, threshold, group);
                w += 1;
            }
            g += 1;
        }
    }
    if !rest.is_empty() {
        let threshold = rejected(n, rest.len());
        while !split(rng.next_u64(), n, low, threshold, rest) {}
    }
}

/// Splits `word` into `out.len()` rolls below `n` (written as `low + roll`);
/// `false` when the word is rejected (then `out` holds values to overwrite).
#[inline(always)]
fn split<T: Bits>(word: u64, n: u64, low: u64, threshold: u64, out: &mut [T]) -> bool {
    let mut x = word;
    for o in out.iter_mut() {
        let m = u128::from(x) * u128::from(n);
        *o = T::truncate(low.wrapping_add((m >> 64) as u64));
        x = m as u64;
    }
    x >= threshold
}
