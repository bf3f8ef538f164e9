//! A seat's shuffle: permute and re-encrypt the deck, prove it
//! (`docs/hidden-dealing.md` §5 step 3, §8 "The shuffle itself").
//!
//! The permutation is fairdeck's exact Fisher–Yates
//! ([`fairdeck::shuffle::shuffle`] over [`fairdeck::dice::RngDice`]), so
//! each of the `N!` orders has probability exactly `1/N!` given a uniform
//! generator; the re-encryption factors are [`random_scalar`]s.

use fairdeck::dice::RngDice;
use rand_core::CryptoRng;
use serde::{Deserialize, Serialize};

use crate::elgamal::{CiphertextWire, Deck, KeyTable, PublishedDeck};
use crate::group::random_scalar;
use crate::keys::{Proof, PublicKey};
use crate::shuffle_proof::{self, ShuffleProof, Statement, Witness};
use crate::{Error, Table};

/// Seat `seat`'s shuffle of hand `hand`: the new deck and its proof.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShuffleMessage {
    /// The hand (deal number).
    pub hand: u64,
    /// The shuffling seat.
    pub seat: u64,
    /// The output deck `e'`, top first.
    pub deck: Vec<CiphertextWire>,
    /// The proof that `deck` is a shuffle of the input.
    pub proof: ShuffleProof,
    /// Version 3.1: the seat's signature on the message's digest (§17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Proof>,
}

/// Draws `π` by Fisher–Yates: the list `0 … N−1` shuffled, `π(i)` its entry `i`.
pub fn draw_permutation<R: CryptoRng + ?Sized>(n: usize, rng: &mut R) -> Vec<usize> {
    let mut pi: Vec<usize> = (0..n).collect();
    fairdeck::shuffle::shuffle(&mut pi, &mut RngDice::new(&mut *rng));
    pi
}

/// Applies a witness: `e'_i = ReEnc(e_{π(i)}, ρ_i)`. O(N) scalar multiplications.
///
/// # Panics
///
/// If the witness and the deck differ in length or `π` has an entry `≥ N`.
pub fn apply(input: &Deck, key: &PublicKey, w: &Witness) -> Deck {
    let table = KeyTable::new(&key.0);
    let out = w.permutation.iter().zip(&w.rho);
    Deck(
        out.map(|(&k, rho)| input.0[k].reencrypt(&table, rho))
            .collect(),
    )
}

/// Seat `seat` shuffles `input` under the joint key and proves it: draws
/// `π`, then `ρ_0 … ρ_{N−1}`, then the proof's scalars. Returns the message
/// and the new deck. O(N) scalar multiplications.
///
/// # Errors
///
/// [`Error::Hand`] or [`Error::Seat`] out of range; [`Error::DeckSize`] if
/// `input` is not a deck of the table.
pub fn shuffle<R: CryptoRng + ?Sized>(
    table: &Table,
    hand: u64,
    seat: u64,
    key: &PublicKey,
    input: &PublishedDeck,
    rng: &mut R,
) -> Result<(ShuffleMessage, PublishedDeck), Error> {
    check(table, hand, seat, input)?;
    let n = table.deck_size();
    let permutation = draw_permutation(n, rng);
    let rho = (0..n).map(|_| random_scalar(rng)).collect();
    let w = Witness { permutation, rho };
    let output = PublishedDeck::from_deck(apply(&input.deck, key, &w));
    let st = Statement {
        table,
        hand,
        seat,
        key,
        input,
        output: &output,
    };
    let proof = shuffle_proof::prove(&st, &w, rng);
    let msg = ShuffleMessage {
        hand,
        seat,
        deck: output.wire.clone(),
        proof,
        signature: None,
    };
    Ok((msg, output))
}

fn check(table: &Table, hand: u64, seat: u64, input: &PublishedDeck) -> Result<(), Error> {
    table.check_hand(hand)?;
    table.check_seat(seat)?;
    let n = table.deck_size();
    if input.len() != n || input.deck.len() != n {
        return Err(Error::DeckSize {
            expected: n,
            found: input.len(),
        });
    }
    Ok(())
}

/// Verifies a shuffle message against its input deck and returns the
/// output deck, decoded. The caller supplies the hand and seat it expects
/// (the protocol's order), so a message of another hand or seat is refused
/// before its proof is read.
///
/// # Errors
///
/// [`Error::Hand`] or [`Error::Seat`] if the message is not of the expected
/// hand and seat (or out of range); [`Error::DeckSize`],
/// [`Error::PointEncoding`], [`Error::ScalarEncoding`] or
/// [`Error::ShuffleProof`] from [`shuffle_proof::verify`].
pub fn verify_shuffle(
    table: &Table,
    (hand, seat): (u64, u64),
    key: &PublicKey,
    input: &PublishedDeck,
    msg: &ShuffleMessage,
) -> Result<PublishedDeck, Error> {
    check(table, msg.hand, msg.seat, input)?;
    if msg.hand != hand {
        return Err(Error::Hand(msg.hand));
    }
    if msg.seat != seat {
        return Err(Error::Seat(msg.seat));
    }
    let n = table.deck_size();
    if msg.deck.len() != n {
        return Err(Error::DeckSize {
            expected: n,
            found: msg.deck.len(),
        });
    }
    let output = PublishedDeck::from_wire(msg.deck.clone())?;
    let st = Statement {
        table,
        hand,
        seat,
        key,
        input,
        output: &output,
    };
    shuffle_proof::verify(&st, &msg.proof)?;
    Ok(output)
}
