//! The goodness-of-fit tests, planned once for a sample size: for each test,
//! which law its statistic is read against — exact ([`tails::ExactLaw`]),
//! chi-square where that carries the tail ([`tails::chi_square_carries`]),
//! or not at all.

use super::tails::{self, ExactLaw, compositions};
use super::{MAX_N_FOR_PERMUTATION_TABLE, Method, Tally, TestResult, laws};

/// Most tests one audit runs (the Bonferroni share is planned at α over this).
pub const MAX_TESTS: usize = 17;

/// How one test's statistic is read.
#[derive(Debug, Clone)]
pub(crate) enum Plan {
    /// Against its exact law.
    Exact(ExactLaw),
    /// Against its exact law, summed for each p-value (too large to keep):
    /// the bin probabilities.
    ExactSum(Vec<f64>),
    /// Against the chi-square law, the tail multiplied by the factor.
    ChiSquare(f64),
    /// Not run, and why.
    Skip(String),
}

/// A histogram test: bins pooled from a law, and the plan of reading them.
#[derive(Debug, Clone)]
pub(crate) struct Histogram {
    pub name: &'static str,
    /// The first raw index of each bin.
    starts: Vec<usize>,
    probs: Vec<f64>,
    pub law: String,
    pub plan: Plan,
}

/// The pooled bins of `law` for `trials` draws: left to right until each
/// expects `fewest`, a short last bin joined to the one before.
fn pool(law: &[f64], trials: u64, fewest: f64) -> (Vec<usize>, Vec<f64>) {
    let (mut starts, mut probs) = (Vec::new(), Vec::new());
    let (mut open, mut start) = (0.0, 0);
    for (k, &p) in law.iter().enumerate() {
        open += p;
        if open * trials as f64 >= fewest {
            starts.push(start);
            probs.push(open);
            (open, start) = (0.0, k + 1);
        }
    }
    if let Some(last) = probs.last_mut() {
        *last += open;
    }
    (starts, probs)
}

impl Histogram {
    /// Plans a histogram test of `what` (e.g. "fixed points") with `law` on
    /// `trials` draws at per-test tail `tail`: bins pooled to 5 expected,
    /// read against their exact law when its outcomes can be enumerated; if
    /// not, pooled to 10, 20, 40, … until they can be, or until each bin
    /// expects enough for chi-square to carry the tail. `legacy`: pooled to
    /// 5 and the bare chi-square tail, the approximation this replaced (kept
    /// for comparison only).
    pub fn plan(
        name: &'static str,
        what: &str,
        law: &[f64],
        trials: u64,
        tail: f64,
        legacy: bool,
    ) -> Self {
        let enough = tails::least_expected(tail, 1.0);
        let mut fewest: f64 = 5.0;
        let (starts, probs, plan) = loop {
            let (starts, probs) = pool(law, trials, fewest);
            let plan = match () {
                _ if probs.len() < 2 => Some(Plan::Skip(
                    "too few trials for two bins of 5 expected".into(),
                )),
                _ if legacy => Some(Plan::ChiSquare(1.0)),
                _ => Self::exact(&probs, trials),
            };
            match plan {
                Some(plan) => break (starts, probs, plan),
                None if fewest >= enough => {
                    break (starts, probs, Plan::ChiSquare(tails::CHI_SQUARE_FACTOR));
                }
                None => fewest = (2.0 * fewest).min(enough),
            }
        };
        let law = describe_bins(what, &starts, law.len());
        Self {
            name,
            starts,
            probs,
            law,
            plan,
        }
    }

    fn exact(probs: &[f64], trials: u64) -> Option<Plan> {
        if let Some(law) =
            ExactLaw::multinomial(probs, trials, |c| tails::pearson(c, probs, trials))
        {
            return Some(Plan::Exact(law));
        }
        (compositions(trials, probs.len()) <= tails::MAX_SUMMED)
            .then(|| Plan::ExactSum(probs.to_vec()))
    }

    /// The observed counts pooled into this test's bins.
    pub fn pooled(&self, observed: &[u64]) -> Vec<u64> {
        let mut bins = vec![0u64; self.starts.len()];
        for (k, &o) in observed.iter().enumerate() {
            let b = self.starts.partition_point(|&s| s <= k).saturating_sub(1);
            bins[b] += o;
        }
        bins
    }

    /// Runs the test on the raw histogram `observed`.
    pub fn run(&self, observed: &[u64], trials: u64) -> Result<TestResult, String> {
        if let Plan::Skip(why) = &self.plan {
            return Err(why.clone());
        }
        let statistic = tails::pearson(&self.pooled(observed), &self.probs, trials);
        let dof = (self.probs.len() - 1) as f64;
        read(&self.plan, (self.name, &self.law), statistic, dof, trials)
    }
}

/// "fixed points in bins 0 | 1 | 2-3 | 4+" (raw indices `0..len`).
fn describe_bins(what: &str, starts: &[usize], len: usize) -> String {
    let mut parts = Vec::new();
    for (i, &s) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(len, |&e| e) - 1;
        parts.push(match (i + 1 == starts.len(), end == s) {
            (true, _) if end > s => format!("{s}+"),
            (_, true) => format!("{s}"),
            _ => format!("{s}-{end}"),
        });
    }
    format!("{what} in bins {}", parts.join(" | "))
}

/// The p-value of `statistic` under `plan`.
fn read(
    plan: &Plan,
    (name, law): (&'static str, &str),
    statistic: f64,
    dof: f64,
    trials: u64,
) -> Result<TestResult, String> {
    let (p_value, method) = match plan {
        Plan::Exact(l) => (l.p_value(statistic), Method::Exact),
        Plan::ExactSum(probs) => (
            super::pearson::pearson_tail(probs, trials, statistic),
            Method::Exact,
        ),
        Plan::ChiSquare(f) => (
            (f * super::power::chi_square_sf(statistic, dof)).min(1.0),
            Method::ChiSquare,
        ),
        Plan::Skip(why) => return Err(why.clone()),
    };
    Ok(TestResult {
        name,
        statistic,
        dof: Some(dof),
        p_value,
        method,
        law: law.to_string(),
    })
}

/// Pearson's statistic of the card × position counts, scaled by (n−1)/n so
/// that it is χ²((n−1)²) for a uniform shuffle (see [`super`]).
pub fn positions_statistic(n: usize, positions: &[u64], trials: u64) -> f64 {
    let nf = n as f64;
    let expected = trials as f64 / nf;
    let pearson: f64 = positions
        .iter()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum();
    pearson * (nf - 1.0) / nf
}

/// Pearson's statistic of counts in equally likely cells, `K·Σo²/T − T`.
pub fn equal_cells_statistic(counts: &[u64], trials: u64) -> f64 {
    let squares: f64 = counts.iter().map(|&o| (o as f64) * (o as f64)).sum();
    counts.len() as f64 * squares / trials as f64 - trials as f64
}

/// The orders of `0..n` in lexicographic order (rank order).
pub fn orders(n: usize) -> Vec<Vec<usize>> {
    let mut all: Vec<Vec<usize>> = vec![Vec::new()];
    for _ in 0..n {
        let mut longer = Vec::new();
        for p in &all {
            for c in (0..n).filter(|c| !p.contains(c)) {
                let mut q = p.clone();
                q.push(c);
                longer.push(q);
            }
        }
        all = longer;
    }
    all
}

/// The card × position counts of `counts[r]` shuffles giving order of rank r.
pub fn positions_of(n: usize, orders: &[Vec<usize>], counts: &[u64]) -> Vec<u64> {
    let mut positions = vec![0u64; n * n];
    for (p, &c) in orders.iter().zip(counts) {
        for (pos, &card) in p.iter().enumerate() {
            positions[card * n + pos] += c;
        }
    }
    positions
}

/// The plan of the card × position test.
pub(crate) fn plan_positions(n: usize, trials: u64, tail: f64, legacy: bool) -> Plan {
    let expected = trials as f64 / n as f64;
    if n < 2 || expected < 5.0 {
        return Plan::Skip(format!("needs at least {} trials", 5 * n.max(2)));
    }
    let dof = ((n - 1) * (n - 1)) as f64;
    if legacy {
        return Plan::ChiSquare(1.0);
    }
    if n <= MAX_N_FOR_PERMUTATION_TABLE && compositions(trials, factorial(n)) <= tails::MAX_OUTCOMES
    {
        let all = orders(n);
        let probs = vec![1.0 / all.len() as f64; all.len()];
        let law = ExactLaw::multinomial(&probs, trials, |c| {
            positions_statistic(n, &positions_of(n, &all, c), trials)
        });
        if let Some(law) = law {
            return Plan::Exact(law);
        }
    }
    chi_square_or_skip(expected, tail, dof, n)
}

/// The plan of the all-orders test (n ≤ 8).
pub(crate) fn plan_permutations(n: usize, trials: u64, tail: f64, legacy: bool) -> Plan {
    if n > MAX_N_FOR_PERMUTATION_TABLE {
        return Plan::Skip(format!("only for n <= {MAX_N_FOR_PERMUTATION_TABLE}"));
    }
    let cells = factorial(n);
    let expected = trials as f64 / cells as f64;
    if n < 2 || expected < 5.0 {
        return Plan::Skip(format!("needs at least {} trials", 5 * cells.max(2)));
    }
    if legacy {
        return Plan::ChiSquare(1.0);
    }
    let probs = vec![1.0 / cells as f64; cells];
    let exact = ExactLaw::multinomial(&probs, trials, |c| equal_cells_statistic(c, trials))
        .or_else(|| ExactLaw::equal_cells(cells, trials));
    match exact {
        Some(law) => Plan::Exact(law),
        None => chi_square_or_skip(expected, tail, (cells - 1) as f64, cells),
    }
}

/// Chi-square where it carries `tail`, else a skip naming the trials needed
/// (`cells` of `expected` each now).
fn chi_square_or_skip(expected: f64, tail: f64, dof: f64, cells: usize) -> Plan {
    if tails::chi_square_carries(expected, tail, dof) {
        return Plan::ChiSquare(tails::CHI_SQUARE_FACTOR);
    }
    let need = (tails::least_expected(tail, dof) * cells as f64).ceil();
    Plan::Skip(format!(
        "no exact law at this size, and the chi-square tail needs at least {need} trials \
         at this alpha"
    ))
}

/// Runs the card × position test.
pub(crate) fn run_positions(plan: &Plan, t: &Tally) -> Result<TestResult, String> {
    let statistic = positions_statistic(t.n, &t.positions, t.trials);
    let dof = ((t.n - 1) * (t.n - 1)) as f64;
    let what = ("positions", "card x position counts");
    read(plan, what, statistic, dof, t.trials)
}

/// Runs the all-orders test.
pub(crate) fn run_permutations(plan: &Plan, t: &Tally) -> Result<TestResult, String> {
    let Some(table) = &t.permutations else {
        return Err(format!("only for n <= {MAX_N_FOR_PERMUTATION_TABLE}"));
    };
    let statistic = equal_cells_statistic(table, t.trials);
    let dof = (table.len() - 1) as f64;
    read(
        plan,
        ("permutations", "all n! orders"),
        statistic,
        dof,
        t.trials,
    )
}

fn factorial(n: usize) -> usize {
    (1..=n).product()
}

/// The four histogram laws, by test name and what they count.
pub(crate) fn histogram_laws(n: usize) -> [(&'static str, &'static str, Vec<f64>); 4] {
    [
        ("fixed-points", "fixed points", laws::fixed_points(n)),
        ("cycles", "cycles", laws::cycles(n)),
        (
            "rising-sequences",
            "rising sequences",
            laws::rising_sequences(n),
        ),
        ("successions", "successions", laws::successions(n)),
    ]
}
