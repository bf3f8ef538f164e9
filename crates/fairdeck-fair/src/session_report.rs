//! The verdict on a session's PBN file (`fair verify --pbn`, section 7 of
//! `docs/fair-dealing.md`): the file read strictly (section 7.1), every
//! board against the deal its board number derives, the boards against the
//! published range, and the secret against the commitment published before
//! play — the file's own `% commitment:` note is never trusted.

use core::ops::RangeInclusive;

use fairdeck::cards::Board;
use fairdeck::cards::pbn::{self, PbnBoard};

use crate::{BoardCheck, Commitment, Given, ServerSecret, Spelling, verify_session};

/// What `fair verify --pbn --format json` prints.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SessionReport {
    /// `valid`, `self-consistent-only` or `invalid`.
    pub verdict: &'static str,
    /// The commitment the secret gives.
    pub commitment: String,
    /// The commitment published before play, when given (the file's own
    /// `% commitment:` line is never used).
    pub published_commitment: Option<String>,
    /// Whether the two agree, when the published one was given.
    pub commitment_matches: Option<bool>,
    /// The file's own `% commitment:` line when it is not the secret's
    /// commitment (it is never trusted, but a contradiction is worth a word).
    pub file_commitment_contradicts: Option<String>,
    /// Each board checked, in the file's order.
    pub boards: Vec<BoardReport>,
    /// Boards of the range missing from the file, or extra, repeated, out
    /// of order; or the one `document` difference of a refused file.
    pub range_differences: Vec<String>,
    /// The one-line verdict.
    pub message: String,
}

/// One board of a [`SessionReport`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BoardReport {
    /// The board number.
    pub board: u64,
    /// Whether it is the board its number derives.
    pub valid: bool,
    /// What differs.
    pub differences: Vec<String>,
}

/// What a session is checked with: the revealed secret, the client seed,
/// the commitment published before play and the published board range.
#[derive(Debug, Clone, Copy)]
pub struct SessionInputs<'a> {
    /// The revealed server secret.
    pub secret: &'a ServerSecret,
    /// The player's seed.
    pub client_seed: &'a str,
    /// The commitment published before play, if the player recorded it.
    pub published: Option<Commitment>,
    /// The boards published before play (`N` or `A-B`); without it, the
    /// file's own range.
    pub range: Option<&'a str>,
}

impl SessionReport {
    /// Checks the session file `text` (called `name` in the verdict); its
    /// words name the evidence as `spell` does. O(length of the file).
    ///
    /// # Errors
    ///
    /// [`fairdeck::Error::InvalidDeal`] for a range that is not `N` or
    /// `A-B` (read only when the file itself reads).
    pub fn new(
        text: &str,
        name: &str,
        inputs: &SessionInputs,
        spell: &dyn Spelling,
    ) -> Result<Self, fairdeck::Error> {
        let computed = inputs.secret.commitment();
        let published = inputs.published;
        let boards = match pbn::read_strict(text) {
            Ok(boards) => boards,
            Err(e) => return Ok(refused(&format!("{name}: {e}"), computed, published)),
        };
        let range = match inputs.range {
            Some(r) => Board::parse_range(r)?,
            None => {
                let numbers = boards.iter().map(|b| b.board.number());
                numbers.clone().min().unwrap_or(1)..=numbers.max().unwrap_or(1)
            }
        };
        let matches = published.map(|c| c == computed);
        let checks = verify_session(inputs.secret, inputs.client_seed, &boards);
        let ranges = range_differences(&boards, range.clone());
        let bad = checks.iter().filter(|c| !c.differences.is_empty()).count();
        let clean = bad == 0 && ranges.is_empty();
        let verdict = match matches {
            Some(true) if clean => "valid",
            None if clean => "self-consistent-only",
            _ => "invalid",
        };
        let range_given = inputs.range.is_some();
        let mut message = summary(
            &checks,
            bad,
            &ranges,
            matches,
            computed,
            (&range, range_given),
            spell,
        );
        let contradicting = file_commitment(text).filter(|c| *c != computed.to_hex());
        if let Some(c) = &contradicting {
            message.push_str(&format!(
                "; warning: the file's own \"% commitment: {c}\" line contradicts the secret (its \
                 commitment is {computed}): the file was written with another secret or edited"
            ));
        }
        Ok(SessionReport {
            verdict,
            commitment: computed.to_hex(),
            published_commitment: published.map(|c| c.to_hex()),
            commitment_matches: matches,
            boards: (checks.into_iter())
                .map(|c| BoardReport {
                    board: c.board,
                    valid: c.differences.is_empty(),
                    differences: c.differences,
                })
                .collect(),
            range_differences: ranges,
            file_commitment_contradicts: contradicting,
            message,
        })
    }

    /// Whether the session passed (`valid` or `self-consistent-only`).
    pub fn passed(&self) -> bool {
        self.verdict != "invalid"
    }
}

/// A file the strict reader refuses (section 7.1): invalid, kind
/// `document` — the file is evidence, and nothing else in it was checked.
fn refused(why: &str, computed: Commitment, published: Option<Commitment>) -> SessionReport {
    SessionReport {
        verdict: "invalid",
        commitment: computed.to_hex(),
        published_commitment: published.map(|c| c.to_hex()),
        commitment_matches: published.map(|c| c == computed),
        boards: Vec::new(),
        range_differences: vec![format!("document: {why}")],
        file_commitment_contradicts: None,
        message: format!(
            "invalid: the file breaks the strict reading of section 7.1 ({why}); no board was checked"
        ),
    }
}

/// Missing, extra, repeated and out-of-order boards against `range`.
fn range_differences(boards: &[PbnBoard], range: RangeInclusive<u64>) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut previous = 0;
    for b in boards {
        let n = b.board.number();
        if !range.contains(&n) {
            out.push(format!(
                "extra-deal: board {n} is outside boards {}-{}",
                range.start(),
                range.end()
            ));
        } else if !seen.insert(n) {
            out.push(format!("duplicate-deal: board {n} appears twice"));
        } else if n < previous {
            out.push(format!(
                "deal-order: board {n} comes after board {previous}"
            ));
        }
        previous = previous.max(n);
    }
    let missing: Vec<String> = range
        .filter(|n| !seen.contains(n))
        .map(|n| n.to_string())
        .collect();
    if !missing.is_empty() {
        out.push(format!(
            "missing-deal: board(s) {} are not in the file",
            missing.join(", ")
        ));
    }
    out
}

fn summary(
    checks: &[BoardCheck],
    bad: usize,
    ranges: &[String],
    matches: Option<bool>,
    computed: Commitment,
    (range, range_given): (&RangeInclusive<u64>, bool),
    spell: &dyn Spelling,
) -> String {
    let of_range = if range_given {
        "the published range".to_string()
    } else {
        format!(
            "the file's range (give {} to check the range published before play)",
            spell.usage(Given::Boards)
        )
    };
    let mut boards = match bad {
        0 => format!(
            "all {} boards match the derivation; boards {}-{}, {of_range}",
            checks.len(),
            range.start(),
            range.end()
        ),
        n => format!("{n} of {} boards differ", checks.len()),
    };
    if !ranges.is_empty() {
        boards.push_str(&format!(
            "; {} problem(s) with the board range",
            ranges.len()
        ));
    }
    let clean = bad == 0 && ranges.is_empty();
    match matches {
        Some(true) if clean => format!("valid: {boards}; the commitment matches"),
        Some(true) => format!("invalid: {boards}; the commitment matches"),
        Some(false) => {
            format!("invalid: the secret does not match the published commitment; {boards}")
        }
        None if clean => format!(
            "self-consistent only: {boards}; compare the commitment {computed} with the one \
             published before play (give it with {}; the file's own is never trusted)",
            spell.name(Given::Commitment)
        ),
        None => format!("invalid: {boards}"),
    }
}

/// The hex of the file's own `% commitment:` note, if it has one.
fn file_commitment(text: &str) -> Option<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix('%'))
        .filter_map(|l| l.trim().strip_prefix("commitment:"))
        .map(|c| c.trim().to_ascii_lowercase())
        .next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ByName;

    #[test]
    fn a_file_that_does_not_read_is_one_document_difference() {
        let secret = ServerSecret::from_bytes([1; 32]);
        let inputs = SessionInputs {
            secret: &secret,
            client_seed: "s",
            published: None,
            range: Some("not a range"),
        };
        let r = SessionReport::new("[Board \"1\"]\n", "f.pbn", &inputs, &ByName).unwrap();
        assert!(!r.passed());
        assert_eq!(r.range_differences.len(), 1);
        assert!(
            r.range_differences[0].starts_with("document: f.pbn: "),
            "{r:?}"
        );
    }

    #[test]
    fn missing_repeated_and_out_of_order_boards_are_named() {
        let secret = ServerSecret::from_bytes([1; 32]);
        let board = |n: u64| crate::session_board(&secret, "s", Board::new(n).unwrap());
        let boards = [board(2), board(2), board(1), board(5)];
        let diffs = range_differences(&boards, 1..=3);
        assert_eq!(
            diffs,
            [
                "duplicate-deal: board 2 appears twice",
                "deal-order: board 1 comes after board 2",
                "extra-deal: board 5 is outside boards 1-3",
                "missing-deal: board(s) 3 are not in the file",
            ]
        );
    }

    #[test]
    fn the_files_own_commitment_note() {
        assert_eq!(file_commitment("x\n% commitment: AB\n"), Some("ab".into()));
        assert_eq!(file_commitment("[Board \"1\"]\n"), None);
    }
}
