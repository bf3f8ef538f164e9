//! Claiming a seat on one device, and re-issuing a seat's link.
//!
//! A seat's link (its token) may be opened in several browsers: the
//! operator checking it, a player moving from phone to laptop. The link
//! alone therefore does not act for the seat: its holder first *claims* it
//! on one device, which binds the seat to a device secret (256 random bits
//! the page draws and keeps). From then on every request for the seat must
//! show that secret as well as the token; the service keeps only the
//! secret's SHA-256 and compares in constant time, as for tokens. Another
//! device with the same link is told the seat is claimed elsewhere and can
//! neither see the seat's cards nor commit or reveal.
//!
//! Until the commitments close (every seat committed, or the commit
//! deadline passed) the operator may re-issue a seat's link: a new token,
//! the old one refused, the claim reset and any commitment of the seat
//! withdrawn. Nothing is revealed before the seat lock `L`, so a withdrawn
//! commitment tells nobody anything, and `L` covers only the commitments
//! standing when it is set. After that a link cannot be re-issued.

use super::{Phase, TableState, corrupt, phase};
use crate::Error;
use crate::event::Event;
use crate::token::TokenHash;

/// What a re-issue or a claim is called in refusals.
const REISSUE: &str = "re-issue a seat link";
const CLAIM: &str = "claim a seat";

/// Whether `secret` is a device secret: 64 lowercase hex digits (the
/// 32 random bytes a seat page draws). O(1).
pub fn device_ok(secret: &str) -> bool {
    secret.len() == 64
        && secret
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl TableState {
    /// Whether seat `seat` is claimed on some device.
    pub fn claimed(&self, seat: usize) -> bool {
        self.seats.get(seat).is_some_and(|s| s.device.is_some())
    }

    /// Checks that the device showing `device` may act for `seat` (whose
    /// token the caller checked): the claiming device may do anything;
    /// no other device may do anything once the seat is claimed. An
    /// unclaimed seat may be looked at (`act` false) but not acted for.
    /// Once the table is closed or void, any device with the link may look:
    /// everything the seat's view shows is public then (the transcript
    /// holds every hand), and a player may verify from another browser.
    /// Constant time in the secret's content.
    ///
    /// # Errors
    ///
    /// [`Error::ClaimedElsewhere`] for a claimed seat and another (or no)
    /// device; [`Error::Unclaimed`] to act for an unclaimed seat.
    pub fn authorize_device(
        &self,
        seat: usize,
        device: Option<&str>,
        act: bool,
    ) -> Result<(), Error> {
        let public = matches!(self.phase, Phase::Closed | Phase::Void);
        match self.seats.get(seat).and_then(|s| s.device.as_ref()) {
            Some(hash) if device.is_some_and(|d| hash.admits(d)) => Ok(()),
            Some(_) if public && !act => Ok(()),
            Some(_) => Err(Error::ClaimedElsewhere),
            None if act => Err(Error::Unclaimed),
            None => Ok(()),
        }
    }

    /// The event that claims `seat` for `device` now, or `None` when that
    /// very device holds the claim already.
    ///
    /// # Errors
    ///
    /// [`Error::Invalid`] for a secret that is not 64 lowercase hex digits;
    /// [`Error::Phase`] once the table is closed or void;
    /// [`Error::ClaimedElsewhere`] when another device holds the claim.
    pub fn claim_event(&self, seat: usize, device: &str, at: u64) -> Result<Option<Event>, Error> {
        if !device_ok(device) {
            return Err(Error::invalid(
                "device",
                "a device secret is 64 lowercase hex digits (32 random bytes)",
            ));
        }
        self.seat(seat)?;
        if matches!(self.phase, Phase::Closed | Phase::Void) {
            return Err(phase(CLAIM, self.phase));
        }
        match self.authorize_device(seat, Some(device), true) {
            Ok(()) => Ok(None),
            Err(Error::Unclaimed) => Ok(Some(Event::Claimed {
                seat,
                device: TokenHash::of(device),
                at,
            })),
            Err(e) => Err(e),
        }
    }

    /// Applies a claim: the seat must exist, be unclaimed, and the table open.
    pub(super) fn claim(&mut self, seat: usize, device: TokenHash) -> Result<(), Error> {
        if matches!(self.phase, Phase::Closed | Phase::Void) {
            return Err(phase(CLAIM, self.phase));
        }
        let stored = self.seats.get_mut(seat);
        let stored = stored.ok_or_else(|| corrupt("a claim of a seat the table lacks"))?;
        if stored.device.is_some() {
            return Err(Error::ClaimedElsewhere);
        }
        stored.device = Some(device);
        Ok(())
    }

    /// Applies a re-issue: only while the seats commit, before the deadline.
    pub(super) fn reissue(&mut self, seat: usize, token: TokenHash, at: u64) -> Result<(), Error> {
        if self.phase != Phase::Committing {
            return Err(phase(REISSUE, self.phase));
        }
        self.on_time(REISSUE, at)?;
        self.seat(seat)?;
        let stored = &mut self.seats[seat];
        stored.token = token;
        stored.device = None;
        stored.commitment = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_secrets_are_64_lowercase_hex_digits() {
        assert!(device_ok(&"0a".repeat(32)));
        for bad in [
            String::new(),
            "0a".repeat(31),
            "0A".repeat(32),
            format!("{}g", "0".repeat(63)),
            "0".repeat(65),
        ] {
            assert!(!device_ok(&bad), "{bad}");
        }
    }
}
