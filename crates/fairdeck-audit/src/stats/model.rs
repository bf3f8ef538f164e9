//! Model tests: the statistic a named shuffling machine leaves its mark on,
//! summed over the decks and read against its exact law under uniform
//! shuffling, on the side that machine pushes it to.
//!
//! * `valleys-low` — too few valleys. Diaconis, Fulman and Holmes (2013),
//!   “Analysis of casino shelf shuffling machines”: the law of an m-shelf
//!   machine's deck depends only on the number of valleys: the machine
//!   deals from the bottom of the deck, so each shelf holds a rising then a
//!   falling run and one pass leaves at most m − 1 valleys, where a uniform
//!   deck of 52 has 50/3 ≈ 16.7 on average. (A machine dealing from the top
//!   mirrors the shelves and its law depends on the peaks; peaks and valleys
//!   alternate, so a deck's counts differ by at most one and these tests
//!   see both.)
//! * `valleys` — the same count, two-sided (a machine that makes too many).
//! * `rising-low` — too few rising sequences: a riffle shuffle's law depends
//!   only on them (Bayer and Diaconis, 1992), and k riffles leave at most 2ᵏ.
//! * `guessing` — too many cards guessed right by a player following the
//!   runs ([`super::guess`]): DFH's card-guessing game.
//!
//! Each statistic is the sum S over T decks of one deck's count X, whose law
//! under uniform shuffling is exact ([`super::laws`]). The tail of S is
//! * exact — the T-fold convolution of X's law — where that takes at most
//!   [`MAX_CONVOLUTION`] steps (T ≤ 170 at 52 cards for valleys);
//! * otherwise Chernoff's bound `P(S ≤ s) ≤ min over θ ≤ 0 of E[e^{θX}]^T·e^{−θs}`
//!   (and its mirror for the upper tail), which holds for every T and s: the
//!   p-value is never below the true tail, so the false-alarm rate stays
//!   within the test's share. It costs power: at a tail of 10⁻⁷ the bound
//!   asks for about z = 5.9 normal deviations where the exact tail needs 5.3,
//!   some 20 % more decks.
//!
//! A two-sided p-value is twice the smaller one-sided one (at most 1).

use super::{Method, TestResult};

/// Most steps (multiply-adds) spent convolving a law for exact tails.
pub const MAX_CONVOLUTION: f64 = 2e7;

/// Which tail of S speaks against uniformity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Too small.
    Low,
    /// Too large.
    High,
    /// Either.
    Both,
}

/// A planned model test: one deck's law and the tails of its sum.
#[derive(Debug, Clone)]
pub(crate) struct SumTest {
    pub name: &'static str,
    /// ln P(X = k) for each value k (−∞ where 0).
    ln_law: Vec<f64>,
    side: Side,
    trials: u64,
    /// The least and largest values of one deck's count.
    support: (usize, usize),
    /// `P(S ≤ T·least + i)` and `P(S ≥ T·least + i)`, where kept.
    exact: Option<(Vec<f64>, Vec<f64>)>,
    describe: String,
    /// Why the test does not run, if it does not.
    skip: Option<String>,
}

impl SumTest {
    /// Plans the test of the sum over `trials` decks of a count with the
    /// law `law` (index = value), described as `what` ("valleys"), at
    /// per-test level `share`: a test whose most extreme outcome has a
    /// p-value of at least `share` cannot reject, so it does not run (nor
    /// take a share of α). O(T²·K²) time for K values where exact, O(K)
    /// otherwise.
    pub fn plan(
        name: &'static str,
        what: &str,
        law: &[f64],
        (side, trials): (Side, u64),
        share: f64,
    ) -> Self {
        let least = law.iter().position(|&p| p > 0.0).unwrap_or(0);
        let largest = law.iter().rposition(|&p| p > 0.0).unwrap_or(0);
        let mean: f64 = law.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        let width = (largest - least) as f64;
        let skip = match () {
            _ if largest == least => Some("one value only at this n".to_string()),
            _ if trials == 0 => Some("no decks".to_string()),
            _ => None,
        };
        // The smallest p-value: every deck at the least (or largest) value.
        let (ln_low, ln_high) = (law[least].ln(), law[largest].ln());
        let extreme = trials as f64
            * match side {
                Side::Low => ln_low,
                Side::High => ln_high,
                Side::Both => ln_low.min(ln_high) + std::f64::consts::LN_2 / trials as f64,
            };
        let skip = skip.or_else(|| {
            (extreme.exp() >= share).then(|| {
                format!(
                    "cannot reject at {trials} decks (the smallest p-value is {:.1e})",
                    extreme.exp()
                )
            })
        });
        let steps = (trials as f64).powi(2) * (width + 1.0).powi(2) / 2.0;
        let exact = (skip.is_none() && steps <= MAX_CONVOLUTION)
            .then(|| exact_tails(&law[least..=largest], trials));
        let side_text = match side {
            Side::Low => "fewer than",
            Side::High => "more than",
            Side::Both => "away from",
        };
        Self {
            name,
            ln_law: law.iter().map(|p| p.ln()).collect(),
            side,
            trials,
            support: (least, largest),
            exact,
            describe: format!("{what} per deck, {side_text} uniform's {mean:.2}"),
            skip,
        }
    }

    /// Runs the test on the raw histogram `observed` (index = value).
    pub fn run(&self, observed: &[u64]) -> Result<TestResult, String> {
        if let Some(why) = &self.skip {
            return Err(why.clone());
        }
        let sum: u64 = observed
            .iter()
            .enumerate()
            .map(|(k, &o)| k as u64 * o)
            .sum();
        let p_value = match self.side {
            Side::Low => self.tail(sum, true),
            Side::High => self.tail(sum, false),
            Side::Both => (2.0 * self.tail(sum, true).min(self.tail(sum, false))).min(1.0),
        };
        Ok(TestResult {
            name: self.name,
            statistic: sum as f64 / self.trials as f64,
            dof: None,
            p_value,
            method: match self.exact {
                Some(_) => Method::Exact,
                None => Method::Chernoff,
            },
            law: self.describe.clone(),
        })
    }

    /// `P(S ≤ sum)` (`lower`) or `P(S ≥ sum)`, exact or bounded.
    fn tail(&self, sum: u64, lower: bool) -> f64 {
        let (least, largest) = (self.support.0 as u64, self.support.1 as u64);
        let (lo, hi) = (self.trials * least, self.trials * largest);
        if sum < lo || sum > hi {
            // Impossible for a uniform deck (a tally of other decks).
            return f64::from(u8::from(if lower { sum > hi } else { sum < lo }));
        }
        if let Some((below, above)) = &self.exact {
            let i = (sum - lo) as usize;
            return if lower { below[i] } else { above[i] };
        }
        chernoff(
            &self.ln_law,
            self.trials,
            sum as f64 / self.trials as f64,
            lower,
        )
    }
}

/// The exact `(P(S ≤ i), P(S ≥ i))` of the sum of `trials` copies of a
/// count with law `law` on `0..K` (shifted to start at 0).
fn exact_tails(law: &[f64], trials: u64) -> (Vec<f64>, Vec<f64>) {
    let mut sum = vec![1.0];
    for _ in 0..trials {
        let mut next = vec![0.0; sum.len() + law.len() - 1];
        for (i, &a) in sum.iter().enumerate() {
            for (j, &b) in law.iter().enumerate() {
                next[i + j] += a * b;
            }
        }
        sum = next;
    }
    let mut below = sum.clone();
    for i in 1..below.len() {
        below[i] = (below[i] + below[i - 1]).min(1.0);
    }
    let mut above = sum;
    for i in (0..above.len().saturating_sub(1)).rev() {
        above[i] = (above[i] + above[i + 1]).min(1.0);
    }
    (below, above)
}

/// Chernoff's bound on `P(S ≤ T·x)` (`lower`) or `P(S ≥ T·x)` for the sum
/// S of `trials` independent counts with law `exp(ln_law)`:
/// `exp(T·(ln E[e^{θX}] − θx))` at the θ whose tilted mean is x (θ ≤ 0 for
/// the lower tail, ≥ 0 for the upper). Any θ of the right sign gives a bound,
/// so an inexact root costs tightness, never validity. 1 when x is on the
/// other side of the mean. O(K) per step, 100 bisection steps.
pub fn chernoff(ln_law: &[f64], trials: u64, x: f64, lower: bool) -> f64 {
    let law = ln_law;
    let mean = tilted(law, 0.0).1;
    if (lower && x >= mean) || (!lower && x <= mean) {
        return 1.0;
    }
    let sign = if lower { -1.0 } else { 1.0 };
    // Find θ of the right sign whose tilted mean passes x, then bisect.
    let mut far = sign;
    for _ in 0..64 {
        let m = tilted(law, far).1;
        if (lower && m <= x) || (!lower && m >= x) {
            break;
        }
        far *= 2.0;
    }
    let (mut near, mut far) = (0.0, far);
    for _ in 0..100 {
        let mid = 0.5 * (near + far);
        let m = tilted(law, mid).1;
        if (lower && m > x) || (!lower && m < x) {
            near = mid;
        } else {
            far = mid;
        }
    }
    let bound = |theta: f64| (trials as f64 * (tilted(law, theta).0 - theta * x)).exp();
    bound(near).min(bound(far)).min(1.0)
}

/// `(ln E[e^{θX}], E_θ[X])` for X with law `exp(ln_law)`, stable for
/// large |θ|.
fn tilted(ln_law: &[f64], theta: f64) -> (f64, f64) {
    let exponent = |k: usize| ln_law[k] + theta * k as f64;
    let top = (0..ln_law.len())
        .map(exponent)
        .fold(f64::NEG_INFINITY, f64::max);
    let (mut total, mut first) = (0.0, 0.0);
    for k in 0..ln_law.len() {
        let w = (exponent(k) - top).exp();
        total += w;
        first += w * k as f64;
    }
    (top + total.ln(), first / total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::laws;

    /// The bound is never below the exact tail (it must not be: the
    /// false-alarm rate rests on it), and within a small factor of it.
    #[test]
    fn chernoff_bounds_the_exact_tails_of_valleys() {
        let law = laws::valleys(10);
        let ln_law: Vec<f64> = law.iter().map(|p| p.ln()).collect();
        let trials = 300;
        let (below, above) = exact_tails(&law, trials);
        for s in (0..below.len()).step_by(7) {
            let x = s as f64 / trials as f64;
            let (lo, hi) = (
                chernoff(&law, trials, x, true),
                chernoff(&law, trials, x, false),
            );
            assert!(
                lo >= below[s] * (1.0 - 1e-9),
                "s = {s}: {lo} < {}",
                below[s]
            );
            assert!(
                hi >= above[s] * (1.0 - 1e-9),
                "s = {s}: {hi} < {}",
                above[s]
            );
        }
        // Tightness where it matters: at an exact tail near 10⁻⁸ the bound
        // is within a factor 100.
        let s = below.iter().position(|&p| p > 1e-8).unwrap();
        let lo = chernoff(&ln_law, trials, s as f64 / trials as f64, true);
        assert!(lo < 100.0 * below[s], "{lo} vs {}", below[s]);
    }

    #[test]
    fn exact_tails_of_a_coin() {
        let (below, above) = exact_tails(&[0.5, 0.5], 4);
        assert_eq!(
            below,
            [1.0 / 16.0, 5.0 / 16.0, 11.0 / 16.0, 15.0 / 16.0, 1.0]
        );
        assert_eq!(
            above,
            [1.0, 15.0 / 16.0, 11.0 / 16.0, 5.0 / 16.0, 1.0 / 16.0]
        );
    }

    /// Negative control for the test itself: decks with one valley each
    /// (where a uniform deck of 52 has 16.7) are far in the low tail, and a
    /// uniform-looking histogram is not.
    #[test]
    fn too_few_valleys_are_caught_and_the_mean_is_not() {
        let law = laws::valleys(52);
        let t = SumTest::plan("valleys-low", "valleys", &law, (Side::Low, 2), 1e-7);
        let mut few = vec![0u64; law.len()];
        few[1] = 2;
        let r = t.run(&few).unwrap();
        assert!(r.p_value < 1e-12, "{r:?}");
        let mut typical = vec![0u64; law.len()];
        typical[17] = 2;
        assert!(t.run(&typical).unwrap().p_value > 0.3);
        let both = SumTest::plan("valleys", "valleys", &law, (Side::Both, 2), 1e-7);
        assert!(both.run(&few).unwrap().p_value < 1e-12);
        let two = SumTest::plan("v", "v", &laws::valleys(2), (Side::Low, 9), 1e-7);
        assert!(two.run(&[9]).is_err());
        // Three decks of 3 cards cannot show too few valleys at 10⁻⁷.
        let few = SumTest::plan("v", "v", &laws::valleys(3), (Side::Low, 3), 1e-7);
        assert!(few.run(&[3, 0]).unwrap_err().contains("cannot reject"));
    }
}
