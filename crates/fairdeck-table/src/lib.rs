//! The core of `fairdeck table`, the fair-dealing service a card room runs:
//! tables that follow the version-2.1 protocol of `docs/fair-dealing.md`
//! (every seat contributes a committed seed), seat tokens that show each
//! player only their own cards, and storage that loses no answered change.
//!
//! Layers, innermost first (an HTTP layer only maps routes onto [`Room`]):
//!
//! - [`TableState`]: the pure state machine. Every change is an [`Event`];
//!   [`TableState::apply`] refuses what the phase does not allow (no reveal
//!   before every commitment, no deal before every reveal, no late seat).
//! - [`Token`]s: 256 random bits, stored only as SHA-256, compared in
//!   constant time; a seat's token opens that seat and nothing else.
//! - Views: [`SeatView`] (own cards, released community cards),
//!   [`OperatorView`], [`PublicView`]; the transcript only once closed.
//! - [`Store`]: [`SqliteStore`] and [`PostgresStore`], one transaction per
//!   change, an append-only hash-chained log ([`ledger`]) that [`ledger::audit`]
//!   replays and checks with `fairdeck`'s version 2.1 verifier.
//!
//! - [`hidden`]: version-3 tables (hidden hands, `docs/hidden-dealing.md`),
//!   where the service is the bulletin board: it checks every seat's key,
//!   shuffle and share message before storing it, serves the transcript,
//!   and holds no secret that opens a card.
//!
//! A front end holds one [`Room`] per connection: behind a mutex for
//! SQLite (its writes are serialized by the file anyway), one per worker for
//! PostgreSQL (the row locks serialize what touches one table). Every store
//! call blocks; an async server calls it from a blocking task.
//!
//! ```
//! use fairdeck_fair::Manifest;
//! use fairdeck_table::{NewTable, Room, SeatPass, SqliteStore, Street};
//!
//! let dir = tempfile::tempdir()?;
//! let mut room = Room::new(SqliteStore::open(&dir.path().join("tables.sqlite"))?);
//! let manifest = Manifest {
//!     version: 2, table: "t1".into(), game: "holdem".into(), deck: "standard".into(),
//!     seats: vec!["ann".into(), "bo".into()], first: 0, last: 0,
//! };
//! let request = NewTable { manifest: manifest.clone(), commit_seconds: 60, reveal_seconds: 60 };
//! let inv = room.open_table(&request, 1_000)?;
//! let table = manifest.check()?;
//! let seeds = ["ann's seed", "bo's seed"];
//! // Each player's device secret (their page draws 32 random bytes).
//! let devices = ["a1".repeat(32), "b2".repeat(32)];
//! let pass = |i: usize| SeatPass::new(inv.seats[i].as_str(), &devices[i]);
//! for (i, seed) in seeds.iter().enumerate() {
//!     room.claim("t1", i, pass(i), 1_001)?;  // the seat is bound to this device
//!     let c = table.seat_commitment(i, seed).to_hex();
//!     room.commit("t1", i, pass(i), &c, 1_001)?;
//! }
//! // The same link on another device can neither look nor act.
//! let elsewhere = SeatPass::new(inv.seats[0].as_str(), &devices[1]);
//! assert!(room.seat_view("t1", 0, elsewhere).is_err());
//! for (i, seed) in seeds.iter().enumerate() {
//!     room.reveal("t1", i, pass(i), seed, 1_002)?;
//! }
//! let op = Some(inv.operator.as_str());
//! room.deal("t1", op, 1_003)?;
//! let ann = room.seat_view("t1", 0, pass(0))?;
//! assert_eq!(ann.hands[0].cards.len(), 2);          // her hole cards only
//! assert!(room.seat_view("t1", 1, pass(0)).is_err());
//! room.release("t1", op, 0, Street::Flop, 1_004)?;
//! room.close("t1", op, 1_005)?;
//! assert!(room.audit("t1")?.verification.unwrap().is_valid());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod error;
mod event;
mod hex;
pub mod hidden;
mod invitation;
pub mod ledger;
pub mod limit;
mod pass;
mod record;
mod request;
mod room;
pub mod service;
mod state;
mod store;
mod token;
mod view;

pub use error::{Error, Refusal};
pub use event::{Event, Secret, Street};
pub use invitation::{Invitation, MAX_WINDOW, NewTable, TABLE_ID_PATTERN, table_id_ok};
pub use pass::{Reissue, SeatPass};
pub use request::{ClaimRequest, CommitRequest, ReleaseRequest, RevealRequest};
pub use room::Room;
pub use state::{Access, Phase, Released, SeatState, TableState, device_ok};
pub use store::{
    Decide, Location, PostgresStore, SCHEMA_VERSION, Snapshot, SqliteStore, Store, audited,
};
pub use token::{Token, TokenHash};
pub use view::{
    Community, Hand, OperatorStatus, OperatorView, PublicSeat, PublicView, SeatView, ShownPile,
};
