//! A seat's verify-then-step (`docs/hidden-dealing.md` §5, §14): publish
//! its key in seat order; before any other step, check that the transcript
//! carries the key it published and that every proof in it holds; then
//! add its shuffle, the shares it owes, or its showdown shares, or read its
//! own cards. Front ends (`fairdeck hidden`, the browser seat) only map
//! their files or requests to these steps and word the refusals.
//!
//! A [`Follower`] keeps one [`Verifier`](crate::verify::Verifier) across steps, so a seat that acts
//! again and again on a growing transcript checks each proof once.
//!
//! ```
//! use chacha20::ChaCha20Rng;
//! use fairdeck_hidden::keys::SecretKey;
//! use fairdeck_hidden::record::Record;
//! use fairdeck_hidden::seat::{Follower, publish_key};
//! use fairdeck_hidden::Table;
//! use rand_core::SeedableRng;
//! # use fairdeck_fair::Manifest;
//! # let manifest = Manifest { version: 3, table: "doc".into(), game: "holdem".into(),
//! #     deck: "standard".into(), seats: vec!["ann".into(), "bob".into()], first: 1, last: 1 };
//! let mut rng = ChaCha20Rng::from_seed([3; 32]);
//! let table = Table::new(manifest.clone())?;
//! let keys = [SecretKey::generate(&mut rng), SecretKey::generate(&mut rng)];
//! let mut record = Record::new(manifest);
//! for (j, key) in keys.iter().enumerate() {
//!     publish_key(&table, &mut record, j as u64, key, &mut rng).unwrap();
//! }
//! let mut ann = Follower::new();
//! let mut turn = ann.check(record, (0, &keys[0])).unwrap();
//! let (hand, shuffle) = turn.shuffle(None, &mut rng)?;
//! assert_eq!((hand, shuffle.seat), (1, 0));
//! assert_eq!(turn.record.hands[0].shuffles.len(), 1);
//! # Ok::<(), fairdeck_hidden::Error>(())
//! ```

use rand_core::CryptoRng;

use crate::dleq::ShareMessage;
use crate::group::encode_point;
use crate::keys::{KeyMessage, Proof, SecretKey, key_message};
use crate::layout::Stage;
use crate::ledger::{key_digest, share_digest, shuffle_digest};
use crate::play::{next_shuffle, owed_shares, record_shares, showdown_shares};
use crate::record::Record;
use crate::shuffle::ShuffleMessage;
use crate::signature::{Context, sign_seat};
use crate::verdict::{HandReport, Verdict};
use crate::verify::State;
use crate::wire::Hex32;
use crate::{Error, Table};

mod follower;
mod keygen;

pub use follower::Follower;
pub use keygen::{Answer, publish_answer, publish_dealing, table_void};

/// Why a seat does not take a step. Front ends word each case for their
/// users (a file name, a request field); [`core::fmt::Display`] gives a
/// plain form.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refused {
    /// Seat `0` already has a key in the transcript.
    KeyTaken(u64),
    /// Keys are published in seat order: seat `0` is next.
    KeyOrder(u64),
    /// The key is not the one seat `0` published in the transcript.
    WrongKey(u64),
    /// The transcript does not verify.
    Invalid {
        /// The verdict's one-line summary.
        summary: String,
        /// The first difference's message.
        first: String,
        /// The first difference's failure.
        error: Error,
    },
    /// Not every seat has published its key yet.
    KeysMissing,
    /// No stage of the game takes shares under that name.
    Stage {
        /// The name asked for.
        asked: String,
        /// The game's stages with shares, in order.
        stages: Vec<String>,
    },
    /// The protocol refuses the step (not the seat's turn, hand over, …).
    Step(Error),
    /// Version 3.1: the room changed what this seat verified or sent
    /// before (§19): the seat stops and keeps its evidence.
    Room(String),
}

impl core::fmt::Display for Refused {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Refused::KeyTaken(j) => write!(f, "seat {j} already has a key in the transcript"),
            Refused::KeyOrder(j) => write!(f, "keys are published in seat order: seat {j} is next"),
            Refused::WrongKey(j) => Error::WrongKey(*j).fmt(f),
            Refused::Invalid { summary, first, .. } => {
                write!(f, "does not verify ({summary}); first: {first}")
            }
            Refused::KeysMissing => f.write_str("not every seat has published its key yet"),
            Refused::Stage { asked, stages } => {
                write!(f, "{asked:?}: this game's stages are {}", stages.join(", "))
            }
            Refused::Step(e) => e.fmt(f),
            Refused::Room(why) => write!(f, "the room changed the table's history: {why}"),
        }
    }
}

impl std::error::Error for Refused {}

impl From<Error> for Refused {
    fn from(e: Error) -> Refused {
        Refused::Step(e)
    }
}

/// Seat `seat`'s key message, made with `key` and added to `record`: keys
/// are published in seat order, one per seat. O(1) group operations.
///
/// # Errors
///
/// [`Refused::KeyTaken`] or [`Refused::KeyOrder`] out of turn;
/// [`Refused::Step`] if the seat is out of range.
pub fn publish_key<R: CryptoRng + ?Sized>(
    table: &Table,
    record: &mut Record,
    seat: u64,
    key: &SecretKey,
    rng: &mut R,
) -> Result<KeyMessage, Refused> {
    table.check_seat(seat)?;
    key_turn(record, seat)?;
    let msg = signed_key_message(table, record, seat, key, rng)?;
    if record.is_signed() {
        let ctx = Context::new(table, record.room.as_ref());
        record.log.push(key_digest(&ctx, &msg));
    }
    record.keys.push(msg.clone());
    Ok(msg)
}

/// Seat `seat`'s key message for `record`'s table, signed by the seat when
/// the record is version 3.1 (§17); nothing is added to the record (a seat
/// that posts its key to a room). O(1) group operations.
///
/// # Errors
///
/// [`Error::Seat`] if the seat is out of range.
pub fn signed_key_message<R: CryptoRng + ?Sized>(
    table: &Table,
    record: &Record,
    seat: u64,
    key: &SecretKey,
    rng: &mut R,
) -> Result<KeyMessage, Error> {
    let mut msg = key_message(table, seat, key, rng)?;
    if record.is_signed() {
        let ctx = Context::new(table, record.room.as_ref());
        let d = key_digest(&ctx, &msg);
        msg.signature = Some(sign(&ctx, (seat, key), &d, rng));
    }
    Ok(msg)
}

fn sign<R: CryptoRng + ?Sized>(
    ctx: &Context,
    (seat, key): (u64, &SecretKey),
    d: &Hex32,
    rng: &mut R,
) -> Proof {
    sign_seat(ctx, seat, key, d, rng)
}

/// Whether it is seat `seat`'s turn to publish its key: keys are published
/// in seat order, one per seat. O(seats).
///
/// # Errors
///
/// [`Refused::KeyTaken`] if the seat has a key; [`Refused::KeyOrder`] if
/// another seat is next; [`Refused::Step`] if the table is void (a void at
/// `keys`: no message may follow it, §14 "Void").
pub fn key_turn(record: &Record, seat: u64) -> Result<(), Refused> {
    if let Some(v) = &record.void {
        return Err(Refused::Step(Error::UnexpectedMessage(format!(
            "the table is over: void at the {} stage (seat {} did not publish its key)",
            v.stage, v.seat
        ))));
    }
    let next = record.keys.len() as u64;
    if next == seat {
        return Ok(());
    }
    Err(match record.keys.iter().any(|k| k.seat == seat) {
        true => Refused::KeyTaken(seat),
        false => Refused::KeyOrder(next),
    })
}

/// Whether `key` is the one seat `seat` published in `record`. O(1).
///
/// # Errors
///
/// [`Refused::WrongKey`] if the seat published another key, or none yet.
pub fn check_published(record: &Record, seat: u64, key: &SecretKey) -> Result<(), Refused> {
    let published = record.keys.get(seat as usize).map(|k| k.public_key);
    match published == Some(encode_point(&key.public_key().0)) {
        true => Ok(()),
        false => Err(Refused::WrongKey(seat)),
    }
}

/// The hand a step is about: `hand` if given, else the last hand of the
/// record, else the manifest's first. O(1).
pub fn hand_of(record: &Record, hand: Option<u64>) -> u64 {
    hand.or_else(|| record.hands.last().map(|h| h.hand))
        .unwrap_or(record.manifest.first)
}

/// A transcript that verified for a seat: ready for the seat's step.
#[derive(Debug)]
pub struct Turn<'k> {
    /// The transcript (each step adds its messages here).
    pub record: Record,
    /// The seat.
    pub seat: u64,
    key: &'k SecretKey,
    /// What the verification established.
    pub state: State,
    /// The verdict, with the seat's own cards read.
    pub verdict: Verdict,
}

impl Turn<'_> {
    /// The signing context, for a version-3.1 record.
    fn signing(&self) -> Option<Context> {
        let record = &self.record;
        record
            .is_signed()
            .then(|| Context::new(&self.state.table, record.room.as_ref()))
    }

    /// Signs shares of stage `stage` and logs them (version 3.1).
    fn sign_shares<R: CryptoRng + ?Sized>(
        &mut self,
        stage: &str,
        shares: &mut [ShareMessage],
        rng: &mut R,
    ) {
        let Some(ctx) = self.signing() else {
            return;
        };
        for m in shares {
            let d = share_digest(&ctx, stage, m);
            m.signature = Some(sign(&ctx, (self.seat, self.key), &d, rng));
            self.record.log.push(d);
        }
    }

    /// Seat's attestation of the whole log it verified (§18 check 4), for a
    /// version-3.1 record; `None` for version 3. O(log length).
    pub fn attest<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> Option<crate::ledger::Attestation> {
        let ctx = self.signing()?;
        let log = &self.record.log;
        Some(crate::ledger::attest(&ctx, self.seat, self.key, log, rng))
    }

    /// The seat's shuffle of `hand` (by default: the last hand if not every
    /// seat shuffled it, else the next one), added to the record; returns
    /// the hand and the message. O(N) group operations.
    ///
    /// # Errors
    ///
    /// As [`next_shuffle`]; [`Error::HandOrder`] for a hand before the last.
    pub fn shuffle<R: CryptoRng + ?Sized>(
        &mut self,
        hand: Option<u64>,
        rng: &mut R,
    ) -> Result<(u64, ShuffleMessage), Error> {
        let n = match (hand, self.record.hands.last()) {
            (Some(n), _) => n,
            (None, Some(h)) if h.shuffles.len() < self.state.table.seats() => h.hand,
            (None, Some(h)) => h.hand + 1,
            (None, None) => self.record.manifest.first,
        };
        let mut msg = next_shuffle(&self.state, n, self.seat, rng)?;
        if let Some(ctx) = self.signing() {
            let d = shuffle_digest(&ctx, &msg);
            msg.signature = Some(sign(&ctx, (self.seat, self.key), &d, rng));
            self.record.log.push(d);
        }
        self.record.hand_mut(n)?.shuffles.push(msg.clone());
        Ok((n, msg))
    }

    /// The stage with shares named `name` (`deal` or a street's name).
    ///
    /// # Errors
    ///
    /// [`Refused::Stage`] with the game's stages if there is none.
    pub fn stage(&self, name: &str) -> Result<Stage, Refused> {
        let layout = self.state.table.layout();
        let stages = || layout.stages().into_iter().skip(1);
        stages()
            .find(|&s| layout.stage_name(s) == name)
            .ok_or_else(|| Refused::Stage {
                asked: name.into(),
                stages: stages().map(|s| layout.stage_name(s).to_string()).collect(),
            })
    }

    /// The shares the seat owes in `stage` of `hand` (default: [`hand_of`]),
    /// added to the record; returns the hand and the shares.
    /// O(positions) group operations.
    ///
    /// # Errors
    ///
    /// As [`owed_shares`] and [`record_shares`].
    pub fn share<R: CryptoRng + ?Sized>(
        &mut self,
        stage: Stage,
        hand: Option<u64>,
        rng: &mut R,
    ) -> Result<(u64, Vec<ShareMessage>), Error> {
        let n = hand_of(&self.record, hand);
        let me = (self.seat, self.key);
        let mut shares = owed_shares(&self.state, &self.record, (n, stage), me, rng)?;
        let name = self.state.table.layout().stage_name(stage).to_string();
        self.sign_shares(&name, &mut shares, rng);
        let at = (n, Some(stage));
        record_shares(&self.state.table, &mut self.record, at, shares.clone())?;
        Ok((n, shares))
    }

    /// Showdown: the seat's shares of its own private cards not opened yet,
    /// added to the record; returns the hand and the shares.
    ///
    /// # Errors
    ///
    /// As [`showdown_shares`] and [`record_shares`].
    pub fn open<R: CryptoRng + ?Sized>(
        &mut self,
        hand: Option<u64>,
        rng: &mut R,
    ) -> Result<(u64, Vec<ShareMessage>), Error> {
        let n = hand_of(&self.record, hand);
        let me = (self.seat, self.key);
        let mut shares = showdown_shares(&self.state, &self.record, n, me, rng)?;
        self.sign_shares("showdown", &mut shares, rng);
        record_shares(
            &self.state.table,
            &mut self.record,
            (n, None),
            shares.clone(),
        )?;
        Ok((n, shares))
    }

    /// The seat's view of `hand` (default: [`hand_of`]): its own private
    /// cards, the community and opened cards; `Err(n)` if hand `n` is not
    /// in the record. O(hands).
    pub fn cards(self, hand: Option<u64>) -> Result<HandReport, u64> {
        let n = hand_of(&self.record, hand);
        let found = self.verdict.hands.into_iter().find(|h| h.hand == n);
        found.ok_or(n)
    }
}
