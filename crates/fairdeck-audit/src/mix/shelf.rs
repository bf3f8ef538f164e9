//! The shelf shuffler of Diaconis, Fulman and Holmes (2013), “Analysis of
//! casino shelf shuffling machines”: cards are dealt one at a time from the
//! bottom of the deck, each to a uniformly random one of m shelves, on top
//! of the cards there or below them with probability ½; the shelves are
//! then stacked. Two passes through m shelves are one pass through 2m²
//! (checked against enumeration in the tests): 10 shelves twice are 200.
//!
//! The exact law. Read top to bottom, a shelf holding the cards S is a rising
//! run of those put on top, then a falling run of those put below (its
//! first card may go either way): each unimodal arrangement of S comes from
//! exactly 2 of the 2^|S| choices. So an order w of n cards has probability
//! `Σ_k c_k(w) · C(m, k) · 2^k / (2m)^n`, where c_k(w) counts the ways to cut
//! w into k non-empty consecutive unimodal pieces (which k of the m shelves
//! hold them: C(m, k)). DFH show this depends on w only through its number
//! of valleys v, so it is computed once per v on one order with v valleys,
//! and the distance from uniform is the finite sum
//! `½ Σ_v N(n, v) · |P_m(v) − 1/n!|` with N(n, v) orders of v valleys
//! ([`crate::stats::laws::valleys`], here as integers).

use fairdeck::dice::Dice;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// One pass of the shelf machine over `deck` (top card first). O(n) time.
///
/// ```
/// use fairdeck::dice::RngDice;
/// use fairdeck::rng::{Generator, Seed};
/// use fairdeck_audit::mix::shelf::shelf_pass;
///
/// let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::from_text("doc")));
/// let mut deck: Vec<usize> = (0..52).collect();
/// shelf_pass(&mut deck, 10, &mut dice);
/// let valleys = deck.windows(3).filter(|w| w[0] > w[1] && w[1] < w[2]).count();
/// assert!(valleys <= 9); // one pass leaves at most m − 1 valleys
/// ```
///
/// # Panics
///
/// When `shelves` is 0.
pub fn shelf_pass<D: Dice + ?Sized>(deck: &mut Vec<usize>, shelves: u64, dice: &mut D) {
    assert!(shelves > 0, "a shelf machine has at least one shelf");
    let mut piles: Vec<std::collections::VecDeque<usize>> =
        vec![std::collections::VecDeque::new(); shelves as usize];
    for &card in deck.iter().rev() {
        let pile = &mut piles[dice.roll(shelves) as usize];
        if dice.roll(2) == 0 {
            pile.push_front(card);
        } else {
            pile.push_back(card);
        }
    }
    deck.clear();
    deck.extend(piles.into_iter().flatten());
}

/// The number of orders of `n` cards with v valleys, v = 0..=n/2 (exact).
/// O(n²) big-integer operations.
pub fn valley_counts(n: usize) -> Vec<BigInt> {
    let mut w = vec![BigInt::one()];
    for m in 2..=n {
        let mut next = vec![BigInt::zero(); m / 2 + 1];
        for (k, x) in next.iter_mut().enumerate() {
            if let Some(stay) = w.get(k) {
                *x += stay * (2 * k + 2);
            }
            if k > 0
                && m >= 2 * k
                && let Some(grow) = w.get(k - 1)
            {
                *x += grow * (m - 2 * k);
            }
        }
        w = next;
    }
    w
}

/// An order of `n` cards with exactly `v` valleys (v ≤ (n − 1)/2): v + 1
/// high cards and v low ones alternating, the rest falling after them.
fn with_valleys(n: usize, v: usize) -> Vec<usize> {
    let mut w = Vec::with_capacity(n);
    for i in 0..=v {
        w.push(n - 1 - i);
        if i < v {
            w.push(i);
        }
    }
    w.extend((v..n - 1 - v).rev());
    w
}

/// c_k(w), k = 0..=n: the ways to cut `w` into k non-empty consecutive
/// unimodal pieces (module doc). O(n³) big-integer additions.
fn pieces(w: &[usize]) -> Vec<BigInt> {
    let n = w.len();
    // Whether w[j..i] rises then falls.
    let unimodal = |j: usize, i: usize| {
        let mut k = j + 1;
        while k < i && w[k] > w[k - 1] {
            k += 1;
        }
        while k < i && w[k] < w[k - 1] {
            k += 1;
        }
        k >= i
    };
    // cut[i][k]: ways to cut w[..i] into k unimodal pieces.
    let mut cut = vec![vec![BigInt::zero(); n + 1]; n + 1];
    cut[0][0] = BigInt::one();
    for i in 1..=n {
        for j in (0..i).filter(|&j| unimodal(j, i)) {
            for k in 1..=i {
                let add = cut[j][k - 1].clone();
                cut[i][k] += add;
            }
        }
    }
    cut.swap_remove(n)
}

/// The number of (shelf, top-or-bottom) choice sequences of one pass
/// through `shelves` shelves that give an order with the cuts `c`:
/// `Σ_k c_k · C(m, k) · 2^k`. O(n) big-integer operations.
fn ways(c: &[BigInt], shelves: u64) -> BigInt {
    let mut total = BigInt::zero();
    let mut choose = BigInt::one(); // C(m, k)
    for (k, c) in c.iter().enumerate() {
        if k > 0 {
            if k as u64 > shelves {
                break;
            }
            choose = choose * (shelves - k as u64 + 1) / k;
        }
        total += (c * &choose) << k;
    }
    total
}

/// The cuts of one order of each number of valleys, counted once, to give
/// the machine's law for many numbers of shelves ([`crate::fit`]).
#[derive(Debug, Clone)]
pub struct ValleyLaws {
    cuts: Vec<Vec<BigInt>>,
}

impl ValleyLaws {
    /// The cuts for decks of `n` cards. O(n⁴) big-integer additions.
    pub fn new(n: usize) -> Self {
        Self { cuts: cuts(n) }
    }

    /// The choice sequences of one pass through `shelves` shelves that give
    /// one given order with `v` valleys (0 for more valleys than n allows):
    /// its probability times (2m)ⁿ. O(n) big-integer operations.
    pub fn ways(&self, v: usize, shelves: u64) -> BigInt {
        self.cuts
            .get(v)
            .map_or_else(BigInt::zero, |c| ways(c, shelves))
    }
}

/// The probability of one order with v valleys after one pass through
/// `shelves` shelves, v = 0..=(n − 1)/2 (exact). O(n⁴) big-integer
/// additions.
pub fn shelf_law(n: usize, shelves: u64) -> Vec<BigRational> {
    let all = BigInt::from(2 * shelves).pow(n as u32);
    cuts(n)
        .iter()
        .map(|c| BigRational::new(ways(c, shelves), all.clone()))
        .collect()
}

/// The cuts of one order with each number of valleys v = 0..=(n − 1)/2.
fn cuts(n: usize) -> Vec<Vec<BigInt>> {
    let top = if n == 0 { 0 } else { (n - 1) / 2 };
    (0..=top).map(|v| pieces(&with_valleys(n, v))).collect()
}

/// Exact total variation distance from uniform after one pass of `n` cards
/// through `shelves` shelves (for two passes through m, give 2m²).
/// O(n⁴) big-integer operations (well under a second at n = 52).
///
/// ```
/// use fairdeck_audit::mix::shelf::shelf_total_variation;
/// use num_traits::ToPrimitive;
///
/// let one_pass = shelf_total_variation(52, 10).to_f64().unwrap();
/// let two_passes = shelf_total_variation(52, 200).to_f64().unwrap();
/// assert!(one_pass > 0.99 && (two_passes - 0.01).abs() < 0.005);
/// ```
pub fn shelf_total_variation(n: usize, shelves: u64) -> BigRational {
    shelf_total_variations(n, &[shelves]).remove(0)
}

/// [`shelf_total_variation`] for each of `shelves`, the order's cuts
/// counted once for all: O(n⁴ + |shelves| · n²) big-integer operations.
pub fn shelf_total_variations(n: usize, shelves: &[u64]) -> Vec<BigRational> {
    let orders: BigInt = (1..=n).map(BigInt::from).product();
    let counts = valley_counts(n);
    let cuts = cuts(n);
    shelves
        .iter()
        .map(|&m| {
            // ½ Σ_v N_v · |ways_v / (2m)ⁿ − 1/n!|, over the common denominator.
            let all = BigInt::from(2 * m).pow(n as u32);
            let mut sum = BigInt::zero();
            for (v, count) in counts.iter().enumerate() {
                let w = cuts.get(v).map_or_else(BigInt::zero, |c| ways(c, m));
                sum += (w * &orders - &all).abs() * count;
            }
            BigRational::new(sum, BigInt::from(2) * orders.clone() * all)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::{Limits, distribution};
    use num_traits::ToPrimitive;

    /// The law against every one of the 6⁵ paths of one pass of 5 cards
    /// through 3 shelves (17/1296, 2/243, 1/243 by valleys), and the
    /// distance against the enumerated law's.
    #[test]
    fn the_exact_law_matches_enumeration() {
        let r = |a: i64, b: i64| BigRational::new(a.into(), b.into());
        assert_eq!(shelf_law(5, 3), [r(17, 1296), r(2, 243), r(1, 243)]);
        for (n, m) in [(5, 3), (6, 2), (4, 5)] {
            let d = distribution(
                n,
                |w| {
                    let mut deck: Vec<usize> = (0..n).collect();
                    shelf_pass(&mut deck, m, w);
                    deck
                },
                Limits::default(),
            )
            .unwrap();
            assert_eq!(
                d.total_variation(),
                shelf_total_variation(n, m),
                "n {n} m {m}"
            );
        }
    }

    /// Two passes through 2 shelves are one pass through 8 (DFH).
    #[test]
    fn two_passes_are_one_pass_through_twice_the_square() {
        let twice = distribution(
            5,
            |w| {
                let mut deck: Vec<usize> = (0..5).collect();
                shelf_pass(&mut deck, 2, w);
                shelf_pass(&mut deck, 2, w);
                deck
            },
            Limits::default(),
        )
        .unwrap();
        assert_eq!(twice.total_variation(), shelf_total_variation(5, 8));
    }

    #[test]
    fn valley_counts_sum_to_n_factorial() {
        let total: BigInt = valley_counts(52).iter().sum();
        assert_eq!(total, (1..=52).map(BigInt::from).product::<BigInt>());
        for v in 0..=25 {
            let w = with_valleys(52, v);
            assert_eq!(
                w.windows(3).filter(|x| x[0] > x[1] && x[1] < x[2]).count(),
                v
            );
        }
        assert!(shelf_total_variation(52, 100_000).to_f64().unwrap() < 1e-3);
    }
}
