//! Step 2 of §15: one verified key per seat, in seat order, and the joint
//! key; and the table's void at a table stage (`keys`, and in version 3.2
//! `dealing` and `ready`).

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::traits::Identity;

use super::{Options, authorship, incremental};
use crate::keys::{PublicKey, verify_key};
use crate::ledger::key_digest;
use crate::record::{Missing, Record};
use crate::signature::Context as Signing;
use crate::verdict::Difference;
use crate::{Error, Table};

/// Step 2: one verified key per seat, in order, and the joint key; `None`
/// (with the differences) if any is missing or refused.
pub(super) fn keys(
    table: &Table,
    record: &Record,
    (opts, signing): (&Options<'_>, Option<&Signing>),
    diffs: &mut Vec<Difference>,
    memo: &mut incremental::Memo,
) -> Option<(Vec<PublicKey>, PublicKey)> {
    let before = diffs.len();
    let mut keys = Vec::new();
    let mut missing = Vec::new();
    for k in 0..table.seats() as u64 {
        match record.keys.get(k as usize) {
            None => missing.push(k),
            Some(m) if m.seat != k => diffs.push(Difference::new(
                None,
                Error::Replay(format!(
                    "the key message of seat {} is in seat {k}'s place",
                    m.seat
                )),
            )),
            Some(m) => match memo.key(k as usize, m, || signed_key(table, signing, m)) {
                Ok(pk) => keys.push(pk),
                Err(e) => diffs.push(Difference::new(None, e)),
            },
        }
    }
    if record.keys.len() > table.seats() {
        let e = Error::UnexpectedMessage(format!(
            "{} key messages for {} seats",
            record.keys.len(),
            table.seats()
        ));
        diffs.push(Difference::new(None, e));
    }
    if !missing.is_empty() || !void_after_keys(record) {
        table_void(record, ("keys", Missing::Key), &missing, opts, diffs);
    }
    if diffs.len() > before || !missing.is_empty() {
        return None;
    }
    let joint: RistrettoPoint = keys.iter().map(|k| k.0).sum();
    if joint == RistrettoPoint::identity() {
        diffs.push(Difference::new(None, Error::Identity));
        return None;
    }
    Some((keys, PublicKey(joint)))
}

/// A key proof, and in version 3.1 the key message's signature under the
/// key it carries.
fn signed_key(
    table: &Table,
    signing: Option<&Signing>,
    m: &crate::keys::KeyMessage,
) -> Result<PublicKey, Error> {
    let pk = match verify_key(table, m) {
        Ok(pk) => pk,
        // §18: a failed proof is its seat's fault only under its seat's
        // signature. A key message not signed under the key it carries
        // (a rogue key, which nobody can prove or sign for) was put in the
        // seat's place by someone else: `signature`, the room's.
        Err(Error::KeyProof(j)) => {
            if let (Some(ctx), Ok(point)) = (signing, crate::group::decode_point(&m.public_key)) {
                let what = format!("the key message in seat {}'s place", m.seat);
                let digest = key_digest(ctx, m);
                authorship::check(
                    ctx,
                    (m.seat, &PublicKey(point)),
                    &digest,
                    &m.signature,
                    what,
                )?;
            }
            return Err(Error::KeyProof(j));
        }
        Err(e) => return Err(e),
    };
    if let Some(ctx) = signing {
        let what = format!("the key message in seat {}'s place", m.seat);
        authorship::check(ctx, (m.seat, &pk), &key_digest(ctx, m), &m.signature, what)?;
    }
    Ok(pk)
}

/// The table-level void at table stage `stage` (`keys`, `dealing`,
/// `ready`), whose message `kind` the seats in `missing` did not send; or
/// those missing messages without a void. A void at a later table stage
/// of a revision-2 table is left to that stage's check.
pub(super) fn table_void(
    record: &Record,
    (stage, kind): (&str, Missing),
    missing: &[u64],
    opts: &Options<'_>,
    diffs: &mut Vec<Difference>,
) {
    let Some(v) = &record.void else {
        if !opts.in_progress {
            for &k in missing {
                diffs.push(Difference::new(
                    None,
                    Error::MissingMessage(k, kind.to_string()),
                ));
            }
        } else if !missing.is_empty() && !record.hands.is_empty() {
            let what = kind.to_string().replacen("its ", "", 1);
            diffs.push(Difference::new(
                None,
                Error::UnexpectedMessage(format!("hands before every {what}")),
            ));
        }
        return;
    };
    let expected = missing.first().map(|&k| (k, vec![kind]));
    if v.stage != stage || expected != Some((v.seat, v.missing.clone())) {
        let noun = kind.to_string().replacen("its ", "", 1);
        let plural = if noun == "ready" {
            "readies".into()
        } else {
            format!("{noun}s")
        };
        let why = match missing.first() {
            Some(k) => format!(
                "the table stalled at the {plural}, at seat {k}; the record says {} at {:?}",
                v.seat, v.stage
            ),
            None => format!("the record voids the table, but every {noun} is present"),
        };
        diffs.push(Difference::new(None, Error::Void(why)));
    }
    if !record.hands.is_empty() {
        diffs.push(Difference::new(
            None,
            Error::UnexpectedMessage("hands at a void table".into()),
        ));
    }
}

/// Whether `record` is voided at a table stage after the keys (`dealing`,
/// `ready`: version 3.2 only).
pub(super) fn void_after_keys(record: &Record) -> bool {
    let stage = record.void.as_ref().map(|v| v.stage.as_str());
    record.revision == crate::record::TOLERANT_REVISION
        && matches!(stage, Some("dealing" | "ready"))
}
