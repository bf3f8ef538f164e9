//! A key that holds fewer bits than a deal needs: what to tell the user,
//! or, for a strict request, a refusal.

use crate::random::KeyEntropy;
use crate::{Field, Message, message, refuse};

/// A key that holds fewer bits than the deal needs: a `warning` (guessable
/// seed text) or a `note` (a full key, a deal that needs more). Front ends
/// show it their own way (the CLI on stderr; the web page from the report's
/// entropy fields); a strict request is refused instead.
#[derive(Debug, Clone, PartialEq)]
pub struct Shortfall {
    /// `warning` or `note`.
    pub level: &'static str,
    /// One line that says what it means and what to do; its fields
    /// (`seed`, `entropy`) are spelled by the front end ([`Message::render`]).
    pub message: Message,
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
        return Err(refuse(Field::Strict, {
            let mut m = message![Field::Strict, ": "];
            m.append(shortfall.message);
            m
        }));
    }
    Ok(Some(shortfall))
}

fn shortfall(key: KeyEntropy, needed: f64, what: &str) -> Option<Shortfall> {
    if key.bits >= needed {
        return None;
    }
    let gap = needed - key.bits;
    Some(if key.origin == "seed-text" {
        let message = message![
            format!(
                "the seed text holds at most {} bits but {what} needs {needed:.1}: at most 1 in \
                 2^{gap:.0} of its deals can ever be dealt, and a guesser tries likely texts \
                 first; use a 64-hex-digit key, no ",
                bits(key.bits)
            ),
            Field::Seed,
            ", or ",
            Field::Entropy,
            " dice",
        ];
        Shortfall {
            level: "warning",
            message,
        }
    } else {
        let message = message![
            format!(
                "{what} needs {needed:.1} bits; a {}-bit key reaches at most 2^{0} of its \
                 2^{needed:.0} deals: no one can predict or steer which, but most can never be \
                 dealt; ",
                bits(key.bits)
            ),
            Field::Entropy,
            " dice reaches them all",
        ];
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

#[cfg(test)]
mod tests {
    use super::*;

    fn seed_text() -> KeyEntropy {
        KeyEntropy {
            origin: "seed-text",
            bits: 6.6,
        }
    }

    #[test]
    fn the_advice_names_fields_that_each_front_end_spells() {
        let s = check_key(seed_text(), 95.4, "a bridge deal", false)
            .unwrap()
            .unwrap();
        let cli = |f: Field| Some(format!("--{}", f.name()));
        assert!(
            s.message
                .render(&cli)
                .ends_with("use a 64-hex-digit key, no --seed, or --entropy dice"),
            "{}",
            s.message.render(&cli)
        );
        let page = s.message.to_string();
        assert!(page.ends_with("no seed, or entropy dice"), "{page}");
        assert!(!page.contains("--"), "{page}");
    }

    #[test]
    fn a_strict_request_is_refused_naming_strict_with_the_same_advice() {
        let e = check_key(seed_text(), 95.4, "a bridge deal", true).unwrap_err();
        let crate::Error::Refused(r) = e else {
            panic!("not a refusal: {e:?}")
        };
        assert_eq!(r.field, Field::Strict);
        let text = r.message.to_string();
        assert!(
            text.starts_with("strict: the seed text holds at most 6.6 bits"),
            "{text}"
        );
        assert!(text.ends_with("no seed, or entropy dice"), "{text}");
        let full = check_key(
            KeyEntropy {
                origin: "hex-key",
                bits: 256.0,
            },
            95.4,
            "x",
            true,
        );
        assert!(matches!(full, Ok(None)));
    }
}
