//! The verdicts' claims checked against real runs: what "no bias detected"
//! could have caught, and when "uniform within ε" may be said.
//!
//! Every run has a fixed seed, so these tests give the same answer every
//! time; the bounds they check are stated at each test.

use fairdeck::algorithms::Algorithm;
use fairdeck::dice::{Dice, RngDice};
use fairdeck::rng::{AnyRng, Generator, Seed};
use fairdeck_audit::stats::power::Effect;
use fairdeck_audit::stats::verdict::{Ask, Verdict, judge, planned_trials};
use fairdeck_audit::stats::{Evaluator, Tally, evaluate, run::shuffles};

const ALPHA: f64 = 1e-6;

fn run(alg: Algorithm, n: usize, trials: u64, seed: &str) -> Tally {
    let seed = Seed::from_text(seed);
    shuffles(
        n,
        trials,
        &seed,
        Generator::ChaCha20,
        |n, d| alg.permute(n, d),
        &|_| {},
    )
    .unwrap()
}

/// naive-swap's exact card × position law, by the Markov chain each card's
/// position follows (step i swaps position i with a uniform j): returns the
/// largest |P(card at position) − 1/n|.
fn naive_swap_true_bias(n: usize) -> f64 {
    let u = 1.0 / n as f64;
    let mut worst = 0.0_f64;
    for card in 0..n {
        let mut at = vec![0.0; n];
        at[card] = 1.0;
        for i in 0..n {
            let from_i = at[i];
            for (p, x) in at.iter_mut().enumerate() {
                *x = if p == i {
                    u
                } else {
                    *x * (1.0 - u) + from_i * u
                };
            }
        }
        worst = at.iter().fold(worst, |w, &x| w.max((x - u).abs()));
    }
    worst
}

#[test]
fn naive_swap_at_300_is_no_bias_detected_and_claims_nothing_of_positions() {
    // At 300 shuffles the card × position test is not run at all: no exact
    // law for 8 cards, and 37 expected per cell are too few for its
    // chi-square tail at α/7 (the skip says how many are needed). So the
    // verdict offers no card × position figure to be misread.
    let t = run(Algorithm::NaiveSwap, 8, 300, "tester");
    let a = evaluate(&t, ALPHA);
    let skip = a.skipped.iter().find(|s| s.0 == "positions").unwrap();
    assert!(skip.1.contains("at least"), "{skip:?}");
    let f = judge(&a, &t, Ask::default());
    assert_eq!(f.verdict, Verdict::NoBiasDetected);
    assert!(naive_swap_true_bias(8) > 0.02, "naive-swap is biased at 8");
    assert!(f.detectable.iter().all(|d| d.test != "positions"));
}

#[test]
fn naive_swap_at_the_needed_shuffles_is_biased() {
    let truth = naive_swap_true_bias(8);
    let t = run(Algorithm::NaiveSwap, 8, 300, "tester");
    let ask = Ask {
        detect: Some(truth),
        tolerance: None,
    };
    let needed = judge(&evaluate(&t, ALPHA), &t, ask).needed.unwrap();
    eprintln!("needed for {truth}: {} shuffles", needed.trials);
    let t = run(Algorithm::NaiveSwap, 8, needed.trials, "tester");
    let f = judge(&evaluate(&t, ALPHA), &t, Ask::default());
    assert_eq!(f.verdict, Verdict::Biased, "at {} shuffles", needed.trials);
}

/// A planted bias of size δ in the least detectable shape (see the power
/// module): with probability w = δ·n/(n−1) card 0 is kept at position 0 and
/// the rest shuffled, otherwise the whole deck is shuffled. Its largest card
/// × position deviation is exactly δ (w is rounded to 2^-32, far below the
/// test's resolution).
fn planted(n: usize, delta: f64, dice: &mut RngDice<AnyRng>) -> Vec<usize> {
    let keep = (delta * n as f64 / (n as f64 - 1.0) * 4_294_967_296.0) as u64;
    let mut v: Vec<usize> = (0..n).collect();
    let from = usize::from(dice.roll(1 << 32) < keep);
    fairdeck::shuffle::shuffle(&mut v[from..], dice);
    v
}

/// Fraction of `runs` seeded runs in which the card × position test rejects.
fn positions_power(n: usize, trials: u64, delta: f64, runs: u32) -> f64 {
    // One plan for every run of this size (the tests read the same laws).
    let evaluator = Evaluator::new(n, trials, ALPHA);
    let mut caught = 0;
    for r in 0..runs {
        let seed = Seed::from_text(&format!("power/{r}"));
        let t = shuffles(
            n,
            trials,
            &seed,
            Generator::ChaCha20,
            |n, d| planted(n, delta, d),
            &|_| {},
        )
        .unwrap();
        let audit = evaluator.evaluate(&t, ALPHA);
        let p = audit.tests.iter().find(|x| x.name == "positions").unwrap();
        caught += u32::from(p.p_value < audit.threshold());
    }
    f64::from(caught) / f64::from(runs)
}

/// The claim: a bias of the reported detectable size is caught with
/// probability ≥ 0.8. Over 200 seeded runs the observed rate of a true 0.8
/// has a standard deviation of 0.028; we accept ≥ 0.73 (2.5 σ below). The
/// negative control: half that bias must be caught far less often (< 0.5),
/// so the figure is not a loose bound that any bias meets.
#[test]
fn planted_bias_is_caught_at_the_reported_size() {
    let (n, trials) = (8, 2000);
    let t = run(Algorithm::FisherYates, n, trials, "reference");
    let f = judge(&evaluate(&t, ALPHA), &t, Ask::default());
    let d = f.detectable.iter().find(|d| d.test == "positions").unwrap();
    assert_eq!(d.effect, Effect::CardPosition);
    let at_size = positions_power(n, trials, d.size, 200);
    assert!(at_size >= 0.73, "caught {at_size} at δ = {}", d.size);
    let at_half = positions_power(n, trials, d.size / 2.0, 200);
    eprintln!("δ = {}: caught {at_size}; δ/2: caught {at_half}", d.size);
    assert!(at_half < 0.5, "caught {at_half} at δ/2 = {}", d.size / 2.0);
}

fn equivalence_verdict(t: &Tally, eps: f64) -> Verdict {
    let ask = Ask {
        detect: None,
        tolerance: Some((eps, 0.999)),
    };
    judge(&evaluate(t, ALPHA), t, ask).verdict
}

#[test]
fn fisher_yates_is_uniform_within_tolerance_at_the_planned_trials() {
    let (n, eps) = (8, 0.01);
    let planned = planned_trials(n, eps, 0.999);
    eprintln!("planned trials for ε = {eps} at n = {n}: {planned}");
    let t = run(Algorithm::FisherYates, n, planned, "equivalence");
    assert_eq!(equivalence_verdict(&t, eps), Verdict::UniformWithin);
    // A tenth of the plan is not enough, and says so without claiming a bias.
    let t = run(Algorithm::FisherYates, n, planned / 10, "equivalence");
    assert_eq!(equivalence_verdict(&t, eps), Verdict::Undecided);
}

#[test]
fn biased_shuffles_are_never_uniform_within_tolerance() {
    let (n, eps) = (8, 0.01);
    let planned = planned_trials(n, eps, 0.999);
    for trials in [planned / 4, planned, 4 * planned] {
        let t = run(Algorithm::NaiveSwap, n, trials, "equivalence");
        let v = equivalence_verdict(&t, eps);
        assert_ne!(v, Verdict::UniformWithin, "naive-swap at {trials}");
    }
    // A planted bias just above ε (1.2 ε) is not called uniform within ε.
    for trials in [planned, 4 * planned] {
        let seed = Seed::from_text("just-above");
        let t = shuffles(
            n,
            trials,
            &seed,
            Generator::ChaCha20,
            |n, d| planted(n, 1.2 * eps, d),
            &|_| {},
        )
        .unwrap();
        let v = equivalence_verdict(&t, eps);
        assert_ne!(v, Verdict::UniformWithin, "planted 1.2 ε at {trials}");
    }
}
