//! Collecting the seats' seeds: each seat's commitment, the seat lock `L`
//! that the last commitment sets (version 2.1, section 8.6 of
//! `docs/fair-dealing.md`), and each seat's reveal, checked against its
//! commitment by `fairdeck_fair`'s collection rules.

use fairdeck_fair::collect::{self, Step};
use fairdeck_fair::{Commitment, MAX_TEXT};

use super::{Phase, TableState, broken, corrupt, phase};
use crate::Error;

impl TableState {
    pub(super) fn commit(
        &mut self,
        seat: usize,
        commitment: &str,
        lock: Option<&str>,
        at: u64,
    ) -> Result<(), Error> {
        if self.phase != Phase::Committing || self.lock.is_some() {
            return Err(phase("commit", self.phase));
        }
        let name = self.manifest.seats.get(seat).cloned().unwrap_or_default();
        let done = self.seat(seat)?.commitment.is_some();
        collect::once(&name, Step::Commit, done).map_err(broken)?;
        self.on_time("commit", at)?;
        let c = Commitment::from_hex(commitment)
            .map_err(|_| Error::invalid("commitment", "must be 64 hex digits"))?;
        let mut after = self.clone();
        after.seats[seat].commitment = Some(c.to_hex());
        after.lock = after.computed_lock()?;
        // A log written before version 2.1 carries no lock: it is computed.
        if lock.is_some() && after.lock.as_deref() != lock {
            return Err(corrupt(
                "a commitment's lock is not the seat lock of the commitments \
                 (only the last commitment sets it)",
            ));
        }
        if after.lock.is_some() {
            after.phase = Phase::Revealing;
            after.deadline = at.saturating_add(self.reveal_seconds);
        }
        *self = after;
        Ok(())
    }

    /// The seat lock `L` of the commitments once every seat committed
    /// (`None` before). O(manifest + seats).
    ///
    /// # Errors
    ///
    /// [`Error::Corrupt`] for a stored commitment that does not read.
    pub fn computed_lock(&self) -> Result<Option<String>, Error> {
        let Some(cs) = self
            .seats
            .iter()
            .map(|s| s.commitment.as_deref().map(Commitment::from_hex))
            .collect::<Option<Result<Vec<_>, _>>>()
        else {
            return Ok(None);
        };
        let cs = cs.map_err(|e| corrupt(e.to_string()))?;
        let table = self.table()?;
        let room = Commitment::from_hex(&self.commitment).map_err(|e| corrupt(e.to_string()))?;
        let lock = table
            .seat_lock(&room, &cs)
            .map_err(|e| corrupt(e.to_string()))?;
        Ok(Some(lock.to_hex()))
    }

    /// The lock a commitment of `seat` would set: `Some(L)` when it is the
    /// last one missing (the event that opens the reveals carries it).
    ///
    /// # Errors
    ///
    /// As [`TableState::computed_lock`]. A commitment that is not 64 hex
    /// digits sets none (the state machine refuses it).
    pub fn lock_after(&self, seat: usize, commitment: &str) -> Result<Option<String>, Error> {
        let Ok(c) = Commitment::from_hex(commitment) else {
            return Ok(None);
        };
        let mut after = self.clone();
        match after.seats.get_mut(seat) {
            Some(s) if s.commitment.is_none() => s.commitment = Some(c.to_hex()),
            _ => return Ok(None),
        }
        after.computed_lock()
    }

    /// Sets the lock of a snapshot written before version 2.1 (a table
    /// past its commitments without a stored lock). O(seats).
    ///
    /// # Errors
    ///
    /// As [`TableState::computed_lock`].
    pub fn fill_lock(&mut self) -> Result<(), Error> {
        if self.lock.is_none() && self.phase != Phase::Committing {
            self.lock = self.computed_lock()?;
        }
        Ok(())
    }

    pub(super) fn reveal(&mut self, seat: usize, seed: &str, at: u64) -> Result<(), Error> {
        // No seed before the lock is published (section 8.6).
        if self.phase != Phase::Revealing || self.lock.is_none() {
            return Err(phase("reveal", self.phase));
        }
        let name = self.manifest.seats.get(seat).cloned().unwrap_or_default();
        let stored = self.seat(seat)?;
        collect::once(&name, Step::Reveal, stored.seed.is_some()).map_err(broken)?;
        self.on_time("reveal", at)?;
        if seed.len() > MAX_TEXT {
            let why = format!("at most {MAX_TEXT} bytes");
            return Err(Error::invalid("seed", why));
        }
        let table = self.table()?;
        collect::seed_matches(&table, (seat, &name), stored.commitment.as_deref(), seed)
            .map_err(broken)?;
        self.seats[seat].seed = Some(seed.to_string());
        if self.seats.iter().all(|s| s.seed.is_some()) {
            self.phase = Phase::Ready;
        }
        Ok(())
    }
}
