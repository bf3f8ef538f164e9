//! Version 3.1's checks (`docs/hidden-dealing.md` §17–§18): each message's
//! signature by the seat of its place, the log against the messages, the
//! room's signed head, the seats' attestations, a seat's evidence against
//! the published log; and who is at fault for each difference.

use crate::dkg::digest::{complaint_digest, dealing_digest, ready_digest};
use crate::keys::{Proof, PublicKey};
use crate::ledger::{check_attestation, check_evidence, digests, head_signed, heads};
use crate::record::{Record, TOLERANT_REVISION};
use crate::signature::Context;
use crate::verdict::{Difference, Verdict};
use crate::wire::Hex32;
use crate::{Error, Table};

use super::Options;

pub(super) use crate::ledger::check_signature as check;

/// The revision's fields: version 3.1's only in a revision-1 document, and
/// every message signed there, none in a plain version-3 one.
///
/// # Errors
///
/// [`Error::Document`] saying which rule fails.
pub(super) fn shape(record: &Record) -> Result<(), Error> {
    if record.revision > TOLERANT_REVISION {
        return Err(Error::Document(format!(
            "revision {} of version 3 is unknown (0: version 3, 1: version 3.1, 2: version 3.2)",
            record.revision
        )));
    }
    tolerant_shape(record)?;
    let unsigned = signatures(record).any(|s| s.is_none());
    if record.is_signed() {
        if record.room.is_none() && record.head.is_some() {
            return Err(Error::Document("a signed head without a room".into()));
        }
        if unsigned {
            return Err(Error::Document(
                "a message without its signature in a version-3.1 document".into(),
            ));
        }
        return Ok(());
    }
    let v31 = record.room.is_some()
        || !record.log.is_empty()
        || record.head.is_some()
        || !record.attestations.is_empty();
    if v31 || signatures(record).any(|s| s.is_some()) {
        return Err(Error::Document(
            "version-3.1 fields (signatures, room, log, head, attestations) in a document without \"revision\": 1".into(),
        ));
    }
    Ok(())
}

/// Version 3.2's fields only in a revision-2 document, and no hand there
/// yet: the hands of revision 2 (§23–§25) are not implemented.
fn tolerant_shape(record: &Record) -> Result<(), Error> {
    let keygen =
        !record.dealings.is_empty() || !record.readies.is_empty() || !record.complaints.is_empty();
    if record.revision != TOLERANT_REVISION && keygen {
        return Err(Error::Document(
            "version-3.2 fields (dealings, readies, complaints) in a document without \"revision\": 2".into(),
        ));
    }
    if record.revision == TOLERANT_REVISION && !record.hands.is_empty() {
        return Err(Error::Document(
            "a revision-2 transcript with hands: fairdeck verifies a version-3.2 table through its key generation only; hands of revision 2 are not yet implemented".into(),
        ));
    }
    Ok(())
}

/// Every message's signature field, in the record's order.
fn signatures(record: &Record) -> impl Iterator<Item = &Option<Proof>> {
    let keys = record.keys.iter().map(|k| &k.signature);
    let hands = record.hands.iter().flat_map(|h| {
        let shuffles = h.shuffles.iter().map(|m| &m.signature);
        shuffles.chain(h.all_shares().map(|m| &m.signature))
    });
    let keygen = record.dealings.iter().map(|m| &m.signature);
    let keygen = keygen
        .chain(record.readies.iter().map(|m| &m.signature))
        .chain(record.complaints.iter().map(|m| &m.signature));
    keys.chain(keygen).chain(hands)
}

/// The log, head, attestations and evidence of a signed record, then who
/// is at fault for each difference. `keys` are the verified seat keys
/// (none when the keys did not verify).
pub(super) fn finish(
    table: &Table,
    record: &Record,
    keys: Option<&[PublicKey]>,
    opts: &Options<'_>,
    v: &mut Verdict,
) {
    if !record.is_signed() {
        v.checked.push(
            "not who sent each message: a version-3 transcript carries no signatures, so a valid verdict does not bind any message to its seat".into(),
        );
        if !opts.evidence.is_empty() {
            let why = "receipts given for a version-3 transcript, which has no room key to check them against".into();
            v.differences
                .push(Difference::new(None, Error::RoomSignature(why)));
        }
    } else {
        let ctx = Context::new(table, record.room.as_ref());
        let hs = heads(&ctx, &record.log);
        let mut found = log(table, record, opts.in_progress);
        found.extend(head(&ctx, record, &hs));
        if let Some(keys) = keys {
            attestations(&ctx, record, keys, &hs, v, &mut found);
        }
        found.extend(evidence(&ctx, record, &hs, opts));
        v.differences.extend(found);
    }
    v.key_fingerprints = record
        .keys
        .iter()
        .map(|m| crate::keys::fingerprint(&m.public_key))
        .collect();
    v.differences.extend(pinned(record, opts.pins));
    blame(record, table, v);
    v.verdict = if v.differences.is_empty() {
        "valid"
    } else {
        "invalid"
    };
}

/// §18 check 2: the messages' digests are exactly the log's entries. A
/// table in progress may be read one hand at a time (the service's
/// `?hand=N`): then only every message must be in the log.
fn log(table: &Table, record: &Record, in_progress: bool) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut unmatched: Vec<Option<&Hex32>> = record.log.iter().map(Some).collect();
    let ctx = Context::new(table, record.room.as_ref());
    let keygen = keygen_digests(&ctx, record);
    for (d, what) in digests(table, record).into_iter().chain(keygen) {
        match unmatched.iter_mut().find(|e| **e == Some(&d)) {
            Some(e) => *e = None,
            None => out.push(Difference::new(
                None,
                Error::Log(format!(
                    "{what} is not in the log (put in the transcript behind the log's back, or changed)"
                )),
            )),
        }
    }
    for (i, e) in unmatched.iter().enumerate().filter(|_| !in_progress) {
        if let Some(d) = e {
            out.push(Difference::new(
                None,
                Error::Log(format!(
                    "log entry {i} ({d}) matches no message of the transcript: the transcript lost a message the room logged"
                )),
            ));
        }
    }
    out
}

/// Every dealing, complaint and `ready` of a version-3.2 record with its
/// digest and a few words saying where it is, in that order. O(P · (t + P)).
fn keygen_digests(ctx: &Context, record: &Record) -> Vec<(Hex32, String)> {
    let dealings = record.dealings.iter().map(|m| {
        let what = format!("seat {}'s dealing", m.seat);
        (dealing_digest(ctx, m), what)
    });
    let complaints = record.complaints.iter().map(|m| {
        let what = format!("seat {}'s complaint against seat {}", m.seat, m.against);
        (complaint_digest(ctx, m), what)
    });
    let readies = record.readies.iter().map(|m| {
        let what = format!("seat {}'s ready", m.seat);
        (ready_digest(ctx, m), what)
    });
    dealings.chain(complaints).chain(readies).collect()
}

/// §18 check 3: the room's signed head of the whole log.
fn head(ctx: &Context, record: &Record, hs: &[Hex32]) -> Option<Difference> {
    let room = record.room.as_ref()?;
    let why = match &record.head {
        None => "the transcript has a room but no signed head".to_string(),
        Some(h) if !head_signed(ctx, room, h) => {
            format!(
                "the head of {} entries is not signed by the table's room",
                h.length
            )
        }
        Some(h) if h.length != record.log.len() as u64 || hs.last() != Some(&h.head) => format!(
            "the room's signed head covers {} entries and is not the head of this log of {}",
            h.length,
            record.log.len()
        ),
        Some(_) => return None,
    };
    Some(Difference::new(None, Error::RoomSignature(why)))
}

/// §18 check 4: each attestation holds; the seats that attested it all.
fn attestations(
    ctx: &Context,
    record: &Record,
    keys: &[PublicKey],
    hs: &[Hex32],
    v: &mut Verdict,
    found: &mut Vec<Difference>,
) {
    let mut whole = Vec::new();
    let mut earlier = Vec::new();
    for a in &record.attestations {
        match check_attestation(ctx, keys, hs, a) {
            Ok(()) if a.length == record.log.len() as u64 => whole.push(a.seat),
            Ok(()) => earlier.push(a.seat),
            Err(e) => found.push(Difference::new(None, e)),
        }
    }
    whole.sort_unstable();
    whole.dedup();
    let seats = |s: &[u64]| {
        s.iter()
            .map(|j| j.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    v.checked.push(match whole.is_empty() {
        true => "attestations: no seat attested the whole log".into(),
        false => format!(
            "attestations: seat(s) {} attested the whole log",
            seats(&whole)
        ),
    });
    if !earlier.is_empty() {
        v.checked.push(format!(
            "attestations: seat(s) {} attested an earlier head of this log",
            seats(&earlier)
        ));
    }
    v.attested_by = whole;
}

/// §18 "Evidence": the receipts and heads a seat holds, against the log.
fn evidence(ctx: &Context, record: &Record, hs: &[Hex32], opts: &Options<'_>) -> Vec<Difference> {
    let Some(room) = record.room.as_ref() else {
        return match opts.evidence.is_empty() {
            true => Vec::new(),
            false => vec![Difference::new(
                None,
                Error::RoomSignature("receipts given for a table without a room".into()),
            )],
        };
    };
    let mut out: Vec<Difference> = opts
        .evidence
        .iter()
        .filter_map(|item| check_evidence(ctx, room, (&record.log, hs), item).err())
        .map(|e| Difference::new(None, e))
        .collect();
    let proved = out.iter().any(|d| d.kind == "room");
    let voids = record
        .void
        .iter()
        .chain(record.hands.iter().filter_map(|h| h.void.as_ref()));
    if proved {
        for v in voids {
            out.push(Difference::new(
                None,
                Error::Room(format!(
                    "the void naming seat {} at the {} stage is not proof against that seat: the room's own receipts or heads contradict what it published",
                    v.seat, v.stage
                )),
            ));
        }
    }
    out
}

/// Who is at fault for each difference (§18, "Who is named").
fn blame(record: &Record, table: &Table, v: &mut Verdict) {
    let signed = record.is_signed();
    let room = record.room.is_some();
    for d in &mut v.differences {
        let seat = |j: u64| Some(format!("seat {j} ({})", table.seat_name(j)));
        // Without a room, whoever wrote the transcript file is unknown.
        d.at_fault = match &d.error {
            Error::Signature(..)
            | Error::Log(_)
            | Error::RoomSignature(_)
            | Error::Room(_)
            | Error::Attestation(..)
            | Error::Void(_)
            | Error::Replay(_)
            | Error::UnexpectedMessage(_)
                if room =>
            {
                Some("the room".into())
            }
            Error::KeyProof(j) | Error::ShuffleProof(j, _) | Error::ShareProof(j) if signed => {
                seat(*j)
            }
            Error::DuplicateShare(j) if signed => seat(*j),
            Error::Dealing(j)
            | Error::DealingProof(j)
            | Error::DealingShare(j)
            | Error::Complaint(j)
            | Error::Ready(j)
                if signed =>
            {
                seat(*j)
            }
            _ => None,
        };
        if let Some(who) = &d.at_fault {
            d.message = format!("{} [at fault: {who}]", d.message);
        }
    }
}

/// §17, "Key fingerprints": each pinned seat's key in the transcript has
/// the fingerprint its seat gave outside the room (`room` otherwise; a
/// missing key is reported by the key checks). Case and the `-`
/// separators of a pin do not matter.
fn pinned(record: &Record, pins: &[(u64, String)]) -> Vec<Difference> {
    let plain = |f: &str| -> String {
        f.chars()
            .filter(|c| *c != '-')
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let mut out = Vec::new();
    for (seat, pin) in pins {
        let Some(m) = record.keys.get(*seat as usize).filter(|m| m.seat == *seat) else {
            continue;
        };
        let found = crate::keys::fingerprint(&m.public_key);
        if plain(&found) != plain(pin) {
            let why = format!(
                "the key in seat {seat}'s place has the fingerprint {found}, not {pin}, the one seat {seat} gave: someone else played seat {seat}"
            );
            out.push(Difference::new(None, Error::Room(why)));
        }
    }
    out
}
