//! `repeated-orders`: the largest number of decks in one order.
//!
//! Between the birthday test (n ≥ 9, few pairs expected) and the all-orders
//! test (T ≥ 5·n!) nothing else looks at repeated orders: 12 identical decks
//! of 3 cards passed every test, though a uniform shuffle does that with
//! probability 6·6⁻¹² ≈ 2.8·10⁻⁹. This test runs at every n ≥ 3 and T ≥ 2.
//! Its statistic is M, the largest count of one order among the T decks
//! (T balls in N = n! equally likely boxes); its p-value is P(M ≥ m):
//!
//! * exact for n ≤ 8 and T ≤ [`MAX_EXACT_TRIALS`], by Poissonisation: with
//!   the counts independent Poisson(λ = T/N) conditioned on their sum,
//!   `P(M < m) = F^N · P(Y₁ + … + Y_N = T) / P(Poisson(T) = T)`, F = P(Poisson(λ) < m)
//!   and Y the Poisson(λ) truncated below m, whose N-fold law is found by
//!   repeated squaring, O(T² log N);
//!   (plus 10⁻¹² for rounding: the subtraction 1 − P(M < m) loses digits);
//! * otherwise, and where the exact tail is below 10⁻⁶ (where that
//!   subtraction has lost too many digits), the union bound `N · P(Binomial(T, 1/N) ≥ m)`, which
//!   is never below the exact tail and meets it for small tails.
//!
//! At n = 2 the largest count is the swap count the positions test reads.

use statrs::function::gamma::ln_gamma;

use super::{Method, Tally, TestResult};

/// Most decks for which the exact tail is computed (O(T² log N) each).
pub const MAX_EXACT_TRIALS: u64 = 2000;

/// Largest n with an exact tail (the order table of the tally).
const MAX_EXACT_N: usize = super::MAX_N_FOR_PERMUTATION_TABLE;

/// Below this the exact tail is replaced by the union bound.
const SMALLEST_EXACT: f64 = 1e-6;

/// Added to the exact tail for the rounding of 1 − P(M < m).
const ROUNDING: f64 = 1e-12;

/// The planned test: `P(M ≥ m)` kept for every m where T is small.
#[derive(Debug, Clone)]
pub(crate) struct Repeats {
    n: usize,
    trials: u64,
    /// `kept[m] = P(M ≥ m)`, m = 0..=T, for T ≤ 128 and n ≤ 8.
    kept: Option<Vec<f64>>,
    skip: Option<String>,
}

impl Repeats {
    /// Plans the test for `trials` decks of `n` cards at per-test level
    /// `share` (not run where even T decks in one order, p = n!^(1−T),
    /// could not reject).
    pub fn plan(n: usize, trials: u64, share: f64) -> Self {
        let skip = match () {
            _ if n < 3 => Some("at n = 2 this is the swap count (positions)".to_string()),
            _ if trials < 2 => Some("needs at least 2 decks".to_string()),
            _ if tail(n, trials, trials) >= share => Some(format!(
                "cannot reject at {trials} decks (all in one order: p = {:.1e})",
                tail(n, trials, trials)
            )),
            _ => None,
        };
        let kept = (skip.is_none() && n <= MAX_EXACT_N && trials <= 128)
            .then(|| (0..=trials).map(|m| tail(n, trials, m)).collect());
        Self {
            n,
            trials,
            kept,
            skip,
        }
    }

    /// Runs the test on `t`; `sorted` are its fingerprints, sorted (n ≥ 9).
    pub fn run(&self, t: &Tally, sorted: &[u128]) -> Result<TestResult, String> {
        if let Some(why) = &self.skip {
            return Err(why.clone());
        }
        let largest = match &t.permutations {
            Some(table) => table.iter().copied().max().unwrap_or(0),
            None => longest_run(sorted),
        };
        let p_value = match &self.kept {
            Some(kept) => kept[largest.min(self.trials) as usize],
            None => tail(self.n, self.trials, largest),
        };
        let exact =
            self.n <= MAX_EXACT_N && self.trials <= MAX_EXACT_TRIALS && p_value >= SMALLEST_EXACT;
        Ok(TestResult {
            name: "repeated-orders",
            statistic: largest as f64,
            dof: None,
            p_value,
            method: if exact {
                Method::Exact
            } else {
                Method::UnionBound
            },
            law: "decks in the most repeated order".into(),
        })
    }
}

/// The longest run of equal values in a sorted slice.
fn longest_run(sorted: &[u128]) -> u64 {
    let (mut best, mut run) = (u64::from(!sorted.is_empty()), 1);
    for w in sorted.windows(2) {
        run = if w[0] == w[1] { run + 1 } else { 1 };
        best = best.max(run);
    }
    best
}

/// `P(M ≥ m)` for `trials` decks of `n` cards (see the module doc).
pub fn tail(n: usize, trials: u64, m: u64) -> f64 {
    if m <= 1 {
        return 1.0;
    }
    if m > trials {
        return 0.0;
    }
    let union = union_bound(n, trials, m);
    if n > MAX_EXACT_N || trials > MAX_EXACT_TRIALS {
        return union;
    }
    let exact = 1.0 - at_most(n, trials, m - 1) + ROUNDING;
    if exact >= SMALLEST_EXACT {
        exact.clamp(0.0, 1.0)
    } else {
        union
    }
}

/// `N · P(Binomial(T, 1/N) ≥ m)`, at most 1, N = n!.
fn union_bound(n: usize, trials: u64, m: u64) -> f64 {
    let ln_n = ln_gamma(n as f64 + 1.0);
    let q = (-ln_n).exp();
    let t = trials as f64;
    // P(Binomial ≥ m) ≥ 1/2 up to the median, which is at least ⌊Tq⌋.
    if (m as f64) <= (t * q).floor() {
        return 1.0;
    }
    let ln_term = |k: f64| {
        ln_gamma(t + 1.0) - ln_gamma(k + 1.0) - ln_gamma(t - k + 1.0) - k * ln_n
            + (t - k) * (-q).ln_1p()
    };
    let mut sum = 0.0;
    for k in m..=trials {
        let term = ln_term(k as f64).exp();
        sum += term;
        if term <= 1e-17 * sum {
            break;
        }
    }
    (ln_n + sum.ln()).exp().min(1.0)
}

/// `P(M ≤ c)` for T balls in N = n! boxes, by Poissonisation (module doc).
fn at_most(n: usize, trials: u64, c: u64) -> f64 {
    let boxes: u64 = (1..=n as u64).product();
    let t = trials as usize;
    let lambda = trials as f64 / boxes as f64;
    let ln_poisson = |j: f64| -lambda + j * lambda.ln() - ln_gamma(j + 1.0);
    let top = c.min(trials) as usize;
    let mut y: Vec<f64> = (0..=top).map(|j| ln_poisson(j as f64).exp()).collect();
    let below: f64 = y.iter().sum();
    for v in &mut y {
        *v /= below;
    }
    let sum_law = power(&y, boxes, t);
    let at_t = sum_law.get(t).copied().unwrap_or(0.0);
    if at_t <= 0.0 {
        return 0.0;
    }
    let tf = trials as f64;
    let ln_poisson_t = -tf + tf * tf.ln() - ln_gamma(tf + 1.0);
    (boxes as f64 * below.ln() + at_t.ln() - ln_poisson_t).exp()
}

/// The `k`-fold convolution of the law `y`, kept up to index `len`.
fn power(y: &[f64], mut k: u64, len: usize) -> Vec<f64> {
    let times = |a: &[f64], b: &[f64]| {
        let mut c = vec![0.0; (a.len() + b.len() - 1).min(len + 1)];
        for (i, &x) in a.iter().enumerate().take(len + 1) {
            for (j, &z) in b.iter().enumerate().take(len + 1 - i) {
                c[i + j] += x * z;
            }
        }
        c
    };
    let (mut result, mut base) = (vec![1.0], y.to_vec());
    while k > 0 {
        if k & 1 == 1 {
            result = times(&result, &base);
        }
        k >>= 1;
        if k > 0 {
            base = times(&base, &base);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::gof::orders;

    /// The exact tail against a count over all 6⁴ ways 4 decks of 3 cards fall.
    #[test]
    fn exact_tails_match_enumeration() {
        let mut counts = [0.0; 5];
        for code in 0..6u32.pow(4) {
            let mut boxes = [0u64; 6];
            for d in 0..4 {
                boxes[(code / 6u32.pow(d) % 6) as usize] += 1;
            }
            counts[*boxes.iter().max().unwrap() as usize] += 1.0 / 1296.0;
        }
        for m in 1..=4u64 {
            let want: f64 = counts[m as usize..].iter().sum();
            let got = tail(3, 4, m);
            assert!(
                (got - want).abs() < 2e-12 && got >= want,
                "m = {m}: {got} vs {want}"
            );
        }
    }

    /// Issue 49: twelve identical decks of 3 cards have p = 6·6⁻¹².
    #[test]
    fn twelve_identical_decks_of_three() {
        let want = 6.0 * 6f64.powi(-12);
        let p = tail(3, 12, 12);
        assert!((p - want).abs() < 1e-12 * want, "{p} vs {want}");
        let plan = Repeats::plan(3, 12, 1e-7);
        let mut t = Tally::new(3);
        for _ in 0..12 {
            t.add(&[2, 0, 1]).unwrap();
        }
        let r = plan.run(&t, &[]).unwrap();
        assert_eq!(r.statistic, 12.0);
        assert!((r.p_value - want).abs() < 1e-12 * want);
        assert_eq!(r.method, Method::UnionBound);
        // A uniform-looking run of 12: two of each order.
        let mut even = Tally::new(3);
        for p in orders(3).iter().cycle().take(12) {
            even.add(p).unwrap();
        }
        assert!(plan.run(&even, &[]).unwrap().p_value > 0.5);
        assert!(Repeats::plan(3, 9, 1e-7).run(&even, &[]).is_err());
    }

    /// Where both are computed, the union bound is never below the exact tail.
    #[test]
    fn the_union_bound_is_above_the_exact_tail() {
        for (n, trials) in [(3, 40), (4, 300), (5, 150)] {
            for m in 2..=trials.min(30) {
                let exact = 1.0 - at_most(n, trials, m - 1);
                let union = union_bound(n, trials, m);
                assert!(union >= exact - 1e-12, "n {n} T {trials} m {m}");
            }
        }
    }

    #[test]
    fn runs_of_fingerprints() {
        assert_eq!(longest_run(&[]), 0);
        assert_eq!(longest_run(&[4]), 1);
        assert_eq!(longest_run(&[1, 2, 2, 2, 3, 3]), 3);
    }
}
