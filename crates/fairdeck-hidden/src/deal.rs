//! Dealing from the shuffled deck: decryption shares in, card names out
//! (`docs/hidden-dealing.md` §5 steps 4–6, §9).
//!
//! With checked shares `D_j = sk_j·b` of `(a, b)` from the seats `j ∈ S`:
//! a community or opened card is `X = a − Σ_{j∈S} D_j` with `S` every seat;
//! seat `i`'s own private card is `X = a − Σ_{j≠i} D_j − sk_i·b`, its own
//! share removed locally and never published. `X` is mapped back to the
//! card whose point it is.

use curve25519_dalek::ristretto::RistrettoPoint;

use crate::dleq::{ShareMessage, verify_share};
use crate::elgamal::Deck;
use crate::keys::{PublicKey, SecretKey};
use crate::{Error, Table};

pub use crate::dleq::share_message;

/// Who decrypts a position: everybody (community, showdown), or one seat
/// with its own secret key (its private card).
#[derive(Debug, Clone, Copy)]
pub enum Reader<'a> {
    /// Every seat's share is published.
    Everyone,
    /// Seat `seat` removes its own share with `key`; the others are published.
    Seat {
        /// The reading seat.
        seat: u64,
        /// Its secret key.
        key: &'a SecretKey,
    },
}

/// Decrypts position `position` of hand `hand` from `shares`, checking each
/// share's proof against `keys` (the seats' public keys, in seat order).
/// O(P) share checks.
///
/// # Errors
///
/// [`Error::Position`]; [`Error::Hand`] or [`Error::Position`] for a share of
/// another hand or position; any error of [`verify_share`];
/// [`Error::DuplicateShare`]; [`Error::MissingShare`] naming the first seat
/// whose share is needed and absent; [`Error::UnknownCard`].
pub fn open<'t>(
    table: &'t Table,
    keys: &[PublicKey],
    deck: &Deck,
    (hand, position): (u64, u64),
    shares: &[ShareMessage],
    reader: Reader<'_>,
) -> Result<&'t str, Error> {
    let e = usize::try_from(position)
        .ok()
        .and_then(|p| deck.0.get(p))
        .ok_or(Error::Position(position))?;
    let mut seen = vec![false; table.seats()];
    let mut x = e.a;
    for msg in shares {
        if msg.hand != hand {
            return Err(Error::Hand(msg.hand));
        }
        if msg.position != position {
            return Err(Error::Position(msg.position));
        }
        let j = table.check_seat(msg.seat)?;
        let pk = keys.get(j).ok_or(Error::Seat(msg.seat))?;
        let d = verify_share(table, pk, e, msg)?;
        if std::mem::replace(&mut seen[j], true) {
            return Err(Error::DuplicateShare(msg.seat));
        }
        x -= d;
    }
    if let Reader::Seat { seat, key } = reader {
        let i = table.check_seat(seat)?;
        if !seen[i] {
            seen[i] = true;
            x -= own_share(key, &e.b);
        }
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(Error::MissingShare(missing as u64));
    }
    table.card_of(&x).ok_or(Error::UnknownCard)
}

/// `sk_i·b`, computed locally.
fn own_share(key: &SecretKey, b: &RistrettoPoint) -> RistrettoPoint {
    key.0 * b
}
