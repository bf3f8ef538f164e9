//! Negative controls of the family tests: each catches the machine it is
//! built for, inside the whole audit at the default family-wise α = 10⁻⁶
//! (its share is α over the tests run). The decks come from generators
//! written here, independently of the library's laws. Fixed seeds, so each
//! run gives the same answer; the sizes are a few times what the test
//! needs, so the outcome is not on a knife edge.
//!
//! The positive control (uniform decks raise no alarm) is
//! `machines.rs::uniform_decks_pass_at_every_size`, which now runs the
//! family tests too; their exact false-alarm rates are checked by
//! enumeration in the library (`stats::likelihood` tests).

use std::collections::VecDeque;

use fairdeck::dice::{Dice, RngDice};
use fairdeck::rng::AnyRng;
use fairdeck_audit::stats::Audit;

mod common;
use common::riffles;

/// One pass of an m-shelf machine dealing from the bottom, a card going on
/// top of its shelf when `on_top` says so.
fn shelf<D: Dice + ?Sized>(
    deck: Vec<usize>,
    m: u64,
    d: &mut D,
    on_top: impl Fn(&mut D) -> bool,
) -> Vec<usize> {
    let mut piles: Vec<VecDeque<usize>> = vec![VecDeque::new(); m as usize];
    for &card in deck.iter().rev() {
        let pile = d.roll(m) as usize;
        if on_top(d) {
            piles[pile].push_front(card);
        } else {
            piles[pile].push_back(card);
        }
    }
    piles.into_iter().flatten().collect()
}

/// The audit of `trials` decks of 52 cards that `f` makes.
fn audit<F>(trials: u64, seed: &str, f: F) -> Audit
where
    F: Fn(usize, &mut RngDice<AnyRng>) -> Vec<usize> + Sync,
{
    common::audit(52, trials, seed, f)
}

/// Asserts that `name` ran and rejected; returns its law (which names the
/// nearest machine).
fn caught(a: &Audit, name: &str) -> String {
    let failed: Vec<_> = a.failed().iter().map(|t| t.name).collect();
    let test = a.tests.iter().find(|t| t.name == name);
    assert!(failed.contains(&name), "{name} missed: {test:?}");
    let law = test.unwrap().law.clone();
    eprintln!("{name}: {law}");
    law
}

#[test]
fn the_riffle_test_catches_seven_riffles() {
    let a = audit(120, "lr-riffles-7", |n, d| riffles(n, 7, d));
    assert!(caught(&a, "riffles-lr").contains("nearest of them: 7 riffles"));
}

#[test]
fn the_shelf_tests_catch_one_and_two_passes() {
    let one = audit(3, "lr-shelf-1x10", |n, d| {
        shelf((0..n).collect(), 10, d, |d| d.roll(2) == 0)
    });
    caught(&one, "shelf-lr");
    let two = audit(200, "lr-shelf-2x4", |n, d| {
        let deck = shelf((0..n).collect(), 4, d, |d| d.roll(2) == 0);
        shelf(deck, 4, d, |d| d.roll(2) == 0)
    });
    // At 200 decks a 2-pass 4-shelf machine is far from uniform: the test
    // reads the machines nearer uniform that 200 decks can just tell apart
    // (`likelihood::members_at`), and they catch it; which machine it is
    // is the model estimate's to say (`fit`'s tests).
    let law = caught(&two, "shelf-twice-lr");
    assert!(law.contains("nearest of them: 2 passes of"), "{law}");
}

/// A 10-shelf machine that puts 3 cards in 4 on top: the biased test
/// catches it and names p = 0.8 or 0.7.
#[test]
fn the_biased_shelf_test_catches_a_machine_favouring_the_top() {
    let a = audit(4, "lr-shelf-biased", |n, d| {
        shelf((0..n).collect(), 10, d, |d| d.roll(4) != 0)
    });
    let law = caught(&a, "shelf-biased-lr");
    assert!(law.contains("p = 0.7") || law.contains("p = 0.8"), "{law}");
}

#[test]
fn the_top_to_random_test_catches_a_short_run_of_moves() {
    let a = audit(300, "lr-top-to-random", |n, d| {
        let mut deck: Vec<usize> = (0..n).collect();
        for _ in 0..n {
            let top = deck.remove(0);
            deck.insert(d.roll(n as u64) as usize, top);
        }
        deck
    });
    caught(&a, "top-to-random-lr");
}
