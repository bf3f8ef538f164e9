//! The fair-dealing shuffle: its own fixed algorithm, independent of the
//! production shuffle's internals, so that the specification in
//! `docs/fair-dealing.md` can be re-implemented from a page of text.

use chacha20::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};

use fairdeck::dice::{Dice, bounded_u64};

/// The dice of a fair deal: exact bounded draws from the ChaCha20 keystream
/// of a deal key, one 64-bit word per attempt.
///
/// * Words: the ChaCha20 keystream (RFC 8439 block function, 20 rounds) for
///   the 32-byte deal key, all-zero 96-bit nonce, block counter starting at
///   0, read 8 bytes at a time as little-endian `u64`.
/// * Bounded draw of `j` in `[0, s)`: Lemire's multiply-and-reject with one
///   word per attempt (Lemire 2019, "Fast Random Integer Generation in an
///   Interval", ACM TOMACS 29(1)): `m = x · s` as a 128-bit product; reject
///   while `m mod 2^64 < (2^64 − s) mod s`; the answer is `m >> 64`. This
///   is [`bounded_u64`], whose rule the specification freezes.
///
/// This is deliberately a separate dice rather than the production
/// [`RngDice`](fairdeck::dice::RngDice): a published deal must stay verifiable
/// even if the production dice gets faster (batched draws, other generators).
///
/// O(1) expected time per roll (rejection probability below `s / 2^64`).
///
/// ```
/// use fairdeck::dice::Dice;
/// use fairdeck_fair::KeyStream;
///
/// let mut a = KeyStream::new([7; 32]);
/// let mut b = KeyStream::new([7; 32]);
/// assert_eq!(a.roll(52), b.roll(52));
/// ```
#[derive(Debug)]
pub struct KeyStream {
    rng: ChaCha20Rng,
}

impl KeyStream {
    /// The keystream of a 32-byte key (nonce 0, counter 0).
    pub fn new(key: [u8; 32]) -> Self {
        Self {
            rng: ChaCha20Rng::from_seed(key),
        }
    }

    /// The next keystream word: 8 bytes, little-endian.
    pub fn next_word(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

impl Dice for KeyStream {
    fn roll(&mut self, s: u64) -> u64 {
        // Section 2.4 of the specification pins this draw: one word per
        // attempt, reject while `m mod 2^64 < (2^64 − s) mod s`. The shared
        // `bounded_u64` is exactly that rule (it only skips computing the
        // threshold when `m mod 2^64 ≥ s`, where no word is rejected); the
        // fair test vectors fail if it ever draws differently.
        bounded_u64(&mut self.rng, s)
    }
}

/// Durstenfeld's backward shuffle as the fair-dealing specification fixes
/// it: for `i` from `n−1` down to `1`, swap positions `i` and `dice.roll(i+1)`
/// (Durstenfeld 1964, CACM Algorithm 235, "Random permutation").
///
/// O(n) time, O(1) extra space; exactly `n−1` rolls with bounds `n … 2`.
///
/// ```
/// use fairdeck_fair::{durstenfeld, KeyStream};
///
/// let mut deck: Vec<u8> = (0..52).collect();
/// durstenfeld(&mut deck, &mut KeyStream::new([1; 32]));
/// let mut sorted = deck.clone();
/// sorted.sort();
/// assert_eq!(sorted, (0..52).collect::<Vec<u8>>());
/// assert_ne!(deck, sorted);
/// ```
pub fn durstenfeld<T, D: Dice + ?Sized>(slice: &mut [T], dice: &mut D) {
    for i in (1..slice.len()).rev() {
        let j = dice.roll(i as u64 + 1) as usize;
        slice.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::orders;

    #[test]
    fn keystream_is_rfc_8439_chacha20() {
        // RFC 8439 appendix A.1, test vector #1: all-zero key and nonce,
        // block counter 0. Keystream bytes 0..16:
        // 76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28
        let mut k = KeyStream::new([0; 32]);
        assert_eq!(k.next_word(), u64::from_le_bytes(hex8("76b8e0ada0f13d90")));
        assert_eq!(k.next_word(), u64::from_le_bytes(hex8("405d6ae55386bd28")));
    }

    fn hex8(h: &str) -> [u8; 8] {
        let mut b = [0u8; 8];
        for (i, o) in b.iter_mut().enumerate() {
            *o = u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap();
        }
        b
    }

    #[test]
    fn durstenfeld_is_exactly_uniform_for_small_n() {
        for n in 0..=6usize {
            let counts = orders(n, durstenfeld);
            let first = *counts.values().next().expect("no outcomes");
            assert!(
                counts.values().all(|&c| c == first),
                "durstenfeld: outcomes not equally likely: {counts:?}"
            );
            assert_eq!(counts.len() as u64, (1..=n as u64).product::<u64>());
        }
    }
}
