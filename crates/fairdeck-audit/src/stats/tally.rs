//! Running counts over many permutations: everything the audit's tests need,
//! mergeable so that chunks counted in parallel add up to the same result.

use crate::error::{Error, check_permutation, zeros};

/// Largest n for which the full permutation-frequency table is kept (8! = 40320 cells).
pub const MAX_N_FOR_PERMUTATION_TABLE: usize = 8;

/// Smallest n for which deck fingerprints are kept for the birthday test.
pub const MIN_N_FOR_BIRTHDAY: usize = 9;

/// Largest n for which the joint (descents, valleys) histogram is kept
/// (the asymmetric shelf machine's statistic, [`super::families`]).
pub const MAX_N_FOR_JOINT: usize = 64;

/// Counts over a stream of permutations of `0..n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Number of items per permutation.
    pub n: usize,
    /// Number of permutations counted.
    pub trials: u64,
    /// `positions[card * n + pos]`: how often `card` ended at `pos`.
    pub positions: Vec<u64>,
    /// Histogram of the number of fixed points (index 0..=n).
    pub fixed_points: Vec<u64>,
    /// Histogram of the number of cycles (index 0..=n).
    pub cycles: Vec<u64>,
    /// Histogram of the number of rising sequences (index 0..=n).
    pub rising_sequences: Vec<u64>,
    /// Histogram of the number of successions, card i directly followed by i+1 (0..n).
    pub successions: Vec<u64>,
    /// Histogram of the number of valleys, `p[i−1] > p[i] < p[i+1]` (0..=n/2).
    pub valleys: Vec<u64>,
    /// Histogram of the cards a run-following player guesses right
    /// ([`super::guess::guessed_right`], 0..=n).
    pub guesses: Vec<u64>,
    /// Histogram of the bottom run: the largest m such that the cards
    /// n − m … n − 1 lie in their original order (0..=n), top-to-random's
    /// statistic ([`super::families`]).
    pub bottom_runs: Vec<u64>,
    /// Joint histogram of descents d (`p[i] > p[i+1]`) and valleys v at
    /// `d · (n/2 + 1) + v` (n ≤ [`MAX_N_FOR_JOINT`] only, else empty).
    pub descents_valleys: Vec<u64>,
    /// Count of each permutation by lexicographic rank (n ≤ 8 only).
    pub permutations: Option<Vec<u64>>,
    /// 128-bit fingerprints of every deck (n ≥ 9 only), for the birthday test.
    pub fingerprints: Vec<u128>,
}

impl Tally {
    /// Empty counts for permutations of `n` items. O(n² + n!) memory for n ≤ 8.
    ///
    /// # Panics
    ///
    /// When the n × n counts cannot be allocated; [`Tally::try_new`] fails instead.
    pub fn new(n: usize) -> Self {
        match Self::try_new(n) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    /// Empty counts for permutations of `n` items, or
    /// [`Error::MemoryExhausted`] when the n × n counts (800 MB at n = 10⁴)
    /// cannot be allocated. O(n² + n!) memory for n ≤ 8.
    ///
    /// # Errors
    ///
    /// [`Error::MemoryExhausted`], or [`Error::OutOfRange`] when n² overflows.
    pub fn try_new(n: usize) -> Result<Self, Error> {
        let cells = n
            .checked_mul(n)
            .ok_or_else(|| Error::OutOfRange(format!("{n} items: n² overflows")))?;
        let table = match n <= MAX_N_FOR_PERMUTATION_TABLE {
            true => Some(zeros(factorial(n))?),
            false => None,
        };
        Ok(Self {
            n,
            trials: 0,
            positions: zeros(cells)?,
            fixed_points: zeros(n + 1)?,
            cycles: zeros(n + 1)?,
            rising_sequences: zeros(n + 1)?,
            successions: zeros(n.max(1))?,
            valleys: zeros(n / 2 + 1)?,
            guesses: zeros(n + 1)?,
            bottom_runs: zeros(n + 1)?,
            descents_valleys: match n <= MAX_N_FOR_JOINT {
                true => zeros(n.max(1) * (n / 2 + 1))?,
                false => Vec::new(),
            },
            permutations: table,
            fingerprints: Vec::new(),
        })
    }

    /// Counts one arrangement (`p[pos]` = card). O(n) time (O(n²) for n ≤ 8).
    ///
    /// # Errors
    ///
    /// [`Error::NotAPermutation`] if `p` is not a permutation of `0..n`.
    pub fn add(&mut self, p: &[usize]) -> Result<(), Error> {
        check_permutation(p, self.n)?;
        let n = self.n;
        self.trials += 1;
        let mut where_is = vec![0usize; n];
        let mut fixed = 0;
        let mut successions = 0;
        for (pos, &card) in p.iter().enumerate() {
            self.positions[card * n + pos] += 1;
            where_is[card] = pos;
            fixed += usize::from(card == pos);
            successions += usize::from(pos + 1 < n && p[pos + 1] == card + 1);
        }
        let descents = (1..n).filter(|&c| where_is[c] < where_is[c - 1]).count();
        let valleys = p.windows(3).filter(|w| w[0] > w[1] && w[1] < w[2]).count();
        self.fixed_points[fixed] += 1;
        self.cycles[count_cycles(p)] += 1;
        self.rising_sequences[usize::from(n > 0) + descents] += 1;
        self.successions[successions] += 1;
        self.valleys[valleys] += 1;
        self.guesses[super::guess::guessed_right(p)] += 1;
        self.bottom_runs[bottom_run(&where_is)] += 1;
        if !self.descents_valleys.is_empty() {
            let falls = p.windows(2).filter(|w| w[0] > w[1]).count();
            self.descents_valleys[falls * (n / 2 + 1) + valleys] += 1;
        }
        if let Some(table) = &mut self.permutations {
            table[rank(p)] += 1;
        }
        if n >= MIN_N_FOR_BIRTHDAY {
            self.fingerprints.push(fingerprint(p));
        }
        Ok(())
    }

    /// Adds another tally of the same n into this one.
    ///
    /// # Panics
    ///
    /// Panics if the sizes differ.
    pub fn merge(&mut self, other: Tally) {
        assert_eq!(self.n, other.n, "merging tallies of different sizes");
        self.trials += other.trials;
        add_into(&mut self.positions, &other.positions);
        add_into(&mut self.fixed_points, &other.fixed_points);
        add_into(&mut self.cycles, &other.cycles);
        add_into(&mut self.rising_sequences, &other.rising_sequences);
        add_into(&mut self.successions, &other.successions);
        add_into(&mut self.valleys, &other.valleys);
        add_into(&mut self.guesses, &other.guesses);
        add_into(&mut self.bottom_runs, &other.bottom_runs);
        add_into(&mut self.descents_valleys, &other.descents_valleys);
        if let (Some(a), Some(b)) = (&mut self.permutations, &other.permutations) {
            add_into(a, b);
        }
        self.fingerprints.extend(other.fingerprints);
    }
}

fn add_into(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// The largest m such that the cards n − m … n − 1 lie top to bottom in
/// that order, from each card's position (0 for no cards). O(m).
pub fn bottom_run(where_is: &[usize]) -> usize {
    let n = where_is.len();
    let mut m = usize::from(n > 0);
    while m < n && where_is[n - m - 1] < where_is[n - m] {
        m += 1;
    }
    m
}

/// n! for small n.
fn factorial(n: usize) -> usize {
    (1..=n).product()
}

/// Number of cycles of the map `pos ↦ p[pos]`. O(n).
pub fn count_cycles(p: &[usize]) -> usize {
    let mut seen = vec![false; p.len()];
    let mut cycles = 0;
    for start in 0..p.len() {
        if seen[start] {
            continue;
        }
        cycles += 1;
        let mut i = start;
        while !seen[i] {
            seen[i] = true;
            i = p[i];
        }
    }
    cycles
}

/// Lexicographic rank of a permutation (Lehmer code). O(n²).
pub fn rank(p: &[usize]) -> usize {
    let n = p.len();
    let mut r = 0;
    for i in 0..n {
        let smaller_later = p[i + 1..].iter().filter(|&&x| x < p[i]).count();
        r = r * (n - i) + smaller_later;
    }
    r
}

/// A 128-bit fingerprint of a deck: two independent 64-bit mixes.
fn fingerprint(p: &[usize]) -> u128 {
    let mut a: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut b: u64 = 0xd1b5_4a32_d192_ed03;
    for &x in p {
        a = mix(a ^ x as u64);
        b = mix(b.wrapping_add(x as u64).rotate_left(17));
    }
    (u128::from(a) << 64) | u128::from(b)
}

/// SplitMix64's finaliser.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_one_arrangement() {
        let mut t = Tally::new(4);
        t.add(&[1, 0, 2, 3]).unwrap();
        assert_eq!(t.fixed_points[2], 1);
        assert_eq!(t.cycles[3], 1);
        assert_eq!(t.rising_sequences[2], 1);
        assert_eq!(t.successions[1], 1); // 2 then 3
        assert_eq!(t.valleys[1], 1); // 1 0 2
        assert_eq!(t.guesses.iter().sum::<u64>(), 1);
        assert_eq!(t.bottom_runs[3], 1); // cards 1, 2, 3 in order, card 0 below card 1
        assert_eq!(t.descents_valleys[3 + 1], 1); // one descent, one valley
        assert_eq!(t.positions[4], 1); // card 1 at position 0
        assert_eq!(t.permutations.as_ref().unwrap()[6], 1);
        assert!(t.add(&[0, 0, 1, 2]).is_err());
    }

    #[test]
    fn ranks_are_a_bijection() {
        let mut v = [0usize, 1, 2, 3];
        let mut ranks = Vec::new();
        loop {
            ranks.push(rank(&v));
            if !next_permutation(&mut v) {
                break;
            }
        }
        assert_eq!(ranks, (0..24).collect::<Vec<_>>());
    }

    fn next_permutation(v: &mut [usize]) -> bool {
        let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
            return false;
        };
        let j = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]).unwrap();
        v.swap(i - 1, j);
        v[i..].reverse();
        true
    }
}
