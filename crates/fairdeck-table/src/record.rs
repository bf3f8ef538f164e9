//! A table's deals and published record, recomputed from its secret and seeds.
//!
//! The record is version 2.1 (section 10 of `docs/fair-dealing.md`): the
//! transcript, the seat lock `L` the table published before the reveals,
//! and `played`. The service deals the whole range in one step and every
//! seat sees all its hands, numbered, at that moment, so a closed table's
//! `played` is the whole range, `first` to `last` in order. A void table's
//! record names the phase and the seats that failed it (section 8.7).

use fairdeck_fair::{Commitment, DealRecord, Record, SeatRecord, ServerSecret, deal_record};

use crate::state::{Phase, TableState};

impl TableState {
    /// Deal `nonce` as dealt (recomputed: O(deck)), once the table is dealt.
    pub fn deal_record(&self, nonce: u64) -> Option<DealRecord> {
        if !matches!(self.phase, Phase::Dealt | Phase::Closed) {
            return None;
        }
        let table = self.table().ok()?;
        let seeds: Vec<&str> = self
            .seats
            .iter()
            .filter_map(|s| s.seed.as_deref())
            .collect();
        let secret = ServerSecret::from_bytes(self.secret.0);
        let deck = table.shuffled_deck(&secret, &seeds, nonce);
        Some(deal_record(
            &table,
            nonce,
            &deck,
            &table.lay_out(&deck).ok()?,
        ))
    }

    /// The deal numbers shown to the seats, in the order played: the whole
    /// range once dealt (every hand is shown at the deal), none before.
    pub fn played(&self) -> Vec<u64> {
        match self.phase {
            Phase::Dealt | Phase::Closed => (self.manifest.first..=self.manifest.last).collect(),
            _ => Vec::new(),
        }
    }

    fn seat_records(&self) -> Vec<SeatRecord> {
        (self.manifest.seats.iter().zip(&self.seats))
            .map(|(name, s)| SeatRecord {
                name: name.clone(),
                commitment: s.commitment.clone().unwrap_or_default(),
                seed: s.seed.clone(),
            })
            .collect()
    }

    /// The published record with the secret, once the table is closed (a
    /// version 2.1 transcript with its lock and `played`) or void (a void
    /// record naming the phase and the seats that failed); `None` before.
    /// O(deals · deck).
    pub fn transcript(&self) -> Option<Record> {
        let seats = self.seat_records();
        let secret = ServerSecret::from_bytes(self.secret.0);
        let lock = match &self.lock {
            Some(l) => Some(Commitment::from_hex(l).ok()?),
            None => None,
        };
        match (self.phase, lock) {
            (Phase::Closed, Some(lock)) => {
                let played = self.manifest.last - self.manifest.first + 1;
                Record::deal_locked(&self.manifest, &secret, &seats, &lock, played).ok()
            }
            (Phase::Void, lock) => {
                Record::void(&self.manifest, &secret, &seats, lock.as_ref()).ok()
            }
            _ => None,
        }
    }
}
