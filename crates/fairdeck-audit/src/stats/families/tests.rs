//! The machines' laws against enumeration of every path of the machine, and
//! the property the family tests' p-values rest on: each likelihood ratio
//! has mean exactly 1 under uniform shuffling.

use super::*;
use crate::exact::{Limits, distribution};
use crate::mix::Model;
use crate::stats::gof::orders;
use crate::stats::{laws, rank};
use fairdeck::dice::Dice;
use num_traits::ToPrimitive;

/// `Σ_x P_uniform(x) · e^{llr(x)}`.
fn mean_ratio(law: &[f64], llr: &[f64]) -> f64 {
    law.iter()
        .zip(llr)
        .filter(|(p, _)| **p > 0.0)
        .map(|(p, l)| p * l.exp())
        .sum()
}

fn n_factorial(n: usize) -> f64 {
    (1..=n).map(|x| x as f64).product()
}

/// Checks that the exact law of `shuffle` on n cards (every path walked)
/// gives each order the probability `e^{llr(stat(order))} / n!`.
fn matches_enumeration(
    n: usize,
    shuffle: impl Fn(&mut Vec<usize>, &mut crate::walk::Walker),
    stat: impl Fn(&[usize]) -> usize,
    llr: &[f64],
) {
    let d = distribution(
        n,
        |w| {
            let mut deck: Vec<usize> = (0..n).collect();
            shuffle(&mut deck, w);
            deck
        },
        Limits::default(),
    )
    .unwrap();
    let mut law = vec![0.0; n_factorial(n) as usize];
    for (p, prob) in &d.outcomes {
        law[rank(p)] = prob.to_f64().unwrap();
    }
    for p in orders(n) {
        let want = llr[stat(&p)].exp() / n_factorial(n);
        let got = law[rank(&p)];
        assert!((want - got).abs() < 1e-12, "{p:?}: {want} vs {got}");
    }
}

fn valleys(p: &[usize]) -> usize {
    p.windows(3).filter(|w| w[0] > w[1] && w[1] < w[2]).count()
}

fn joint(p: &[usize]) -> usize {
    let d = p.windows(2).filter(|w| w[0] > w[1]).count();
    d * (p.len() / 2 + 1) + valleys(p)
}

fn inverse_rising(p: &[usize]) -> usize {
    let mut t = Tally::new(p.len());
    t.add(p).unwrap();
    t.rising_sequences.iter().position(|&c| c > 0).unwrap()
}

fn bottom(p: &[usize]) -> usize {
    let mut where_is = vec![0; p.len()];
    for (i, &c) in p.iter().enumerate() {
        where_is[c] = i;
    }
    crate::stats::bottom_run(&where_is)
}

#[test]
fn riffles_match_enumeration() {
    for (n, k) in [(5, 1), (4, 2)] {
        let member = riffles(n).members.remove(k - 1);
        assert_eq!(member.value, k as f64);
        matches_enumeration(
            n,
            |deck, w| (0..k).for_each(|_| Model::Riffle.shuffle(deck, w)),
            inverse_rising,
            &member.llr,
        );
    }
}

/// The derived law of the biased machine (module doc) against all 15⁵
/// paths of one pass of 5 cards through 5 shelves, a card going on top with
/// chance 1/3; and at p = ½ the fair machine's law, which depends on the
/// valleys alone.
#[test]
fn the_biased_shelf_law_matches_enumeration() {
    let counts = joint_cut_counts(5, 1.0 / 3.0);
    let llr = biased_llr(5, 5, 1.0 / 3.0, &counts);
    let pass = |deck: &mut Vec<usize>, w: &mut crate::walk::Walker| {
        let mut piles = vec![std::collections::VecDeque::new(); 5];
        for &card in deck.iter().rev() {
            let pile: &mut std::collections::VecDeque<usize> = &mut piles[w.roll(5) as usize];
            match w.roll(3) {
                0 => pile.push_front(card),
                _ => pile.push_back(card),
            }
        }
        *deck = piles.into_iter().flatten().collect();
    };
    matches_enumeration(5, pass, joint, &llr);
    let fair = shelves(6, 1).members.remove(1); // 3 shelves
    matches_enumeration(
        6,
        |deck, w| crate::mix::shelf::shelf_pass(deck, 3, w),
        valleys,
        &fair.llr,
    );
}

#[test]
fn top_to_random_matches_enumeration() {
    for k in [1, 3, 6] {
        matches_enumeration(
            5,
            |deck, w| (0..k).for_each(|_| Model::TopToRandom.shuffle(deck, w)),
            bottom,
            &top_to_random_llr(5, k),
        );
    }
}

/// E[Λ] = 1 under uniform shuffling for every member of every family at 52
/// cards (the biased family at 9, against a count over all 9! orders):
/// the Markov bound of the family tests holds.
#[test]
fn every_ratio_has_mean_one_on_uniform_decks() {
    let n = 52;
    let bottom_law: Vec<f64> = (0..=n)
        .map(|m| match m {
            0 => 0.0,
            _ if m == n => 1.0 / n_factorial(n),
            _ => 1.0 / n_factorial(m) - 1.0 / n_factorial(m + 1),
        })
        .collect();
    let checks = [
        (riffles(n), laws::rising_sequences(n)),
        (shelves(n, 1), laws::valleys(n)),
        (shelves(n, 2), laws::valleys(n)),
        (top_to_random(n), bottom_law),
    ];
    for (family, law) in &checks {
        for m in &family.members {
            let mean = mean_ratio(law, &m.llr);
            assert!((mean - 1.0).abs() < 1e-9, "{}: {mean}", m.label);
        }
    }
    let n = 9;
    let mut law = vec![0.0; n * (n / 2 + 1)];
    for p in orders(n) {
        law[joint(&p)] += 1.0 / n_factorial(n);
    }
    for m in &biased_shelves(n).members {
        let mean = mean_ratio(&law, &m.llr);
        assert!((mean - 1.0).abs() < 1e-9, "{}: {mean}", m.label);
    }
}
