//! A seat's steps of version 3.2's key generation
//! (`docs/hidden-dealing-v3.2.md` §22.2–§22.5): after every seat key, its
//! dealing; after every dealing, its `ready` or, if a share dealt to it is
//! bad, its complaints. Each message is signed by the seat (§17, §28.3),
//! logged and added to the record, after the record verifies.
//!
//! Offline, dealings and readies are added in seat order: the transcript
//! keeps the k-th of seat k (§28.2), so a record in progress always has
//! each message in its place.

use rand_core::CryptoRng;

use super::{Refused, check_published};
use crate::dkg::digest::{complaint_digest, dealing_digest, ready_digest};
use crate::dkg::{
    self, ComplaintMessage, Dealing, DealingMessage, DealingSecrets, ReadyMessage, Received,
};
use crate::group::decode_point;
use crate::keys::{PublicKey, SecretKey};
use crate::record::{Missing, Record, TOLERANT_REVISION, Void};
use crate::signature::{Context, sign_seat};
use crate::verify::{Options, verify};
use crate::{Error, Table};

/// What a seat answers the dealings with (§22.4–§22.5).
#[derive(Debug, Clone)]
pub enum Answer {
    /// Every share it received matches its dealer's commitments.
    Ready(ReadyMessage),
    /// One complaint per dealer whose share does not.
    Complaints(Vec<ComplaintMessage>),
}

fn step(why: String) -> Refused {
    Refused::Step(Error::UnexpectedMessage(why))
}

/// The record's table, once the record verifies (in progress), every key
/// is in, seat `seat` published `key`, and the key generation is still on.
fn ready_for_keygen(record: &Record, seat: u64, key: &SecretKey) -> Result<Table, Refused> {
    let table = record.table()?;
    if table.tolerate() == 0 {
        let why = "a table that tolerates no lost seat has no key generation (§22)";
        return Err(step(why.into()));
    }
    let opts = Options {
        in_progress: true,
        ..Options::default()
    };
    let outcome = verify(record, &opts);
    if let Some(d) = outcome.verdict.differences.first() {
        return Err(Refused::Invalid {
            summary: outcome.verdict.summary(),
            first: d.message.clone(),
            error: d.error.clone(),
        });
    }
    if record.keys.len() < table.seats() {
        return Err(Refused::KeysMissing);
    }
    check_published(record, seat, key)?;
    if let Some(v) = &record.void {
        return Err(step(format!(
            "the table is over: void at the {} stage",
            v.stage
        )));
    }
    if !record.complaints.is_empty() {
        return Err(step("the key generation ended with a complaint".into()));
    }
    Ok(table)
}

/// The seat keys of a record whose keys verified, in seat order.
fn seat_keys(record: &Record) -> Result<Vec<PublicKey>, Error> {
    let keys = record.keys.iter().map(|k| decode_point(&k.public_key));
    keys.map(|p| p.map(PublicKey)).collect()
}

/// Seat `seat`'s dealing (§22.3), signed, logged and added to `record`:
/// draws the coefficients, `r_i`, the proof's nonce and the signature's
/// nonce from `rng`, in that order. O(P · (t + P)) group operations (the
/// record is verified first).
///
/// # Errors
///
/// [`Refused`]: the record does not verify, a key is missing, `key` is
/// not the seat's, the seat has dealt or another seat is next.
pub fn publish_dealing<R: CryptoRng + ?Sized>(
    record: &mut Record,
    seat: u64,
    key: &SecretKey,
    rng: &mut R,
) -> Result<DealingMessage, Refused> {
    let table = ready_for_keygen(record, seat, key)?;
    let next = record.dealings.len() as u64;
    if record.dealings.iter().any(|d| d.seat == seat) {
        return Err(step(format!("seat {seat} has already dealt")));
    }
    if next != seat {
        return Err(step(format!(
            "dealings are added in seat order: seat {next} is next"
        )));
    }
    let secrets = DealingSecrets::draw(&table, rng);
    let mut msg = dkg::dealing(&table, seat, &seat_keys(record)?, &secrets, rng)?;
    let ctx = Context::new(&table, record.room.as_ref());
    let digest = dealing_digest(&ctx, &msg);
    msg.signature = Some(sign_seat(&ctx, seat, key, &digest, rng));
    record.log.push(digest);
    record.dealings.push(msg.clone());
    Ok(msg)
}

/// Seat `seat`'s answer to every dealing (§22.4–§22.5), signed, logged
/// and added to `record`: its `ready` (in seat order) when every share
/// dealt to it holds, else one complaint per bad dealer. O(P · (t + P))
/// group operations.
///
/// # Errors
///
/// [`Refused`]: as [`publish_dealing`]; a dealing missing; the seat has
/// answered, or (for a `ready`) another seat is next.
pub fn publish_answer<R: CryptoRng + ?Sized>(
    record: &mut Record,
    seat: u64,
    key: &SecretKey,
    rng: &mut R,
) -> Result<Answer, Refused> {
    let table = ready_for_keygen(record, seat, key)?;
    if record.dealings.len() < table.seats() {
        let next = record.dealings.len();
        return Err(step(format!(
            "not every seat has dealt: seat {next} is next"
        )));
    }
    if record.readies.iter().any(|r| r.seat == seat) {
        return Err(step(format!("seat {seat} has already sent its ready")));
    }
    let dealings = record
        .dealings
        .iter()
        .map(|m| dkg::check_dealing(&table, m))
        .collect::<Result<Vec<Dealing>, Error>>()?;
    let ctx = Context::new(&table, record.room.as_ref());
    match dkg::receive(&table, &dealings, seat, key) {
        Received::Ready(share) => {
            let next = record.readies.len() as u64;
            if next != seat {
                return Err(step(format!(
                    "readies are added in seat order: seat {next} is next"
                )));
            }
            let result = dkg::public_result(&table, &dealings)?;
            let mut msg = dkg::ready(&table, seat, &result.key, &share, rng)?;
            let digest = ready_digest(&ctx, &msg);
            msg.signature = Some(sign_seat(&ctx, seat, key, &digest, rng));
            record.log.push(digest);
            record.readies.push(msg.clone());
            Ok(Answer::Ready(msg))
        }
        Received::Complain(bad) => {
            let mut out = Vec::new();
            for i in bad {
                let mut msg = dkg::complaint(&table, seat, &dealings[i as usize], key, rng)?;
                let digest = complaint_digest(&ctx, &msg);
                msg.signature = Some(sign_seat(&ctx, seat, key, &digest, rng));
                record.log.push(digest);
                record.complaints.push(msg.clone());
                out.push(msg);
            }
            Ok(Answer::Complaints(out))
        }
    }
}

/// The table's void record after its deadline (§14, §22.2): at the first
/// table stage with a message missing — `keys`, then in version 3.2
/// `dealing` and `ready` — naming the first seat that did not send it.
/// `None` when every table stage is complete, or when the key generation
/// ended with a complaint (the complaint, not a void, ends that table).
/// O(1).
pub fn table_void(record: &Record, seats: usize) -> Option<Void> {
    let stalled = |stage: &str, seat: usize, missing: Missing| Void {
        stage: stage.into(),
        seat: seat as u64,
        missing: vec![missing],
    };
    if record.keys.len() < seats {
        return Some(stalled("keys", record.keys.len(), Missing::Key));
    }
    if record.revision != TOLERANT_REVISION || !record.complaints.is_empty() {
        return None;
    }
    if record.dealings.len() < seats {
        return Some(stalled("dealing", record.dealings.len(), Missing::Dealing));
    }
    (record.readies.len() < seats).then(|| stalled("ready", record.readies.len(), Missing::Ready))
}
