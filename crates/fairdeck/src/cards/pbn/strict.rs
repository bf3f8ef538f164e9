//! Reading a session file strictly, for verification (section 7.1 of
//! `docs/fair-dealing.md`). A lenient reader lets a tampered file pass, so
//! every choice a PBN reader could make one way or another is refused here,
//! with the line: a byte-order mark, a character of the forbidden set of
//! section 8.2 other than the tab (a NUL in a tag value), white space other
//! than spaces and tabs (an NBSP between hands), a line of white space where
//! a blank line separates boards, `;` comments, a `{…}` comment that does
//! not take whole lines, a tag name in another case (`[deal …]`), a board
//! number with leading zeros (`"01"`), a dealer or vulnerability in another
//! spelling, and a `[Deal]` not written `X:` and four hands separated by
//! single spaces with ranks in upper case.

use super::{PbnBoard, Tags, board_of, is_forbidden, parse_tag};
use crate::Error;

/// The four tags every board has, spelled so.
const REQUIRED: [&str; 4] = ["Board", "Dealer", "Vulnerable", "Deal"];

/// Reads a session file strictly, for verification: only tags, `%` lines
/// (never trusted), `{…}` comments on whole lines and blank lines; each
/// board is one block of tags separated from the next by an empty line,
/// with exactly one `[Board]`, `[Dealer]`, `[Vulnerable]` and `[Deal]`,
/// none inherited with `#` (module docs for the rest). O(length).
///
/// ```
/// use fairdeck::cards::pbn;
///
/// let deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
/// let one = format!("[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"{deal}\"]\n");
/// assert_eq!(pbn::read_strict(&one)?.len(), 1);
/// // A blank line lost between two boards: the second [Board] is refused.
/// let merged = format!("{one}{one}");
/// assert!(pbn::read_strict(&merged).unwrap_err().to_string().starts_with("line 5: [Board] again"));
/// # Ok::<(), fairdeck::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidPbn`] naming the line: a repeated tag (two boards run
/// together), a board without one of the four tags, any line or value the
/// module docs refuse.
pub fn read_strict(text: &str) -> Result<Vec<PbnBoard>, Error> {
    let bad = |line: usize, why: &str| Error::InvalidPbn {
        line,
        why: why.to_string(),
    };
    if text.starts_with('\u{feff}') {
        return Err(bad(
            1,
            "a byte-order mark (U+FEFF): a session file starts with its first line",
        ));
    }
    let mut boards: Vec<PbnBoard> = Vec::new();
    let mut game = Tags::default();
    let mut in_comment = false;
    for (i, raw) in text.lines().chain(core::iter::once("")).enumerate() {
        let line_no = i + 1;
        check_characters(raw, in_comment || raw.starts_with(['%', '{']))
            .map_err(|why| bad(line_no, &why))?;
        if in_comment || raw.starts_with('{') {
            in_comment = !raw.contains('}');
            if !in_comment && !raw.trim_end_matches([' ', '\t']).ends_with('}') {
                return Err(bad(
                    line_no,
                    "text after a comment's '}': a comment takes whole lines",
                ));
            }
            continue;
        }
        if raw.starts_with('%') {
            continue;
        }
        if raw.is_empty() {
            if !game.tags.is_empty() {
                boards.push(strict_board(&game, boards.last())?);
                game.tags.clear();
            }
            continue;
        }
        if raw.trim_matches([' ', '\t']).is_empty() {
            return Err(bad(
                line_no,
                "a line of only spaces or tabs: boards are separated by an empty line",
            ));
        }
        let Some(tag) = raw.trim_end_matches([' ', '\t']).strip_prefix('[') else {
            let why = if raw.starts_with(';') {
                "a ';' comment: a session checked for fairness holds only tags, % lines, {…} comments and empty lines"
            } else {
                "not a tag at the start of the line: a session checked for fairness holds only tags, % lines, {…} comments and empty lines"
            };
            return Err(bad(line_no, why));
        };
        if !tag
            .split_once(' ')
            .is_some_and(|(n, v)| !n.is_empty() && v.starts_with('"'))
        {
            return Err(bad(
                line_no,
                "a tag is written [Name \"value\"]: one space between name and value",
            ));
        }
        let (name, value) = parse_tag(tag).map_err(|why| bad(line_no, &why))?;
        check_tag(&name, &value).map_err(|why| bad(line_no, &why))?;
        if let Some((_, _, first)) = game.tags.iter().find(|(n, _, _)| *n == name) {
            let why = format!(
                "[{name}] again (first on line {first}): two boards run together, or a repeated tag"
            );
            return Err(bad(line_no, &why));
        }
        game.tags.push((name, value, line_no));
    }
    Ok(boards)
}

/// The characters of one line: none of the forbidden set but the tab, and
/// outside comments no white space but spaces and tabs.
fn check_characters(line: &str, comment: bool) -> Result<(), String> {
    let found = line.chars().find(|&c| {
        (c != '\t' && is_forbidden(c)) || (!comment && c.is_whitespace() && c != ' ' && c != '\t')
    });
    match found {
        Some(c) => Err(format!(
            "U+{:04X}: a session checked for fairness holds no control, format or separator \
             character, and no white space but spaces and tabs",
            c as u32
        )),
        None => Ok(()),
    }
}

/// The four tags' names in their case and their values in their one spelling.
fn check_tag(name: &str, value: &str) -> Result<(), String> {
    if let Some(want) = REQUIRED
        .iter()
        .find(|r| r.eq_ignore_ascii_case(name) && **r != name)
    {
        return Err(format!("[{name}]: tag names are written [{want}]"));
    }
    let ok = match name {
        "Board" => {
            !value.starts_with('0')
                && !value.is_empty()
                && value.bytes().all(|b| b.is_ascii_digit())
                && value.parse::<u64>().is_ok()
        }
        "Dealer" => matches!(value, "N" | "E" | "S" | "W" | "#"),
        "Vulnerable" => matches!(value, "None" | "NS" | "EW" | "All" | "#"),
        "Deal" => value == "#" || deal_is_canonical(value),
        _ => true,
    };
    if ok {
        return Ok(());
    }
    Err(match name {
        "Board" => format!("board {value:?}: a number from 1, in digits without leading zeros"),
        "Dealer" => format!("dealer {value:?} is not N, E, S or W"),
        "Vulnerable" => format!("vulnerable {value:?} is not None, NS, EW or All"),
        _ => format!(
            "deal {value:?}: write a seat letter, ':', then four hands separated by single spaces, \
             ranks AKQJT98765432 in upper case"
        ),
    })
}

/// `X:` and four hands of upper-case ranks and dots, separated by single spaces.
fn deal_is_canonical(value: &str) -> bool {
    let Some((seat, hands)) = value.split_once(':') else {
        return false;
    };
    let hands: Vec<&str> = hands.split(' ').collect();
    matches!(seat, "N" | "E" | "S" | "W")
        && hands.len() == 4
        && hands
            .iter()
            .all(|h| !h.is_empty() && h.bytes().all(|b| b"AKQJT98765432.".contains(&b)))
}

/// One strictly read board: all four tags present, none inherited.
fn strict_board(game: &Tags, previous: Option<&PbnBoard>) -> Result<PbnBoard, Error> {
    let start = game.tags.first().map_or(1, |t| t.2);
    for name in REQUIRED {
        match game.tags.iter().find(|(n, _, _)| n == name) {
            None => {
                let why = format!("the board starting here has no [{name}] tag");
                return Err(Error::InvalidPbn { line: start, why });
            }
            Some((_, v, line)) if v == "#" => {
                let why = format!("[{name} \"#\"] (inherited) is not accepted when verifying");
                return Err(Error::InvalidPbn { line: *line, why });
            }
            Some(_) => {}
        }
    }
    board_of(game, previous, 0)?.ok_or(Error::InvalidPbn {
        line: start,
        why: "no [Deal] tag".into(),
    })
}
