//! The family tests' false-alarm rate, by enumeration: every histogram of
//! the statistic over T uniform decks, with its exact multinomial
//! probability, run through the test as implemented. No randomness, so
//! nothing can flake. The bound asserted: the rate is at most the test's
//! share α/17 of the default α = 10⁻⁶ (Markov's inequality says so for
//! every T; this checks the code), and above 0 where the test can reject
//! (it is a test).

use super::*;
use crate::stats::gof::orders;
use crate::stats::tails::each_outcome;
use crate::stats::{DEFAULT_ALPHA, gof::MAX_TESTS};

/// The rate at which test `name` rejects T uniform decks of n cards at
/// the share α/[`MAX_TESTS`]: the statistic's values and their uniform law
/// counted over all n! orders, then every histogram of T decks.
fn false_alarms(name: &str, n: usize, trials: u64) -> f64 {
    let share = DEFAULT_ALPHA / MAX_TESTS as f64;
    let test = family_tests(n, trials, share)
        .into_iter()
        .find(|t| t.name == name)
        .unwrap();
    // The tally of one deck of each order, grouped by the statistic's index.
    let statistic = test.family().unwrap().statistic;
    let mut bins: Vec<(usize, f64)> = Vec::new();
    let all = orders(n);
    for p in &all {
        let mut one = Tally::new(n);
        one.add(p).unwrap();
        let x = statistic.counts(&one).iter().position(|&c| c > 0).unwrap();
        match bins.iter_mut().find(|b| b.0 == x) {
            Some(b) => b.1 += 1.0 / all.len() as f64,
            None => bins.push((x, 1.0 / all.len() as f64)),
        }
    }
    let probs: Vec<f64> = bins.iter().map(|b| b.1).collect();
    let mut t = Tally::new(n);
    t.trials = trials;
    let mut rate = 0.0;
    each_outcome(&probs, trials, |c, p| {
        let counts = match statistic {
            families::Statistic::RisingSequences => &mut t.rising_sequences,
            families::Statistic::Valleys => &mut t.valleys,
            families::Statistic::DescentsValleys => &mut t.descents_valleys,
            families::Statistic::BottomRun => &mut t.bottom_runs,
        };
        counts.iter_mut().for_each(|x| *x = 0);
        for (b, &k) in bins.iter().zip(c) {
            counts[b.0] = k;
        }
        // A test that does not run raises no alarm.
        if test.run(&t).is_ok_and(|r| r.p_value < share) {
            rate += p;
        }
    });
    eprintln!("{name}, n = {n}, T = {trials}: false alarms {rate:.3e} (share {share:.3e})");
    rate
}

#[test]
fn every_family_test_stays_within_its_share() {
    let share = DEFAULT_ALPHA / MAX_TESTS as f64;
    for (name, n, sizes) in [
        ("riffles-lr", 5, [8, 24]),
        ("shelf-lr", 7, [12, 40]),
        ("shelf-twice-lr", 7, [12, 80]),
        ("shelf-biased-lr", 5, [8, 12]),
        ("top-to-random-lr", 5, [8, 24]),
    ] {
        for trials in sizes {
            let rate = false_alarms(name, n, trials);
            assert!(rate <= share, "{name}, T = {trials}: {rate:e}");
        }
        assert!(
            false_alarms(name, n, sizes[1]) > 0.0,
            "{name} never rejects"
        );
    }
}

/// Too few decks to reach the share: the test says so and takes no share.
#[test]
fn a_test_that_cannot_reject_does_not_run() {
    let tests = family_tests(52, 1, 1e-300);
    assert_eq!(tests.len(), 5);
    for t in &tests {
        let why = t.run(&Tally::new(52)).unwrap_err();
        assert!(why.contains("cannot reject"), "{}: {why}", t.name);
    }
    assert!(family_tests(3, 100, 1e-7).is_empty());
    let big = family_tests(300, 100, 1e-7);
    assert!(big[0].run(&Tally::new(300)).unwrap_err().contains("256"));
}
