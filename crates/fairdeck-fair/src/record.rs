//! A published record (sections 10 and 8.6–8.7 of `docs/fair-dealing.md`):
//! a version 2 transcript, a version 2.1 transcript (the seat lock and the
//! count of deals played added), or a void table's record.

use super::Commitment;
use super::ServerSecret;
use super::table::Manifest;
use super::transcript::{SeatRecord, Transcript, commitments, quote};
use super::version::TranscriptVersion;
use fairdeck::Error;

/// A record as published: a [`Transcript`] and what version 2.1 adds.
///
/// In JSON it is one object: the transcript's fields with `"version": 2`
/// or `"version": "2.1"`, and in version 2.1 `"lock"`, `"played"` and, for
/// a void table, `"void"`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(from = "wire::Wire", into = "wire::Wire")
)]
pub struct Record {
    /// 2 or 2.1.
    pub version: TranscriptVersion,
    /// The transcript (its own `version` field is 2).
    pub transcript: Transcript,
    /// Version 2.1: the seat lock `L` as the room published it after the
    /// last commitment and before any reveal (64 hex digits; `None` in
    /// version 2 and in a void record of the commit phase). A verifier
    /// compares the lock recomputed from the seats' commitments with the
    /// one the player recorded, never trusts this one.
    pub lock: Option<String>,
    /// Version 2.1: how many deals were played, `first`, `first + 1`, … in
    /// that order; fewer than the range when the table stopped early.
    pub played: Option<u64>,
    /// A void table: the phase it voided at and the seats that failed.
    pub void: Option<VoidRecord>,
}

impl From<Transcript> for Record {
    /// A version 2 record (no lock).
    fn from(transcript: Transcript) -> Record {
        Record {
            version: TranscriptVersion::V2,
            transcript,
            lock: None,
            played: None,
            void: None,
        }
    }
}

impl Record {
    /// A version 2.1 transcript: [`Transcript::deal`], after checking that
    /// `lock` (the seat lock the room published before the reveals) is the
    /// lock of the seats' commitments, recording it and the number of deals
    /// `played` (from `first`, in increasing order). O(deals · deck).
    ///
    /// # Errors
    ///
    /// Those of [`Transcript::deal`]; [`Error::InvalidTable`] when `lock`
    /// is not the lock of these commitments (one was replaced after the
    /// lock, or the lock is another table's) or `played` exceeds the range.
    pub fn deal_locked(
        manifest: &Manifest,
        secret: &ServerSecret,
        seats: &[SeatRecord],
        lock: &Commitment,
        played: u64,
    ) -> Result<Record, Error> {
        let table = manifest.check()?;
        let range = manifest.last - manifest.first + 1;
        if played > range {
            return Err(Error::InvalidTable(format!(
                "{played} deals played, the manifest has {range}"
            )));
        }
        let transcript = Transcript::deal(manifest, secret, seats)?;
        let computed = table.seat_lock(&table.room_commitment(secret), &commitments(seats)?)?;
        if computed != *lock {
            return Err(Error::InvalidTable(format!(
                "the lock {lock} is not the lock of these commitments ({computed}): a \
                 commitment was replaced after the lock, or the lock is another table's"
            )));
        }
        Ok(Record {
            version: TranscriptVersion::V2_1,
            transcript,
            lock: Some(lock.to_hex()),
            played: Some(played),
            void: None,
        })
    }

    /// The canonical JSON layout of [`Transcript::to_json`]; version 2.1
    /// adds `"lock"` after the seats, `"played"` and `"void"` after the
    /// secret. A version 2 record is written exactly as its transcript.
    pub fn to_json(&self) -> String {
        if self.version == TranscriptVersion::V2 && self.lock.is_none() && self.void.is_none() {
            return self.transcript.to_json();
        }
        let version = match self.version {
            TranscriptVersion::V2 => "2".to_string(),
            TranscriptVersion::V2_1 => quote("2.1"),
        };
        let lock = self.lock.as_deref().map_or("null".into(), quote);
        let mut extra = Vec::new();
        if let Some(p) = self.played {
            extra.push(format!("\"played\": {p}"));
        }
        if let Some(v) = &self.void {
            let names: Vec<String> = v.seats.iter().map(|s| quote(s)).collect();
            extra.push(format!(
                "\"void\": {{\"phase\": {}, \"seats\": [{}]}}",
                quote(v.phase.name()),
                names.join(", ")
            ));
        }
        self.transcript.json(&version, Some(&lock), &extra)
    }
}

#[cfg(feature = "serde")]
mod wire {
    use super::{Record, Transcript, TranscriptVersion, VoidRecord};
    use crate::table::Manifest;
    use crate::transcript::{DealRecord, SeatRecord};

    /// The JSON object of a record: one flat list of fields.
    #[derive(Clone, serde::Serialize, serde::Deserialize)]
    pub struct Wire {
        version: TranscriptVersion,
        manifest: Manifest,
        commitment: String,
        seats: Vec<SeatRecord>,
        /// Absent in version 2; in version 2.1 always written, `null` when
        /// there is no lock (a void record of the commit phase).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lock: Option<Option<String>>,
        server_secret: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        played: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        void: Option<VoidRecord>,
        deals: Vec<DealRecord>,
    }

    impl From<Wire> for Record {
        fn from(w: Wire) -> Record {
            Record {
                version: w.version,
                transcript: Transcript {
                    version: 2,
                    manifest: w.manifest,
                    commitment: w.commitment,
                    seats: w.seats,
                    server_secret: w.server_secret,
                    deals: w.deals,
                },
                lock: w.lock.flatten(),
                played: w.played,
                void: w.void,
            }
        }
    }

    impl From<Record> for Wire {
        fn from(r: Record) -> Wire {
            let t = r.transcript;
            Wire {
                version: r.version,
                manifest: t.manifest,
                commitment: t.commitment,
                seats: t.seats,
                lock: (r.version == TranscriptVersion::V2_1).then_some(r.lock),
                server_secret: t.server_secret,
                played: r.played,
                void: r.void,
                deals: t.deals,
            }
        }
    }
}

/// The phase a table voided at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum VoidPhase {
    /// A seat did not commit: no lock, no reveal, nothing dealt.
    Commit,
    /// Every seat committed (and the lock was published), but a seat did
    /// not reveal its seed or revealed one that does not match.
    Reveal,
}

impl VoidPhase {
    /// `commit` or `reveal`.
    pub fn name(self) -> &'static str {
        match self {
            VoidPhase::Commit => "commit",
            VoidPhase::Reveal => "reveal",
        }
    }
}

/// What a void record says: the phase and the seats that failed it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct VoidRecord {
    /// The phase the table voided at.
    pub phase: VoidPhase,
    /// The seats that did not commit (commit phase), or did not reveal a
    /// seed matching their commitment (reveal phase), in seat order.
    pub seats: Vec<String>,
}
