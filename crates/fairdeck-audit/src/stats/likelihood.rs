//! The likelihood-ratio test of each named family of machines
//! ([`super::families`]) against a uniform shuffle.
//!
//! For one machine θ the most powerful test of uniform decks against θ's
//! decks (Neyman and Pearson 1933) rejects when the likelihood ratio
//! `Λ_θ = Π_decks n!·P_θ(deck)` is large; it depends on the decks only
//! through the histogram of θ's sufficient statistic. A family has many
//! machines (9 riffles or 12? 10 shelves or 11?), so the test reads each
//! machine's `S_θ = ln Λ_θ`, bounds its tail under uniform shuffling by
//! Chernoff's bound with the exact moments `E[Λ_θ^λ]` of the statistic's
//! null law, and joins the K machines by the union bound:
//! p = `min(1, K · min_θ bound_θ(S_θ))` ([`super::family_tails`]). The
//! p-value never falls below the true tail, at every number of decks, so
//! the false-alarm rate stays within the test's share of the family-wise α.
//!
//! Power: against a member θ the test pays ln K on top of the
//! Neyman–Pearson test for θ alone at the same level, and Chernoff's bound
//! in place of the exact tail (a factor of order √T in the tail, a few
//! units of ln). To keep K small, at T decks a test reads only the members
//! that T decks can just tell from uniform ([`members_at`]): fixed before
//! the decks are read, so the bound stays valid. Markov's inequality on
//! the mean ratio, which these tests used before, asked `S_θ ≥ ln(1/α)`
//! whatever the number of decks; Chernoff's bound asks less once the decks
//! are many. The book's power table measures it.
//!
//! The statistic reported is `ln M`, M the mean of the K ratios Λ_θ (a
//! summary of the evidence; the p-value reads the ratios themselves); the
//! law names the nearest member (the largest Λ_θ).

use super::families::{self, Family, MAX_FAMILY_N, log_sum_exp};
use super::family_tails::{FamilyTail, uniform_law};
use super::{MAX_N_FOR_JOINT, Method, Tally, TestResult};

/// A planned family test.
#[derive(Debug, Clone)]
pub(crate) struct FamilyTest {
    pub name: &'static str,
    family: Option<(Family, FamilyTail)>,
    /// Why it does not run, if it does not.
    skip: Option<String>,
}

impl FamilyTest {
    /// Plans `family` of n cards for `trials` decks at per-test level
    /// `share`: a test whose smallest possible p-value is at least `share`
    /// does not run.
    fn plan(family: Family, n: usize, trials: u64, share: f64) -> Self {
        let family = members_at(&family, n, trials, share);
        let tail = FamilyTail::with_exact(&family, n, trials);
        let smallest = tail.smallest_p_value(trials);
        let skip = match () {
            _ if trials == 0 => Some("no decks".to_string()),
            _ if smallest >= share => Some(format!(
                "cannot reject at {trials} decks (the smallest p-value is {smallest:.1e})"
            )),
            _ => None,
        };
        Self {
            name: family.name,
            family: Some((family, tail)),
            skip,
        }
    }

    /// A test that does not run, and why.
    fn skipped(name: &'static str, why: String) -> Self {
        Self {
            name,
            family: None,
            skip: Some(why),
        }
    }

    /// The family, if the test is planned with one.
    pub fn family(&self) -> Option<&Family> {
        self.family.as_ref().map(|f| &f.0)
    }

    /// Runs the test on `t`. O(K · values).
    pub fn run(&self, t: &Tally) -> Result<TestResult, String> {
        if let Some(why) = &self.skip {
            return Err(why.clone());
        }
        let (family, tail) = self.family.as_ref().ok_or("not planned")?;
        let (ln_m, nearest) = mean_ratio(family, t);
        let ln_ratios = member_ratios(family, family.statistic.counts(t));
        Ok(TestResult {
            name: self.name,
            statistic: ln_m,
            dof: None,
            p_value: tail.p_value(&ln_ratios, t.trials),
            method: Method::LikelihoodRatio,
            law: format!(
                "{} on {}, against uniform: {}; nearest of them: {nearest}",
                family.machine,
                family.statistic.label(),
                members_read(family, t.trials),
            ),
        })
    }
}

/// The members a test reads, in words: "the 3 machines (10 riffles … 12
/// riffles) nearest uniform that 25 decks can tell from it", "the 1
/// machine (20 shelves) …".
fn members_read(family: &Family, trials: u64) -> String {
    let m = &family.members;
    let which = match m.len() {
        1 => format!("the 1 machine ({})", m[0].label),
        k => format!("the {k} machines ({} … {})", m[0].label, m[k - 1].label),
    };
    format!("{which} nearest uniform that {trials} decks can tell from it")
}

/// How far on each side of T a member's decks-needed may lie and still be
/// read at T decks ([`members_at`]).
const WINDOW: (f64, f64) = (4.0, 2.0);

/// The members of `family` (n cards) that its test reads at `trials` decks
/// and level `share`: those whose Neyman–Pearson test needs between
/// T/16 and 8·T decks, by Stein's estimate `ln(1/share) / KL(P_θ ‖ U)`
/// ([`decks_needed`]); if none does, the one nearest T (in ratio).
///
/// The choice depends on n, T and the level only, never on the decks, so
/// the union bound over the members kept is as valid as over all of them,
/// and cheaper by ln K: a member whose test needs far fewer decks than T
/// (a machine far from uniform) is caught at T by its neighbours nearer
/// uniform (the families' likelihood ratios all favour the same orders),
/// and one that needs far more cannot be told from uniform at T.
/// O(K · values).
pub fn members_at(family: &Family, n: usize, trials: u64, share: f64) -> Family {
    let law = uniform_law(family.statistic, n);
    let t = trials.max(1) as f64;
    let needed: Vec<f64> = (family.members.iter())
        .map(|m| decks_needed(&law, &m.llr, share))
        .collect();
    let inside = |d: f64| d >= t / WINDOW.0 && d <= t * WINDOW.1;
    let mut members: Vec<_> = (family.members.iter().zip(&needed))
        .filter(|(_, d)| inside(**d))
        .map(|(m, _)| m.clone())
        .collect();
    if members.is_empty() {
        let distance = |d: f64| (d.ln() - t.ln()).abs();
        let nearest =
            (0..needed.len()).min_by(|&a, &b| distance(needed[a]).total_cmp(&distance(needed[b])));
        members.extend(nearest.map(|i| family.members[i].clone()));
    }
    Family {
        members,
        ..family.clone()
    }
}

/// Stein's estimate of the decks a Neyman–Pearson test of uniform against
/// the machine with log-likelihood ratio `llr` (by value of a statistic of
/// uniform law `law`) needs at level `share`: `ln(1/share) / KL(P_θ ‖ U)`,
/// KL in nats per deck (+∞ for a machine that is uniform on the statistic).
/// A planning estimate, not a bound. O(values).
pub fn decks_needed(law: &[f64], llr: &[f64], share: f64) -> f64 {
    let kl: f64 = (law.iter().zip(llr))
        .filter(|(p, l)| **p > 0.0 && l.is_finite())
        .map(|(p, l)| p * l.exp() * l)
        .sum();
    match kl > 0.0 {
        true => (1.0 / share).ln() / kl,
        false => f64::INFINITY,
    }
}

/// `(ln M, the nearest member's label)` for the decks of `t`: each
/// member's `ln Λ_θ = Σ_x count(x) · llr_θ(x)`, averaged in logs.
pub fn mean_ratio(family: &Family, t: &Tally) -> (f64, String) {
    let ln_ratios = member_ratios(family, family.statistic.counts(t));
    let nearest = ln_ratios
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map_or(String::new(), |(i, _)| family.members[i].label.clone());
    let ln_m = log_sum_exp(&ln_ratios) - (family.members.len() as f64).ln();
    (ln_m, nearest)
}

/// Each member's `ln Λ_θ = Σ_x counts[x] · llr_θ(x)` for the counts of the
/// family's statistic.
pub fn member_ratios(family: &Family, counts: &[u64]) -> Vec<f64> {
    family
        .members
        .iter()
        .map(|m| {
            counts
                .iter()
                .zip(&m.llr)
                .filter(|(c, _)| **c > 0)
                .map(|(&c, &l)| c as f64 * l)
                .sum()
        })
        .collect()
}

/// The family tests for `n` cards and `trials` decks at per-test level
/// `share`, in the order the audit runs them; none at n < 4: at 2 cards
/// every statistic is the swap count `positions` reads, and at 3 each
/// family's law is a law on the six orders, which `permutations` and the
/// model tests read exactly.
pub(crate) fn family_tests(n: usize, trials: u64, share: f64) -> Vec<FamilyTest> {
    const NAMES: [&str; 5] = [
        "riffles-lr",
        "shelf-lr",
        "shelf-twice-lr",
        "shelf-biased-lr",
        "top-to-random-lr",
    ];
    if n < 4 {
        return Vec::new();
    }
    if n > MAX_FAMILY_N {
        let why = format!("the machines' laws are tabled for n <= {MAX_FAMILY_N}");
        return NAMES
            .iter()
            .map(|name| FamilyTest::skipped(name, why.clone()))
            .collect();
    }
    let mut tests = vec![
        FamilyTest::plan(families::riffles(n), n, trials, share),
        FamilyTest::plan(families::shelves(n, 1), n, trials, share),
        FamilyTest::plan(families::shelves(n, 2), n, trials, share),
    ];
    tests.push(match n <= MAX_N_FOR_JOINT {
        true => FamilyTest::plan(families::biased_shelves(n), n, trials, share),
        false => FamilyTest::skipped(
            NAMES[3],
            format!("the joint law of descents and valleys is kept for n <= {MAX_N_FOR_JOINT}"),
        ),
    });
    tests.push(FamilyTest::plan(
        families::top_to_random(n),
        n,
        trials,
        share,
    ));
    tests
}

#[cfg(test)]
mod tests;
