use super::*;
use crate::fit;
use crate::mix::shelf;
use crate::stats::run::shuffles;
use fairdeck::dice::Dice;
use fairdeck::rng::{Generator, Seed};

type Dealer = fairdeck::dice::RngDice<fairdeck::rng::AnyRng>;

fn tally(
    n: usize,
    seed: &str,
    trials: u64,
    f: impl Fn(&mut Vec<usize>, &mut Dealer) + Sync,
) -> Tally {
    let deal = |n: usize, d: &mut Dealer| {
        let mut deck: Vec<usize> = (0..n).collect();
        f(&mut deck, d);
        deck
    };
    shuffles(
        n,
        trials,
        &Seed::from_text(seed),
        Generator::ChaCha20,
        deal,
        &|_| {},
    )
    .unwrap()
}

fn bars(svg: &str) -> usize {
    let (r, g, b) = (BAR_FILL.0, BAR_FILL.1, BAR_FILL.2);
    svg.matches(&format!("fill=\"#{r:02X}{g:02X}{b:02X}\""))
        .count()
}

/// 5000 uniform decks of 6 cards: every number of rising sequences 1..=6
/// is expected at least 6.9 times and valleys run 0..=2, so 6 + 3 bars.
#[test]
fn a_uniform_tally_draws_both_panels_with_a_bar_per_value() {
    let t = tally(6, "hist-uniform", 5000, |deck, d| {
        for i in (1..deck.len()).rev() {
            deck.swap(i, d.roll(i as u64 + 1) as usize);
        }
    });
    let svg = histograms(&t, None, "uniform decks").unwrap();
    assert!(svg.contains("Rising sequences per deck") && svg.contains("Valleys per deck"));
    assert!(svg.contains("uniform shuffle (expected)") && !svg.contains("fitted"));
    assert_eq!(bars(&svg), 9);
}

/// One pass of a 10-shelf machine over 52 cards: the estimate names a
/// shelf machine and its curve is drawn on the valleys panel.
#[test]
fn a_shelf_machine_tally_names_the_fitted_curve() {
    let t = tally(52, "hist-shelves", 50, |deck, d| {
        shelf::shelf_pass(deck, 10, d)
    });
    let f = fit::best(&t).unwrap();
    assert_eq!(f.family, "shelf");
    let fitted = Fitted::of(f.family, f.value, t.n).unwrap();
    assert_eq!(fitted.statistic, Statistic::Valleys);
    let svg = histograms(&t, Some(&fitted), "ten shelves").unwrap();
    let name = format!("fitted: one pass of a {:.0}-shelf machine", f.value);
    assert!(svg.contains(&name), "{name}");
}

/// The fitted laws are probability laws; other families and tiny decks
/// have no curve here.
#[test]
fn fitted_laws_sum_to_one_and_others_have_none() {
    for (family, value) in [
        ("riffle", 8.0),
        ("riffle", 3.4),
        ("shelf", 10.0),
        ("shelf", 2.0),
    ] {
        let f = Fitted::of(family, value, 52).unwrap();
        let total: f64 = f.law.iter().sum();
        assert!((total - 1.0).abs() < 1e-9, "{family} {value}: {total}");
    }
    let label = Fitted::of("riffle", 3.4, 52).unwrap().label;
    assert_eq!(
        label,
        "fitted: 3.4 GSR riffles (drawn as the a-shuffle, a = 11)"
    );
    assert_eq!(
        Fitted::of("riffle", 8.0, 52).unwrap().label,
        "fitted: 8.0 GSR riffles"
    );
    assert_eq!(Fitted::of("biased-shelf", 10.0, 52), None);
    assert_eq!(Fitted::of("top-to-random", 100.0, 52), None);
    assert_eq!(Fitted::of("riffle", f64::NAN, 52), None);
    assert_eq!(Fitted::of("shelf", 10.0, 2), None);
}

/// Decks of 2 or 3 cards draw (valleys are all 0 at 2); an empty or
/// inconsistent tally is an error, not a panic.
#[test]
fn small_and_bad_tallies_are_handled() {
    for n in [2, 3] {
        let t = tally(n, "hist-small", 100, |deck, d| {
            deck.swap(0, d.roll(2) as usize);
        });
        let svg = histograms(&t, None, "small").unwrap();
        assert!(bars(&svg) >= 2, "{n}");
    }
    assert!(histograms(&Tally::new(5), None, "empty").is_err());
    let mut t = tally(5, "hist-bad", 10, |_, _| {});
    t.valleys.pop();
    assert!(histograms(&t, None, "bad").is_err());
    assert!(super::super::stack(&["not a picture"]).is_err());
}
