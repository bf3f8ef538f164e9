//! The words of `fair verify`'s verdict on a transcript: what was checked,
//! what was not, and what the result amounts to (the verdict itself comes
//! from `fairdeck_fair::Verification::verdict`).

use fairdeck_fair::{Record, Unchecked, Verdict, Verification, VoidPhase};

/// What was checked, one line each.
pub(super) fn checked_v2(r: &Record, v: &Verification) -> Vec<String> {
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
pub(super) fn message(
    version: &str,
    v: &Verification,
    verdict: Verdict,
    computed: Option<&str>,
) -> String {
    let not_checked = || {
        let list: Vec<&str> = (v.unchecked().into_iter())
            .filter(|u| *u != Unchecked::Commitment)
            .map(|u| u.describe())
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
        Verdict::Void => void_text(v),
        Verdict::SelfConsistentOnly => {
            let mut t = format!(
                "self-consistent only: compare the commitment {} with the one published before \
                 play (give it with --commitment)",
                computed.unwrap_or("?")
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

fn void_text(v: &Verification) -> String {
    let Some(r) = &v.void else {
        return "void".into();
    };
    let what = match r.phase {
        VoidPhase::Commit => "did not commit",
        _ => "did not reveal a seed matching its commitment",
    };
    let names: Vec<String> = r.seats.iter().map(|s| format!("{s:?}")).collect();
    let commitment = if v.published_checked {
        "the commitment is the one published before play"
    } else {
        "the commitment was not compared with the one published before play (--commitment)"
    };
    format!(
        "void at the {} phase: seat(s) {} {what}; nothing was dealt; the record names the right \
         seat(s), and {commitment}",
        r.phase.name(),
        names.join(", ")
    )
}
