//! How many hand shuffles make a deck random: total variation distance from
//! uniform after k shuffles, for three models of shuffling by hand.
//!
//! * **riffle** — the Gilbert–Shannon–Reeds model: cut the deck binomially,
//!   then drop cards one by one from the two halves with probability
//!   proportional to their sizes. After k riffles an order with r rising
//!   sequences has probability C(2^k + n − r, n) / 2^(kn) (Bayer & Diaconis
//!   1992, "Trailing the dovetail shuffle to its lair", Ann. Appl. Probab. 2),
//!   and A(n, r) orders (Eulerian numbers) have r rising sequences, so the
//!   distance is an exact finite sum: [`riffle_total_variation`].
//! * **top-to-random** — Juhász’s “Keverjük a kártyát” first shuffle: the top card goes to
//!   a uniformly random place among the n.
//! * **overhand** — Pemantle's model (1989, "An analysis of overhand
//!   shuffles", J. Theoret. Probab. 2): each of the n − 1 gaps between cards is
//!   a break with probability 1/m, independently, and the packets so formed are
//!   put down in reverse order, each keeping its own order.
//!
//! For the last two, [`exact_small`] is exact for n ≤ 7 (the whole law on Sₙ
//! is propagated); for larger n, [`statistic_lower_bound`] estimates the
//! distance between the law of one statistic and its exact uniform law — a
//! lower bound on the full distance — with its uncertainty band and noise
//! floor ([`Estimate`]), and for
//! top-to-random [`top_to_random_separation`] gives an exact upper bound.

use fairdeck::dice::{Dice, RngDice};
use fairdeck::rng::{Generator, Seed};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::error::Error;
use crate::exact::{self, Limits};
use crate::stats::rank;

mod estimate;
pub mod shelf;

pub use estimate::{BAND_CONFIDENCE, Estimate, noise_floor};

/// A model of shuffling by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// Gilbert–Shannon–Reeds riffle shuffle.
    Riffle,
    /// Top card to a uniformly random place.
    TopToRandom,
    /// Pemantle's overhand shuffle; each gap breaks with probability 1/`mean_packet`.
    Overhand {
        /// Mean packet size m ≥ 1 (each gap is a break with probability 1/m).
        mean_packet: u64,
    },
}

impl Model {
    /// Performs one shuffle of `deck` (top card first). O(n) time.
    pub fn shuffle<D: Dice + ?Sized>(self, deck: &mut Vec<usize>, dice: &mut D) {
        let n = deck.len();
        if n < 2 {
            return;
        }
        match self {
            Model::Riffle => riffle(deck, dice),
            Model::TopToRandom => {
                let top = deck.remove(0);
                let place = dice.roll(n as u64) as usize;
                deck.insert(place, top);
            }
            Model::Overhand { mean_packet } => overhand(deck, mean_packet, dice),
        }
    }

    /// The model's name as the CLI spells it.
    pub fn name(self) -> &'static str {
        match self {
            Model::Riffle => "riffle",
            Model::TopToRandom => "top-to-random",
            Model::Overhand { .. } => "overhand",
        }
    }
}

/// One overhand shuffle: a packet ends at each of the n − 1 gaps with
/// probability 1/m (one roll per gap, top to bottom), and the packets are
/// put down in reverse order. Each packet is copied straight to its place
/// (a packet taken from the top `[start, end)` lands at `[n − end, n −
/// start)`), one pass and one buffer, with no allocation per packet.
fn overhand<D: Dice + ?Sized>(deck: &mut Vec<usize>, mean_packet: u64, dice: &mut D) {
    let n = deck.len();
    let mut out = vec![0; n];
    let mut start = 0;
    for end in 1..=n {
        if end == n || dice.roll(mean_packet.max(1)) == 0 {
            out[n - end..n - start].copy_from_slice(&deck[start..end]);
            start = end;
        }
    }
    *deck = out;
}

/// One GSR riffle: binomial cut by n fair coins, then proportional drops.
fn riffle<D: Dice + ?Sized>(deck: &mut Vec<usize>, dice: &mut D) {
    let n = deck.len();
    let cut = (0..n).filter(|_| dice.roll(2) == 1).count();
    let (mut left, mut right) = (&deck[..cut], &deck[cut..]);
    let mut out = Vec::with_capacity(n);
    while !left.is_empty() || !right.is_empty() {
        let (a, b) = (left.len() as u64, right.len() as u64);
        if dice.roll(a + b) < a {
            out.push(left[0]);
            left = &left[1..];
        } else {
            out.push(right[0]);
            right = &right[1..];
        }
    }
    *deck = out;
}

/// Eulerian numbers A(n, r), r = 0..=n: orders of n cards with r rising sequences.
pub fn eulerian(n: usize) -> Vec<BigInt> {
    let mut row = vec![BigInt::one()];
    for m in 1..=n {
        let mut next = vec![BigInt::zero(); m + 1];
        for r in 1..=m {
            let stay = row.get(r).map_or(BigInt::zero(), |x| x * BigInt::from(r));
            next[r] = stay + &row[r - 1] * BigInt::from(m - r + 1);
        }
        row = next;
    }
    row
}

fn binomial(n: &BigInt, k: usize) -> BigInt {
    let mut acc = BigInt::one();
    for i in 0..k {
        acc = acc * (n - BigInt::from(i)) / BigInt::from(i + 1);
    }
    acc
}

/// Exact total variation distance from uniform after `k` GSR riffles of `n`
/// cards (Bayer–Diaconis). O(n²) big-integer operations.
///
/// ```
/// use fairdeck_audit::mix::riffle_total_variation;
/// use num_traits::ToPrimitive;
///
/// let tv = riffle_total_variation(52, 7).to_f64().unwrap();
/// assert!((tv - 0.334).abs() < 0.001); // the famous "seven shuffles"
/// ```
pub fn riffle_total_variation(n: usize, k: u32) -> BigRational {
    let a = eulerian(n);
    let two_k = BigInt::one() << k;
    let all = BigInt::one() << (k as usize * n);
    let uniform = BigRational::new(BigInt::one(), exact::factorial(n));
    let mut sum = BigRational::zero();
    for (r, count) in a.iter().enumerate().skip(1) {
        let top = &two_k + BigInt::from(n) - BigInt::from(r);
        let p = if top < BigInt::from(n) {
            BigRational::zero()
        } else {
            BigRational::new(binomial(&top, n), all.clone())
        };
        sum += (p - &uniform).abs() * BigRational::from_integer(count.clone());
    }
    sum / BigRational::from_integer(BigInt::from(2))
}

/// Largest n for [`exact_small`].
pub const MAX_EXACT_N: usize = 7;

/// Exact total variation after k = 1..=`k_max` shuffles for n ≤ 7: the
/// one-shuffle law is computed exactly by walking the model's choices, then
/// the law on all n! orders is propagated (in f64). O(k·n!·|support|).
///
/// # Errors
///
/// [`Error::OutOfRange`] for n > 7.
pub fn exact_small(model: Model, n: usize, k_max: u32) -> Result<Vec<f64>, Error> {
    let (orders, laws) = exact_laws(model, n, k_max)?;
    let uniform = 1.0 / orders.len() as f64;
    Ok(laws
        .iter()
        .map(|law| law.iter().map(|p| (p - uniform).abs()).sum::<f64>() / 2.0)
        .collect())
}

/// Every order of n cards, and for k = 1 … `k_max` the law on them after k
/// shuffles (index = the order's place among the orders).
type Laws = (Vec<Vec<usize>>, Vec<Vec<f64>>);

/// The [`Laws`] of `model` on n cards up to `k_max` shuffles.
fn exact_laws(model: Model, n: usize, k_max: u32) -> Result<Laws, Error> {
    if n > MAX_EXACT_N {
        return Err(Error::OutOfRange(format!(
            "exact mixing is for n <= {MAX_EXACT_N}"
        )));
    }
    let step = exact::distribution(
        n,
        |w| {
            let mut deck: Vec<usize> = (0..n).collect();
            model.shuffle(&mut deck, w);
            deck
        },
        Limits::default(),
    )?;
    let moves: Vec<(Vec<usize>, f64)> = step
        .outcomes
        .iter()
        .map(|(m, p)| (m.clone(), p.to_f64().unwrap_or(0.0)))
        .collect();
    let orders = all_orders(n);
    let mut law = vec![0.0; orders.len()];
    law[0] = 1.0;
    let mut out = Vec::new();
    for _ in 0..k_max {
        let mut next = vec![0.0; law.len()];
        for (d, &p) in orders.iter().zip(&law).filter(|(_, p)| **p > 0.0) {
            for (m, q) in &moves {
                let moved: Vec<usize> = m.iter().map(|&i| d[i]).collect();
                next[rank(&moved)] += p * q;
            }
        }
        law = next;
        out.push(law.clone());
    }
    Ok((orders, out))
}

fn all_orders(n: usize) -> Vec<Vec<usize>> {
    let mut p: Vec<usize> = (0..n).collect();
    let mut all = vec![p.clone()];
    while crate::chaos::next_permutation(&mut p) {
        all.push(p.clone());
    }
    all
}

/// Exact upper bound for top-to-random: P(T > k), T the strong uniform time
/// "one step after the original bottom card reaches the top" (Aldous &
/// Diaconis 1986, "Shuffling cards and stopping times", Amer. Math. Monthly
/// 93). O(k·n).
pub fn top_to_random_separation(n: usize, k: u32) -> f64 {
    if n < 2 {
        return 0.0;
    }
    // state j = cards below the original bottom card; j = n means done.
    let mut law = vec![0.0; n + 1];
    law[0] = 1.0;
    for _ in 0..k {
        let mut next = vec![0.0; n + 1];
        next[n] = law[n];
        for j in 0..n {
            let up = if j == n - 1 {
                1.0
            } else {
                (j + 1) as f64 / n as f64
            };
            next[j + 1] += law[j] * up;
            next[j] += law[j] * (1.0 - up);
        }
        law = next;
    }
    1.0 - law[n]
}

/// The statistic used for each model's lower bound, with its exact uniform law:
/// top-to-random and riffle use the bottom run (the largest m such that the
/// original bottom m cards lie in their original order; P(≥ m) = 1/m!),
/// overhand the number of successions (card i directly followed by i+1).
fn statistic(model: Model, deck: &[usize]) -> usize {
    let n = deck.len();
    match model {
        Model::Overhand { .. } => deck.windows(2).filter(|w| w[1] == w[0] + 1).count(),
        _ => {
            let mut pos = vec![0; n];
            for (i, &c) in deck.iter().enumerate() {
                pos[c] = i;
            }
            let mut m = usize::from(n > 0);
            while m < n && pos[n - m - 1] < pos[n - m] {
                m += 1;
            }
            m
        }
    }
}

fn statistic_law(model: Model, n: usize) -> Vec<f64> {
    match model {
        Model::Overhand { .. } => crate::stats::laws::successions(n),
        _ => {
            let tail = |m: usize| 1.0 / (1..=m).map(|x| x as f64).product::<f64>();
            (0..=n)
                .map(|m| match m {
                    0 => 0.0,
                    _ if m == n => tail(n),
                    _ => tail(m) - tail(m + 1),
                })
                .collect()
        }
    }
}

/// Estimates a lower bound on the distance after `k` shuffles of `n` cards
/// from `trials` seeded simulations. O(trials·k·n) time.
pub fn statistic_lower_bound(model: Model, n: usize, k: u32, trials: u64, seed: &Seed) -> Estimate {
    let law = statistic_law(model, n);
    let mut counts = vec![0u64; law.len().max(n + 1)];
    let mut dice = RngDice::new(Generator::Xoshiro256PlusPlus.build(seed));
    for _ in 0..trials {
        let mut deck: Vec<usize> = (0..n).collect();
        for _ in 0..k {
            model.shuffle(&mut deck, &mut dice);
        }
        counts[statistic(model, &deck)] += 1;
    }
    Estimate::from_counts(&law, &counts, trials)
}

#[cfg(test)]
mod tests;
