//! Tests that are one test at small n.
//!
//! A histogram test's statistic depends on the counts of the orders only
//! through the cells its bins cut the n! orders into. Two tests that cut the
//! orders into the same cells (with the same probabilities, as they do for a
//! uniform shuffle) compute the same Pearson statistic against the same law,
//! so they give the same p-value on every tally: they are one test, and
//! counting it twice only shrinks every test's Bonferroni share α/m.
//!
//! * n = 2: every test is a function of the number k of swaps. The
//!   histograms' cells are the two orders themselves, like the all-orders
//!   test, and the card × position table is (T−k, k; k, T−k), whose scaled
//!   statistic ½·Σ(o − T/2)²/(T/2) = (2k − T)²/T is exactly the all-orders
//!   statistic 2(k² + (T−k)²)/T − T. One test runs: `positions`.
//! * n = 3: fixed points, cycles and successions all cut the six orders into
//!   the identity, the three transpositions and the two 3-cycles: one test
//!   runs, `fixed-points`.
//!
//! Found by enumerating the orders (n ≤ [`ENUMERATED_UP_TO`]), never assumed:
//! above that, or where enumeration is not done, every test counts as
//! distinct, which is conservative (a smaller share than needed, never a
//! larger one).

use super::gof::{Histogram, Plan, orders};
use super::{MAX_N_FOR_PERMUTATION_TABLE, Tally};

/// Largest n whose orders are enumerated to compare the tests' cells.
pub const ENUMERATED_UP_TO: usize = 6;

/// The histograms of a tally, in the order of [`super::gof::histogram_laws`].
pub(crate) fn histogram_counts(t: &Tally) -> [&[u64]; 4] {
    [
        &t.fixed_points,
        &t.cycles,
        &t.rising_sequences,
        &t.successions,
    ]
}

/// Cells of the n! orders: the cell of each order (rank order), relabelled
/// by first appearance so that equal partitions compare equal.
fn canonical(cells: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut seen: Vec<usize> = Vec::new();
    cells
        .map(|c| match seen.iter().position(|&s| s == c) {
            Some(i) => i,
            None => {
                seen.push(c);
                seen.len() - 1
            }
        })
        .collect()
}

/// For each of the six tests (`positions`, `permutations`, then the four
/// histograms), the name of the earlier test it is the same test as, if
/// any. `histograms` as planned for this sample size.
/// `runs`: whether `positions` and `permutations` are planned to run. A
/// test that does not run (too few trials) is never the one kept.
pub(crate) fn same_as(
    n: usize,
    runs: [bool; 2],
    histograms: &[Histogram],
) -> Vec<(&'static str, &'static str)> {
    if !(2..=ENUMERATED_UP_TO.min(MAX_N_FOR_PERMUTATION_TABLE)).contains(&n) {
        return Vec::new();
    }
    let all = orders(n);
    let discrete: Vec<usize> = (0..all.len()).collect();
    // `positions` is a function of the orders' counts like every test, but it
    // equals another test's statistic only at n = 2 (see the module text).
    let mut cells: Vec<(&'static str, Option<Vec<usize>>)> = vec![
        ("positions", (n == 2 && runs[0]).then(|| discrete.clone())),
        ("permutations", runs[1].then_some(discrete)),
    ];
    let singles: Vec<Tally> = all
        .iter()
        .map(|p| {
            let mut one = Tally::new(n);
            one.add(p).expect("an order of 0..n");
            one
        })
        .collect();
    for (i, h) in histograms.iter().enumerate() {
        if matches!(h.plan, Plan::Skip(_)) {
            cells.push((h.name, None));
            continue;
        }
        let bin = |t: &Tally| {
            let pooled = h.pooled(histogram_counts(t)[i]);
            pooled
                .iter()
                .position(|&c| c == 1)
                .expect("one order, one bin")
        };
        cells.push((h.name, Some(canonical(singles.iter().map(bin)))));
    }
    let mut same = Vec::new();
    for (k, (name, c)) in cells.iter().enumerate() {
        let Some(c) = c else { continue };
        let earlier = cells[..k]
            .iter()
            .find(|(_, e)| e.as_ref() == Some(c))
            .map(|(e, _)| *e);
        if let Some(first) = earlier {
            same.push((*name, first));
        }
    }
    same
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{DEFAULT_ALPHA, Evaluator};

    #[test]
    fn at_two_cards_one_test_runs_and_it_matches_the_others() {
        let e = Evaluator::new(2, 40, DEFAULT_ALPHA);
        let mut t = Tally::new(2);
        for k in 0..40 {
            t.add(if k % 3 == 0 { &[1, 0] } else { &[0, 1] }).unwrap();
        }
        let a = e.evaluate(&t, DEFAULT_ALPHA);
        let ran: Vec<&str> = a.tests.iter().map(|r| r.name).collect();
        assert_eq!(ran, ["positions"], "{:?}", a.skipped);
        assert_eq!(a.threshold(), DEFAULT_ALPHA);
        let reasons: Vec<&str> = a.skipped.iter().take(5).map(|(_, r)| r.as_str()).collect();
        assert!(
            reasons.iter().all(|r| r.contains("same test as positions")),
            "{reasons:?}"
        );
        // The folded tests give the same p-value where they still run alone.
        let perm = crate::stats::gof::plan_permutations(2, 40, 1e-7, false);
        let p = crate::stats::gof::run_permutations(&perm, &t)
            .unwrap()
            .p_value;
        assert!(
            (p - a.tests[0].p_value).abs() <= 1e-12 * p.max(1e-300),
            "{p} vs {}",
            a.tests[0].p_value
        );
    }

    #[test]
    fn at_three_cards_cycles_and_successions_fold_into_fixed_points() {
        let e = Evaluator::new(3, 36, DEFAULT_ALPHA);
        let mut t = Tally::new(3);
        for p in orders(3).iter().cycle().take(36) {
            t.add(p).unwrap();
        }
        let run = e.evaluate(&t, DEFAULT_ALPHA);
        let ran: Vec<&str> = run.tests.iter().map(|r| r.name).collect();
        assert_eq!(
            ran,
            [
                "positions",
                "permutations",
                "fixed-points",
                "rising-sequences",
                "repeated-orders",
                "valleys",
                "rising-low",
                "guessing"
            ],
            "{:?}",
            run.skipped
        );
        let folded: Vec<&str> = run.skipped.iter().map(|(n, _)| *n).collect();
        // 36 decks without a valley have p = (2/3)³⁶ = 4.6·10⁻⁷: valleys-low
        // cannot reject, and takes no share.
        assert_eq!(folded, ["cycles", "successions", "birthday", "valleys-low"]);
        assert_eq!(run.threshold(), DEFAULT_ALPHA / 8.0);
        // The folded tests are the same test: run alone, the same p-value.
        let share = DEFAULT_ALPHA / 12.0;
        for name in ["cycles", "successions"] {
            let laws = crate::stats::gof::histogram_laws(3);
            let (i, (_, what, law)) = laws.iter().enumerate().find(|(_, l)| l.0 == name).unwrap();
            let h = Histogram::plan(name, what, law, 36, share, false);
            let p = h.run(histogram_counts(&t)[i], 36).unwrap().p_value;
            assert!(
                (p - run.tests[2].p_value).abs() <= 1e-9,
                "{name}: {p} vs {}",
                run.tests[2].p_value
            );
        }
    }

    #[test]
    fn from_four_cards_on_every_test_is_distinct() {
        for n in 4..=ENUMERATED_UP_TO {
            let e = Evaluator::new(n, 100_000, DEFAULT_ALPHA);
            assert!(e.same.is_empty(), "n = {n}: {:?}", e.same);
        }
    }

    /// Too few trials for any test: nothing is folded into a test that does
    /// not run (this once indexed an empty list of bins).
    #[test]
    fn tests_that_do_not_run_are_never_kept() {
        for (n, trials) in [(3, 2), (2, 4), (3, 12), (2, 9)] {
            let e = Evaluator::new(n, trials, DEFAULT_ALPHA);
            let mut t = Tally::new(n);
            for p in orders(n).iter().cycle().take(trials as usize) {
                t.add(p).unwrap();
            }
            let a = e.evaluate(&t, DEFAULT_ALPHA);
            for (name, first) in &e.same {
                assert!(
                    a.tests.iter().any(|r| r.name == *first),
                    "{name} folded into {first}, which did not run"
                );
            }
        }
    }

    #[test]
    fn cells_are_compared_as_partitions() {
        assert_eq!(canonical([7, 7, 2, 9, 2].into_iter()), [0, 0, 1, 2, 1]);
        assert_eq!(canonical([1, 1, 0, 5, 0].into_iter()), [0, 0, 1, 2, 1]);
    }
}
