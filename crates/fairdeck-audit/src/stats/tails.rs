//! Tails the audit can stand behind at its false-alarm rate.
//!
//! Pearson's statistic is read against the chi-square law only where that
//! approximation is close at the tail asked for; elsewhere its exact law is
//! computed (every outcome of the multinomial, with its probability) or the
//! test is not run. The chi-square law is far off in the extreme tails of
//! small samples: with 30 shuffles of 3 cards, bins pooled to 5 expected gave
//! p = 3·10⁻⁸ where the exact tail is 1.6·10⁻⁶.
//!
//! When chi-square is used ([`chi_square_carries`]): a single binomial cell
//! with `e` expected has a skew of about `1/√e`; its two-sided tail at the
//! normal point `z` is off by a factor near `cosh(z³/(6√e))`. We ask for
//! `e ≥ z⁶/(18√dof)` — the factor is then at most `cosh(0.71) ≈ 1.26` for one
//! degree of freedom (and shrinks as the cells' errors average out over more
//! degrees of freedom) — and report twice the chi-square tail to cover it.
//! `exact_binomial_bounds_the_doubled_chi_square_tail` in the tests checks
//! the one-dof case, the worst, against exact binomial tails.

use statrs::function::gamma::ln_gamma;

use super::power::{chi_square_critical, chi_square_sf};

/// Most outcomes an exact law is built from (16 bytes each).
pub const MAX_OUTCOMES: f64 = 2e6;

/// Most outcomes summed for one p-value when the law is too large to keep
/// ([`multinomial_tail`]).
pub const MAX_SUMMED: f64 = 2e7;

/// Most steps of the equal-cells recursion ([`ExactLaw::equal_cells`]).
const MAX_STEPS: f64 = 1e9;

/// The factor chi-square tails are multiplied by (see the module doc).
pub const CHI_SQUARE_FACTOR: f64 = 2.0;

/// The exact upper tails of a statistic: `P(X ≥ x)` for every value `x` it takes.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactLaw {
    /// The values, ascending.
    values: Vec<f64>,
    /// `upper[i] = P(X ≥ values[i])`.
    upper: Vec<f64>,
}

impl ExactLaw {
    /// The law of `statistic(counts)` when `trials` draws fall into
    /// `probs.len()` categories with probabilities `probs`: every composition
    /// of `trials` is visited once with its multinomial probability. `None`
    /// when there are more than [`MAX_OUTCOMES`] of them. O(outcomes · (k +
    /// cost of `statistic`) + outcomes · log outcomes) time.
    pub fn multinomial(
        probs: &[f64],
        trials: u64,
        statistic: impl Fn(&[u64]) -> f64,
    ) -> Option<Self> {
        if probs.is_empty() || compositions(trials, probs.len()) > MAX_OUTCOMES {
            return None;
        }
        let mut pairs = Vec::new();
        each_outcome(probs, trials, |c, p| pairs.push((statistic(c), p)));
        Some(Self::from_pairs(pairs))
    }

    /// The law of Pearson's statistic for `trials` draws into `cells` equally
    /// likely cells, through the integer `S = Σ o²` (`X² = cells·S/T − T`):
    /// the counts are independent Poisson(T/cells) conditioned on their sum,
    /// and the recursion over cells keeps the joint law of (Σ o, Σ o²). `None`
    /// when it would take more than 10⁹ steps or T > 160. O(cells · T⁴/12) time,
    /// O(T³) memory.
    pub fn equal_cells(cells: usize, trials: u64) -> Option<Self> {
        let t = trials as usize;
        let steps = cells as f64 * (trials as f64).powi(4) / 12.0;
        if cells == 0 || steps > MAX_STEPS || t > 160 {
            return None;
        }
        let lambda = trials as f64 / cells as f64;
        let weight: Vec<f64> = (0..=t)
            .map(|o| (-lambda + o as f64 * lambda.ln() - ln_gamma(o as f64 + 1.0)).exp())
            .collect();
        let width = t * t + 1;
        // law[m][s]: weight of the cells so far summing to m with squares s.
        let mut law = vec![vec![0.0; width]; t + 1];
        law[0][0] = 1.0;
        for _ in 0..cells {
            let mut next = vec![vec![0.0; width]; t + 1];
            for (m, row) in law.iter().enumerate() {
                for (s, &w) in row.iter().enumerate().take(m * m + 1) {
                    if w == 0.0 {
                        continue;
                    }
                    for o in 0..=(t - m) {
                        next[m + o][s + o * o] += w * weight[o];
                    }
                }
            }
            law = next;
        }
        let total: f64 = law[t].iter().sum();
        let (tf, k) = (trials as f64, cells as f64);
        let pairs = law[t]
            .iter()
            .enumerate()
            .filter(|&(_, &w)| w > 0.0)
            .map(|(s, &w)| (k * s as f64 / tf - tf, w / total))
            .collect();
        Some(Self::from_pairs(pairs))
    }

    /// Sorts (value, probability) pairs and sums the tails.
    fn from_pairs(mut pairs: Vec<(f64, f64)>) -> Self {
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut upper = vec![0.0; pairs.len()];
        let mut running = 0.0;
        for (i, &(_, p)) in pairs.iter().enumerate().rev() {
            running += p;
            upper[i] = running.min(1.0);
        }
        Self {
            values: pairs.into_iter().map(|(v, _)| v).collect(),
            upper,
        }
    }

    /// Every value the statistic takes with its probability, ascending.
    /// O(outcomes).
    pub fn outcomes(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        let next = self.upper.iter().skip(1).chain(std::iter::once(&0.0));
        self.values
            .iter()
            .zip(self.upper.iter().zip(next))
            .map(|(&v, (&u, &w))| (v, u - w))
    }

    /// `P(X ≥ x)`, where values within a relative 10⁻⁹ below `x` count as
    /// equal to it (the same outcome computed in another order). O(log outcomes).
    pub fn p_value(&self, x: f64) -> f64 {
        let floor = x - 1e-9 * x.abs().max(1.0);
        let first = self.values.partition_point(|&v| v < floor);
        self.upper.get(first).copied().unwrap_or(0.0)
    }
}

/// `P(statistic ≥ x)` for counts of `trials` draws into categories with
/// probabilities `probs`, summed over every composition without keeping the
/// law (values within a relative 10⁻⁹ below `x` count, as in
/// [`ExactLaw::p_value`]). `None` over [`MAX_SUMMED`] outcomes. O(outcomes · k).
pub fn multinomial_tail(
    probs: &[f64],
    trials: u64,
    statistic: impl Fn(&[u64]) -> f64,
    x: f64,
) -> Option<f64> {
    if probs.is_empty() || compositions(trials, probs.len()) > MAX_SUMMED {
        return None;
    }
    let floor = x - 1e-9 * x.abs().max(1.0);
    let mut tail = 0.0;
    each_outcome(probs, trials, |c, p| {
        if statistic(c) >= floor {
            tail += p;
        }
    });
    Some(tail.min(1.0))
}

/// The number of ways `trials` draws fall into `k` categories, C(T+k−1, k−1),
/// as a float (saturating at infinity).
pub fn compositions(trials: u64, k: usize) -> f64 {
    let t = trials as f64;
    (1..k).fold(1.0, |acc, j| acc * (t + j as f64) / j as f64)
}

/// Calls `visit` with every outcome of `trials` independent draws into
/// `probs.len()` categories of probabilities `probs`: each composition of
/// `trials` (the counts per category) once, with its multinomial
/// probability. O(C(T+k−1, k−1) · k) time; the caller bounds the count
/// ([`compositions`]).
pub fn each_outcome(probs: &[f64], trials: u64, mut visit: impl FnMut(&[u64], f64)) {
    if probs.is_empty() {
        return;
    }
    let ln_fact: Vec<f64> = (0..=trials).map(|k| ln_gamma(k as f64 + 1.0)).collect();
    let ln_p: Vec<f64> = probs.iter().map(|p| p.ln()).collect();
    let mut counts = vec![0u64; probs.len()];
    each_composition(&mut counts, 0, trials, &mut |c: &[u64]| {
        let ln_pmf: f64 = c
            .iter()
            .zip(&ln_p)
            .map(|(&o, &lp)| if o == 0 { 0.0 } else { o as f64 * lp } - ln_fact[o as usize])
            .sum();
        visit(c, (ln_fact[trials as usize] + ln_pmf).exp());
    });
}

fn each_composition(counts: &mut [u64], at: usize, left: u64, visit: &mut impl FnMut(&[u64])) {
    if at + 1 == counts.len() {
        counts[at] = left;
        visit(counts);
        return;
    }
    for o in 0..=left {
        counts[at] = o;
        each_composition(counts, at + 1, left - o, visit);
    }
}

/// The normal point `z` of a two-sided tail `tail` (the root of the
/// one-dof chi-square critical value).
pub fn normal_point(tail: f64) -> f64 {
    chi_square_critical(1.0, tail).sqrt()
}

/// The fewest expected counts per cell for which the chi-square tail,
/// doubled, is trusted at `tail` with `dof` degrees of freedom:
/// `max(5, z⁶/(18√dof))` (see the module doc).
pub fn least_expected(tail: f64, dof: f64) -> f64 {
    (normal_point(tail).powi(6) / (18.0 * dof.max(1.0).sqrt())).max(5.0)
}

/// `true` when every cell expecting at least `fewest` lets the chi-square
/// tail stand in for the exact one at `tail`.
pub fn chi_square_carries(fewest: f64, tail: f64, dof: f64) -> bool {
    fewest >= least_expected(tail, dof)
}

/// The chi-square p-value the audit reports: [`CHI_SQUARE_FACTOR`] times the
/// tail, at most 1.
pub fn chi_square_p(statistic: f64, dof: f64) -> f64 {
    (CHI_SQUARE_FACTOR * chi_square_sf(statistic, dof)).min(1.0)
}

/// Pearson's `Σ (o − e)²/e` for counts `observed` of `trials` draws with
/// cell probabilities `probs`.
pub fn pearson(observed: &[u64], probs: &[f64], trials: u64) -> f64 {
    let t = trials as f64;
    observed
        .iter()
        .zip(probs)
        .map(|(&o, &p)| (o as f64 - p * t).powi(2) / (p * t))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_cells_recursion_matches_enumeration() {
        for (cells, trials) in [(2, 9), (6, 12), (24, 5)] {
            let probs = vec![1.0 / cells as f64; cells];
            let slow = ExactLaw::multinomial(&probs, trials, |c| pearson(c, &probs, trials));
            let fast = ExactLaw::equal_cells(cells, trials).unwrap();
            let slow = slow.unwrap();
            for &x in &slow.values {
                let (a, b) = (slow.p_value(x), fast.p_value(x));
                assert!(
                    (a - b).abs() < 1e-12,
                    "{cells} cells, {trials}: {x}: {a} vs {b}"
                );
            }
        }
    }

    #[test]
    fn summed_tails_match_the_kept_law() {
        let probs = [0.5, 0.3, 0.2];
        let stat = |c: &[u64]| pearson(c, &probs, 40);
        let law = ExactLaw::multinomial(&probs, 40, stat).unwrap();
        for x in [0.0, 1.3, 7.7, 20.0] {
            let summed = multinomial_tail(&probs, 40, stat, x).unwrap();
            assert!((summed - law.p_value(x)).abs() < 1e-12, "{x}");
        }
    }

    #[test]
    fn a_binomial_law_has_the_binomial_tails() {
        // Two cells of ½, 4 draws: X² = (o₀ − 2)² ∈ {4, 1, 0}; P(X² ≥ 1) = 10/16.
        let probs = [0.5, 0.5];
        let law = ExactLaw::multinomial(&probs, 4, |c| pearson(c, &probs, 4)).unwrap();
        assert!((law.p_value(1.0) - 10.0 / 16.0).abs() < 1e-14);
        assert!((law.p_value(4.0) - 2.0 / 16.0).abs() < 1e-14);
        assert_eq!(law.p_value(4.5), 0.0);
    }

    /// The one-dof case of the module doc: at the smallest expected count the
    /// rule allows, the exact two-sided binomial tail at the point where the
    /// doubled chi-square tail equals the per-test level stays below it.
    #[test]
    fn exact_binomial_bounds_the_doubled_chi_square_tail() {
        for tail in [1.7e-7, 1e-4, 1e-12] {
            for p in [0.5, 0.2, 0.02] {
                let e = least_expected(tail, 1.0);
                let trials = (e / p).ceil() as u64;
                let critical = chi_square_critical(1.0, tail / CHI_SQUARE_FACTOR);
                let exact = binomial_pearson_tail(trials, p, critical);
                assert!(
                    exact <= tail,
                    "tail {tail}, p {p}, T {trials}: exact {exact}"
                );
                // Negative control: the bare chi-square point is exceeded
                // more often than its tail where the cells are skewed.
                if p < 0.1 && tail < 1e-6 {
                    let bare = chi_square_critical(1.0, tail);
                    let exact = binomial_pearson_tail(trials, p, bare);
                    assert!(exact > tail, "tail {tail}, p {p}: {exact}");
                }
            }
        }
    }

    /// P(Pearson's X² ≥ x) for Binomial(T, p) counts in two cells, summed in logs.
    fn binomial_pearson_tail(trials: u64, p: f64, x: f64) -> f64 {
        let t = trials as f64;
        (0..=trials)
            .filter(|&k| pearson(&[k, trials - k], &[p, 1.0 - p], trials) >= x)
            .map(|k| {
                let k = k as f64;
                (ln_gamma(t + 1.0) - ln_gamma(k + 1.0) - ln_gamma(t - k + 1.0)
                    + k * p.ln()
                    + (t - k) * (1.0 - p).ln())
                .exp()
            })
            .sum()
    }
}
