//! The one rule for the texts of a version-2 table — its id, its seat
//! names and the seats' seeds (section 8.2 of `docs/fair-dealing.md`).
//!
//! A text is 1 to [`MAX_TEXT`] bytes of UTF-8 in Unicode Normalization Form
//! C, with no character of the general categories Cc (controls), Cf
//! (format characters such as U+200B ZERO WIDTH SPACE or U+202E RIGHT-TO-LEFT
//! OVERRIDE), Zl or Zp (line and paragraph separators). The set is pinned
//! as code point ranges ([`FORBIDDEN`], Unicode 15.0 to 17.0 agree on it),
//! so that every verifier refuses exactly the same texts whatever Unicode
//! tables its platform has. Two texts are equal when their bytes are.

use unicode_normalization::{IsNormalized, is_nfc_quick};

use fairdeck::Error;
pub use fairdeck::cards::pbn::{FORBIDDEN, is_forbidden};

/// The longest table id, seat name or seat seed, in bytes.
pub const MAX_TEXT: usize = 256;

/// The names of the piles that are not seats: no seat may be called so.
pub const PILE_NAMES: [&str; 4] = ["Board", "Burn", "Skat", "Table"];

/// The seat names of a bridge table, in this spelling and order.
pub const BRIDGE_SEATS: [&str; 4] = ["North", "East", "South", "West"];

/// Checks `text` against the rule of the module docs; `what` names it in
/// the error ("the table id", "seat name", "the seed of seat …"). O(len).
///
/// ```
/// use fairdeck_fair::check_text;
///
/// assert!(check_text("seat name", "Zoë").is_ok());
/// assert!(check_text("seat name", "Zoe\u{308}").is_err()); // not NFC
/// assert!(check_text("seat name", "ann\u{200b}").is_err()); // Cf
/// ```
///
/// # Errors
///
/// [`Error::InvalidTable`] naming the first broken rule.
pub fn check_text(what: &str, text: &str) -> Result<(), Error> {
    broken_rule(text).map_or(Ok(()), |why| {
        Err(Error::InvalidTable(format!("{what} {text:?} {why}")))
    })
}

/// The rule `text` breaks, if any.
fn broken_rule(text: &str) -> Option<String> {
    if text.is_empty() || text.len() > MAX_TEXT {
        return Some(format!("must be 1 to {MAX_TEXT} bytes"));
    }
    if let Some(c) = text.chars().find(|&c| is_forbidden(c)) {
        return Some(format!(
            "holds U+{:04X}, a control, format or separator character (Cc, Cf, Zl, Zp)",
            c as u32
        ));
    }
    (!is_nfc(text)).then(|| "is not in Unicode Normalization Form C (NFC)".into())
}

fn is_nfc(text: &str) -> bool {
    match is_nfc_quick(text.chars()) {
        IsNormalized::Yes => true,
        IsNormalized::No => false,
        IsNormalized::Maybe => unicode_normalization::is_nfc(text),
    }
}

/// Checks a seat's seed: the rule of [`check_text`]. `fair seed commit`
/// refuses such a seed and `fair verify` reports it.
///
/// # Errors
///
/// [`Error::InvalidTable`] naming the broken rule (never the seed itself,
/// which may still be secret).
pub fn check_seed(seed: &str) -> Result<(), Error> {
    broken_rule(seed).map_or(Ok(()), |why| {
        Err(Error::InvalidTable(format!("a seed {why}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_format_characters_and_separators_are_refused() {
        for c in [
            '\0',
            '\n',
            '\u{7f}',
            '\u{85}',
            '\u{ad}',
            '\u{200b}',
            '\u{202e}',
            '\u{2028}',
            '\u{2029}',
            '\u{2066}',
            '\u{feff}',
            '\u{e0041}',
            '\u{1343f}',
        ] {
            assert!(is_forbidden(c), "U+{:04X}", c as u32);
            assert!(check_text("seat name", &format!("a{c}b")).is_err());
        }
        for c in [
            'a',
            ' ',
            '\u{a0}',
            'é',
            '♠',
            '\u{2027}',
            '\u{202f}',
            '\u{e0080}',
        ] {
            assert!(!is_forbidden(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn nfc_and_length() {
        assert!(check_text("t", "caf\u{e9}").is_ok());
        let e = check_text("t", "cafe\u{301}").unwrap_err().to_string();
        assert!(e.contains("NFC"), "{e}");
        assert!(check_text("t", "").is_err());
        assert!(check_text("t", &"x".repeat(MAX_TEXT)).is_ok());
        assert!(check_text("t", &"x".repeat(MAX_TEXT + 1)).is_err());
        // U+212B ANGSTROM SIGN normalises to U+00C5: not NFC.
        assert!(check_text("t", "\u{212b}").is_err());
    }

    #[test]
    fn a_seed_error_never_prints_the_seed() {
        let e = check_seed("secret\u{200b}").unwrap_err().to_string();
        assert!(!e.contains("secret"), "{e}");
        assert!(e.contains("U+200B"), "{e}");
    }
}
