//! The append-only log: each entry holds one [`Event`] and the SHA-256 of
//! the entry before it, so an edited, dropped or reordered entry breaks
//! the chain, and [`audit`] replays the whole history through the state
//! machine and checks the final record with `fairdeck`'s version 2.1
//! verifier (`verify_record`).
//!
//! ```text
//! hash_k = SHA-256( lp("fairdeck-table-log") ‖ hash_{k-1} ‖ u64_be(k) ‖ lp(event JSON) )
//! hash_{-1} = 32 zero bytes;   lp(x) = u64_be(len(x)) ‖ x
//! ```
//!
//! The chain makes the history tamper-evident, not tamper-proof: whoever
//! controls the database can rewrite every entry from some point on. What
//! anchors it is public: the room commitment `C` published at creation
//! (checked against the secret and manifest at the first entry), and the
//! seats' commitments, which no rewritten history can change without the
//! seats noticing.

use fairdeck_fair::{Commitment, Evidence, Verdict, Verification, verify_record};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::Error;
use crate::event::Event;
use crate::hex;
use crate::state::{Phase, TableState};

/// The hash before the first entry: 64 zeros.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// One stored log entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Its place: 0 for the creation, then 1, 2, …
    pub seq: u64,
    /// The event's name (`created`, `committed`, …), for queries.
    pub kind: String,
    /// The event as JSON, exactly the bytes that were hashed.
    pub event: String,
    /// The previous entry's hash (64 hex digits; [`GENESIS`] first).
    pub prev: String,
    /// This entry's hash (64 hex digits).
    pub hash: String,
}

/// The link hash of entry `seq` (formula in the module docs).
pub fn link_hash(prev: &str, seq: u64, event: &str) -> Result<String, Error> {
    let prev = hex::decode32(prev).ok_or_else(|| Error::Corrupt("a link is not 64 hex".into()))?;
    let mut h = Sha256::new();
    let tag = b"fairdeck-table-log";
    h.update((tag.len() as u64).to_be_bytes());
    h.update(tag);
    h.update(prev);
    h.update(seq.to_be_bytes());
    h.update((event.len() as u64).to_be_bytes());
    h.update(event.as_bytes());
    Ok(hex::encode(&h.finalize()))
}

/// The entry that follows `prev` (the previous hash) at place `seq`.
pub fn entry(prev: &str, seq: u64, event: &Event) -> Result<LogEntry, Error> {
    let body = serde_json::to_string(event).map_err(|e| Error::Storage(e.to_string()))?;
    Ok(LogEntry {
        seq,
        kind: event.name().into(),
        hash: link_hash(prev, seq, &body)?,
        event: body,
        prev: prev.into(),
    })
}

/// What an audit of one table's log established.
#[derive(Debug, Clone)]
pub struct Audit {
    /// Entries checked.
    pub entries: usize,
    /// The last entry's hash.
    pub head: String,
    /// The state the log replays to.
    pub state: TableState,
    /// The v2 verification of the final transcript, when the table is
    /// closed or void (compared with the commitment of the first entry).
    pub verification: Option<Verification>,
}

/// Checks a whole log: the chain (places 0, 1, 2, … each naming the
/// previous hash, each hash recomputed), every event replayed through the
/// state machine (so no refused transition can hide in it), and, for a
/// closed table, that its version 2.1 record verifies against the
/// commitment published at creation, the lock set by the last commitment
/// and the deals played, with no difference; for a void table, that its
/// void record names the phase and the seats that failed. O(entries + deals · deck).
///
/// # Errors
///
/// [`Error::Corrupt`] naming the first entry that does not check.
pub fn audit(entries: &[LogEntry]) -> Result<Audit, Error> {
    let mut prev = GENESIS.to_string();
    let mut state: Option<TableState> = None;
    for (k, e) in entries.iter().enumerate() {
        let bad = |why: String| Error::Corrupt(format!("log entry {k}: {why}"));
        if e.seq != k as u64 || e.prev != prev {
            return Err(bad(
                "out of place, or its previous hash is not the chain's".into()
            ));
        }
        if link_hash(&e.prev, e.seq, &e.event)? != e.hash {
            return Err(bad(
                "its hash does not match its content: it was edited".into()
            ));
        }
        let event: Event = serde_json::from_str(&e.event).map_err(|x| bad(x.to_string()))?;
        if event.name() != e.kind {
            return Err(bad(format!(
                "kind {:?} but the event is {}",
                e.kind,
                event.name()
            )));
        }
        match &mut state {
            None => state = Some(TableState::start(&event).map_err(|x| bad(x.to_string()))?),
            Some(s) => s.apply(&event).map_err(|x| bad(x.to_string()))?,
        }
        prev.clone_from(&e.hash);
    }
    let state = state.ok_or_else(|| Error::Corrupt("the log is empty".into()))?;
    let verification = verify_final(&state)?;
    Ok(Audit {
        entries: entries.len(),
        head: prev,
        state,
        verification,
    })
}

fn verify_final(state: &TableState) -> Result<Option<Verification>, Error> {
    let bad = |why: String| Error::Corrupt(why);
    let Some(record) = state.transcript() else {
        return match state.phase {
            Phase::Closed | Phase::Void => Err(bad("the table's record cannot be made".into())),
            _ => Ok(None),
        };
    };
    let hex = |h: &str| Commitment::from_hex(h).map_err(|e| bad(e.to_string()));
    let evidence = Evidence {
        commitment: Some(hex(&state.commitment)?),
        lock: state.lock.as_deref().map(hex).transpose()?,
        seat: None,
        played: Some(state.played()),
    };
    let v = verify_record(&record, &evidence);
    // Every seed is in the record: only a player's own seed is unchecked
    // (a void record of the commit phase has no lock to check either).
    let fine = match state.phase {
        Phase::Void => v.verdict() == Verdict::Void,
        _ => v.verdict() == Verdict::Partial && v.lock_checked && v.played_checked,
    };
    if !fine {
        let kinds: Vec<String> = v.differences.iter().map(|d| d.to_string()).collect();
        return Err(bad(format!(
            "the record does not verify ({}): {}",
            v.verdict().name(),
            kinds.join("; ")
        )));
    }
    Ok(Some(v))
}
