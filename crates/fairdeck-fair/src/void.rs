//! Void tables (section 8.7 of `docs/fair-dealing.md`): a table at which a
//! seat did not commit, or did not reveal the seed it committed to, deals
//! nothing. The room publishes a *void record* naming the phase and the
//! seats that failed, and a verifier checks that it names the right ones.

use super::record::{Record, VoidPhase, VoidRecord};
use super::table::{Manifest, Table};
use super::transcript::{SeatRecord, Transcript, checked, commitments, refused};
use super::verdict::{Difference, Kind, Verification};
use super::version::TranscriptVersion;
use super::{Commitment, ServerSecret};
use fairdeck::Error;

/// The phase and the failed seats that `seats` show: the seats without a
/// commitment if any (commit phase), else those whose seed is missing or
/// does not match (reveal phase); `None` when nobody failed.
pub fn void_of(table: &Table, seats: &[SeatRecord]) -> Option<VoidRecord> {
    let uncommitted: Vec<String> = seats
        .iter()
        .filter(|s| s.commitment.is_empty())
        .map(|s| s.name.clone())
        .collect();
    if !uncommitted.is_empty() {
        return Some(VoidRecord {
            phase: VoidPhase::Commit,
            seats: uncommitted,
        });
    }
    let late: Vec<String> = seats
        .iter()
        .enumerate()
        .filter(|(i, s)| refused(table, *i, s).is_some())
        .map(|(_, s)| s.name.clone())
        .collect();
    (!late.is_empty()).then_some(VoidRecord {
        phase: VoidPhase::Reveal,
        seats: late,
    })
}

impl Record {
    /// The void record of a table (version 2.1): the room's secret
    /// revealed (it proves the commitment and deals nothing), every
    /// collected commitment, the lock at the reveal phase, the seeds
    /// revealed, and the phase and seats that failed. O(seats).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidTable`] for a bad manifest or seat list, when nobody
    /// failed (the table is not void), when a seed is given before every
    /// seat committed, or when `lock` is missing at the reveal phase or is
    /// not the lock of the commitments.
    pub fn void(
        manifest: &Manifest,
        secret: &ServerSecret,
        seats: &[SeatRecord],
        lock: Option<&Commitment>,
    ) -> Result<Record, Error> {
        let table = checked(manifest, seats)?;
        let bad = |why: &str| Err(Error::InvalidTable(why.to_string()));
        let Some(record) = void_of(&table, seats) else {
            return bad("every seat committed and revealed its seed: the table is not void");
        };
        let room = table.room_commitment(secret);
        let lock = match record.phase {
            VoidPhase::Commit if seats.iter().any(|s| s.seed.is_some()) => {
                return bad("a seed was revealed before every seat committed");
            }
            VoidPhase::Commit => None,
            VoidPhase::Reveal => {
                let Some(lock) = lock else {
                    return bad("every seat committed: give the lock published before the reveals");
                };
                if table.seat_lock(&room, &commitments(seats)?)? != *lock {
                    return bad("the lock is not the lock of these commitments");
                }
                Some(lock.to_hex())
            }
        };
        Ok(Record {
            version: TranscriptVersion::V2_1,
            transcript: Transcript {
                version: 2,
                manifest: manifest.clone(),
                commitment: room.to_hex(),
                seats: seats.to_vec(),
                server_secret: Some(secret.to_hex()),
                deals: Vec::new(),
            },
            lock,
            played: Some(0),
            void: Some(record),
        })
    }
}

fn diff(kind: Kind, message: String) -> Difference {
    Difference { kind, message }
}

/// Checks a void record: that it names exactly the seats that failed, at
/// the phase they failed, and that nothing was dealt. The commitment, the
/// lock and the secret are checked by the caller as for any transcript.
pub(super) fn check_void(r: &Record, table: &Table, record: &VoidRecord, v: &mut Verification) {
    let t = &r.transcript;
    let out = &mut v.differences;
    let shown = void_of(table, &t.seats);
    let named = |r: &VoidRecord| format!("{} phase, seat(s) {:?}", r.phase.name(), r.seats);
    match &shown {
        Some(s) if s == record => {}
        Some(s) => out.push(diff(
            Kind::Void,
            format!(
                "the void record says {}, the seats show {}",
                named(record),
                named(s)
            ),
        )),
        None => out.push(diff(
            Kind::Void,
            format!(
                "the void record says {}, but every seat committed and revealed a matching seed",
                named(record)
            ),
        )),
    }
    if record.phase == VoidPhase::Commit {
        for s in t.seats.iter().filter(|s| s.seed.is_some()) {
            let why = format!("seat {:?} shows a seed before every seat committed", s.name);
            out.push(diff(Kind::Void, why));
        }
    }
    if !t.deals.is_empty() || r.played.is_some_and(|p| p > 0) {
        let why = format!(
            "a void table deals nothing, the record lists {} deal(s) and {} played",
            t.deals.len(),
            r.played.unwrap_or(0)
        );
        out.push(diff(Kind::Void, why));
    }
    v.void = Some(record.clone());
}
