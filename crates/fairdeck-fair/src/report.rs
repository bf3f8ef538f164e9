//! The verdict on a transcript of version 1, 2 or 2.1 as one document:
//! what `fair verify --format json` prints, and the words of its text
//! form — what was checked, what was not, and what the result amounts to
//! (the verdict itself is [`Verification::verdict`], or [`v1_verdict`]).

use crate::{Difference, Kind};
use crate::{
    DocumentError, Evidence, Given, Record, Spelling, Unchecked, Verdict, Verification, VoidPhase,
    v1_verdict,
};

/// The verdict on one transcript, as `fair verify --format json` prints it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct VerdictReport {
    /// `1`, `2` or `"2.1"` (as the documents write them).
    pub version: serde_json::Value,
    /// `valid`, `partial`, `self-consistent-only`, `void` or `invalid`.
    pub verdict: &'static str,
    /// The room commitment the revealed secret gives.
    pub commitment: Option<String>,
    /// The commitment the player recorded before play.
    pub published_commitment: Option<String>,
    /// The seat lock the transcript's commitments give.
    pub lock: Option<String>,
    /// The seat lock the player recorded.
    pub recorded_lock: Option<String>,
    /// What was checked, one line each.
    pub checked: Vec<String>,
    /// What was not given and so not checked.
    pub unchecked: Vec<String>,
    /// Version 2.1: deals played and deals in the range.
    pub played: Option<[u64; 2]>,
    /// Every difference found, in the order found.
    pub differences: Vec<DifferenceReport>,
    /// The one-line verdict.
    pub message: String,
}

/// One difference of a [`VerdictReport`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DifferenceReport {
    /// The failure kind ([`Kind::name`]).
    pub kind: &'static str,
    /// What differs.
    pub message: String,
}

impl VerdictReport {
    /// The report of a check of a `version` (`"1"`, `"2"` or `"2.1"`)
    /// transcript: `v` is its verification, `checked` what it covered and
    /// `recorded` what the player gave; its words name the evidence as
    /// `spell` does. O(differences + checked).
    pub fn new(
        version: &str,
        v: &Verification,
        (checked, recorded): (Vec<String>, &Evidence),
        spell: &dyn Spelling,
    ) -> VerdictReport {
        let computed = v.computed.map(|c| c.to_hex());
        let verdict = if version == "1" {
            v1_verdict(v)
        } else {
            v.verdict()
        };
        let unchecked = if version == "1" {
            Vec::new()
        } else {
            v.unchecked().iter().map(|u| u.describe(spell)).collect()
        };
        VerdictReport {
            version: match version.parse::<u64>() {
                Ok(n) => n.into(),
                Err(_) => version.into(),
            },
            verdict: verdict.name(),
            message: message(version, v, (verdict, computed.as_deref()), spell),
            commitment: computed,
            published_commitment: recorded.commitment.map(|c| c.to_hex()),
            lock: v.lock.map(|c| c.to_hex()),
            recorded_lock: recorded.lock.map(|c| c.to_hex()),
            checked,
            unchecked,
            played: v.played.map(|(p, n)| [p, n]),
            differences: (v.differences.iter())
                .map(|d| DifferenceReport {
                    kind: d.kind.name(),
                    message: d.message.clone(),
                })
                .collect(),
        }
    }

    /// Whether the transcript passed: no difference at all.
    pub fn passed(&self) -> bool {
        self.differences.is_empty()
    }
}

/// A document the strict reader refused: one difference of kind
/// `document`, nothing else checked. Returns its version (as declared,
/// else `"2"`), the verification and what was checked. O(1).
pub fn refused(e: &DocumentError) -> (&'static str, Verification, Vec<String>) {
    let v = Verification {
        differences: vec![Difference {
            kind: Kind::Document,
            message: format!("the document breaks the reading rules (section 10.1): {e}"),
        }],
        ..Verification::default()
    };
    (
        e.version.unwrap_or("2"),
        v,
        vec!["the document's form (refused: nothing else was checked)".into()],
    )
}

/// What a check of a version 2 or 2.1 record covered, one line each
/// (the `checked` of its [`VerdictReport`]). O(seats).
pub fn checked_v2(r: &Record, v: &Verification) -> Vec<String> {
    let t = &r.transcript;
    let m = &t.manifest;
    let mut checked = vec![format!(
        "the manifest: table {:?}, {}, {} deck, seats {}, deals {}-{}",
        m.table,
        m.game,
        m.deck,
        m.seats.join(", "),
        m.first,
        m.last
    )];
    if let Some(r) = &v.void {
        checked.push(format!(
            "the void record: the {} phase, seat(s) {}, against every seat's commitment and seed",
            r.phase.name(),
            r.seats.join(", ")
        ));
    } else {
        checked.push(format!(
            "{} seat seed(s) against their commitments",
            t.seats.len()
        ));
    }
    if v.computed.is_some() {
        checked
            .push("the room commitment against the revealed secret and the manifest".to_string());
    }
    if v.lock_checked {
        checked.push(
            "the seat lock of the seats' commitments against the one you recorded".to_string(),
        );
    }
    if v.seed_checked {
        checked.push("your own seed and commitment against your seat's".to_string());
    }
    if v.played_checked {
        checked.push("the deal numbers you were shown against the deals played".to_string());
    }
    if v.deals_checked > 0 {
        checked.push(format!(
            "{} deal(s): the manifest's whole range in order, and in each every hand, the \
             community cards, burns and kitty, the stock, the deck line, and a bridge board's \
             dealer and vulnerability",
            v.deals_checked
        ));
    }
    checked
}

/// The one-line verdict.
fn message(
    version: &str,
    v: &Verification,
    (verdict, computed): (Verdict, Option<&str>),
    spell: &dyn Spelling,
) -> String {
    let not_checked = || {
        let list: Vec<String> = (v.unchecked().into_iter())
            .filter(|u| *u != Unchecked::Commitment)
            .map(|u| u.describe(spell))
            .collect();
        list.join("; ")
    };
    let mut text = match verdict {
        Verdict::Invalid => {
            let mut kinds: Vec<&str> = v.differences.iter().map(|d| d.kind.name()).collect();
            kinds.dedup();
            let n = v.differences.len();
            format!("invalid: {n} difference(s): {}", kinds.join(", "))
        }
        Verdict::Void => void_text(v, spell),
        Verdict::SelfConsistentOnly => {
            let mut t = format!(
                "self-consistent only: compare the commitment {} with the one published before \
                 play (give it with {})",
                computed.unwrap_or("?"),
                spell.name(Given::Commitment)
            );
            if version != "1" {
                t.push_str(&format!("; also not checked: {}", not_checked()));
            }
            t
        }
        Verdict::Partial => format!(
            "partial (version {version}): everything listed matches and the commitment is the \
             one published before play ({}); not checked: {}",
            computed.unwrap_or("?"),
            not_checked()
        ),
        _ if version == "1" => format!(
            "valid: everything listed matches, and the commitment is the one published before \
             play ({})",
            computed.unwrap_or("?")
        ),
        _ => format!(
            "valid (version {version}): everything listed matches, and the commitment, the seat \
             lock, your seed and the deals you were shown are the ones you recorded"
        ),
    };
    if let Some((p, n)) = v.played.filter(|(p, n)| p < n && v.void.is_none()) {
        text.push_str(&format!(
            " (the table stopped after {p} of its {n} deals: visible in the record, not \
             preventable)"
        ));
    }
    text
}

fn void_text(v: &Verification, spell: &dyn Spelling) -> String {
    let Some(r) = &v.void else {
        return "void".into();
    };
    let what = match r.phase {
        VoidPhase::Commit => "did not commit",
        _ => "did not reveal a seed matching its commitment",
    };
    let names: Vec<String> = r.seats.iter().map(|s| format!("{s:?}")).collect();
    let commitment = if v.published_checked {
        "the commitment is the one published before play".to_string()
    } else {
        format!(
            "the commitment was not compared with the one published before play ({})",
            spell.name(Given::Commitment)
        )
    };
    format!(
        "void at the {} phase: seat(s) {} {what}; nothing was dealt; the record names the right \
         seat(s), and {commitment}",
        r.phase.name(),
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ByName;

    #[test]
    fn the_words_name_the_evidence_as_the_front_end_spells_it() {
        struct Flags;
        impl Spelling for Flags {
            fn name(&self, given: Given) -> String {
                format!("--{}", given.name())
            }
            fn usage(&self, given: Given) -> String {
                format!("--{} X", given.name())
            }
        }
        let v = Verification::default();
        let r = VerdictReport::new("2", &v, (Vec::new(), &Evidence::default()), &Flags);
        assert!(
            r.message.contains("(give it with --commitment)"),
            "{}",
            r.message
        );
        assert!(r.unchecked.iter().any(|u| u.ends_with("(--played X)")));
        let r = VerdictReport::new("2", &v, (Vec::new(), &Evidence::default()), &ByName);
        assert!(
            r.message.contains("(give it with commitment)"),
            "{}",
            r.message
        );
        assert!(!r.message.contains("--") && !r.unchecked.iter().any(|u| u.contains("--")));
    }

    #[test]
    fn a_refused_document_is_invalid_with_one_difference() {
        let e = DocumentError {
            version: Some("2.1"),
            message: "a duplicate key".into(),
        };
        let (version, v, checked) = refused(&e);
        let r = VerdictReport::new(version, &v, (checked, &Evidence::default()), &ByName);
        assert_eq!(r.version, serde_json::json!("2.1"));
        assert_eq!((r.verdict, r.passed()), ("invalid", false));
        assert_eq!(r.differences[0].kind, "document");
        assert_eq!(r.message, "invalid: 1 difference(s): document");
    }

    #[test]
    fn version_numbers_are_numbers_and_2_1_a_string() {
        let v = Verification::default();
        let r = VerdictReport::new("1", &v, (Vec::new(), &Evidence::default()), &ByName);
        assert_eq!(r.version, serde_json::json!(1));
        assert!(r.unchecked.is_empty());
        assert_eq!(r.verdict, "self-consistent-only");
    }
}
