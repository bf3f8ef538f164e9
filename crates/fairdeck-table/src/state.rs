//! The table state machine: every transition is an [`Event`] applied by
//! [`TableState::apply`], which refuses any event the phase does not allow.
//! Replaying a table's log through it rebuilds the table exactly.
//!
//! ```text
//! Committing ──every seat committed──▶ Revealing ──every seed revealed──▶ Ready
//!     │        (the seat lock L is set)    │                               │ deal (operator)
//!     └──deadline passed, seats missing────┴──────────▶ Void               ▼
//!                                                    Closed ◀──close── Dealt ⟲ release
//! ```
//!
//! The seat lock `L` (version 2.1, section 8.6 of `docs/fair-dealing.md`)
//! is computed by the event of the last commitment, in the same transition
//! that opens the reveals: no commitment is accepted once it is set, and no
//! reveal before.

use std::collections::BTreeMap;

use fairdeck::cards::Game;
use fairdeck_fair::collect::CollectionError;
use fairdeck_fair::{Manifest, ServerSecret, Table, TableGame};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::event::{Event, Secret, Street};
use crate::token::TokenHash;

mod claim;
mod seeds;

pub use claim::device_ok;

/// Where a table stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Seats publish their commitments.
    Committing,
    /// Every seat committed; seats reveal their seeds.
    Revealing,
    /// Every seed is revealed; the operator may deal.
    Ready,
    /// Dealt; the operator releases community cards.
    Dealt,
    /// Closed: the secret and the transcript are public.
    Closed,
    /// A seat missed a deadline: no deal is made (spec section 8.1).
    Void,
}

impl Phase {
    /// The phase's name.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Committing => "committing",
            Phase::Revealing => "revealing",
            Phase::Ready => "ready",
            Phase::Dealt => "dealt",
            Phase::Closed => "closed",
            Phase::Void => "void",
        }
    }
}

/// What of one deal's community cards is released.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Released {
    /// Hold'em streets released: 0, 1 (flop), 2 (turn) or 3 (river).
    pub streets: u8,
    /// Bridge: the dummy's seat, once shown.
    pub dummy: Option<usize>,
}

/// One seat's standing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatState {
    pub(crate) token: TokenHash,
    /// Its commitment `c_i` (64 hex digits), once published.
    pub commitment: Option<String>,
    /// Its seed, once revealed.
    pub seed: Option<String>,
    /// SHA-256 of the secret of the device that claimed the seat, once
    /// claimed (absent from snapshots written before claims existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) device: Option<TokenHash>,
}

/// A table: everything needed to answer any request about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableState {
    /// The manifest (checked when the table was created).
    pub manifest: Manifest,
    pub(crate) secret: Secret,
    /// The room's v2 commitment, 64 hex digits.
    pub commitment: String,
    operator: TokenHash,
    /// The seats in manifest order.
    pub seats: Vec<SeatState>,
    /// The phase.
    pub phase: Phase,
    /// The current phase's deadline (committing, revealing), seconds since the epoch.
    pub deadline: u64,
    /// Seconds given to reveal, counted from the last commitment.
    pub reveal_seconds: u64,
    /// Released community cards, by deal number.
    pub released: BTreeMap<u64, Released>,
    /// The seats that made the table void, by index.
    pub late: Vec<usize>,
    /// The seat lock `L` (64 hex digits), set by the last commitment and
    /// published before any reveal. (Absent from snapshots written before
    /// version 2.1; [`TableState::fill_lock`] recomputes it.)
    #[serde(default)]
    pub lock: Option<String>,
}

/// Who an operation needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The room's operator.
    Operator,
    /// One seat, by index.
    Seat(usize),
}

fn phase(action: &'static str, p: Phase) -> Error {
    Error::Phase {
        action,
        phase: p.name(),
    }
}

/// A collection rule of `fairdeck_fair::collect` broken, as the service's error.
fn broken(e: CollectionError) -> Error {
    match e {
        CollectionError::Twice { seat, step } => Error::Repeated {
            action: step.name(),
            seat,
        },
        CollectionError::RevealWithoutCommitment { seat }
        | CollectionError::SeedMismatch { seat } => Error::SeedMismatch { seat },
        e => corrupt(e.to_string()),
    }
}

fn corrupt(why: impl Into<String>) -> Error {
    Error::Corrupt(why.into())
}

impl TableState {
    /// The table a `Created` event opens. O(manifest).
    ///
    /// # Errors
    ///
    /// [`Error::Corrupt`] for any other event, a manifest that does not
    /// check, a commitment that is not the secret's, or a token count that
    /// is not the seat count.
    pub fn start(event: &Event) -> Result<TableState, Error> {
        let Event::Created {
            manifest,
            secret,
            commitment,
            operator,
            seats,
            commit_deadline,
            reveal_seconds,
            ..
        } = event
        else {
            return Err(corrupt("a table's log must start with its creation"));
        };
        let table = manifest.check().map_err(|e| corrupt(e.to_string()))?;
        let expected = table.room_commitment(&ServerSecret::from_bytes(secret.0));
        if expected.to_hex() != *commitment || seats.len() != manifest.seats.len() {
            return Err(corrupt("the creation's commitment or tokens do not fit"));
        }
        Ok(TableState {
            manifest: manifest.clone(),
            secret: *secret,
            commitment: commitment.clone(),
            operator: *operator,
            seats: seats
                .iter()
                .map(|&token| SeatState {
                    token,
                    commitment: None,
                    seed: None,
                    device: None,
                })
                .collect(),
            phase: Phase::Committing,
            deadline: *commit_deadline,
            reveal_seconds: *reveal_seconds,
            released: BTreeMap::new(),
            late: Vec::new(),
            lock: None,
        })
    }

    /// The table's id.
    pub fn id(&self) -> &str {
        &self.manifest.table
    }

    /// The checked manifest as types.
    pub fn table(&self) -> Result<Table, Error> {
        self.manifest.check().map_err(|e| corrupt(e.to_string()))
    }

    /// Checks that `token` is `who`'s. A seat's token opens nothing but
    /// that seat; the operator's opens nothing but the operator's
    /// operations. Constant time in the token's content.
    ///
    /// # Errors
    ///
    /// [`Error::Unauthenticated`] without a token, [`Error::Forbidden`] for
    /// any other token (or a seat that does not exist).
    pub fn authorize(&self, who: Access, token: Option<&str>) -> Result<(), Error> {
        let token = token.ok_or(Error::Unauthenticated)?;
        let hash = match who {
            Access::Operator => Some(&self.operator),
            Access::Seat(i) => self.seats.get(i).map(|s| &s.token),
        };
        match hash {
            Some(h) if h.admits(token) => Ok(()),
            _ => Err(Error::Forbidden),
        }
    }

    /// Applies one event after checking that the table allows it. O(1)
    /// except a reveal (one SHA-256 over the manifest).
    ///
    /// # Errors
    ///
    /// The refusal (phase, lateness, a repeated or mismatched seed, a
    /// street out of order); the state is unchanged.
    pub fn apply(&mut self, event: &Event) -> Result<(), Error> {
        match event {
            Event::Created { .. } => Err(corrupt("a table is created once")),
            Event::Committed {
                seat,
                commitment,
                lock,
                at,
            } => self.commit(*seat, commitment, lock.as_deref(), *at),
            Event::Revealed { seat, seed, at } => self.reveal(*seat, seed, *at),
            Event::Dealt { .. } => self.advance("deal", Phase::Ready, Phase::Dealt),
            Event::Released { deal, street, .. } => self.release(*deal, *street),
            Event::Closed { .. } => self.advance("close", Phase::Dealt, Phase::Closed),
            Event::Claimed { seat, device, .. } => self.claim(*seat, *device),
            Event::Reissued { seat, token, at } => self.reissue(*seat, *token, *at),
            Event::Voided { late, at } => self.void(late, *at),
        }
    }

    fn advance(&mut self, action: &'static str, from: Phase, to: Phase) -> Result<(), Error> {
        if self.phase != from {
            return Err(phase(action, self.phase));
        }
        self.phase = to;
        Ok(())
    }

    fn seat(&self, seat: usize) -> Result<&SeatState, Error> {
        self.seats.get(seat).ok_or_else(|| {
            Error::invalid(
                "seat",
                format!("the table has seats 0 to {}", self.seats.len() - 1),
            )
        })
    }

    fn on_time(&self, action: &'static str, at: u64) -> Result<(), Error> {
        if at > self.deadline {
            return Err(Error::Late {
                action,
                deadline: self.deadline,
            });
        }
        Ok(())
    }

    /// The seats that have not done what the current phase asks.
    pub fn missing(&self) -> Vec<usize> {
        let done = |s: &SeatState| match self.phase {
            Phase::Committing => s.commitment.is_some(),
            Phase::Revealing => s.seed.is_some(),
            _ => true,
        };
        (0..self.seats.len())
            .filter(|&i| !done(&self.seats[i]))
            .collect()
    }

    fn void(&mut self, late: &[usize], at: u64) -> Result<(), Error> {
        if !matches!(self.phase, Phase::Committing | Phase::Revealing) {
            return Err(phase("void for lateness", self.phase));
        }
        if at <= self.deadline {
            return Err(Error::NotLate {
                deadline: self.deadline,
            });
        }
        if late != self.missing() {
            return Err(corrupt("the void names other seats than the late ones"));
        }
        self.late = late.to_vec();
        self.phase = Phase::Void;
        Ok(())
    }

    fn release(&mut self, deal: u64, street: Street) -> Result<(), Error> {
        if self.phase != Phase::Dealt {
            return Err(phase("release", self.phase));
        }
        let (first, last) = (self.manifest.first, self.manifest.last);
        if !(first..=last).contains(&deal) {
            return Err(Error::invalid(
                "deal",
                format!("deals are {first} to {last}"),
            ));
        }
        let game = self.table()?.game;
        let before = self.released.get(&deal).copied().unwrap_or_default();
        let after = next_release(game, before, street)?;
        self.released.insert(deal, after);
        Ok(())
    }
}

/// What of a deal is released after `street`, if `game` allows it now.
fn next_release(game: TableGame, mut r: Released, street: Street) -> Result<Released, Error> {
    let refuse = |why: &str| Err(Error::Street(why.to_string()));
    if let Street::Dummy { seat } = street {
        if game != TableGame::Cards(Game::Bridge) {
            return refuse("only bridge has a dummy");
        }
        if seat >= 4 {
            return Err(Error::invalid("seat", "bridge seats are 0 to 3"));
        }
        if r.dummy.is_some() {
            return refuse("the dummy is already shown");
        }
        r.dummy = Some(seat);
        return Ok(r);
    }
    if game != TableGame::Cards(Game::Holdem) {
        return refuse("only hold'em has a flop, turn and river");
    }
    let wanted = match street {
        Street::Flop => 0,
        Street::Turn => 1,
        _ => 2,
    };
    if r.streets != wanted {
        return refuse("the streets come in order: flop, turn, river, each once");
    }
    r.streets += 1;
    Ok(r)
}
