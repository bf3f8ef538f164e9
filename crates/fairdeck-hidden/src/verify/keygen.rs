//! Steps 2a and 2b of a revision-2 transcript (`docs/hidden-dealing-v3.2.md`
//! §29.1): one dealing per seat at its place, signed by its seat and
//! checked by §22.3; then each complaint judged (§22.5), or one `ready`
//! per seat checked against the computed verifying shares (§22.4); a
//! missing dealing or `ready` is a top-level void at that stage, as a
//! missing key is.

use super::Options;
use super::seat_keys::table_void;
use crate::dkg::digest::{complaint_digest, dealing_digest, ready_digest};
use crate::dkg::{Dealing, KeyResult, check_dealing, check_ready, judge, public_result};
use crate::keys::PublicKey;
use crate::ledger::check_signature;
use crate::record::{Missing, Record};
use crate::signature::Context as Signing;
use crate::verdict::Difference;
use crate::{Error, Table};

/// What the key generation established.
pub(super) struct Keygen {
    /// The card key and every verifying share, when every `ready` holds.
    pub result: Option<KeyResult>,
    /// The line of the verdict's `checked` list (§29.3).
    pub line: String,
}

/// The checks of one table stage: the table, the seat keys, the signing
/// context and the verification options.
struct Stage<'a> {
    table: &'a Table,
    keys: &'a [PublicKey],
    signing: &'a Signing,
    opts: &'a Options<'a>,
}

/// Steps 2a–2b (§29.1). `keys` are the verified seat keys; every failure is
/// added to `diffs`. O(P · (t + P)) group operations.
pub(super) fn check(
    table: &Table,
    record: &Record,
    (keys, signing, opts): (&[PublicKey], &Signing, &Options<'_>),
    diffs: &mut Vec<Difference>,
) -> Keygen {
    let st = Stage {
        table,
        keys,
        signing,
        opts,
    };
    let p = table.seats();
    let Some(dealings) = st.dealings(record, diffs) else {
        let got = record.dealings.len().min(p);
        return Keygen {
            result: None,
            line: format!("key generation: {got} of {p} dealings (incomplete or refused)"),
        };
    };
    if !record.complaints.is_empty() {
        return st.complaints(record, &dealings, diffs);
    }
    let result = match public_result(table, &dealings) {
        Ok(r) => r,
        Err(e) => {
            diffs.push(Difference::new(None, e));
            let line = format!("key generation: {p} dealings, no card key");
            return Keygen { result: None, line };
        }
    };
    let ok = st.readies(record, &result, diffs);
    let got = record.readies.len().min(p);
    Keygen {
        line: match ok {
            true => format!("key generation: {p} dealings, {p} readies, no complaint"),
            false => format!("key generation: {p} dealings, {got} of {p} readies"),
        },
        result: ok.then_some(result),
    }
}

impl Stage<'_> {
    /// Step 2a: every dealing, checked; `None` if any is missing or fails.
    fn dealings(&self, record: &Record, diffs: &mut Vec<Difference>) -> Option<Vec<Dealing>> {
        let before = diffs.len();
        let check = |m: &crate::dkg::DealingMessage| {
            let what = format!("the dealing in seat {}'s place", m.seat);
            let d = dealing_digest(self.signing, m);
            let pk = &self.keys[m.seat as usize];
            check_signature(self.signing, (m.seat, pk), &d, &m.signature, what)?;
            check_dealing(self.table, m)
        };
        let seats = self.table.seats();
        let (dealings, missing) =
            one_per_seat(seats, &record.dealings, "dealing", |m| m.seat, check, diffs);
        if !missing.is_empty() || record.void_stage() == Some("dealing") {
            let kind = ("dealing", Missing::Dealing);
            table_void(record, kind, &missing, self.opts, diffs);
        }
        let later = !record.readies.is_empty() || !record.complaints.is_empty();
        if !missing.is_empty() && later {
            let why = "readies or complaints before every dealing".into();
            diffs.push(Difference::new(None, Error::UnexpectedMessage(why)));
        }
        (diffs.len() == before && missing.is_empty()).then_some(dealings)
    }

    /// Step 2b with complaints: each judged; a seat that also sent a
    /// `ready` is `unexpected-message`; the table ends here.
    fn complaints(
        &self,
        record: &Record,
        dealings: &[Dealing],
        diffs: &mut Vec<Difference>,
    ) -> Keygen {
        let mut named = Vec::new();
        for m in &record.complaints {
            let fault = match self.signed_complaint(m) {
                Err(e) => e,
                Ok(()) => judge(self.table, self.keys, dealings, m),
            };
            named.push(format!(
                "seat {} against seat {}: {}",
                m.seat,
                m.against,
                fault.kind()
            ));
            diffs.push(Difference::new(None, fault));
            if record.readies.iter().any(|r| r.seat == m.seat) {
                let why = format!("seat {} sent both a ready and a complaint", m.seat);
                diffs.push(Difference::new(None, Error::UnexpectedMessage(why)));
            }
        }
        if let Some(v) = &record.void {
            let why = format!(
                "the table ended with complaints; the record voids it at {:?}",
                v.stage
            );
            diffs.push(Difference::new(None, Error::Void(why)));
        }
        let p = self.table.seats();
        Keygen {
            result: None,
            line: format!(
                "key generation: {p} dealings, {} complaint(s) ({})",
                record.complaints.len(),
                named.join("; ")
            ),
        }
    }

    /// A complaint's complainer is a seat of the table and signed it.
    fn signed_complaint(&self, m: &crate::dkg::ComplaintMessage) -> Result<(), Error> {
        let j = self.table.check_seat(m.seat)?;
        let what = format!("seat {}'s complaint against seat {}", m.seat, m.against);
        let d = complaint_digest(self.signing, m);
        check_signature(
            self.signing,
            (m.seat, &self.keys[j]),
            &d,
            &m.signature,
            what,
        )
    }

    /// Step 2b without complaints: one `ready` per seat, each checked
    /// against `result`; whether all are in and hold.
    fn readies(&self, record: &Record, result: &KeyResult, diffs: &mut Vec<Difference>) -> bool {
        let before = diffs.len();
        let check = |m: &crate::dkg::ReadyMessage| {
            let what = format!("the ready in seat {}'s place", m.seat);
            let d = ready_digest(self.signing, m);
            let pk = &self.keys[m.seat as usize];
            check_signature(self.signing, (m.seat, pk), &d, &m.signature, what)?;
            check_ready(self.table, result, m)
        };
        let seats = self.table.seats();
        let (_, missing) = one_per_seat(seats, &record.readies, "ready", |m| m.seat, check, diffs);
        if !missing.is_empty() || record.void_stage() == Some("ready") {
            table_void(
                record,
                ("ready", Missing::Ready),
                &missing,
                self.opts,
                diffs,
            );
        }
        diffs.len() == before && missing.is_empty()
    }
}

/// Messages of which each seat sends one, the k-th of seat k (§28.2): each
/// in its place checked by `check`, in seat order. Returns what the checks
/// gave and the seats whose message is missing; a message in another
/// seat's place is `replay`, one too many `unexpected-message`. O(P)
/// checks.
fn one_per_seat<M, T>(
    seats: usize,
    list: &[M],
    name: &str,
    seat_of: impl Fn(&M) -> u64,
    mut check: impl FnMut(&M) -> Result<T, Error>,
    diffs: &mut Vec<Difference>,
) -> (Vec<T>, Vec<u64>) {
    let mut checked = Vec::new();
    let mut missing = Vec::new();
    for k in 0..seats as u64 {
        let e = match list.get(k as usize) {
            None => {
                missing.push(k);
                continue;
            }
            Some(m) if seat_of(m) != k => Error::Replay(format!(
                "the {name} of seat {} is in seat {k}'s place",
                seat_of(m)
            )),
            Some(m) => match check(m) {
                Ok(t) => {
                    checked.push(t);
                    continue;
                }
                Err(e) => e,
            },
        };
        diffs.push(Difference::new(None, e));
    }
    if list.len() > seats {
        let why = format!("{} {name} messages for {seats} seats", list.len());
        diffs.push(Difference::new(None, Error::UnexpectedMessage(why)));
    }
    (checked, missing)
}

#[cfg(test)]
mod tests;
