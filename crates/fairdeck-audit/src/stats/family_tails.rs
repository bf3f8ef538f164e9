//! The tails of the family tests ([`super::likelihood`]): Chernoff's bound
//! with a Berry–Esseen correction on each machine's log-likelihood ratio,
//! joined over the family by the union bound.
//!
//! For one machine θ of a family, `S_θ = Σ_decks llr_θ(x)` is the log of
//! its likelihood ratio over T decks, a sum of T independent copies of one
//! deck's `llr_θ(X)`, whose law under uniform shuffling is exact: X is the
//! family's statistic, with the law [`uniform_law`] (Eulerian numbers for
//! rising sequences, the valley law of [`super::laws`], the joint law of
//! descents and valleys, the bottom run's `1/m! − 1/(m+1)!`). Tilting that
//! law by `e^{λ·llr}`, λ > 0 (Cramér's change of measure, as in Bahadur
//! and Rao 1960, “On deviations of the sample mean”):
//!
//! `P(S_θ ≥ s) = e^{−λs} E[e^{λ·llr}]ᵀ · E_λ[e^{−λ(S−s)}; S ≥ s]`.
//!
//! The first factor is Chernoff's bound (Chernoff 1952); the moment
//! `E[e^{λ·llr}] = E[Λ^λ]` is an exact finite sum over the statistic's
//! values. The second is `∫₀^∞ λe^{−λy} P_λ(s ≤ S ≤ s + y) dy`, and by the
//! Berry–Esseen bound (constant C = 0.4748, Shevtsova 2011) no interval of
//! length y holds more than `y/(σ√(2πT)) + 2Cρ/(σ³√T)` of the tilted sum
//! (σ², ρ the tilted variance and third absolute central moment of one
//! deck), so it is at most `min(1, 1/(λσ√(2πT)) + 2Cρ/(σ³√T))`: the √T
//! that Bahadur and Rao's approximation gains over Chernoff, kept as a
//! bound. λ is where the tilted mean is s/T (Chernoff's best); any λ gives
//! a bound, so the numerical search cannot make the p-value too small.
//!
//! The family's p-value is `min(1, K · min_θ bound_θ(S_θ))` over its K
//! machines (Bonferroni): the chance under uniform shuffling that any
//! machine's bound falls below p/K is at most K · p/K = p, so the test stays
//! within its share of the family-wise α at every number of decks.

use super::families::{Family, Statistic, log_sum_exp};
use super::{laws, tails};

/// The law under uniform shuffling of the family statistic `statistic` of
/// n cards, by the index the tally uses. O(n²), O(n³) for descents and
/// valleys.
pub fn uniform_law(statistic: Statistic, n: usize) -> Vec<f64> {
    match statistic {
        Statistic::RisingSequences => laws::rising_sequences(n),
        Statistic::Valleys => laws::valleys(n),
        Statistic::DescentsValleys => descents_valleys(n),
        Statistic::BottomRun => bottom_runs(n),
    }
}

/// Law of the bottom run ([`super::tally::bottom_run`]) of a uniform order
/// of n cards, index 0..=n: the bottom m cards are in order with chance
/// 1/m!, so P(m) = 1/m! − 1/(m+1)! below n and P(n) = 1/n!. O(n).
pub fn bottom_runs(n: usize) -> Vec<f64> {
    let mut at_least = vec![1.0; n + 2];
    at_least[n + 1] = 0.0;
    for m in 1..=n {
        at_least[m] = at_least[m - 1] / m as f64;
    }
    (0..=n).map(|m| at_least[m] - at_least[m + 1]).collect()
}

/// Joint law of the descents d (`p[i] > p[i+1]`) and valleys v of a
/// uniform order of n cards, at `d · (n/2 + 1) + v` (the tally's index).
/// Inserting the smallest card into an order of m − 1 cards with d
/// descents, a ascents and v valleys: at the top it adds an ascent; at the
/// bottom a descent; inside a descent it makes a valley and an ascent, and
/// unmakes the valley below that descent if there was one (v of the d
/// descents end in a valley); inside an ascent it makes a valley and a
/// descent, and unmakes the valley the ascent starts from (v of the a).
/// O(n³) time.
pub fn descents_valleys(n: usize) -> Vec<f64> {
    let width = n / 2 + 1;
    let mut p = vec![0.0; n.max(1) * width];
    p[0] = 1.0; // no card or one card: no descent, no valley
    for m in 2..=n {
        let mf = m as f64;
        let mut next = vec![0.0; p.len()];
        for d in 0..m - 1 {
            let a = m - 2 - d;
            for v in 0..=d.min(a) {
                let x = p[d * width + v];
                if x == 0.0 {
                    continue;
                }
                let same = (1 + v) as f64 / mf;
                next[d * width + v] += x * same;
                next[(d + 1) * width + v] += x * same;
                if d > v {
                    next[d * width + v + 1] += x * (d - v) as f64 / mf;
                }
                if a > v {
                    next[(d + 1) * width + v + 1] += x * (a - v) as f64 / mf;
                }
            }
        }
        p = next;
    }
    p
}

/// One machine's log-likelihood ratio per deck under uniform shuffling:
/// `(ln P(X = x), llr(x))` for the values the machine can make.
#[derive(Debug, Clone)]
struct MemberLaw {
    terms: Vec<(f64, f64)>,
    /// The largest llr.
    top: f64,
    /// The exact law of `S_θ` over a planned number of decks, where its
    /// histograms are few ([`FamilyTail::with_exact`]).
    exact: Option<(u64, tails::ExactLaw)>,
}

/// Most histograms of T decks over which a member's tail is summed
/// exactly ([`FamilyTail::with_exact`]); beyond, Chernoff's bound.
const MAX_EXACT: f64 = 1e5;

impl MemberLaw {
    fn new(law: &[f64], llr: &[f64]) -> Self {
        let terms: Vec<(f64, f64)> = law
            .iter()
            .zip(llr)
            .filter(|(p, l)| **p > 0.0 && l.is_finite())
            .map(|(p, l)| (p.ln(), *l))
            .collect();
        let top = terms.iter().map(|t| t.1).fold(f64::NEG_INFINITY, f64::max);
        Self {
            terms,
            top,
            exact: None,
        }
    }

    /// The exact law of `Σ llr` over `trials` uniform decks (every
    /// histogram of the decks), or `None` past [`MAX_EXACT`] of them.
    fn exact_law(law: &[f64], llr: &[f64], trials: u64) -> Option<tails::ExactLaw> {
        let (probs, llr): (Vec<f64>, Vec<f64>) = (law.iter().zip(llr))
            .filter(|(p, _)| **p > 0.0)
            .map(|(p, l)| (*p, *l))
            .unzip();
        if tails::compositions(trials, probs.len()) > MAX_EXACT {
            return None;
        }
        let sum = |c: &[u64]| -> f64 {
            (c.iter().zip(&llr))
                .filter(|(c, _)| **c > 0)
                .map(|(&c, &l)| c as f64 * l)
                .sum()
        };
        tails::ExactLaw::multinomial(&probs, trials, sum)
    }

    /// `ln E[e^{λ·llr}]` (values the machine cannot make count 0) and the
    /// mean of llr under the tilted law, its derivative in λ. O(values).
    fn cgf(&self, lambda: f64) -> (f64, f64) {
        let m = self.tilted(lambda);
        (m.ln_z, m.mean)
    }

    /// The tilted law's moments at λ. O(values).
    fn tilted(&self, lambda: f64) -> Tilted {
        let exps: Vec<f64> = self.terms.iter().map(|t| t.0 + lambda * t.1).collect();
        let ln_z = log_sum_exp(&exps);
        let w: Vec<f64> = exps.iter().map(|e| (e - ln_z).exp()).collect();
        let mean: f64 = w.iter().zip(&self.terms).map(|(w, t)| w * t.1).sum();
        let central = |k: i32| -> f64 {
            w.iter()
                .zip(&self.terms)
                .map(|(w, t)| w * (t.1 - mean).abs().powi(k))
                .sum()
        };
        Tilted {
            ln_z,
            mean,
            var: central(2),
            abs3: central(3),
        }
    }

    /// ln of the bound on `P(Σ llr ≥ s)` over T decks at one λ > 0:
    /// Chernoff's `−λs + T·ln E[e^{λ·llr}]`, times the tilted sum's
    /// correction `min(1, 1/(λσ√(2πT)) + 2Cρ/(σ³√T))` (module doc).
    fn ln_bound(&self, lambda: f64, s: f64, t: f64) -> f64 {
        let m = self.tilted(lambda);
        let chernoff = -lambda * s + t * m.ln_z;
        let sd = m.var.sqrt();
        let correction = match sd > 0.0 && lambda > 0.0 {
            true => {
                let density = 1.0 / (lambda * sd * (2.0 * std::f64::consts::PI * t).sqrt());
                density + 2.0 * BERRY_ESSEEN * m.abs3 / (sd.powi(3) * t.sqrt())
            }
            false => 1.0,
        };
        (chernoff + correction.min(1.0).ln()).min(0.0)
    }

    /// ln of the bound on `P(Σ llr ≥ s)` over `trials` decks, at most 0,
    /// at the λ that solves `T · tilted mean(λ) = s` (Chernoff's best),
    /// found by doubling then bisecting (about 80 moments); any λ gives a
    /// bound, so the search cannot make it too small.
    fn ln_tail(&self, s: f64, trials: u64) -> f64 {
        let t = trials as f64;
        if self.terms.is_empty() || s == f64::NEG_INFINITY {
            return 0.0;
        }
        // No sum exceeds T·top but by rounding; a smaller s is a weaker claim.
        let s = s.min(t * self.top);
        let rises = |lambda: f64| t * self.cgf(lambda).1 >= s;
        if rises(0.0) {
            // The best λ is 0⁺: only the values the machine cannot make count.
            return (t * self.cgf(0.0).0).min(0.0);
        }
        let (mut lo, mut hi) = (0.0, 1.0);
        while !rises(hi) && hi < 1e6 {
            (lo, hi) = (hi, hi * 2.0);
        }
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            match rises(mid) {
                true => hi = mid,
                false => lo = mid,
            }
        }
        self.ln_bound(hi, s, t)
    }
}

/// Shevtsova's constant in the Berry–Esseen bound for sums of independent
/// identically distributed terms, `sup |F − Φ| ≤ Cρ/(σ³√T)` (Shevtsova
/// 2011, “On the absolute constants in the Berry–Esseen type inequalities
/// for identically distributed summands”).
const BERRY_ESSEEN: f64 = 0.4748;

/// Moments of one deck's llr under the law tilted by `e^{λ·llr}`.
struct Tilted {
    ln_z: f64,
    mean: f64,
    var: f64,
    abs3: f64,
}

/// The null laws of a family's machines, for its p-values.
#[derive(Debug, Clone)]
pub struct FamilyTail {
    members: Vec<MemberLaw>,
}

impl FamilyTail {
    /// The tails of `family` at n cards. O(K · values) after the law.
    pub fn new(family: &Family, n: usize) -> Self {
        let law = uniform_law(family.statistic, n);
        let members = family
            .members
            .iter()
            .map(|m| MemberLaw::new(&law, &m.llr))
            .collect();
        Self { members }
    }

    /// The tails of `family` at n cards, exact for `trials` decks where
    /// their histograms are at most 10⁵ (each member's law of `S_θ`
    /// enumerated once); Chernoff's bound otherwise. O(K · 10⁵ · values)
    /// at most.
    pub fn with_exact(family: &Family, n: usize, trials: u64) -> Self {
        let law = uniform_law(family.statistic, n);
        let members = (family.members.iter())
            .map(|m| MemberLaw {
                exact: MemberLaw::exact_law(&law, &m.llr, trials).map(|e| (trials, e)),
                ..MemberLaw::new(&law, &m.llr)
            })
            .collect();
        Self { members }
    }

    /// ln of `P(S_θ ≥ s)` over `trials` uniform decks for member `member`
    /// (at most 0): exact at the number of decks the tail was made for
    /// ([`FamilyTail::with_exact`]), else Chernoff's bound
    /// ([`FamilyTail::ln_member_bound`]).
    pub fn ln_member_tail(&self, member: usize, s: f64, trials: u64) -> f64 {
        let m = &self.members[member];
        match &m.exact {
            _ if s == f64::NEG_INFINITY => 0.0,
            Some((t, law)) if *t == trials => law.p_value(s).ln().min(0.0),
            _ => m.ln_tail(s, trials),
        }
    }

    /// ln of Chernoff's bound on `P(S_θ ≥ s)` over `trials` uniform decks
    /// for member `member` (at most 0), whatever the number of decks.
    pub fn ln_member_bound(&self, member: usize, s: f64, trials: u64) -> f64 {
        self.members[member].ln_tail(s, trials)
    }

    /// The family's p-value from each member's `S_θ` ([`super::likelihood::member_ratios`]):
    /// `min(1, K · min_θ bound_θ(S_θ))`. O(K · values · 80).
    pub fn p_value(&self, ln_ratios: &[f64], trials: u64) -> f64 {
        let k = self.members.len() as f64;
        let least = ln_ratios
            .iter()
            .enumerate()
            .map(|(i, &s)| self.ln_member_tail(i, s, trials))
            .fold(0.0, f64::min);
        (k.ln() + least).exp().min(1.0)
    }

    /// The smallest p-value `trials` decks can give: each member's bound
    /// where every deck takes its largest ratio.
    pub fn smallest_p_value(&self, trials: u64) -> f64 {
        if trials == 0 {
            return 1.0;
        }
        let best: Vec<f64> = self.members.iter().map(|m| m.top * trials as f64).collect();
        self.p_value(&best, trials)
    }
}

#[cfg(test)]
mod tests;
