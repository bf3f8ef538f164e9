//! Batched rolls for descending bounds `top, top − 1, …`: the bounds of a
//! run of Fisher–Yates steps, answered without storing them.
//!
//! The arithmetic is [`split_word`](super::batch::split_word)'s, bound by
//! bound: the word is multiplied by `top`, the low half by `top − 1`, and so
//! on, and the word is rejected exactly when `split_word` rejects it (the
//! tests check both on every word of 8- and 16-bit models). Only the
//! bookkeeping differs: the bounds are computed, not read from memory, and
//! the rare slow paths build the bounds in their own frame, so a caller's
//! answers can stay in registers.

use super::batch::{Word, exact_accept, roll_batched_below};

/// The most rolls one request may ask for.
const MAX_ROLLS: usize = 64;

/// Splits one word into the rolls for bounds `top, top − 1, …` (one per
/// element of `out`), where `P = top · (top − 1) · …` is below `2^bits`
/// and fits in a word. Returns `false` if the word must be rejected.
#[inline(always)]
pub(crate) fn split_descending<W: Word>(word: W, top: W, bits: u32, out: &mut [W]) -> bool {
    let mut x = word;
    let mut bound = top;
    for o in out.iter_mut() {
        let (high, low) = x.mul_split(bound);
        *o = high;
        x = low;
        bound = bound.dec();
    }
    !x.below_pow2(bits) || exact_accept_descending(x, top, out.len())
}

/// [`exact_accept`] for the bounds `top, top − 1, …` (`len` of them).
#[cold]
#[inline(never)]
fn exact_accept_descending<W: Word>(low: W, top: W, len: usize) -> bool {
    let mut bounds = [W::ZERO; MAX_ROLLS];
    let bounds = descending_bounds(top, &mut bounds[..len]);
    exact_accept(low, bounds)
}

/// Fills `bounds` with `top, top − 1, …`.
///
/// # Panics
///
/// Panics if a bound would be zero or below.
fn descending_bounds<W: Word>(top: W, bounds: &mut [W]) -> &[W] {
    let mut bound = top;
    for b in bounds.iter_mut() {
        assert!(bound > W::ZERO, "dice rolled with bound 0");
        *b = bound;
        bound = bound.dec();
    }
    bounds
}

/// Rolls once per element of `out`, with bounds `top, top − 1, …`, all
/// promised below `2^bits`: the same answers as
/// [`roll_batched_below`](super::batch::roll_batched_below) on those bounds.
///
/// # Panics
///
/// Panics if `out.len() > 64` or a bound would be zero.
#[inline(always)]
pub(crate) fn roll_descending_below<W: Word>(
    mut next: impl FnMut() -> W,
    bits: u32,
    top: W,
    out: &mut [W],
) {
    let len = out.len();
    let total = (len as u64).saturating_mul(u64::from(bits));
    let fits = W::from_count(len).is_some_and(|len| len > W::ZERO && top >= len);
    if fits && top.below_pow2(bits) && total <= u64::from(W::BITS) {
        while !split_descending(next(), top, total as u32, out) {}
    } else {
        // Rare (a wrong hint, a request of several words, or an invalid
        // one): the general path, through a copy so `out` stays local.
        let mut answers = [W::ZERO; MAX_ROLLS];
        let answers = &mut answers[..len];
        descending_fallback(&mut next, bits, top, answers);
        out.copy_from_slice(answers);
    }
}

/// [`roll_descending_below`]'s slow path: [`roll_batched_below`] on the
/// bounds themselves (so even an empty request draws what it draws there).
#[cold]
#[inline(never)]
fn descending_fallback<W: Word>(next: &mut dyn FnMut() -> W, bits: u32, top: W, out: &mut [W]) {
    assert!(
        out.len() <= MAX_ROLLS,
        "roll_descending_below: more than 64 rolls"
    );
    let mut bounds = [W::ZERO; MAX_ROLLS];
    let bounds = descending_bounds(top, &mut bounds[..out.len()]);
    roll_batched_below(next, bits, bounds, out);
}

#[cfg(test)]
mod tests {
    use super::super::batch::split_word;
    use super::*;

    /// `split_descending` against `split_word` on the same bounds, for every
    /// word of a `W`-bit model: the same verdict and, when accepted, the same
    /// digits. `split_word` is proven exact on these models (batch.rs), so
    /// this proves `split_descending` exact too.
    fn agrees_on_every_word<W: Word + std::fmt::Debug>(
        top: W,
        len: usize,
        bits: u32,
        words: impl Iterator<Item = W>,
    ) {
        let mut bounds = [W::ZERO; MAX_ROLLS];
        let bounds = descending_bounds(top, &mut bounds[..len]);
        let (mut a, mut b) = ([W::ZERO; 8], [W::ZERO; 8]);
        for word in words {
            let split = split_descending(word, top, bits, &mut a[..len]);
            let reference = split_word(word, bounds, bits, &mut b[..len]);
            assert_eq!(split, reference, "top {top:?}, len {len}, word {word:?}");
            if split {
                assert_eq!(a[..len], b[..len], "top {top:?}, len {len}, word {word:?}");
            }
        }
    }

    #[test]
    fn descending_batches_match_the_proven_split_on_an_8_bit_model() {
        let mut checked = 0;
        for top in 1u8..=255 {
            let mut product = 1u32;
            for len in 1..=8usize.min(usize::from(top)) {
                product *= u32::from(top) - len as u32 + 1;
                let bits = len as u32 * top.bit_len();
                if product > 255 || bits > 8 {
                    break;
                }
                agrees_on_every_word(top, len, bits, 0..=u8::MAX);
                checked += 1;
            }
        }
        assert!(checked > 200, "{checked}");
    }

    #[test]
    fn descending_batches_match_the_proven_split_on_a_16_bit_model() {
        // Tops 2^k − 1, 2^k, 2^k + 1 (where products come closest to the
        // word), every length whose bit budget fits, every word.
        for k in 1..=15u32 {
            for top in [(1u32 << k) - 1, 1 << k, (1 << k) + 1] {
                let Ok(top) = u16::try_from(top) else {
                    continue;
                };
                for len in 1..=8usize.min(usize::from(top)) {
                    let bits = len as u32 * top.bit_len();
                    if bits <= 16 {
                        agrees_on_every_word(top, len, bits, 0..=u16::MAX);
                    }
                }
            }
        }
    }

    #[test]
    fn a_wrong_rejection_rule_would_disagree() {
        // Negative control for the comparison above: a split that accepted
        // every word (no exact test) would disagree with `split_word`.
        let mut out = [0u8; 2];
        assert!((0..=u8::MAX).any(|word| !split_word(word, &[7u8, 6], 6, &mut out)));
    }
}
