//! The seat lock of version 2.1 (section 8.6 of `docs/fair-dealing.md`):
//! one hash over every seat's commitment, published after the last
//! commitment is collected and before any seed is revealed.
//!
//! Without it a room colluding with one seat can wait for the other seats'
//! reveals, grind that seat's seed, recompute its commitment and publish a
//! transcript that agrees with itself. With it every seat records `L` before
//! revealing, and a commitment replaced afterwards no longer gives `L`.

use sha2::{Digest, Sha256};

use super::Commitment;
use super::table::{Table, lp};
use fairdeck::Error;

impl Table {
    /// The seat lock:
    ///
    /// ```text
    /// L = SHA-256( lp(D_lock) ‖ C ‖ lp(M) ‖ u64_be(P) ‖ c_0 ‖ … ‖ c_{P−1} )
    /// ```
    ///
    /// with `D_lock = "fairdeck-fair-v2/GAME/DECK/lock"`, `C` the room's
    /// commitment and each `c_i` as 32 raw bytes, `M` the manifest's bytes
    /// and `P` its number of seats. O(manifest + P).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidTable`] when `seats` does not hold exactly one
    /// commitment per seat of the manifest.
    ///
    /// ```
    /// use fairdeck_fair::{Manifest, ServerSecret};
    ///
    /// let m = Manifest {
    ///     version: 2, table: "t".into(), game: "holdem".into(), deck: "standard".into(),
    ///     seats: vec!["ann".into(), "bo".into()], first: 0, last: 0,
    /// };
    /// let table = m.check()?;
    /// let room = table.room_commitment(&ServerSecret::from_bytes([1; 32]));
    /// let seats = [table.seat_commitment(0, "a"), table.seat_commitment(1, "b")];
    /// let lock = table.seat_lock(&room, &seats)?;
    /// // Another seed for bo (a new commitment) gives another lock.
    /// let ground = [seats[0], table.seat_commitment(1, "b2")];
    /// assert_ne!(table.seat_lock(&room, &ground)?, lock);
    /// assert!(table.seat_lock(&room, &seats[..1]).is_err());
    /// # Ok::<(), fairdeck::Error>(())
    /// ```
    pub fn seat_lock(&self, room: &Commitment, seats: &[Commitment]) -> Result<Commitment, Error> {
        if seats.len() != self.manifest.seats.len() {
            return Err(Error::InvalidTable(format!(
                "the lock covers one commitment per seat: {} seat(s), {} commitment(s)",
                self.manifest.seats.len(),
                seats.len()
            )));
        }
        Ok(Commitment(
            Sha256::digest(self.lock_message(room, seats)).into(),
        ))
    }

    /// The bytes the seat lock hashes (for test vectors and debugging).
    pub fn lock_message(&self, room: &Commitment, seats: &[Commitment]) -> Vec<u8> {
        let mut m = Vec::new();
        lp(&mut m, self.domain("lock").as_bytes());
        m.extend_from_slice(&room.0);
        lp(&mut m, &self.manifest.to_bytes());
        m.extend_from_slice(&(seats.len() as u64).to_be_bytes());
        for c in seats {
            m.extend_from_slice(&c.0);
        }
        m
    }
}
