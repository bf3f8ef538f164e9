//! # fairdeck-hidden
//!
//! Fair dealing version 3: hidden hands by verifiable mental poker. The deck
//! is shuffled encrypted (ElGamal over ristretto255 under the seats' joint
//! key) by every seat in turn, each shuffle with a Terelius–Wikström proof;
//! cards are opened by decryption shares with Chaum–Pedersen proofs. Nobody
//! — the room included — sees a card before the rules show it; the order is
//! exactly uniform if one seat is honest; anyone can verify the hand. The
//! byte-exact specification is `docs/hidden-dealing.md`.
//!
//! Every function is pure over messages: randomness comes in as a
//! `R: CryptoRng` parameter, never from the clock or the operating system.
//!
//! ## Quick start: a two-seat hand, one card dealt to seat 0
//!
//! ```
//! use chacha20::ChaCha20Rng;
//! use fairdeck_fair::Manifest;
//! use fairdeck_hidden::{Table, deal, elgamal::PublishedDeck, keys, shuffle};
//! use rand_core::SeedableRng;
//!
//! let mut rng = ChaCha20Rng::from_seed([1; 32]);
//! let manifest = Manifest {
//!     version: 3, table: "doc".into(), game: "holdem".into(), deck: "standard".into(),
//!     seats: vec!["ann".into(), "bob".into()], first: 1, last: 1,
//! };
//! let table = Table::new(manifest)?;
//! let secrets = [keys::SecretKey::generate(&mut rng), keys::SecretKey::generate(&mut rng)];
//! let key_msgs = [keys::key_message(&table, 0, &secrets[0], &mut rng)?,
//!                 keys::key_message(&table, 1, &secrets[1], &mut rng)?];
//! let (seat_keys, joint) = keys::joint_key(&table, &key_msgs)?;
//! let mut deck = PublishedDeck::from_deck(table.starting_deck());
//! for seat in 0..2 {
//!     let (msg, _) = shuffle::shuffle(&table, 1, seat, &joint, &deck, &mut rng)?;
//!     deck = shuffle::verify_shuffle(&table, (1, seat), &joint, &deck, &msg)?;  // anyone checks
//! }
//! // Position 0 goes to seat 0: seat 1 publishes its share, seat 0 removes its own.
//! let share = deal::share_message(&table, 1, 1, 0, &secrets[1], &deck.deck.0[0], &mut rng)?;
//! let reader = deal::Reader::Seat { seat: 0, key: &secrets[0] };
//! let card = deal::open(&table, &seat_keys, &deck.deck, (1, 0), &[share], reader)?;
//! assert!(table.card_names().iter().any(|c| c == card));
//! # Ok::<(), fairdeck_hidden::Error>(())
//! ```
//!
//! ## Modules
//!
//! * [`group`] — encodings, random scalars, hash to group, card points, generators;
//! * [`wire`] — 32-byte fields as hex;
//! * [`transcript`] — Fiat–Shamir transcripts over SHA-512;
//! * [`elgamal`] — ciphertexts, re-encryption, decks;
//! * [`keys`] — seat keys, Schnorr key proofs, the joint key;
//! * [`dleq`] — decryption shares with Chaum–Pedersen proofs;
//! * [`shuffle_proof`] — the Terelius–Wikström shuffle proof;
//! * [`shuffle`] — a seat's shuffle (Fisher–Yates, re-encryption, proof);
//! * [`deal`] — opening cards from shares;
//! * [`dkg`] — version 3.2's distributed key generation (threshold keys);
//! * [`threshold`] — version 3.2's hands under a threshold key: Lagrange
//!   weights, blinds of hole cards, shares against verifying shares;
//! * [`layout`] — which positions go to which seat or street, the stages of a hand;
//! * [`record`] — the whole-table transcript, read strictly;
//! * [`signature`] — version 3.1's seat and room signatures;
//! * [`head`], [`ledger`] — the room's log: digests, heads, receipts,
//!   attestations, evidence;
//! * [`verify`] — the transcript verifier, and [`verdict`] its report;
//! * [`play`] — a seat's next step: its shuffle, the shares it owes, its own cards;
//! * [`seat`] — a seat's verify-then-step over a transcript, with a verifier
//!   kept from step to step ([`verify::Verifier`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod deal;
pub mod dkg;
pub mod dleq;
pub mod elgamal;
mod error;
pub mod group;
pub mod head;
pub mod keys;
pub mod layout;
pub mod ledger;
pub mod play;
pub mod record;
pub mod seat;
pub mod shuffle;
pub mod shuffle_proof;
pub mod signature;
mod table;
#[cfg(test)]
mod testing;
pub mod threshold;
pub mod transcript;
pub mod verdict;
pub mod verify;
pub mod wire;

pub use error::{Error, ShuffleCheck};
pub use table::{REVISION, Table, VERSION};
