//! A simulated distance with its uncertainty band and its noise floor.
//!
//! The estimate D̂ = ½·Σ|p̂ₘ − pₘ| (p̂ the statistic's observed frequencies
//! over T simulated decks, p its exact law on a uniform deck) differs from
//! the true distance D = ½·Σ|qₘ − pₘ| (q the statistic's law after k
//! shuffles) by at most W = ½·Σ|p̂ₘ − qₘ| (triangle inequality). W moves by at
//! most 1/T when one simulated deck changes, so by McDiarmid's inequality
//! P(W ≥ E[W] + t) ≤ exp(−2Tt²); and E[W] ≤ ½·Σ√(qₘ(1 − qₘ)/T) (Jensen), with
//! q estimated by the midpoint of p̂ and p. The band D̂ ± (E[W] + t), t set
//! for [`BAND_CONFIDENCE`], holds D in about that share of runs (checked by
//! simulation against exact values in the tests).
//!
//! Even a perfectly uniform deck gives D̂ > 0: its expected value, the
//! *noise floor*, is ½·Σ E|p̂ₘ − pₘ| with each T·p̂ₘ binomial, computed exactly
//! by de Moivre's formula E|X − Tp| = 2ν·C(T, ν)·p^ν·(1 − p)^(T−ν+1),
//! ν = ⌊Tp⌋ + 1. A point whose band reaches 0 says nothing about the deck
//! at this number of trials: it is never read as "mixed".

use serde::Serialize;
use statrs::function::gamma::ln_gamma;

/// The confidence of every simulated band.
pub const BAND_CONFIDENCE: f64 = 0.95;

/// A simulated lower bound on the distance after k shuffles, with its band.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// D̂: the distance between the statistic's observed law and its
    /// uniform law (a lower bound on the deck's distance, up to noise).
    pub lower_bound: f64,
    /// Bound on the expected sampling error on a uniform deck:
    /// ½·Σ √(pₘ(1 − pₘ)/T).
    pub error: f64,
    /// The band's low end: the statistic's true distance is at least this
    /// with probability about [`BAND_CONFIDENCE`] (0 when the band reaches 0).
    pub band_low: f64,
    /// The band's high end.
    pub band_high: f64,
    /// E[D̂] for an exactly uniform deck at the same number of trials.
    pub noise_floor: f64,
}

impl Estimate {
    /// The estimate from the statistic's uniform `law` and the `counts` of
    /// its values over `trials` simulated decks. O(len(law)).
    pub fn from_counts(law: &[f64], counts: &[u64], trials: u64) -> Estimate {
        let t = trials.max(1) as f64;
        let freq = |m: usize| counts.get(m).map_or(0.0, |&c| c as f64 / t);
        let lower_bound = law
            .iter()
            .enumerate()
            .map(|(m, p)| (freq(m) - p).abs())
            .sum::<f64>()
            / 2.0;
        let error = 0.5 * law.iter().map(|p| (p * (1.0 - p) / t).sqrt()).sum::<f64>();
        let expected_w = 0.5
            * law
                .iter()
                .enumerate()
                .map(|(m, p)| {
                    let q = (freq(m) + p) / 2.0;
                    (q * (1.0 - q) / t).sqrt()
                })
                .sum::<f64>();
        let slack = ((1.0 / (1.0 - BAND_CONFIDENCE)).ln() / (2.0 * t)).sqrt();
        let half = expected_w + slack;
        Estimate {
            lower_bound,
            error,
            band_low: (lower_bound - half).max(0.0),
            band_high: (lower_bound + half).min(1.0),
            noise_floor: noise_floor(law, trials),
        }
    }

    /// Whether the band stays above 0: the deck is shown to be at least
    /// `band_low` from uniform. When false the point is inside the noise:
    /// this number of trials cannot tell the deck from a uniform one.
    pub fn resolved(&self) -> bool {
        self.band_low > 0.0
    }
}

/// E[D̂] on an exactly uniform deck: ½·Σ E|p̂ₘ − pₘ| (de Moivre).
pub fn noise_floor(law: &[f64], trials: u64) -> f64 {
    let t = trials.max(1);
    0.5 * law.iter().map(|&p| mean_abs_deviation(t, p)).sum::<f64>() / t as f64
}

/// E|X − Tp| for X binomial(T, p), by de Moivre's formula.
fn mean_abs_deviation(t: u64, p: f64) -> f64 {
    if p <= 0.0 || p >= 1.0 {
        return 0.0;
    }
    let tf = t as f64;
    let nu = (tf * p).floor() + 1.0;
    if nu > tf {
        return 0.0;
    }
    let ln_choose = ln_gamma(tf + 1.0) - ln_gamma(nu + 1.0) - ln_gamma(tf - nu + 1.0);
    let ln = (2.0 * nu).ln() + ln_choose + nu * p.ln() + (tf - nu + 1.0) * (1.0 - p).ln();
    ln.exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn de_moivre_matches_direct_sums() {
        // E|X − Tp| summed over the binomial law, for small T.
        for (t, p) in [(1u64, 0.5f64), (10, 0.3), (25, 0.05), (40, 0.9)] {
            let mut direct = 0.0;
            for x in 0..=t {
                let ln_c = ln_gamma(t as f64 + 1.0)
                    - ln_gamma(x as f64 + 1.0)
                    - ln_gamma((t - x) as f64 + 1.0);
                let prob = (ln_c + x as f64 * p.ln() + (t - x) as f64 * (1.0 - p).ln()).exp();
                direct += prob * (x as f64 - t as f64 * p).abs();
            }
            let formula = mean_abs_deviation(t, p);
            assert!(
                (formula - direct).abs() < 1e-9,
                "T={t} p={p}: {formula} vs {direct}"
            );
        }
    }

    #[test]
    fn the_floor_shrinks_like_one_over_root_t() {
        let law = [0.25, 0.25, 0.5];
        let (a, b) = (noise_floor(&law, 1000), noise_floor(&law, 4000));
        assert!((a / b - 2.0).abs() < 0.05, "{a} {b}");
    }
}
