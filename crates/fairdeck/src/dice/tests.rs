//! Unit tests of the dice: exact bounded draws, batches, the enumerator.

use super::*;

/// A generator that replays a fixed list of words, for testing rejection.
struct Words(Vec<u64>);
impl rand_core::TryRng for Words {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.0.remove(0) as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.0.remove(0))
    }
    fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
        unreachable!()
    }
}

#[test]
fn lemire_is_exact_on_a_small_word_model() {
    // Model: words of 8 bits instead of 64. Count how often each answer
    // comes out over all 256 words after rejection; all counts must match.
    // (Up to 64: the fair-dealing spec's bounds, 52 cards and more.)
    for n in 1u32..=64 {
        let threshold = (256 - n) % n;
        let mut counts = vec![0u32; n as usize];
        for x in 0u32..256 {
            let m = x * n;
            if (m & 0xff) >= threshold {
                counts[(m >> 8) as usize] += 1;
            }
        }
        assert!(
            counts.iter().all(|&c| c == counts[0]),
            "n = {n}: {counts:?}"
        );
    }
}

#[test]
fn lemire_rejects_the_biased_words() {
    // n = 3: 2^64 mod 3 = 1, so exactly one word per answer boundary is
    // rejected: the word whose low product half is 0 (x = 0).
    let mut w = Words(vec![0, u64::MAX]);
    assert_eq!(bounded_u64(&mut w, 3), 2);
    assert!(w.0.is_empty());
    let mut w = Words(vec![1 << 63]);
    assert_eq!(bounded_u64(&mut w, 2), 1);
}

#[test]
fn batched_rolls_reject_and_redraw_the_whole_batch() {
    // Bounds 3 and 5 (P = 15, 2^64 mod 15 = 1): the word 0 leaves low
    // half 0 < 1 and is rejected; u64::MAX gives the top answers.
    let mut dice = RngDice::new(Words(vec![0, u64::MAX]));
    let mut out = [9; 2];
    dice.roll_many(&[3, 5], &mut out);
    assert_eq!(out, [2, 4]);
    assert!(dice.rng.0.is_empty());
    // The same through the hinted path, with a right and a wrong hint.
    for bits in [3, 1] {
        let mut dice = RngDice::new(Words(vec![0, u64::MAX]));
        dice.roll_many_below(bits, &[3, 5], &mut out);
        assert_eq!(out, [2, 4], "hint {bits}");
    }
    // The word is 5/8 of 2^64: 5/8 · 2 = 1.25 gives 1, then 0.25 · 4 = 1.
    let mut dice = RngDice::new(Words(vec![(1 << 63) + (1 << 61)]));
    dice.roll_many(&[2, 4], &mut out);
    assert_eq!(out, [1, 1]);
}

#[test]
fn batched_rolls_split_requests_that_overflow_a_word() {
    // Three bounds of 2^31 (32 bits each) cannot share one word: the
    // first two do, the third takes the next word.
    let mut dice = RngDice::new(Words(vec![u64::MAX, 1 << 63, 5 << 60]));
    let mut out = [0; 3];
    dice.roll_many(&[1 << 31, 1 << 31, 1 << 31], &mut out);
    assert_eq!(out, [(1 << 31) - 1, (1 << 31) - 1, 1 << 30]);
    assert_eq!(dice.rng.0, vec![5 << 60]);
}

#[test]
#[should_panic(expected = "bound 0")]
fn batched_zero_bound_panics() {
    let mut dice = RngDice::new(Words(vec![7, 7, 7]));
    dice.roll_many_below(4, &[3, 0], &mut [0, 0]);
}

#[test]
fn power_of_two_rolls_cut_words_into_fields() {
    let mut dice = RngDice::new(Words(vec![0x0123_4567_89ab_cdef, 0xff]));
    let mut out = [0u8; 17];
    dice.roll_pow2_many(4, &mut out);
    assert_eq!(
        out[..16],
        [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    );
    assert_eq!(out[16], 15);
    let mut e = Enumerator::new();
    e.roll_pow2_many(3, &mut out[..2]);
    assert_eq!(e.path_bounds().collect::<Vec<_>>(), vec![8, 8]);
}

#[test]
fn enumerator_visits_every_path_once() {
    let mut e = Enumerator::new();
    let mut seen = Vec::new();
    loop {
        let a = e.roll(2);
        let b = if a == 0 { e.roll(3) } else { 9 };
        seen.push((a, b, e.path_bounds().product::<u64>()));
        if !e.next_path() {
            break;
        }
    }
    assert_eq!(seen, vec![(0, 0, 6), (0, 1, 6), (0, 2, 6), (1, 9, 2)]);
}

#[test]
fn counting_counts() {
    let mut d = Counting::new(Enumerator::new());
    d.roll(4);
    d.roll(8);
    assert_eq!(d.rolls(), 2);
    assert!((d.bits() - 5.0).abs() < 1e-12);
}

#[test]
fn descending_rolls_equal_the_general_batched_rolls() {
    // The production dice's descending fast path against `roll_many_below`
    // on the same bounds, from the same generator state: the same answers
    // and the same words consumed (checked by the next raw word), for right,
    // wrong (too small) and generous hints, every length up to 12 and tops
    // from 12 to 2^63.
    use crate::rng::{Generator, Seed};
    use rand_core::Rng;
    let tops = [
        12u64,
        13,
        52,
        255,
        256,
        1000,
        1 << 20,
        (1 << 28) + 3,
        1 << 40,
        1 << 63,
    ];
    for (s, &top) in tops.iter().enumerate() {
        for len in 0..=12usize {
            let bit_len = 64 - top.leading_zeros();
            for bits in [bit_len, bit_len - 1, bit_len + 3] {
                let seed = Seed::parse(&format!("descending {s} {len} {bits}"));
                let mut fast = RngDice::new(Generator::Xoshiro256PlusPlus.build(&seed));
                let mut general = RngDice::new(Generator::Xoshiro256PlusPlus.build(&seed));
                let bounds: Vec<u64> = (0..len as u64).map(|t| top - t).collect();
                for _ in 0..50 {
                    let (mut a, mut b) = (vec![0; len], vec![0; len]);
                    fast.roll_descending_below(bits, top, &mut a);
                    general.roll_many_below(bits, &bounds, &mut b);
                    assert_eq!(a, b, "top {top}, len {len}, bits {bits}");
                }
                let next = (fast.rng_mut().next_u64(), general.rng_mut().next_u64());
                assert_eq!(next.0, next.1, "top {top}, len {len}, bits {bits}");
            }
        }
    }
}

#[test]
fn descending_rolls_through_the_default_equal_the_production_dice() {
    // A dice without its own `roll_descending_below` (the trait default,
    // which asks `roll_many_below`) gives the production dice's answers.
    use crate::rng::{AnyRng, Generator, Seed};
    struct Plain(RngDice<AnyRng>);
    impl Dice for Plain {
        fn roll(&mut self, n: u64) -> u64 {
            self.0.roll(n)
        }
        fn roll_many_below(&mut self, bits: u32, bounds: &[u64], out: &mut [u64]) {
            self.0.roll_many_below(bits, bounds, out)
        }
    }
    let seed = Seed::parse("default");
    let mut direct = RngDice::new(Generator::ChaCha8.build(&seed));
    let mut plain = Plain(RngDice::new(Generator::ChaCha8.build(&seed)));
    for top in [52u64, 51, 9, 2, 1 << 30] {
        let (mut a, mut b) = ([0u64; 8], [0u64; 8]);
        let len = 8.min(top as usize);
        direct.roll_descending_below(6, top, &mut a[..len]);
        plain.roll_descending_below(6, top, &mut b[..len]);
        assert_eq!(a, b, "top {top}");
    }
}

#[test]
#[should_panic(expected = "bound 0")]
fn descending_rolls_past_zero_panic() {
    use crate::rng::{Generator, Seed};
    let mut dice = RngDice::new(Generator::ChaCha8.build(&Seed::parse("zero")));
    dice.roll_descending_below(3, 3, &mut [0; 4]);
}
