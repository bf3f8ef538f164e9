//! What a run could have caught: the power of the chi-square tests.
//!
//! A test that does not reject is no evidence of uniformity unless we know
//! how large a bias it would have seen. For a chi-square goodness-of-fit test
//! with `k` degrees of freedom on `T` observations, a true law that differs
//! from the uniform one gives (for small differences) a *noncentral*
//! chi-square statistic with noncentrality `λ = T · Σ (q − p)² / p`. The test
//! detects the bias with probability `P(χ²(k, λ) > c)`, `c` the critical value
//! at the test's share of the family-wise false-alarm rate. We solve for the
//! `λ` that gives [`POWER`] and turn it into the smallest bias of each kind
//! that every alternative of that size would produce — the worst case, so the
//! figure holds for any bias pattern, not just a convenient one:
//!
//! * `positions` (card × position): for a bias whose largest cell deviation
//!   is `δ = max |P(card i at position j) − 1/n|`, the least noncentrality is
//!   reached by the rank-one pattern `δ·(n/(n−1))²·(e₁ − 1/n)(e₁ − 1/n)ᵀ` (the
//!   projection of one cell onto the doubly-centred matrices), whose
//!   `Σ d² = δ² n²/(n−1)²`. With the statistic scaled by `(n−1)/n` as in
//!   [`super::evaluate`], `λ = T (n−1) Σ d² = T δ² n²/(n−1)`.
//! * every other chi-square test: for a bias of total variation `τ` on the law
//!   the test bins (`τ = ½ Σ |q − p|`), `Σ d²/p ≥ (Σ|d|)²/Σp = 4τ²` (Cauchy–
//!   Schwarz), so `λ ≥ 4 T τ²`.
//!
//! The noncentral chi-square tail is summed exactly as a Poisson mixture of
//! central tails. The approximation that remains is the chi-square one of the
//! tests themselves (good when every bin expects ≥ 5, which the tests
//! require); the simulation test `planted_bias_is_caught_at_the_reported_size`
//! checks the claim against real runs.

use statrs::distribution::{ChiSquared, ContinuousCDF};
use statrs::function::gamma::ln_gamma;

/// The detection probability a "detectable" bias is quoted at.
pub const POWER: f64 = 0.8;

/// `P(X > x)` for `X` central chi-square with `dof` degrees of freedom.
pub fn chi_square_sf(x: f64, dof: f64) -> f64 {
    ChiSquared::new(dof).map_or(f64::NAN, |d| d.sf(x))
}

/// The critical value `c` with `P(χ²(dof) > c) = tail`, by bisection on the
/// survival function (accurate for tails far below `f64::EPSILON`, where
/// `1 − tail` would round to 1). O(100) tail evaluations.
pub fn chi_square_critical(dof: f64, tail: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, dof.max(1.0));
    while chi_square_sf(hi, dof) > tail {
        lo = hi;
        hi *= 2.0;
    }
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if chi_square_sf(mid, dof) > tail {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// `P(X > x)` for `X` noncentral chi-square with `dof` degrees of freedom
/// and noncentrality `lambda`: the Poisson(λ/2) mixture of central tails
/// with `dof + 2j` degrees of freedom, summed over the Poisson weights that
/// matter (λ/2 ± 12 standard deviations). O(√λ + 1) tail evaluations.
pub fn noncentral_chi_square_sf(x: f64, dof: f64, lambda: f64) -> f64 {
    if lambda <= 0.0 {
        return chi_square_sf(x, dof);
    }
    let mean = lambda / 2.0;
    let spread = 12.0 * mean.sqrt() + 12.0;
    let first = (mean - spread).max(0.0).floor() as u64;
    let last = (mean + spread).ceil() as u64;
    let total: f64 = (first..=last)
        .map(|j| {
            let j = j as f64;
            let weight = (-mean + j * mean.ln() - ln_gamma(j + 1.0)).exp();
            weight * chi_square_sf(x, dof + 2.0 * j)
        })
        .sum();
    total.min(1.0)
}

/// The noncentrality a chi-square test with `dof` degrees of freedom, run at
/// false-alarm rate `tail`, needs to reject with probability [`POWER`].
/// Bisection on λ (the power grows with λ).
pub fn noncentrality_for_power(dof: f64, tail: f64) -> f64 {
    let critical = chi_square_critical(dof, tail);
    let power = |lambda: f64| noncentral_chi_square_sf(critical, dof, lambda);
    let (mut lo, mut hi) = (0.0, 1.0);
    while power(hi) < POWER {
        lo = hi;
        hi *= 2.0;
    }
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if power(mid) < POWER {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// How a test's detectable bias is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// The largest `|P(card i at position j) − 1/n|` over all cards and positions.
    CardPosition,
    /// Total variation distance of the law the test bins (all n! orders for
    /// `permutations`; the fixed-point count, cycle count, … for the others).
    TotalVariation,
}

impl Effect {
    /// The effect measure a test's detectable bias is given in.
    pub fn of_test(name: &str) -> Effect {
        if name == "positions" {
            Effect::CardPosition
        } else {
            Effect::TotalVariation
        }
    }

    /// A short description, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            Effect::CardPosition => "max |P(card at position) - 1/n|",
            Effect::TotalVariation => "total variation of the tested law",
        }
    }

    /// The description of the measure on the law a test ran on (its
    /// [`super::TestResult::law`]).
    pub fn describe_on(self, law: &str) -> String {
        match self {
            Effect::CardPosition => self.describe().to_string(),
            Effect::TotalVariation => format!("total variation of {law}"),
        }
    }

    /// The smallest bias of this kind that a test with `dof` degrees of
    /// freedom on `trials` permutations of `n` items catches with probability
    /// ≥ [`POWER`] at false-alarm rate `tail`.
    pub fn detectable(self, n: usize, trials: u64, dof: f64, tail: f64) -> f64 {
        let lambda = noncentrality_for_power(dof, tail);
        self.size_for(n, trials as f64, lambda)
    }

    /// The permutations needed to catch, with probability ≥ [`POWER`], every
    /// bias of this kind of size `size` (rounded up).
    pub fn trials_needed(self, n: usize, size: f64, dof: f64, tail: f64) -> u64 {
        let lambda = noncentrality_for_power(dof, tail);
        // λ is proportional to T: solve λ = T · (λ per permutation).
        let per_trial = self.noncentrality(n, 1.0, size);
        (lambda / per_trial).ceil() as u64
    }

    /// The least noncentrality a bias of this size gives on `trials`
    /// permutations (see the module doc).
    fn noncentrality(self, n: usize, trials: f64, size: f64) -> f64 {
        let n = n as f64;
        match self {
            Effect::CardPosition => trials * size * size * n * n / (n - 1.0),
            Effect::TotalVariation => 4.0 * trials * size * size,
        }
    }

    /// Inverse of [`Effect::noncentrality`] in the size.
    fn size_for(self, n: usize, trials: f64, lambda: f64) -> f64 {
        (lambda / self.noncentrality(n, trials, 1.0)).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn critical_values_match_tables() {
        // χ²(1) at 5 %: 3.841; χ²(10) at 1 %: 23.209 (standard tables).
        assert!((chi_square_critical(1.0, 0.05) - 3.841).abs() < 1e-3);
        assert!((chi_square_critical(10.0, 0.01) - 23.209).abs() < 1e-3);
    }

    #[test]
    fn noncentral_tail_matches_a_known_value() {
        // With 1 dof, χ²(1, λ) is (Z + √λ)²: P(> 3.841) at λ = 7.849 is
        // P(|Z + 2.8016| > 1.95996) = Φ(-0.8416) + Φ(-4.7616) ≈ 0.8000.
        let p = noncentral_chi_square_sf(3.841_458_8, 1.0, 7.848_879);
        assert!((p - 0.8).abs() < 1e-4, "{p}");
        // λ = 0 is the central law.
        assert_eq!(
            noncentral_chi_square_sf(5.0, 3.0, 0.0),
            chi_square_sf(5.0, 3.0)
        );
    }

    #[test]
    fn noncentrality_for_power_inverts_the_tail() {
        let lambda = noncentrality_for_power(49.0, 2e-7);
        let c = chi_square_critical(49.0, 2e-7);
        let p = noncentral_chi_square_sf(c, 49.0, lambda);
        assert!((p - POWER).abs() < 1e-6, "{p}");
    }

    #[test]
    fn trials_needed_and_detectable_are_inverse() {
        let (dof, tail) = (49.0, 1e-7);
        let t = Effect::CardPosition.trials_needed(8, 0.01, dof, tail);
        let d = Effect::CardPosition.detectable(8, t, dof, tail);
        assert!(d <= 0.01 && d > 0.0099, "{d}");
    }
}
