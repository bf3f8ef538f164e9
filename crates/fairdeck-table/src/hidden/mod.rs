//! Version-3 tables: hidden hands by verifiable mental poker
//! (`docs/hidden-dealing.md`), with the service as the bulletin board.
//!
//! The operator opens a table from a version-3 manifest and a window
//! (`step_seconds`) and gets one token per seat. Each seat posts, with its
//! token, its key message, then its shuffle in seat order, then its
//! decryption shares as the stages open (the deal at once, each street when
//! the operator opens it), and may open its own cards at the showdown. The
//! service **checks every message before it accepts it** — its place
//! (table, hand, seat, stage, turn) and its proof, with the functions of
//! [`fairdeck_hidden`] — and refuses one that fails with its failure kind
//! and the seat named ([`Refused::Message`]); it stores what it accepts in
//! an append-only log and answers the public transcript in the exact form
//! of §14, which `fairdeck fair verify` checks. It never holds a secret
//! key, so nothing it stores, logs or answers opens a card: an owner never
//! posts its own share of its hole cards before the showdown.
//!
//! When the table waits for a seat's message longer than `step_seconds`
//! after its last accepted change, the first request after the deadline
//! (a read included) writes the void record of §14 — the stage, the seat,
//! what it did not send — and the table stops.
//!
//! Layers: [`Board`] (the state a log replays to, and what it waits for),
//! the checks of [`accept`] and [`control`], the [`HiddenStore`] backends,
//! the operations of [`desk`] (which the HTTP routes of
//! [`crate::service::hidden`] call), and the [`Status`] of a board
//! ([`BoardStatus`]). A seat's side (its next step, its connection) is
//! `fairdeck-client`'s, which also holds the wire shapes both sides use.

pub mod accept;
mod board;
pub mod control;
pub mod desk;
mod entry;
mod refusal;
mod status;
pub mod store;

pub use board::{Board, Due};
pub use control::{Advance, HiddenInvitation, NewHiddenTable};
pub use entry::Entry;
pub use fairdeck_client::wire::{Post, SeatLink, SeatOwes, Status};
pub use refusal::Refused;
pub use status::BoardStatus;
pub use store::{HiddenDecide, HiddenStore};
