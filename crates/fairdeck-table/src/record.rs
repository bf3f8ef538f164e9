//! A table's deals and transcript, recomputed from its secret and seeds.

use fairdeck::fair::{DealRecord, SeatRecord, ServerSecret, Transcript, deal_record};

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

    /// The full transcript with the secret, once the table is closed or
    /// void; `None` before. O(deals · deck).
    pub fn transcript(&self) -> Option<Transcript> {
        let seats: Vec<SeatRecord> = (self.manifest.seats.iter().zip(&self.seats))
            .map(|(name, s)| SeatRecord {
                name: name.clone(),
                commitment: s.commitment.clone().unwrap_or_default(),
                seed: s.seed.clone(),
            })
            .collect();
        let secret = ServerSecret::from_bytes(self.secret.0);
        match self.phase {
            Phase::Closed => Transcript::deal(&self.manifest, &secret, &seats).ok(),
            Phase::Void => Some(Transcript {
                version: 2,
                manifest: self.manifest.clone(),
                commitment: self.commitment.clone(),
                seats,
                server_secret: Some(secret.to_hex()),
                deals: Vec::new(),
            }),
            _ => None,
        }
    }
}
