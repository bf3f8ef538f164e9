//! The audit's model estimate: which named machine the decks behave like
//! ([`fairdeck_audit::fit`]), as figures and a sentence.

use fairdeck_audit::fit;
use fairdeck_audit::stats::Tally;
use serde::Serialize;

/// Most cards per deck for which the estimate is made (the shelf family's
/// exact law costs O(n⁴) big-integer additions: well under a second here,
/// seconds at 104 cards, which `mix shelf` still takes).
pub const MAX_ESTIMATE_N: usize = 64;

/// The best-fitting named machine, or that none fits.
#[derive(Debug, Clone, Serialize)]
pub struct Estimate {
    /// `riffle` (GSR riffles), `shelf` (one pass of an m-shelf machine),
    /// `biased-shelf` (one that puts a card on top with chance p ≠ ½),
    /// `top-to-random` (moves), or absent when no named machine fits better
    /// than a uniform shuffle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub family: Option<&'static str>,
    /// The maximum-likelihood number of riffles, shelves or moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// Its 95 % likelihood interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<(f64, f64)>,
    /// A biased shelf machine's chance of putting a card on top, and its
    /// 95 % interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_chance: Option<(f64, (f64, f64))>,
    /// "behaves like 8.0 GSR riffles [7.9, 8.0]", or "no named machine fits".
    pub sentence: String,
}

impl Estimate {
    /// The estimate for a tally, where its decks are small enough.
    pub fn of(t: &Tally) -> Option<Estimate> {
        if t.n > MAX_ESTIMATE_N || t.n < 3 || t.trials == 0 {
            return None;
        }
        Some(match fit::best(t) {
            Some(f) => Estimate {
                family: Some(f.family),
                value: Some(f.value),
                interval: Some(f.interval),
                top_chance: f.top_chance,
                sentence: f.sentence(),
            },
            None => Estimate {
                family: None,
                value: None,
                interval: None,
                top_chance: None,
                sentence: "no named machine fits (none beats a uniform shuffle)".into(),
            },
        })
    }
}
