//! Statistical tests of the audit itself. Each uses a fixed seed; a uniform
//! shuffle must pass at the family-wise alpha 1e-6 (false-alarm rate ≤ 1e-6
//! per test up to the chi-square approximation, so these cannot flake), and a
//! biased shuffle — the negative control — must fail.

use fairdeck::dice::Dice;
use fairdeck::rng::{Generator, Seed};

use super::run::shuffles;
use super::*;

fn fisher_yates<D: Dice>(n: usize, d: &mut D) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    fairdeck::shuffle::shuffle(&mut v, d);
    v
}

/// Negative control: swap each position with any of the n positions.
fn naive_swap<D: Dice>(n: usize, d: &mut D) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in 0..n {
        v.swap(i, d.roll(n as u64) as usize);
    }
    v
}

/// Negative control: Sattolo's algorithm (only cyclic orders).
fn sattolo<D: Dice>(n: usize, d: &mut D) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        v.swap(i, d.roll(i as u64) as usize);
    }
    v
}

fn audit<F>(n: usize, trials: u64, seed: &str, f: F) -> Audit
where
    F: Fn(usize, &mut fairdeck::dice::RngDice<fairdeck::rng::AnyRng>) -> Vec<usize> + Sync,
{
    let seed = Seed::from_text(seed);
    let tally = shuffles(n, trials, &seed, Generator::Xoshiro256PlusPlus, f, &|_| {}).unwrap();
    evaluate(&tally, DEFAULT_ALPHA)
}

#[test]
fn fisher_yates_passes_every_test_at_52_and_at_5() {
    let a = audit(52, 40_000, "stats-fy-52", fisher_yates);
    assert_eq!(a.tests.len(), 16, "{:?}", a.skipped); // all but permutations
    assert!(a.no_test_rejected(), "{:?}", a.failed());
    let a = audit(5, 40_000, "stats-fy-5", fisher_yates);
    assert_eq!(a.tests.len(), 16, "{:?}", a.skipped); // all but birthday
    assert!(a.no_test_rejected(), "{:?}", a.failed());
}

#[test]
fn naive_swap_fails_the_position_test_at_52() {
    let a = audit(52, 40_000, "stats-naive-52", naive_swap);
    let failed: Vec<&str> = a.failed().iter().map(|t| t.name).collect();
    assert!(failed.contains(&"positions"), "{failed:?}");
}

#[test]
fn sattolo_fails_fixed_points_and_cycles() {
    let a = audit(10, 2_000, "stats-sattolo", sattolo);
    let failed: Vec<&str> = a.failed().iter().map(|t| t.name).collect();
    assert!(failed.contains(&"fixed-points") && failed.contains(&"cycles"));
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let seed = Seed::from_text("threads");
            shuffles(9, 50_000, &seed, Generator::ChaCha20, fisher_yates, &|_| {}).unwrap()
        })
    };
    let (mut one, mut four) = (run(1), run(4));
    one.fingerprints.sort_unstable();
    four.fingerprints.sort_unstable();
    assert_eq!(one, four);
}

#[test]
fn birthday_catches_a_small_state_generator() {
    // A "shuffle" driven by only 2^10 distinct states repeats decks at once.
    let small_state = |n: usize, d: &mut fairdeck::dice::RngDice<fairdeck::rng::AnyRng>| {
        let state = d.roll(1024);
        let mut inner = fairdeck::dice::RngDice::new(
            Generator::Xoshiro256PlusPlus.build(&Seed::from_text(&state.to_string())),
        );
        fisher_yates(n, &mut inner)
    };
    let a = audit(20, 3_000, "stats-birthday", small_state);
    let failed: Vec<&str> = a.failed().iter().map(|t| t.name).collect();
    assert!(failed.contains(&"birthday"), "{failed:?}");
}

/// A stream of one deck repeated (a broken shuffler read with `--input`):
/// C(T, 2) duplicate pairs, a Poisson tail of 0, and every test rejects
/// but `rising-low` (the reversed deck has the most rising sequences) and
/// the riffle and top-to-random family tests (no riffle or top-to-random
/// machine makes that deck more often than a uniform shuffle: they test
/// for those machines, not for every bias).
/// (The tail summed ln k! term by term: 89 s at T = 20 000; now O(1) per k.)
#[test]
fn one_deck_repeated_is_caught_by_every_test_it_runs() {
    let mut t = Tally::new(52);
    let deck: Vec<usize> = (0..52).rev().collect();
    for _ in 0..20_000 {
        t.add(&deck).unwrap();
    }
    let a = evaluate(&t, DEFAULT_ALPHA);
    let birthday = a.tests.iter().find(|r| r.name == "birthday").unwrap();
    assert_eq!(birthday.statistic, 20_000.0 * 19_999.0 / 2.0);
    assert_eq!(birthday.p_value, 0.0);
    let passed: Vec<&str> = a
        .tests
        .iter()
        .filter(|r| r.p_value >= a.threshold())
        .map(|r| r.name)
        .collect();
    assert_eq!(
        passed,
        ["rising-low", "riffles-lr", "top-to-random-lr"],
        "{:?}",
        a.tests
    );
}
