//! The named machines' exact laws on their sufficient statistics, as one
//! deck's log-likelihood ratio against a uniform shuffle:
//! `ln(n! · P_θ(order))`, a function of one count of the order. These are
//! the Neyman–Pearson statistics of [`super::likelihood`].
//!
//! * GSR riffles (Bayer and Diaconis 1992, “Trailing the dovetail shuffle
//!   to its lair”): after k riffles an order with r rising sequences has
//!   probability `C(2ᵏ + n − r, n) / 2^{kn}`, so
//!   `ln(n! P) = Σ_{j=1..n} ln(2ᵏ − r + j) − n·k·ln 2` (−∞ for r > 2ᵏ).
//! * Shelf machines, one pass through m shelves with a card going on top
//!   with probability p (Diaconis, Fulman and Holmes 2013, “Analysis of
//!   casino shelf shuffling machines”, for p = ½; the general p derived
//!   here). A shelf read top to bottom rises to its first card, then falls;
//!   its rising steps were cards put on top (p each), its falling steps cards
//!   put below (1 − p each), its first card either way. An order w with a
//!   ascents and d descents cut into k unimodal pieces on k of the m shelves
//!   (C(m, k) ways) therefore has weight `m⁻ⁿ pᵃ (1−p)ᵈ · xᴿ yᶠ`, x = 1/p,
//!   y = 1/(1 − p), for R rising and F falling steps cut. A piece is
//!   unimodal exactly when it holds no valley, and a valley's two steps (a
//!   fall then a rise) belong to no other valley, so the cuts are: at least
//!   one of each valley's two steps, and any set of the a − v other rises
//!   and d − v other falls. Summing,
//!   `P(w) = m⁻ⁿ pᵃ (1−p)ᵈ Σ_c [z^c] G(z) · C(m, c + 1)`,
//!   `G(z) = (xz + yz + xyz²)ᵛ (1 + xz)^{a−v} (1 + yz)^{d−v}`:
//!   a function of (descents, valleys), and of the valleys alone at p = ½
//!   (DFH's theorem). Two passes through m shelves are one through 2m²
//!   (DFH), checked in [`crate::mix::shelf`].
//! * Top-to-random after k moves: the cards never moved are the bottom ones,
//!   in their order; the inverse walk (random-to-top) has after k moves a
//!   uniformly ordered top of its j distinct moved cards, so (Diaconis, Fill
//!   and Pitman 1992, “Analysis of top to random shuffles”) an order whose
//!   bottom run is m has `n! P = Σ_{j ≥ n − m} P(D_k = j) · (n − j)!`, D_k
//!   the number of distinct cards among k uniform draws from n.
//! * Overhand shuffles (Pemantle 1989): no sufficient statistic of the
//!   k-shuffle law is known, so no family test is built for them.
//!
//! Every table satisfies `Σ_x P_uniform(x) · e^{llr(x)} = 1` (checked in the
//! tests): the likelihood ratio has mean 1 under uniform shuffling, which is
//! what [`super::likelihood`]'s p-values rest on.

use statrs::function::gamma::ln_gamma;

use super::Tally;

/// Most cards per deck the family tests run for (the tables cost O(n³)).
pub const MAX_FAMILY_N: usize = 256;

/// The count of an order a family's law depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Statistic {
    /// Rising sequences (1 + descents of the inverse), 0..=n.
    RisingSequences,
    /// Valleys, 0..=n/2.
    Valleys,
    /// Descents and valleys, at `d · (n/2 + 1) + v` (n ≤ 64).
    DescentsValleys,
    /// The bottom run ([`super::tally::bottom_run`]), 0..=n.
    BottomRun,
}

impl Statistic {
    /// The tally's histogram of this count.
    pub fn counts(self, t: &Tally) -> &[u64] {
        match self {
            Statistic::RisingSequences => &t.rising_sequences,
            Statistic::Valleys => &t.valleys,
            Statistic::DescentsValleys => &t.descents_valleys,
            Statistic::BottomRun => &t.bottom_runs,
        }
    }

    /// The count's name in reports.
    pub fn label(self) -> &'static str {
        match self {
            Statistic::RisingSequences => "rising sequences",
            Statistic::Valleys => "valleys",
            Statistic::DescentsValleys => "descents and valleys",
            Statistic::BottomRun => "the bottom run",
        }
    }
}

/// One machine of a family: its name and its log-likelihood ratio per
/// value of the statistic (−∞ where the machine cannot make that value).
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// "9 riffles", "10 shelves", "10 shelves, p = 0.7", "52 moves".
    pub label: String,
    /// The parameter: riffles, shelves (of one pass) or moves.
    pub value: f64,
    /// `ln(n! · P(order))` by the statistic's index.
    pub llr: Vec<f64>,
}

/// A family of machines and the statistic their laws depend on.
#[derive(Debug, Clone, PartialEq)]
pub struct Family {
    /// The test's name (`riffles-lr`).
    pub name: &'static str,
    /// What the machines are ("GSR riffles").
    pub machine: &'static str,
    /// The count read.
    pub statistic: Statistic,
    /// The machines, the alternatives of the test.
    pub members: Vec<Member>,
}

/// k = 1..=16 GSR riffles of n cards. O(16 n²).
pub fn riffles(n: usize) -> Family {
    let members = (1..=16u32)
        .map(|k| Member {
            label: format!("{k} riffles"),
            value: f64::from(k),
            llr: riffle_llr(n, f64::from(k).exp2()),
        })
        .collect();
    Family {
        name: "riffles-lr",
        machine: "GSR riffles",
        statistic: Statistic::RisingSequences,
        members,
    }
}

/// `ln(n! · P(order))` by rising sequences (0..=n) after an a-shuffle
/// (Bayer and Diaconis: a cut into a packets riffled together; k GSR
/// riffles are a 2ᵏ-shuffle), a ≥ 1 whole. O(n²).
pub fn riffle_llr(n: usize, a: f64) -> Vec<f64> {
    (0..=n)
        .map(|r| match r {
            0 => f64::NEG_INFINITY,
            _ if r as f64 > a => f64::NEG_INFINITY,
            _ => {
                let s: f64 = (1..=n).map(|j| (a - r as f64 + j as f64).ln()).sum();
                s - n as f64 * a.ln()
            }
        })
        .collect()
}

/// `ln(n! · P(order))` by valleys (0..=n/2) after one pass through
/// `shelves` shelves of a fair shelf machine. O(n³).
pub fn shelf_llr(n: usize, shelves: u64) -> Vec<f64> {
    fair_shelf_llr(n, shelves, &fair_cut_counts(n))
}

/// An order with v valleys and n − 1 − v ascents (its law depends on v
/// alone at p = ½); none has more than (n − 1)/2 valleys.
fn fair_ascents(n: usize, v: usize) -> Option<usize> {
    n.saturating_sub(1).checked_sub(v).filter(|&a| v <= a)
}

fn fair_cut_counts(n: usize) -> Vec<Option<Vec<f64>>> {
    (0..=n / 2)
        .map(|v| fair_ascents(n, v).map(|a| cut_counts(a, v, v, 0.5)))
        .collect()
}

fn fair_shelf_llr(n: usize, shelves: u64, counts: &[Option<Vec<f64>>]) -> Vec<f64> {
    (0..=n / 2)
        .map(|v| match (&counts[v], fair_ascents(n, v)) {
            (Some(c), Some(a)) => ln_order(n, shelves, (a, v), 0.5, c),
            _ => f64::NEG_INFINITY,
        })
        .collect()
}

/// One pass (`passes` = 1) through m = 2..=20 shelves, or two passes
/// through each (one pass through 2m²), of a fair (p = ½) shelf machine.
/// O(n³).
pub fn shelves(n: usize, passes: u32) -> Family {
    let counts = fair_cut_counts(n);
    let members = (2..=20u64)
        .map(|m| {
            let shelves = if passes == 2 { 2 * m * m } else { m };
            let llr = fair_shelf_llr(n, shelves, &counts);
            Member {
                label: match passes {
                    2 => format!("2 passes of {m} shelves"),
                    _ => format!("{m} shelves"),
                },
                value: m as f64,
                llr,
            }
        })
        .collect();
    Family {
        name: if passes == 2 {
            "shelf-twice-lr"
        } else {
            "shelf-lr"
        },
        machine: if passes == 2 {
            "two-pass shelf machines"
        } else {
            "one-pass shelf machines"
        },
        statistic: Statistic::Valleys,
        members,
    }
}

/// The shelves of the biased family.
const BIASED_SHELVES: [u64; 8] = [2, 4, 6, 8, 10, 12, 16, 20];

/// The chances of going on top in the biased family (p ≠ ½).
const BIASED_P: [f64; 6] = [0.2, 0.3, 0.4, 0.6, 0.7, 0.8];

/// One pass of a shelf machine that puts a card on top with probability
/// p ≠ ½ (0.2, 0.3, 0.4, 0.6, 0.7, 0.8), m = 2 … 20 shelves (8 of them).
/// O(n⁴) for n ≤ 64.
pub fn biased_shelves(n: usize) -> Family {
    let mut members = Vec::new();
    for p in BIASED_P {
        let counts = joint_cut_counts(n, p);
        for m in BIASED_SHELVES {
            members.push(Member {
                label: format!("{m} shelves, p = {p}"),
                value: m as f64,
                llr: biased_llr(n, m, p, &counts),
            });
        }
    }
    Family {
        name: "shelf-biased-lr",
        machine: "biased shelf machines",
        statistic: Statistic::DescentsValleys,
        members,
    }
}

/// The cut counts ([`cut_counts`]) of every possible (descents, valleys)
/// pair at `d · (n/2 + 1) + v`, at top-chance p. O(n⁴).
pub(crate) fn joint_cut_counts(n: usize, p: f64) -> Vec<Option<Vec<f64>>> {
    let width = n / 2 + 1;
    (0..n.max(1) * width)
        .map(|i| {
            let (d, v) = (i / width, i % width);
            let a = n.saturating_sub(1).checked_sub(d)?;
            (v <= a && v <= d).then(|| cut_counts(a, d, v, p))
        })
        .collect()
}

/// `ln(n! P)` of one pass through m shelves at top-chance p, by
/// (descents, valleys) index, from [`joint_cut_counts`]. O(n³).
pub(crate) fn biased_llr(n: usize, m: u64, p: f64, counts: &[Option<Vec<f64>>]) -> Vec<f64> {
    let width = n / 2 + 1;
    counts
        .iter()
        .enumerate()
        .map(|(i, c)| match c {
            Some(c) => {
                let d = i / width;
                ln_order(n, m, (n - 1 - d, d), p, c)
            }
            None => f64::NEG_INFINITY,
        })
        .collect()
}

/// `ln(n! P)` of one order of n cards with d descents and v valleys after
/// one pass through m shelves at top-chance p, for each m of `shelves`
/// (−∞ for a pair no order has). O(n² + |shelves|·n).
pub(crate) fn biased_ln_orders(
    n: usize,
    (d, v): (usize, usize),
    p: f64,
    shelves: &[u64],
) -> Vec<f64> {
    let a = n.saturating_sub(1).checked_sub(d);
    match a.filter(|&a| v <= a && v <= d) {
        Some(a) => {
            let counts = cut_counts(a, d, v, p);
            shelves
                .iter()
                .map(|&m| ln_order(n, m, (a, d), p, &counts))
                .collect()
        }
        None => vec![f64::NEG_INFINITY; shelves.len()],
    }
}

/// `ln(n! P(w))` for an order with `a` ascents and `d` descents after one
/// pass through m shelves at top-chance p, from the cut counts
/// `ln [z^c] G` ([`cut_counts`]).
fn ln_order(n: usize, m: u64, (a, d): (usize, usize), p: f64, ln_g: &[f64]) -> f64 {
    let mf = m as f64;
    let ln_m_factorial = ln_gamma(mf + 1.0);
    let ln_choose = |k: usize| -> f64 {
        match k as u64 <= m {
            true => ln_m_factorial - ln_gamma(k as f64 + 1.0) - ln_gamma(mf - k as f64 + 1.0),
            false => f64::NEG_INFINITY,
        }
    };
    let terms: Vec<f64> = ln_g
        .iter()
        .enumerate()
        .map(|(c, g)| g + ln_choose(c + 1))
        .collect();
    ln_gamma(n as f64 + 1.0) - n as f64 * mf.ln()
        + a as f64 * p.ln()
        + d as f64 * (1.0 - p).ln()
        + log_sum_exp(&terms)
}

/// `ln [z^c] G(z)`, c = 0.., for `G = (xz + yz + xyz²)ᵛ (1 + xz)^{a−v}
/// (1 + yz)^{d−v}`, x = 1/p, y = 1/(1 − p) (module doc). Rescaled after
/// each factor so that no coefficient overflows. O((a + d)²).
fn cut_counts(a: usize, d: usize, v: usize, p: f64) -> Vec<f64> {
    let (x, y) = (1.0 / p, 1.0 / (1.0 - p));
    let mut poly = vec![1.0];
    let mut scale = 0.0;
    let factors = std::iter::repeat_n(vec![0.0, x + y, x * y], v)
        .chain(std::iter::repeat_n(vec![1.0, x], a - v))
        .chain(std::iter::repeat_n(vec![1.0, y], d - v));
    for f in factors {
        let mut next = vec![0.0; poly.len() + f.len() - 1];
        for (i, &c) in poly.iter().enumerate() {
            for (j, &g) in f.iter().enumerate() {
                next[i + j] += c * g;
            }
        }
        let top = next.iter().copied().fold(0.0, f64::max);
        scale += top.ln();
        poly = next.into_iter().map(|c| c / top).collect();
    }
    poly.into_iter().map(|c| c.ln() + scale).collect()
}

/// Top-to-random after k = ⌈c·n⌉ moves, c in 0.25 … 6. O(k n) each.
pub fn top_to_random(n: usize) -> Family {
    const TIMES_N: [f64; 11] = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0];
    let members = TIMES_N
        .iter()
        .map(|c| {
            let k = (c * n as f64).ceil() as usize;
            Member {
                label: format!("{k} moves"),
                value: k as f64,
                llr: top_to_random_llr(n, k),
            }
        })
        .collect();
    Family {
        name: "top-to-random-lr",
        machine: "top-to-random shuffles",
        statistic: Statistic::BottomRun,
        members,
    }
}

/// `ln(n! P)` after k top-to-random moves, by bottom run 0..=n. O(k n).
pub(crate) fn top_to_random_llr(n: usize, k: usize) -> Vec<f64> {
    bottom_run_llr(&ln_distinct(n, k))
}

/// `ln P(D_k = j)`, j = 0..=n: D_k the distinct values among k uniform
/// draws from n (each draw is new with chance (n − j)/n). O(k n).
fn ln_distinct(n: usize, k: usize) -> Vec<f64> {
    let mut lp = vec![f64::NEG_INFINITY; n + 1];
    lp[0] = 0.0;
    for _ in 0..k {
        lp = one_more_draw(&lp);
    }
    lp
}

/// `ln P(D_{k+1} = j)` from `ln P(D_k = j)`. O(n).
pub(crate) fn one_more_draw(lp: &[f64]) -> Vec<f64> {
    let n = lp.len() - 1;
    let nf = n as f64;
    (0..=n)
        .map(|j| {
            let old = lp[j] + (j as f64 / nf).ln();
            let new = match j {
                0 => f64::NEG_INFINITY,
                _ => lp[j - 1] + ((n - j + 1) as f64 / nf).ln(),
            };
            log_sum_exp(&[old, new])
        })
        .collect()
}

/// `ln(n! P)` by bottom run m = 0..=n, from `ln P(D_k = j)`. O(n).
pub(crate) fn bottom_run_llr(lp: &[f64]) -> Vec<f64> {
    let n = lp.len() - 1;
    let term = |j: usize| lp[j] + ln_gamma((n - j) as f64 + 1.0);
    let mut out = vec![f64::NEG_INFINITY; n + 1];
    let mut acc = term(n);
    for (m, slot) in out.iter_mut().enumerate().skip(1) {
        acc = log_sum_exp(&[acc, term(n - m)]);
        *slot = acc;
    }
    out
}

/// `ln Σ e^{xᵢ}`, −∞ for none (or all −∞).
pub(crate) fn log_sum_exp(xs: &[f64]) -> f64 {
    let top = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return top;
    }
    top + xs.iter().map(|x| (x - top).exp()).sum::<f64>().ln()
}

#[cfg(test)]
mod tests;
