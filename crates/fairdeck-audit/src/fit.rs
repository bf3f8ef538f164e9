//! Which named machine a stream of decks behaves like: each family fitted
//! by maximum likelihood on its sufficient statistic, with a likelihood-
//! ratio confidence interval.
//!
//! * GSR riffles — k riffles are an a-shuffle with a = 2ᵏ, under which an
//!   order with r rising sequences has probability C(a + n − r, n)/aⁿ
//!   (Bayer and Diaconis 1992). The likelihood is that of the rising-sequence
//!   counts; k is fitted as a real number (the formula is a polynomial in a,
//!   exact at a = 2ᵏ), over a ≥ the most rising sequences seen, k ≤ 60.
//! * One pass of an m-shelf machine — the valley counts' exact law
//!   ([`crate::mix::shelf`]), m = 1..=[`MAX_SHELVES`] (two passes through m
//!   are one through 2m²).
//!
//! The estimate assumes the decks are independent and all from one member
//! of the family; the 95 % interval is the set of parameters whose
//! log-likelihood is within 1.92 of the best (Wilks), an approximation. A
//! family is reported only when it fits better than a uniform shuffle by a
//! likelihood ratio beyond the chi-square point at 10⁻⁶ (2Δℓ > 23.9);
//! otherwise "no named machine fits".

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use crate::mix::shelf;
use crate::stats::Tally;

/// Most shelves fitted.
pub const MAX_SHELVES: u64 = 2000;

/// 2Δℓ beyond which a family fits better than uniform (chi-square, 1
/// degree of freedom, at 10⁻⁶).
const BETTER_THAN_UNIFORM: f64 = 23.9;

/// Half the chi-square point of a 95 % interval (3.84 / 2).
const WITHIN: f64 = 1.92;

/// A fitted member of a family.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// `riffle` (the value is the number of riffles) or `shelf` (the
    /// number of shelves of one pass).
    pub family: &'static str,
    /// The maximum-likelihood value.
    pub value: f64,
    /// The 95 % likelihood interval.
    pub interval: (f64, f64),
    /// Twice the log-likelihood gained over a uniform shuffle.
    pub gain: f64,
}

impl Fit {
    /// "behaves like 9.2 GSR riffles [8.8, 9.7]".
    pub fn sentence(&self) -> String {
        let (lo, hi) = self.interval;
        match self.family {
            "riffle" => format!(
                "behaves like {:.1} GSR riffles [{lo:.1}, {hi:.1}]",
                self.value
            ),
            _ => format!(
                "behaves like one pass of a {:.0}-shelf machine [{lo:.0}, {hi:.0}]",
                self.value
            ),
        }
    }
}

/// The best-fitting family, or `None` when no family fits better than a
/// uniform shuffle ("no named machine fits"). O(n³ big-integer operations
/// + MAX_SHELVES · n²).
pub fn best(t: &Tally) -> Option<Fit> {
    [riffles(t), shelves(t)]
        .into_iter()
        .flatten()
        .filter(|f| f.gain > BETTER_THAN_UNIFORM)
        .max_by(|a, b| a.gain.total_cmp(&b.gain))
}

/// The value at the best of `points` (value, log-likelihood) and the
/// range within [`WITHIN`] of it.
fn summit(points: &[(f64, f64)], uniform: f64, family: &'static str) -> Option<Fit> {
    let &(value, top) = points.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let near = points.iter().filter(|p| top - p.1 <= WITHIN);
    let lo = near.clone().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let hi = near.map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    Some(Fit {
        family,
        value,
        interval: (lo, hi),
        gain: 2.0 * (top - uniform),
    })
}

/// GSR riffles fitted on the rising-sequence counts (module doc).
pub fn riffles(t: &Tally) -> Option<Fit> {
    let n = t.n;
    let seen: Vec<(usize, f64)> = (1..=n)
        .filter(|&r| t.rising_sequences[r] > 0)
        .map(|r| (r, t.rising_sequences[r] as f64))
        .collect();
    let r_max = seen.last()?.0 as f64;
    // ln P(order) up to the constant −ln n!: Σ_j ln(a − r + 1 + j) − n ln a.
    let log_likelihood = |a: f64| {
        seen.iter()
            .map(|&(r, c)| {
                let s: f64 = (0..n).map(|j| (a - r as f64 + 1.0 + j as f64).ln()).sum();
                c * (s - n as f64 * a.ln())
            })
            .sum::<f64>()
    };
    // Uniform: every order 1/n!, i.e. 0 once −ln n! is dropped.
    let k_min = r_max.max(1.0).log2();
    let points: Vec<(f64, f64)> = (0..=((60.0 - k_min) * 100.0) as usize)
        .map(|i| {
            let k = k_min + i as f64 / 100.0;
            (k, log_likelihood(k.exp2()))
        })
        .filter(|p| p.1.is_finite())
        .collect();
    summit(&points, 0.0, "riffle")
}

/// One pass of an m-shelf machine fitted on the valley counts.
pub fn shelves(t: &Tally) -> Option<Fit> {
    let n = t.n;
    if n < 3 {
        return None;
    }
    let law = shelf::ValleyLaws::new(n);
    let counts: Vec<(usize, f64)> = (0..t.valleys.len())
        .filter(|&v| t.valleys[v] > 0)
        .map(|v| (v, t.valleys[v] as f64))
        .collect();
    // ln P(order with v valleys) = ln ways_v(m) − n ln 2m; uniform: −ln n!.
    let ln_orders: f64 = (1..=n).map(|k| (k as f64).ln()).sum();
    let points: Vec<(f64, f64)> = (1..=MAX_SHELVES)
        .map(|m| {
            let l: f64 = counts
                .iter()
                .map(|&(v, c)| c * (ln_big(&law.ways(v, m)) - n as f64 * ((2 * m) as f64).ln()))
                .sum();
            (m as f64, l + t.trials as f64 * ln_orders)
        })
        .filter(|p| p.1.is_finite())
        .collect();
    summit(&points, 0.0, "shelf")
}

/// ln x of a big integer (−∞ for 0).
fn ln_big(x: &BigInt) -> f64 {
    let bits = x.bits();
    if bits <= 1000 {
        return x.to_f64().map_or(f64::NEG_INFINITY, f64::ln);
    }
    let shift = bits - 1000;
    let top: BigInt = x >> shift;
    top.to_f64().map_or(f64::NEG_INFINITY, f64::ln) + shift as f64 * std::f64::consts::LN_2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mix::Model;
    use crate::stats::run::shuffles;
    use fairdeck::rng::{Generator, Seed};

    fn tally(
        seed: &str,
        trials: u64,
        f: impl Fn(&mut Vec<usize>, &mut fairdeck::dice::RngDice<fairdeck::rng::AnyRng>) + Sync,
    ) -> Tally {
        shuffles(
            52,
            trials,
            &Seed::from_text(seed),
            Generator::ChaCha20,
            |n, d| {
                let mut deck: Vec<usize> = (0..n).collect();
                f(&mut deck, d);
                deck
            },
            &|_| {},
        )
        .unwrap()
    }

    /// The estimates land within a riffle or two shelves of the truth, and
    /// uniform decks fit no machine. Seeded runs.
    #[test]
    fn estimates_land_near_the_truth() {
        let t = tally("fit-riffles", 20_000, |deck, d| {
            (0..8).for_each(|_| Model::Riffle.shuffle(deck, d))
        });
        let f = best(&t).unwrap();
        eprintln!("8 riffles: {}", f.sentence());
        assert_eq!(f.family, "riffle");
        assert!(
            (f.value - 8.0).abs() <= 1.0 && f.interval.0 <= 8.0 && 8.0 <= f.interval.1,
            "{f:?}"
        );
        let t = tally("fit-shelves", 50, |deck, d| shelf::shelf_pass(deck, 10, d));
        let f = best(&t).unwrap();
        eprintln!("one pass of 10 shelves: {}", f.sentence());
        assert_eq!(f.family, "shelf");
        assert!((f.value - 10.0).abs() <= 2.0, "{f:?}");
        let t = tally("fit-uniform", 20_000, |deck, d| {
            fairdeck::shuffle::shuffle(deck, d)
        });
        assert_eq!(best(&t), None);
    }
}
