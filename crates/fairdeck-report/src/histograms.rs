//! The audit's histograms of rising sequences and valleys as figures: the
//! decks observed at each count, the counts a uniform shuffle expects, and
//! the estimated machine's, for a front end to draw what `--plot` draws
//! ([`fairdeck_audit::plot::histograms`]).

use fairdeck_audit::plot::Fitted;
use fairdeck_audit::stats::Tally;
use fairdeck_audit::stats::families::Statistic;
use fairdeck_audit::stats::laws;
use serde::Serialize;

use crate::estimate::Estimate;

/// One count's histogram over the values seen or expected of at least half
/// a deck (under either law), `first` to `first + observed.len() − 1`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Histogram {
    /// The count of the first entry.
    pub first: usize,
    /// Decks observed at each count.
    pub observed: Vec<u64>,
    /// Decks a uniform shuffle expects at each count (its exact law times
    /// the decks).
    pub uniform: Vec<f64>,
    /// Decks the estimated machine expects, where its law is on this count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fitted: Option<Vec<f64>>,
}

/// The decks by rising sequences and by valleys.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Histograms {
    /// Rising sequences per deck (a riffle's mark).
    pub rising_sequences: Histogram,
    /// Valleys per deck (a shelf machine's mark).
    pub valleys: Histogram,
    /// The estimated machine drawn ("fitted: 8.0 GSR riffles"), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fitted: Option<String>,
}

impl Histograms {
    /// The histograms of `t`, with the machine `estimate` names where its
    /// law is on rising sequences (riffles) or valleys (fair shelves).
    /// `None` without decks or below 2 cards. O(n²), O(n³) with a fit.
    pub fn of(t: &Tally, estimate: Option<&Estimate>) -> Option<Histograms> {
        if t.n < 2 || t.trials == 0 {
            return None;
        }
        let fitted = estimate.and_then(|e| Fitted::of(e.family?, e.value?, t.n));
        let on = |s: Statistic| fitted.as_ref().filter(|f| f.statistic == s);
        Some(Histograms {
            rising_sequences: Histogram::of(
                &t.rising_sequences,
                &laws::rising_sequences(t.n),
                on(Statistic::RisingSequences),
                t.trials,
            ),
            valleys: Histogram::of(
                &t.valleys,
                &laws::valleys(t.n),
                on(Statistic::Valleys),
                t.trials,
            ),
            fitted: fitted.map(|f| f.label),
        })
    }
}

impl Histogram {
    fn of(observed: &[u64], law: &[f64], fitted: Option<&Fitted>, trials: u64) -> Histogram {
        let expect = |law: &[f64]| -> Vec<f64> { law.iter().map(|p| p * trials as f64).collect() };
        let uniform = expect(law);
        let fitted = fitted.map(|f| expect(&f.law));
        let at = |v: &[f64], i: usize| v.get(i).copied().unwrap_or(0.0);
        let shown = |i: usize| {
            observed[i] > 0
                || at(&uniform, i) >= 0.5
                || fitted.as_ref().is_some_and(|f| at(f, i) >= 0.5)
        };
        let first = (0..observed.len()).find(|&i| shown(i)).unwrap_or(0);
        let last = (0..observed.len()).rev().find(|&i| shown(i)).unwrap_or(0);
        let range = first..(last + 1).max(first);
        Histogram {
            first,
            observed: observed[range.clone()].to_vec(),
            uniform: range.clone().map(|i| at(&uniform, i)).collect(),
            fitted: fitted.map(|f| range.map(|i| at(&f, i)).collect()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdeck::dice::RngDice;
    use fairdeck::rng::{Generator, Seed};

    /// Decks of 52 cards after 4 GSR riffles (seeded): the bars add up to
    /// the decks, the uniform law's expectation is near all decks in the
    /// range shown, and the estimate's curve lies on rising sequences.
    #[test]
    fn riffled_decks_carry_their_histograms_and_fit() {
        let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::from_text("histograms")));
        let mut t = Tally::new(52);
        for _ in 0..400 {
            let mut deck: Vec<usize> = (0..52).collect();
            (0..4).for_each(|_| fairdeck_audit::mix::Model::Riffle.shuffle(&mut deck, &mut dice));
            t.add(&deck).unwrap();
        }
        let estimate = Estimate::of(&t);
        let h = Histograms::of(&t, estimate.as_ref()).unwrap();
        let r = &h.rising_sequences;
        assert_eq!(r.observed.iter().sum::<u64>(), 400);
        assert!(r.first >= 1 && r.first + r.observed.len() <= 53);
        assert!(r.uniform.iter().sum::<f64>() > 399.0);
        let fitted = r.fitted.as_ref().expect("the riffle fit is drawn");
        assert!((fitted.iter().sum::<f64>() - 400.0).abs() < 1.0);
        assert!(h.valleys.fitted.is_none());
        assert!(h.fitted.unwrap().contains("riffles"));
        // At most 2⁴ = 16 rising sequences: the bars stop there.
        assert!(
            r.observed
                .iter()
                .enumerate()
                .all(|(i, &c)| c == 0 || r.first + i <= 16)
        );
    }

    #[test]
    fn no_decks_no_histograms() {
        assert!(Histograms::of(&Tally::new(52), None).is_none());
        assert!(Histograms::of(&Tally::new(1), None).is_none());
    }
}
