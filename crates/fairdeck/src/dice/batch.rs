//! Batched exact bounded draws: several dice rolls from one random word.
//!
//! Brackett-Rozinsky & Lemire 2024, "Batched Ranged Random Integer
//! Generation" (Software: Practice and Experience). For bounds `b1, …, bk`
//! whose product `P` fits in a word, take one uniform word `x` and multiply
//! it by `b1`: the high half of the double-width product is the first roll,
//! the low half is multiplied by `b2` for the second roll, and so on. The
//! chain computes exactly `x · P = (r1·b2·…·bk + r2·b3·…·bk + … + rk)·2^W + low`,
//! i.e. Lemire's single draw below `P` written in mixed radix `(b1, …, bk)`.
//! Rejecting the `2^W mod P` words whose final low half is below that count
//! therefore makes the digit tuple exactly uniform over all `P` tuples, which
//! is the same as `k` independent uniform rolls. As in Lemire's scalar method
//! the exact test is only needed when the low half is below `P`; we go one
//! step cheaper and skip it whenever the low half is at least `2^s`, where
//! `P < 2^s` is known cheaply (`s` is `k` times the bit length of the
//! largest bound, or the sum of the bounds' bit lengths): no product and no
//! division on the common path. The slow path runs with probability below
//! `2^s / 2^W`.
//!
//! The code is generic over the word width so the tests can run the very
//! same function on 8- and 16-bit words and check it against every word.

/// Arithmetic on one random word: production uses `u64`, the tests small models.
pub(crate) trait Word: Copy + Ord {
    /// Width of the word in bits.
    const BITS: u32;
    /// Zero.
    const ZERO: Self;
    /// The multiplicative identity.
    const ONE: Self;
    /// `(high, low)` halves of the double-width product `self · n`.
    fn mul_split(self, n: Self) -> (Self, Self);
    /// `self · n`, or `None` if it does not fit in a word.
    fn checked_times(self, n: Self) -> Option<Self>;
    /// `2^W mod self`: how many words Lemire's method rejects for bound `self`.
    fn rejected_count(self) -> Self;
    /// Number of significant bits (`self < 2^bit_len`).
    fn bit_len(self) -> u32;
    /// Whether `self < 2^s` (always true when `s ≥ W`).
    fn below_pow2(self, s: u32) -> bool;
    /// Bitwise or.
    fn or(self, other: Self) -> Self;
    /// `self − 1` (callers ensure `self ≥ 1`).
    fn dec(self) -> Self;
    /// `n` as a word, if it fits.
    fn from_count(n: usize) -> Option<Self>;
}

macro_rules! word {
    ($w:ty, $wide:ty) => {
        impl Word for $w {
            const BITS: u32 = <$w>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn mul_split(self, n: Self) -> (Self, Self) {
                let m = <$wide>::from(self) * <$wide>::from(n);
                ((m >> <$w>::BITS) as $w, m as $w)
            }
            #[inline(always)]
            fn checked_times(self, n: Self) -> Option<Self> {
                self.checked_mul(n)
            }
            #[inline(always)]
            fn rejected_count(self) -> Self {
                self.wrapping_neg() % self
            }
            #[inline(always)]
            fn bit_len(self) -> u32 {
                <$w>::BITS - self.leading_zeros()
            }
            #[inline(always)]
            fn or(self, other: Self) -> Self {
                self | other
            }
            #[inline(always)]
            fn dec(self) -> Self {
                self.wrapping_sub(1)
            }
            #[inline(always)]
            fn from_count(n: usize) -> Option<Self> {
                <$w>::try_from(n).ok()
            }
            #[inline(always)]
            fn below_pow2(self, s: u32) -> bool {
                self.checked_shr(s).is_none_or(|high| high == 0)
            }
        }
    };
}

word!(u64, u128);
#[cfg(test)]
word!(u8, u16);
#[cfg(test)]
word!(u16, u32);

/// Splits one word into one roll per bound, where `bits ≥` the sum of the
/// bounds' bit lengths (so their product `P < 2^bits`) and `P` fits in a
/// word. Returns `false` if the word must be rejected (then `out` holds
/// garbage and the caller draws a fresh word for the whole batch).
#[inline(always)]
pub(crate) fn split_word<W: Word>(word: W, bounds: &[W], bits: u32, out: &mut [W]) -> bool {
    let mut x = word;
    for (o, &b) in out.iter_mut().zip(bounds) {
        let (high, low) = x.mul_split(b);
        *o = high;
        x = low;
    }
    // `x` is now the low half of `word · P`; reject iff `x < 2^W mod P`,
    // which is below `P < 2^bits`.
    !x.below_pow2(bits) || exact_accept(x, bounds)
}

/// The exact rejection test, reached with probability below `2^bits / 2^W`.
#[cold]
#[inline(never)]
pub(crate) fn exact_accept<W: Word>(low: W, bounds: &[W]) -> bool {
    let product = bounds.iter().fold(W::ONE, |p, &b| {
        p.checked_times(b).expect("batch product fits in a word")
    });
    assert!(product > W::ZERO, "dice rolled with bound 0");
    low >= product.rejected_count()
}

/// Rolls once per bound from as few words as the grouping allows: runs of
/// consecutive bounds whose bit lengths sum to at most `W` bits share one
/// word, each run redrawn as a whole on rejection.
///
/// # Panics
///
/// Panics if the slices differ in length or a bound is zero.
#[inline(always)]
pub(crate) fn roll_batched<W: Word>(mut next: impl FnMut() -> W, bounds: &[W], out: &mut [W]) {
    assert_eq!(
        bounds.len(),
        out.len(),
        "roll_many: slices differ in length"
    );
    // Common case first: the whole request fits one word (the shuffles ask
    // for exactly such batches); once inlined for a fixed batch size this
    // path has no loops left.
    // `P < 2^bits` with `bits = k · bit_len(b_1 | … | b_k)`: a bound on the
    // product that costs one bit scan. (A zero bound makes the low half
    // zero, so it reaches `exact_accept`, which panics.)
    let any = bounds.iter().fold(W::ZERO, |acc, &b| acc.or(b));
    let bits = (bounds.len() as u64).saturating_mul(u64::from(any.bit_len()));
    if bits <= u64::from(W::BITS) {
        while !split_word(next(), bounds, bits as u32, out) {}
    } else {
        roll_grouped(&mut next, bounds, out);
    }
}

/// [`roll_batched`] for bounds the caller promises are all below `2^bits`:
/// the promise is checked with shifts (no bit scans), and if it fails or the
/// batch would not fit one word the request goes to [`roll_batched`].
#[inline(always)]
pub(crate) fn roll_batched_below<W: Word>(
    mut next: impl FnMut() -> W,
    bits: u32,
    bounds: &[W],
    out: &mut [W],
) {
    assert_eq!(
        bounds.len(),
        out.len(),
        "roll_many: slices differ in length"
    );
    let any = bounds.iter().fold(W::ZERO, |acc, &b| acc.or(b));
    let total = (bounds.len() as u64).saturating_mul(u64::from(bits));
    if any.below_pow2(bits) && total <= u64::from(W::BITS) {
        while !split_word(next(), bounds, total as u32, out) {}
    } else {
        roll_grouped(&mut next, bounds, out);
    }
}

/// [`roll_batched`] for requests that need several words (or are invalid).
#[cold]
#[inline(never)]
fn roll_grouped<W: Word>(next: &mut dyn FnMut() -> W, bounds: &[W], out: &mut [W]) {
    let mut start = 0;
    while start < bounds.len() {
        let (len, bits) = batch_prefix(&bounds[start..]);
        let (b, o) = (&bounds[start..start + len], &mut out[start..start + len]);
        while !split_word(next(), b, bits, o) {}
        start += len;
    }
}

/// The longest prefix of `bounds` (at least one bound) whose bit lengths
/// sum to at most `W` bits, and that sum.
#[inline(always)]
fn batch_prefix<W: Word>(bounds: &[W]) -> (usize, u32) {
    let mut bits = 0;
    for (i, &b) in bounds.iter().enumerate() {
        assert!(b > W::ZERO, "dice rolled with bound 0");
        let more = bits + b.bit_len();
        if more > W::BITS && i > 0 {
            return (i, bits);
        }
        bits = more;
    }
    (bounds.len(), bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word of a `W`-bit model, counted by the digit tuple it yields
    /// (rejected words are dropped). Exact iff all `P` tuples occur equally often.
    fn tuple_counts_u8(bounds: &[u8]) -> Vec<u32> {
        let product: u32 = bounds.iter().map(|&b| u32::from(b)).product();
        let mut counts = vec![0u32; product as usize];
        let mut out = vec![0u8; bounds.len()];
        for x in 0..=u8::MAX {
            if split_word(x, bounds, bit_sum(bounds), &mut out) {
                let index = out.iter().zip(bounds).fold(0u32, |acc, (&d, &b)| {
                    assert!(d < b, "digit {d} out of range for bound {b}");
                    acc * u32::from(b) + u32::from(d)
                });
                counts[index as usize] += 1;
            }
        }
        counts
    }

    fn bit_sum<W: Word>(bounds: &[W]) -> u32 {
        bounds.iter().map(|b| b.bit_len()).sum()
    }

    fn assert_uniform(counts: &[u32], words: u32, what: &str) {
        let product = counts.len() as u32;
        let expected = words / product; // accepted words per tuple
        assert!(expected > 0, "{what}");
        assert!(counts.iter().all(|&c| c == expected), "{what}: {counts:?}");
    }

    #[test]
    fn batches_are_exact_on_an_8_bit_model() {
        // Every tuple of 1–4 bounds with product ≤ 255 (all the batch shapes
        // the 64-bit code meets, scaled down), against all 256 words.
        let mut checked = 0;
        for a in 1u32..=255 {
            for b in 1..=255 / a {
                for c in [1, 2, 3, 4, 5, 7, 8, 9] {
                    if a * b * c > 255 {
                        continue;
                    }
                    let bounds = [a as u8, b as u8, c as u8];
                    let what = format!("bounds {bounds:?}");
                    assert_uniform(&tuple_counts_u8(&bounds), 256, &what);
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn batches_are_exact_on_a_16_bit_model_around_powers_of_two() {
        // Bounds 2^k and 2^k ± 1, batched in twos and threes up to the word
        // size, against all 65536 words: the analogue of the shuffle's batch
        // thresholds, where the product comes closest to the word.
        let near = |k: u32| [(1u32 << k) - 1, 1 << k, (1 << k) + 1];
        for k1 in 1..=8 {
            for k2 in 1..=8 {
                for &a in &near(k1) {
                    for &b in &near(k2) {
                        for c in [1u32, 2, 3] {
                            let p = a * b * c;
                            if p > 0xffff {
                                continue;
                            }
                            let bounds = [a as u16, b as u16, c as u16];
                            let mut counts = vec![0u32; p as usize];
                            let mut out = [0u16; 3];
                            for x in 0..=u16::MAX {
                                if split_word(x, &bounds, bit_sum(&bounds), &mut out) {
                                    let i = (u32::from(out[0]) * b + u32::from(out[1])) * c
                                        + u32::from(out[2]);
                                    counts[i as usize] += 1;
                                }
                            }
                            assert_uniform(&counts, 1 << 16, &format!("{bounds:?}"));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_wrong_rejection_rule_is_caught() {
        // Negative control: accepting every word is biased whenever P does
        // not divide 2^W; the exactness check above must notice.
        let bounds = [3u8, 5];
        let mut counts = [0u32; 15];
        let mut out = [0u8; 2];
        for x in 0..=u8::MAX {
            let _accepted = split_word(x, &bounds, bit_sum(&bounds), &mut out); // ignored
            counts[usize::from(out[0] * 5 + out[1])] += 1;
        }
        assert!(counts.iter().any(|&c| c != counts[0]));
    }

    #[test]
    fn grouping_splits_when_the_product_overflows() {
        assert_eq!(batch_prefix(&[16u8, 16, 2]), (1, 5));
        assert_eq!(batch_prefix(&[16u8, 15, 2]), (1, 5));
        assert_eq!(batch_prefix(&[8u8, 15, 2]), (2, 8));
        assert_eq!(batch_prefix(&[15u8, 17, 2]), (1, 4));
        assert_eq!(batch_prefix(&[255u8, 255]), (1, 8));
        assert_eq!(batch_prefix(&[3u8, 3, 3, 3, 3]), (4, 8));
        assert_eq!(batch_prefix(&[1u64 << 32, 1 << 30, 3]), (2, 64));
        assert_eq!(
            batch_prefix(&[52u64, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42]),
            (10, 60)
        );
    }

    #[test]
    fn batched_rolls_use_every_digit() {
        // "Every index 0" guard: words spread over the whole range (a Weyl
        // sequence) must give every answer at every position of the batch,
        // and the top word the top answers.
        let bounds = [7u64, 6, 5, 4, 3, 2];
        let mut seen = [[false; 7]; 6];
        let mut out = [0u64; 6];
        let mut word = 0u64;
        for _ in 0..5040 {
            roll_batched(
                || {
                    word = word.wrapping_add(0x9E37_79B9_7F4A_7C15);
                    word
                },
                &bounds,
                &mut out,
            );
            for (pos, &d) in out.iter().enumerate() {
                seen[pos][d as usize] = true;
            }
        }
        for (pos, &b) in bounds.iter().enumerate() {
            assert!(seen[pos][..b as usize].iter().all(|&s| s), "position {pos}");
        }
        roll_batched(|| u64::MAX, &bounds, &mut out);
        assert_eq!(out, [6, 5, 4, 3, 2, 1]);
    }
}
