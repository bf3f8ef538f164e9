//! A key that holds fewer bits than a deal needs: what to tell the user,
//! or, for a strict request, a refusal.

use crate::random::KeyEntropy;
use crate::{Field, message, refuse};

/// A key that holds fewer bits than the deal needs: a `warning` (guessable
/// seed text) or a `note` (a full key, a deal that needs more). Front ends
/// show it their own way (the CLI on stderr; the web page from the report's
/// entropy fields); a strict request is refused instead.
#[derive(Debug, Clone, PartialEq)]
pub struct Shortfall {
    /// `warning` or `note`.
    pub level: &'static str,
    /// One line that says what it means and what to do.
    pub message: String,
}

/// Checks a key against a deal that needs `needed` bits (`what` names
/// the deal): nothing, a shortfall to show, or (when `strict`) a refusal.
/// [`crate::deal::Plan::check_key`] checks one deal; a set of boards checks
/// one board's need.
///
/// # Errors
///
/// A strict request whose key holds too few bits (naming `strict`).
pub fn check_key(
    key: KeyEntropy,
    needed: f64,
    what: &str,
    strict: bool,
) -> crate::Result<Option<Shortfall>> {
    let Some(shortfall) = shortfall(key, needed, what) else {
        return Ok(None);
    };
    if strict {
        return Err(refuse(
            Field::Strict,
            message![Field::Strict, ": ", &shortfall.message],
        ));
    }
    Ok(Some(shortfall))
}

fn shortfall(key: KeyEntropy, needed: f64, what: &str) -> Option<Shortfall> {
    if key.bits >= needed {
        return None;
    }
    let gap = needed - key.bits;
    Some(if key.origin == "seed-text" {
        let message = format!(
            "the seed text holds at most {} bits but {what} needs {needed:.1}: at most 1 in \
             2^{gap:.0} of its deals can ever be dealt, and a guesser tries likely texts first; \
             use a 64-hex-digit key, no --seed, or --entropy dice",
            bits(key.bits)
        );
        Shortfall {
            level: "warning",
            message,
        }
    } else {
        let message = format!(
            "{what} needs {needed:.1} bits; a {}-bit key reaches at most 2^{0} of its \
             2^{needed:.0} deals: no one can predict or steer which, but most can never be \
             dealt; --entropy dice reaches them all",
            bits(key.bits)
        );
        Shortfall {
            level: "note",
            message,
        }
    })
}

/// Bits for people: `256`, `6.6`.
pub fn bits(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}
