//! The card-guessing game of an audit, as a figure and a sentence.

use fairdeck_audit::stats::Audit;
use serde::Serialize;

/// Card guessing with complete feedback (Diaconis, Fulman and Holmes 2013):
/// the cards a player following a shelf machine's runs guesses right per
/// deck, against what any player gets from a fair deck.
#[derive(Debug, Clone, Serialize)]
pub struct Guessing {
    /// Cards per deck.
    pub cards: usize,
    /// Cards guessed right per deck, on average over these decks.
    pub right: f64,
    /// The average for a fair deck, whatever the strategy: H_n = 1 + 1/2 + … + 1/n.
    pub fair: f64,
    /// The guessing test's p-value (one-sided: too many right).
    pub p_value: f64,
}

impl Guessing {
    /// "a player who knows this machine would guess 10.2 of 52 cards right
    /// (a fair deck: 4.54)".
    pub fn sentence(&self) -> String {
        format!(
            "a player who knows this machine would guess {:.2} of {} cards right (a fair deck: {:.2})",
            self.right, self.cards, self.fair
        )
    }
}

impl Guessing {
    /// The game on an audit's decks, where its `guessing` test ran.
    pub fn of(audit: &Audit) -> Option<Guessing> {
        let t = audit.tests.iter().find(|t| t.name == "guessing")?;
        Some(Guessing {
            cards: audit.n,
            right: t.statistic,
            fair: (1..=audit.n).map(|k| 1.0 / k as f64).sum(),
            p_value: t.p_value,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fair_deck_of_52_is_guessed_4_54_times() {
        let g = Guessing {
            cards: 52,
            right: 10.15,
            fair: (1..=52).map(|k| 1.0 / k as f64).sum(),
            p_value: 1e-30,
        };
        assert_eq!(
            g.sentence(),
            "a player who knows this machine would guess 10.15 of 52 cards right (a fair deck: 4.54)"
        );
    }
}
