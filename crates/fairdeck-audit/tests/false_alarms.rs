//! The audit's false-alarm rate, by enumeration: every outcome of a fair
//! shuffle (or of each test's statistic) with its exact probability, run
//! through the audit as implemented. No randomness, so nothing can flake:
//! each assertion is a computed probability against α.
//!
//! Negative control: the chi-square-only tests of earlier releases
//! ([`Evaluator::chi_square_only`]) run through the same enumeration exceed
//! α at these sizes, so the enumeration can see a miscalibrated audit.

use fairdeck_audit::stats::gof::{orders, positions_of};
use fairdeck_audit::stats::tails::each_outcome;
use fairdeck_audit::stats::{DEFAULT_ALPHA, Evaluator, Tally, laws, repeats};

/// The tally of `counts[r]` shuffles giving the order of rank r, from the
/// tallies of one shuffle of each order.
fn tally_of(n: usize, all: &[Vec<usize>], singles: &[Tally], counts: &[u64]) -> Tally {
    let mut t = Tally::new(n);
    t.trials = counts.iter().sum();
    t.positions = positions_of(n, all, counts);
    for (one, &c) in singles.iter().zip(counts) {
        let scaled = |into: &mut Vec<u64>, from: &[u64]| {
            for (x, y) in into.iter_mut().zip(from) {
                *x += c * y;
            }
        };
        scaled(&mut t.fixed_points, &one.fixed_points);
        scaled(&mut t.cycles, &one.cycles);
        scaled(&mut t.rising_sequences, &one.rising_sequences);
        scaled(&mut t.successions, &one.successions);
        scaled(&mut t.valleys, &one.valleys);
        scaled(&mut t.guesses, &one.guesses);
        scaled(&mut t.bottom_runs, &one.bottom_runs);
        scaled(&mut t.descents_valleys, &one.descents_valleys);
    }
    t.permutations = Some(counts.to_vec());
    t
}

/// P(the audit rejects) for 3 cards and `trials` fair shuffles, summed over
/// all C(T+5, 5) outcomes of the six orders' counts.
fn family_wise_at_three(
    trials: u64,
    evaluator: &Evaluator,
    alpha: f64,
) -> (f64, Vec<&'static str>) {
    let all = orders(3);
    let singles: Vec<Tally> = all
        .iter()
        .map(|p| {
            let mut one = Tally::new(3);
            one.add(p).unwrap();
            one
        })
        .collect();
    let probs = vec![1.0 / 6.0; 6];
    let (mut rate, mut tests) = (0.0, Vec::new());
    each_outcome(&probs, trials, |c, p| {
        let audit = evaluator.evaluate(&tally_of(3, &all, &singles, c), alpha);
        tests = audit.tests.iter().map(|r| r.name).collect();
        if !audit.no_test_rejected() {
            rate += p;
        }
    });
    (rate, tests)
}

#[test]
fn three_cards_family_wise_false_alarms_stay_below_alpha() {
    let alpha = DEFAULT_ALPHA;
    // Cycles and successions are the fixed-points test at n = 3 (counted
    // once, though successions runs alone at T = 12, where fixed points
    // have too few trials); the all-orders test needs 30 trials; the
    // repeated-orders and model tests run where they can reject (at these
    // T all but valleys-low, and at 12 the two valley tests).
    for (trials, expected) in [(12, 4), (24, 7), (30, 8), (36, 8)] {
        let (rate, tests) = family_wise_at_three(trials, &Evaluator::new(3, trials, alpha), alpha);
        eprintln!("n = 3, T = {trials}: {tests:?}, family-wise false alarms {rate:.3e}");
        assert_eq!(tests.len(), expected, "T = {trials}: {tests:?}");
        assert!(rate <= alpha, "T = {trials}: {rate:e} > {alpha:e}");
    }
    // Negative control: the bare chi-square tails (the issue measured
    // 2.65e-6 at T = 30).
    let (old, _) = family_wise_at_three(30, &Evaluator::chi_square_only(3, 30), alpha);
    eprintln!("n = 3, T = 30, chi-square only: {old:.3e}");
    assert!(old > alpha, "{old:e}");
}

/// The raw histogram law of test `name` at n = 4.
fn law_of(name: &str) -> Vec<f64> {
    match name {
        "fixed-points" => laws::fixed_points(4),
        "cycles" => laws::cycles(4),
        "rising-sequences" => laws::rising_sequences(4),
        _ => laws::successions(4),
    }
}

/// P(histogram test `name` rejects at `share`) for 4 cards and `trials`
/// fair shuffles: every outcome of its histogram, with the histogram alone
/// filled in a tally (the other tests' results are not read).
fn histogram_rate(name: &str, trials: u64, evaluator: &Evaluator, share: f64) -> f64 {
    let law = law_of(name);
    let support: Vec<usize> = (0..law.len()).filter(|&k| law[k] > 0.0).collect();
    let probs: Vec<f64> = support.iter().map(|&k| law[k]).collect();
    let mut rate = 0.0;
    each_outcome(&probs, trials, |c, p| {
        let mut t = Tally::new(4);
        t.trials = trials;
        let field = match name {
            "fixed-points" => &mut t.fixed_points,
            "cycles" => &mut t.cycles,
            "rising-sequences" => &mut t.rising_sequences,
            _ => &mut t.successions,
        };
        for (&k, &o) in support.iter().zip(c) {
            field[k] = o;
        }
        let test = evaluator.histogram_test(name, &t).unwrap().unwrap();
        if test.p_value < share {
            rate += p;
        }
    });
    rate
}

const HISTOGRAMS: [&str; 4] = ["fixed-points", "cycles", "rising-sequences", "successions"];

/// At n = 4 the six-test audit cannot be enumerated whole (24 orders), so
/// each test's false-alarm probability is computed alone and the family-wise
/// rate bounded by their sum (Bonferroni), which must stay ≤ α; each test
/// alone must stay ≤ its share α/m.
#[test]
fn four_cards_each_test_stays_within_its_share() {
    let alpha = DEFAULT_ALPHA;
    // T = 96 and 120: both sides of where the permutations test joins.
    for trials in [96, 120, 144] {
        let evaluator = Evaluator::new(4, trials, alpha);
        let mut t = Tally::new(4);
        t.trials = trials;
        let audit = evaluator.evaluate(&t, alpha);
        let share = audit.threshold();
        let mut total = 0.0;
        for name in HISTOGRAMS {
            let rate = histogram_rate(name, trials, &evaluator, share);
            eprintln!("n = 4, T = {trials}, {name}: {rate:.3e} (share {share:.3e})");
            assert!(
                rate <= share,
                "{name} at T = {trials}: {rate:e} > {share:e}"
            );
            total += rate;
        }
        if let Some(law) = evaluator.permutations_law() {
            let rate: f64 = law
                .outcomes()
                .filter(|&(x, _)| law.p_value(x) < share)
                .map(|(_, p)| p)
                .sum();
            eprintln!("n = 4, T = {trials}, permutations: {rate:.3e}");
            assert!(rate <= share, "permutations at T = {trials}: {rate:e}");
            total += rate;
        }
        let ran: Vec<&str> = audit.tests.iter().map(|r| r.name).collect();
        assert!(
            !ran.contains(&"positions"),
            "positions has no exact law here"
        );
        for name in MODEL_TESTS {
            let (rate, _) = model_rate(4, trials, name, &evaluator);
            assert!(rate <= share, "{name} at T = {trials}: {rate:e}");
            total += rate;
        }
        // repeated-orders: its exact tail (T ≤ 2000) holds it to its share
        // (`repeated_orders_stay_within_their_share` checks the tail); so
        // does the Chernoff bound of each family test that runs (checked
        // against the exact tails in `stats::family_tails`' tests).
        total += share;
        let families = ran.iter().filter(|name| name.ends_with("-lr")).count();
        total += families as f64 * share;
        // All five family tests can reach their share at T = 96 (with
        // Markov's bound one of them could not, and was skipped); the
        // permutations test joins at T = 120.
        assert_eq!(families, 5, "{ran:?}");
        assert_eq!(ran.len(), 14 + usize::from(trials >= 120), "{ran:?}");
        eprintln!("n = 4, T = {trials}: family-wise at most {total:.3e}");
        assert!(total <= alpha);
    }
}

/// Negative control at n = 4, T = 120: with the bare chi-square tails each
/// histogram test alone rejects a fair shuffle far above its share (the
/// issue measured 3.8–7.6e-6 against 1.7e-7).
#[test]
fn four_cards_chi_square_only_exceeds_its_share() {
    let alpha = DEFAULT_ALPHA;
    let evaluator = Evaluator::chi_square_only(4, 120);
    let share = alpha / 6.0;
    let mut empty = Tally::new(4);
    empty.trials = 120;
    let threshold = evaluator.evaluate(&empty, alpha).threshold();
    let worst = HISTOGRAMS
        .iter()
        .map(|name| histogram_rate(name, 120, &evaluator, threshold))
        .fold(0.0, f64::max);
    eprintln!("n = 4, T = 120, chi-square only: worst histogram test {worst:.3e}");
    assert!(worst > 10.0 * share, "{worst:e}");
}

/// At n = 2 the six tests are one test (the number of swaps), run once with
/// the whole α: every outcome k ~ Binomial(T, ½) enumerated, the family-wise
/// rate stays ≤ α, and exactly one test runs.
#[test]
fn two_cards_run_one_test_with_the_whole_alpha() {
    let alpha = DEFAULT_ALPHA;
    for trials in [10, 30, 60, 120] {
        let evaluator = Evaluator::new(2, trials, alpha);
        let mut rate = 0.0;
        each_outcome(&[0.5, 0.5], trials, |c, p| {
            let mut t = Tally::new(2);
            for i in 0..trials {
                t.add(if i < c[0] { &[1, 0] } else { &[0, 1] }).unwrap();
            }
            let audit = evaluator.evaluate(&t, alpha);
            assert_eq!(audit.tests.len(), 1, "T = {trials}: {:?}", audit.tests);
            if !audit.no_test_rejected() {
                rate += p;
            }
        });
        eprintln!("n = 2, T = {trials}: family-wise false alarms {rate:.3e}");
        assert!(rate <= alpha, "T = {trials}: {rate:e} > {alpha:e}");
    }
}

/// The law of the sum of `trials` independent counts with law `law`.
fn sum_law(law: &[f64], trials: u64) -> Vec<f64> {
    let mut sum = vec![1.0];
    for _ in 0..trials {
        let mut next = vec![0.0; sum.len() + law.len() - 1];
        for (i, &a) in sum.iter().enumerate() {
            for (j, &b) in law.iter().enumerate() {
                next[i + j] += a * b;
            }
        }
        sum = next;
    }
    sum
}

/// A tally of `trials` decks of `n` cards whose histogram `name` sums to
/// `s` (r decks at a + 1, the rest at a); the other counts are left empty.
fn tally_with_sum(n: usize, trials: u64, name: &str, s: u64) -> Tally {
    let mut t = Tally::new(n);
    t.trials = trials;
    let field = match name {
        "rising-low" => &mut t.rising_sequences,
        "guessing" => &mut t.guesses,
        _ => &mut t.valleys,
    };
    let (a, r) = ((s / trials) as usize, s % trials);
    field[a] += trials - r;
    if r > 0 {
        field[a + 1] += r;
    }
    t
}

const MODEL_TESTS: [&str; 4] = ["valleys-low", "valleys", "rising-low", "guessing"];

/// The probability that model test `name` alone rejects `trials` uniform
/// decks of `n` cards, through the audit as implemented: every sum of the
/// counts (its exact law, by convolution here) whose p-value falls below the
/// test's share. Returns the rate and the share.
fn model_rate(n: usize, trials: u64, name: &str, evaluator: &Evaluator) -> (f64, f64) {
    let law = match name {
        "rising-low" => laws::rising_sequences(n),
        "guessing" => laws::guesses(n),
        _ => laws::valleys(n),
    };
    let least = law.iter().position(|&p| p > 0.0).unwrap();
    let sums = sum_law(&law[least..], trials);
    // The share: alpha over the tests a whole audit of this size runs.
    let share = evaluator
        .evaluate(&tally_with_sum(n, trials, name, 0), DEFAULT_ALPHA)
        .threshold();
    let (mut rate, mut method) = (0.0, "");
    for (i, &p) in sums.iter().enumerate() {
        let s = i as u64 + trials * least as u64;
        let t = tally_with_sum(n, trials, name, s);
        let Ok(test) = evaluator.model_test(name, &t).unwrap() else {
            eprintln!("n = {n}, T = {trials}, {name}: not run (cannot reject)");
            return (0.0, share);
        };
        method = test.method.label();
        if test.p_value < share {
            rate += p;
        }
    }
    eprintln!("n = {n}, T = {trials}, {name} ({method}): {rate:.3e} (share {share:.3e})");
    (rate, share)
}

/// Each model test alone stays within its share, at sizes where its tail is
/// exact and where it is Chernoff's bound (T = 300 at 52 cards, 2000 at 10).
/// The rates are not zero where the tests can reject: they are tests.
#[test]
fn model_tests_stay_within_their_share() {
    let sizes = [
        (3, 24),
        (5, 40),
        (10, 600),
        (10, 2000),
        (52, 3),
        (52, 100),
        (52, 300),
    ];
    for (n, trials) in sizes {
        let evaluator = Evaluator::new(n, trials, DEFAULT_ALPHA);
        for name in MODEL_TESTS {
            let (rate, share) = model_rate(n, trials, name, &evaluator);
            assert!(
                rate <= share,
                "{name}, n = {n}, T = {trials}: {rate:e} > {share:e}"
            );
            if trials >= 100 {
                assert!(rate > 0.0, "{name}, n = {n}, T = {trials} never rejects");
            }
        }
    }
}

/// The repeated-orders test against the law of the largest count, found
/// here by enumerating every way T decks fall into the n! orders: its
/// false-alarm rate stays within its share, and twelve identical decks of 3
/// cards are below it.
#[test]
fn repeated_orders_stay_within_their_share() {
    let alpha = DEFAULT_ALPHA;
    for (n, trials) in [(3, 12), (3, 30), (3, 60), (4, 8), (4, 40)] {
        let cells: usize = (1..=n).product();
        let probs = vec![1.0 / cells as f64; cells];
        let mut largest = vec![0.0; trials as usize + 1];
        let compositions = (1..cells).fold(1.0, |a, j| a * (trials as f64 + j as f64) / j as f64);
        if compositions <= 1e7 {
            each_outcome(&probs, trials, |c, p| {
                largest[*c.iter().max().unwrap() as usize] += p;
            });
            let by_decks = largest_by_decks(cells, trials);
            for (a, b) in largest.iter().zip(&by_decks) {
                assert!((a - b).abs() < 1e-9, "{a} vs {b}");
            }
        } else {
            // Too many compositions: the decks one by one instead.
            largest = largest_by_decks(cells, trials);
        }
        let mut empty = Tally::new(n);
        empty.trials = trials;
        let audit = Evaluator::new(n, trials, alpha).evaluate(&empty, alpha);
        let share = audit.threshold();
        let rate: f64 = (0..=trials)
            .filter(|&m| repeats::tail(n, trials, m) < share)
            .map(|m| largest[m as usize])
            .sum();
        eprintln!("n = {n}, T = {trials}, repeated-orders: {rate:.3e} (share {share:.3e})");
        assert!(
            rate <= share && rate > 0.0,
            "n = {n}, T = {trials}: {rate:e}"
        );
    }
    assert!(repeats::tail(3, 12, 12) < DEFAULT_ALPHA / 12.0);
}

/// The law of the largest count when `trials` balls fall into `cells`
/// equally likely boxes, by adding balls one at a time to the sorted
/// occupancy vectors.
fn largest_by_decks(cells: usize, trials: u64) -> Vec<f64> {
    use std::collections::HashMap;
    let mut states: HashMap<Vec<u64>, f64> = HashMap::from([(vec![0; cells], 1.0)]);
    for _ in 0..trials {
        let mut next: HashMap<Vec<u64>, f64> = HashMap::new();
        for (counts, p) in &states {
            for i in 0..cells {
                if i > 0 && counts[i] == counts[i - 1] {
                    continue; // the same state as box i − 1
                }
                let same = counts.iter().filter(|&&c| c == counts[i]).count();
                let mut c = counts.clone();
                c[i] += 1;
                c.sort_unstable_by(|a, b| b.cmp(a));
                *next.entry(c).or_default() += p * same as f64 / cells as f64;
            }
        }
        states = next;
    }
    let mut largest = vec![0.0; trials as usize + 1];
    for (counts, p) in states {
        largest[counts[0] as usize] += p;
    }
    largest
}
