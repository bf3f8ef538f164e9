//! The exact upper tail of Pearson's statistic for one observed value,
//! without visiting every outcome.
//!
//! `P(X² ≥ x)` for counts of `T` draws into `k` cells is a sum over the
//! C(T+k−1, k−1) compositions of `T` ([`super::tails::multinomial_tail`]
//! visits them all). Two things make it cheaper and keep it exact:
//!
//! * **The last two cells as one binomial.** Given the first k−2 counts and
//!   the `r` draws left, the last two cells split `r` binomially with
//!   `q = p₁/(p₁+p₂)`, and Pearson's statistic is convex in the first of
//!   them, with its minimum at `a = r·q`: the outcomes *below* x form one
//!   interval of `a`, found by bisection, and the tail is the binomial mass
//!   outside it, summed outward from its ends until the terms left cannot
//!   change the sum (they shrink geometrically past the mode).
//! * **Whole branches at once** (the bounding step of Mehta and Patel's
//!   network algorithm, "A network algorithm for performing Fisher's exact
//!   test in r × c contingency tables", 1983): with `r` draws left for
//!   cells expecting `E` in all, the rest of the statistic is at least
//!   `(r − E)²/E` (Cauchy–Schwarz), so when the part so far plus that bound
//!   reaches x every completion is in the tail and the branch adds its
//!   probability in one term.
//!
//! The leaves compute the statistic with the same floating-point operations
//! as [`super::tails::pearson`], so an outcome counts exactly when the
//! reference sum would count it; the bounds are only used with a margin, so
//! a rounding error can only make the sum visit more, never decide an
//! outcome differently. O(C(T+k−2, k−2)·√T) time at most, far less when x
//! is in the tail (the usual case of a small p-value); O(T) memory.

use statrs::function::gamma::ln_gamma;

/// `P(Pearson's X² ≥ x)` for counts of `trials` draws into cells with
/// probabilities `probs` (all positive), where values within a relative
/// 10⁻⁹ below `x` count as reaching it (as in
/// [`super::tails::ExactLaw::p_value`]). Agrees with
/// [`super::tails::multinomial_tail`] of [`super::tails::pearson`] to
/// rounding.
pub fn pearson_tail(probs: &[f64], trials: u64, x: f64) -> f64 {
    let k = probs.len();
    let floor = x - 1e-9 * x.abs().max(1.0);
    if k < 2 || floor <= 0.0 {
        return 1.0;
    }
    let t = trials as f64;
    let mut rest = vec![0.0; k + 1];
    for i in (0..k).rev() {
        rest[i] = rest[i + 1] + probs[i];
    }
    let walk = Walk {
        probs,
        trials: t,
        floor,
        margin: 1e-9 * x.abs().max(1.0),
        ln_fact: (0..=trials).map(|j| ln_gamma(j as f64 + 1.0)).collect(),
        ln_p: probs.iter().map(|p| p.ln()).collect(),
        rest,
    };
    let ln_total = walk.ln_fact[trials as usize];
    walk.branch(0, trials, 0.0, ln_total).min(1.0)
}

/// The fixed inputs of one tail sum.
struct Walk<'a> {
    probs: &'a [f64],
    trials: f64,
    floor: f64,
    margin: f64,
    ln_fact: Vec<f64>,
    ln_p: Vec<f64>,
    /// `rest[i]`: the probability of cells `i..`.
    rest: Vec<f64>,
}

impl Walk<'_> {
    /// Cell `i`'s term of Pearson's statistic, computed as `tails::pearson`
    /// computes it.
    fn term(&self, i: usize, o: u64) -> f64 {
        let p = self.probs[i];
        (o as f64 - p * self.trials).powi(2) / (p * self.trials)
    }

    /// The tail mass of the outcomes whose first `i` cells are fixed, with
    /// `left` draws for cells `i..`, the statistic so far `s`, and
    /// `ln_w` = ln(T!) + Σ (cⱼ ln pⱼ − ln cⱼ!) over the fixed cells.
    fn branch(&self, i: usize, left: u64, s: f64, ln_w: f64) -> f64 {
        let k = self.probs.len();
        if i + 2 == k {
            return self.pair(left, s, ln_w);
        }
        let expected = self.rest[i] * self.trials;
        let least = (left as f64 - expected).powi(2) / expected;
        if s + least >= self.floor + self.margin {
            // Every completion is in the tail: the mass of `left` draws
            // landing anywhere in cells i.. is their multinomial share.
            let ln = ln_w + left as f64 * self.rest[i].ln() - self.ln_fact[left as usize];
            return ln.exp();
        }
        (0..=left)
            .map(|c| {
                let ln_c = c as f64 * self.ln_p[i] - self.ln_fact[c as usize];
                self.branch(i + 1, left - c, s + self.term(i, c), ln_w + ln_c)
            })
            .sum()
    }

    /// The last two cells, splitting `r` draws: the binomial mass of the
    /// splits whose statistic reaches the floor.
    fn pair(&self, r: u64, s: f64, ln_w: f64) -> f64 {
        let k = self.probs.len();
        let (a, b) = (k - 2, k - 1);
        let stat = |x: u64| s + self.term(a, x) + self.term(b, r - x);
        let q = self.probs[a] / self.rest[a];
        let centre = ((r as f64 * q).floor() as u64).min(r);
        let low = if centre < r && stat(centre + 1) < stat(centre) {
            centre + 1
        } else {
            centre
        };
        let ln_pair = ln_w + r as f64 * self.rest[a].ln() - self.ln_fact[r as usize];
        if stat(low) >= self.floor {
            return ln_pair.exp();
        }
        // Below the floor on [lo, hi], at or above it outside (convexity).
        let lo = first(0, low, |x| stat(x) < self.floor);
        let hi = first(low, r + 1, |x| stat(x) >= self.floor) - 1;
        let binomial = Binomial {
            r,
            ln_q: q.ln(),
            ln_rest: (self.probs[b] / self.rest[a]).ln(),
            ln_fact: &self.ln_fact,
        };
        (ln_pair.exp()) * (binomial.below(lo) + binomial.above(hi))
    }
}

/// The first `x` in `[from, to)` with `yes(x)`, `to` if none, for a `yes`
/// that is false then true over the range. O(log(to − from)) calls.
fn first(mut from: u64, mut to: u64, yes: impl Fn(u64) -> bool) -> u64 {
    while from < to {
        let mid = from + (to - from) / 2;
        if yes(mid) {
            to = mid;
        } else {
            from = mid + 1;
        }
    }
    from
}

/// Binomial(r, q) masses, in logs.
struct Binomial<'a> {
    r: u64,
    ln_q: f64,
    ln_rest: f64,
    ln_fact: &'a [f64],
}

impl Binomial<'_> {
    fn pmf(&self, a: u64) -> f64 {
        let (r, f) = (self.r as usize, self.ln_fact);
        let ln = f[r] - f[a as usize] - f[r - a as usize]
            + a as f64 * self.ln_q
            + (self.r - a) as f64 * self.ln_rest;
        ln.exp()
    }

    /// `P(A < lo)`, summed downward from `lo − 1`.
    fn below(&self, lo: u64) -> f64 {
        let terms = (0..lo).rev().map(|a| {
            // pmf(a − 1)/pmf(a): shrinks as a falls.
            let ratio = a as f64 / (self.r - a + 1) as f64 * (self.ln_rest - self.ln_q).exp();
            (self.pmf(a), ratio)
        });
        sum_until_negligible(terms)
    }

    /// `P(A > hi)`, summed upward from `hi + 1`.
    fn above(&self, hi: u64) -> f64 {
        let terms = (hi + 1..=self.r).map(|a| {
            // pmf(a + 1)/pmf(a): shrinks as a grows.
            let ratio = (self.r - a) as f64 / (a + 1) as f64 * (self.ln_q - self.ln_rest).exp();
            (self.pmf(a), ratio)
        });
        sum_until_negligible(terms)
    }
}

/// Sums terms that fall geometrically once their ratio to the next is
/// below one (and keeps falling): stops when everything after, at most
/// `term · ratio/(1 − ratio)`, is below 10⁻¹⁷ of the sum.
fn sum_until_negligible(terms: impl Iterator<Item = (f64, f64)>) -> f64 {
    let mut sum = 0.0;
    for (term, ratio) in terms {
        sum += term;
        if ratio < 1.0 && term * ratio / (1.0 - ratio) <= 1e-17 * sum {
            break;
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::super::tails::{multinomial_tail, pearson};
    use super::*;

    /// Against the sum over every outcome, at every value the statistic
    /// takes (the boundary cases) and between them.
    #[test]
    fn agrees_with_the_sum_over_every_outcome() {
        let laws: [&[f64]; 5] = [
            &[0.5, 0.5],
            &[0.2, 0.8],
            &[0.5, 0.3, 0.2],
            &[0.05, 0.15, 0.3, 0.5],
            &[0.1, 0.2, 0.3, 0.25, 0.15],
        ];
        for probs in laws {
            for trials in [1, 2, 7, 30, 60] {
                if probs.len() == 5 && trials > 30 {
                    continue;
                }
                let law = super::super::tails::ExactLaw::multinomial(probs, trials, |c| {
                    pearson(c, probs, trials)
                })
                .unwrap();
                let values: Vec<f64> = law.outcomes().map(|(v, _)| v).collect();
                for &v in values.iter().step_by(values.len().div_ceil(40)) {
                    for x in [v, v + 1e-3, v * 1.5 + 0.1] {
                        let slow =
                            multinomial_tail(probs, trials, |c| pearson(c, probs, trials), x)
                                .unwrap();
                        let fast = pearson_tail(probs, trials, x);
                        assert!(
                            (fast - slow).abs() <= 1e-12 * slow + 1e-300,
                            "{probs:?}, T = {trials}, x = {x}: {fast} vs {slow}"
                        );
                    }
                }
            }
        }
    }

    /// Tails far below f64::EPSILON keep their relative accuracy (no
    /// `1 − inside` cancellation).
    #[test]
    fn tiny_tails_stay_accurate() {
        let probs = [0.3, 0.3, 0.4];
        for x in [60.0, 90.0, 140.0] {
            let slow = multinomial_tail(&probs, 200, |c| pearson(c, &probs, 200), x).unwrap();
            let fast = pearson_tail(&probs, 200, x);
            assert!(slow < 1e-12 && slow > 0.0, "{slow}");
            assert!((fast - slow).abs() <= 1e-9 * slow, "{x}: {fast} vs {slow}");
        }
    }
}
