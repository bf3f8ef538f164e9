//! The family tails against enumeration: the statistics' uniform laws
//! against all n! orders, and Chernoff's bound on each machine's
//! log-likelihood ratio against its exact tail over T decks (every
//! histogram with its multinomial probability). No randomness: nothing can
//! flake. The bound asserted: Chernoff's bound is never below the exact
//! tail (so the family tests' false-alarm rate stays within their share),
//! and it is below Markov's e^{−s} where the decks are many (it is tighter).

use super::*;
use crate::stats::Tally;
use crate::stats::families;
use crate::stats::gof::orders;
use crate::stats::tails::each_outcome;

const ALL: [Statistic; 4] = [
    Statistic::RisingSequences,
    Statistic::Valleys,
    Statistic::DescentsValleys,
    Statistic::BottomRun,
];

/// The law of `statistic` over all n! orders, by the tally.
fn enumerated_law(statistic: Statistic, n: usize) -> Vec<f64> {
    let all = orders(n);
    let mut t = Tally::new(n);
    for p in &all {
        t.add(p).unwrap();
    }
    statistic
        .counts(&t)
        .iter()
        .map(|&c| c as f64 / all.len() as f64)
        .collect()
}

#[test]
fn uniform_laws_match_enumeration() {
    for n in 1..=8 {
        for statistic in ALL {
            let want = enumerated_law(statistic, n);
            let got = uniform_law(statistic, n);
            assert_eq!(want.len(), got.len(), "{statistic:?}, n = {n}");
            for (i, (w, g)) in want.iter().zip(&got).enumerate() {
                assert!(
                    (w - g).abs() < 1e-12,
                    "{statistic:?}, n = {n}, {i}: {w} {g}"
                );
            }
        }
    }
    let joint: f64 = descents_valleys(52).iter().sum();
    assert!((joint - 1.0).abs() < 1e-12, "{joint}");
}

/// Every `(S, probability)` of one member's summed llr over T uniform decks
/// (−∞ where a deck is one the machine cannot make).
fn exact_sums(law: &[f64], llr: &[f64], trials: u64) -> Vec<(f64, f64)> {
    let values: Vec<(f64, f64)> = law
        .iter()
        .zip(llr)
        .filter(|(p, _)| **p > 0.0)
        .map(|(p, l)| (*p, *l))
        .collect();
    let probs: Vec<f64> = values.iter().map(|v| v.0).collect();
    let mut out = Vec::new();
    each_outcome(&probs, trials, |c, p| {
        let s = c
            .iter()
            .zip(&values)
            .filter(|(k, _)| **k > 0)
            .map(|(&k, &(_, l))| k as f64 * l)
            .sum();
        out.push((s, p));
    });
    out
}

/// Checks every member of `family` (n cards) at each T: at every sum s a
/// histogram reaches, the bound is at least the exact `P(S ≥ s)`.
fn bound_holds(family: &Family, n: usize, sizes: &[u64]) -> usize {
    let law = uniform_law(family.statistic, n);
    let tail = FamilyTail::new(family, n);
    let mut checked = 0;
    for (i, member) in family.members.iter().enumerate() {
        for &trials in sizes {
            let sums = exact_sums(&law, &member.llr, trials);
            for &(s, _) in sums.iter().filter(|x| x.0.is_finite()) {
                // Ties within rounding count as reaching s.
                let exact: f64 = sums.iter().filter(|x| x.0 >= s - 1e-9).map(|x| x.1).sum();
                let bound = tail.ln_member_bound(i, s, trials).exp();
                assert!(
                    bound >= exact * (1.0 - 1e-9),
                    "{}, T = {trials}, s = {s}: {bound:e} < {exact:e}",
                    member.label
                );
                checked += 1;
            }
        }
    }
    checked
}

/// Over few decks the tail a test reads is the exact one.
#[test]
fn few_decks_read_the_exact_tail() {
    let family = families::top_to_random(5);
    let law = uniform_law(family.statistic, 5);
    let tail = FamilyTail::with_exact(&family, 5, 6);
    for (i, member) in family.members.iter().enumerate() {
        let sums = exact_sums(&law, &member.llr, 6);
        for &(s, _) in sums.iter().filter(|x| x.0.is_finite()) {
            let exact: f64 = sums.iter().filter(|x| x.0 >= s - 1e-9).map(|x| x.1).sum();
            let read = tail.ln_member_tail(i, s, 6).exp();
            assert!(
                (read - exact).abs() <= 1e-12 + 1e-9 * exact,
                "{read:e} vs {exact:e}"
            );
        }
    }
}

#[test]
fn chernoff_bound_is_never_below_the_exact_tail() {
    let cases = [
        (families::riffles(5), 5, vec![1, 3, 8, 12]),
        (families::shelves(7, 1), 7, vec![1, 4, 12, 30]),
        (families::shelves(7, 2), 7, vec![1, 4, 12, 30]),
        (families::biased_shelves(5), 5, vec![1, 3, 6]),
        (families::top_to_random(5), 5, vec![1, 3, 8, 12]),
    ];
    for (family, n, sizes) in cases {
        let checked = bound_holds(&family, n, &sizes);
        eprintln!("{}: {checked} tails checked", family.name);
        assert!(checked > 100, "{}: {checked}", family.name);
    }
}

/// Power, not validity: at many decks the bound at a sum the machine's
/// decks typically reach is far below Markov's e^{−s}, and a biased
/// sample's p-value falls below the uniform one's (negative control).
#[test]
fn chernoff_bound_is_tighter_than_markov_at_many_decks() {
    let n = 52;
    let family = families::riffles(n);
    let tail = FamilyTail::new(&family, n);
    let law = uniform_law(family.statistic, n);
    let llr = &family.members[11].llr; // 12 riffles
    // The machine's own mean llr per deck (its Kullback–Leibler divergence).
    let kl: f64 = law
        .iter()
        .zip(llr)
        .filter(|(p, l)| **p > 0.0 && l.is_finite())
        .map(|(p, l)| p * l.exp() * l)
        .sum();
    let trials = 60_000;
    let s = kl * trials as f64;
    let chernoff = tail.ln_member_tail(11, s, trials);
    assert!(chernoff < -s - 1.0, "{chernoff} vs Markov {}", -s);
    // Uniform decks in their expected proportions give no evidence.
    let counts: Vec<u64> = law.iter().map(|p| (p * trials as f64) as u64).collect();
    let uniform = tail.p_value(
        &crate::stats::likelihood::member_ratios(&family, &counts),
        trials,
    );
    assert_eq!(uniform, 1.0);
}
