//! A seat's verify-then-step (`docs/hidden-dealing.md` §5, §14): publish
//! its key in seat order; before any other step, check that the transcript
//! carries the key it published and that every proof in it holds; then
//! add its shuffle, the shares it owes, or its showdown shares, or read its
//! own cards. Front ends (`fairdeck hidden`, the browser seat) only map
//! their files or requests to these steps and word the refusals.
//!
//! A [`Follower`] keeps one [`Verifier`] across steps, so a seat that acts
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
use crate::ledger::{
    Evidence, Receipt, digests, evidence_agrees, evidence_signed, head_signed, heads, key_digest,
    share_digest, shuffle_digest, staged_shares,
};
use crate::play::{next_shuffle, owed_shares, record_shares, showdown_shares};
use crate::record::Record;
use crate::shuffle::ShuffleMessage;
use crate::signature::{Context, sign_seat};
use crate::verdict::{HandReport, Verdict};
use crate::verify::{Options, Outcome, State, Verifier};
use crate::wire::Hex32;
use crate::{Error, Table};

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

/// One seat following a table: a [`Verifier`] kept from step to step and,
/// in version 3.1, the seat's history (§19): the log it verified last, its
/// own messages, and its evidence (the receipts and heads the room gave it).
#[derive(Debug, Default)]
pub struct Follower {
    verifier: Verifier,
    /// The room's key and the log as last verified.
    seen: Option<(Option<Hex32>, Vec<Hex32>)>,
    /// The seat's own messages seen in a verified record: (hand, digest).
    own: Vec<(Option<u64>, Hex32)>,
    /// Receipts and signed heads, each checked against the room's key.
    evidence: Vec<Evidence>,
    /// How many of `evidence` (from the first) have had their room
    /// signature checked: each is checked once, its agreement with the
    /// log at every step.
    signed: usize,
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

impl Follower {
    /// A follower that has checked nothing yet. O(1).
    pub fn new() -> Follower {
        Follower::default()
    }

    /// How many key, shuffle and share proofs this follower has checked
    /// over all its steps ([`Verifier::proofs_checked`]). O(1).
    pub fn proofs_checked(&self) -> u64 {
        self.verifier.proofs_checked()
    }

    /// Verifies `record` with `opts` as [`crate::verify::verify`] does,
    /// checking only the proofs this follower has not checked before (a
    /// seat's final verification of the whole table, after its steps).
    /// O(new proofs) group operations plus O(length of the record).
    pub fn verify(&mut self, record: &Record, opts: &Options<'_>) -> Outcome {
        self.verifier.verify(record, opts)
    }

    /// The receipts and signed heads this follower kept (§19), for
    /// `fair verify --evidence`.
    pub fn evidence(&self) -> &[Evidence] {
        &self.evidence
    }

    /// Keeps the room's receipt for a message this seat sent. It is checked
    /// against every record verified from now on: a record that lacks the
    /// message at its index, or whose log does not extend the receipted
    /// head, is refused as [`Refused::Room`].
    pub fn receipt(&mut self, r: Receipt) {
        self.evidence.push(Evidence::Receipt(r));
    }

    /// §19: the room's key unchanged, the log a continuation of the one
    /// verified before, the seat's own messages all there, every receipt
    /// and head kept consistent with the log.
    fn history(&mut self, table: &Table, record: &Record, seat: u64) -> Result<(), Refused> {
        if let Some((room, log)) = &self.seen {
            if *room != record.room {
                return Err(Refused::Room("the room's signing key changed".into()));
            }
            if let Some(i) = (0..log.len()).find(|&i| record.log.get(i) != Some(&log[i])) {
                return Err(Refused::Room(format!(
                    "log entry {i}, which this seat verified before, was changed or removed"
                )));
            }
        }
        if let Some(room) = &record.room {
            let ctx = Context::new(table, Some(room));
            let hs = heads(&ctx, &record.log);
            for item in &self.evidence[self.signed..] {
                evidence_signed(&ctx, room, item).map_err(|e| Refused::Room(e.to_string()))?;
            }
            self.signed = self.evidence.len();
            for item in &self.evidence {
                if let Err(e) = evidence_agrees((&record.log, &hs), item) {
                    return Err(Refused::Room(e.to_string()));
                }
            }
        }
        let present: Vec<Hex32> = digests(table, record).into_iter().map(|(d, _)| d).collect();
        let hands: Vec<u64> = record.hands.iter().map(|h| h.hand).collect();
        for (hand, d) in &self.own {
            let expected = hand.is_none_or(|n| hands.contains(&n));
            if expected && !present.contains(d) {
                return Err(Refused::Room(format!(
                    "seat {seat}'s own message {d} is missing from the transcript"
                )));
            }
        }
        Ok(())
    }

    /// A record the seat refuses: its head, if the room signed it, is
    /// kept all the same — the room's signed statement of the log it
    /// served, which the published log may not extend (§18: the room
    /// showed this seat another history, and a void naming this seat
    /// after it is no proof). A head under another room key than the one
    /// the seat saw before is not kept (it proves nothing).
    fn keep_head(&mut self, table: &Table, record: &Record) {
        let (Some(room), Some(h)) = (&record.room, record.head) else {
            return;
        };
        if self
            .seen
            .as_ref()
            .is_some_and(|(r, _)| r.as_ref() != Some(room))
        {
            return;
        }
        let ctx = Context::new(table, Some(room));
        if head_signed(&ctx, room, &h) && !self.evidence.contains(&Evidence::Head(h)) {
            self.evidence.push(Evidence::Head(h));
        }
    }

    /// After a record verified: remember its log, the seat's own messages
    /// in it, and its signed head.
    fn remember(&mut self, table: &Table, record: &Record, seat: u64) {
        self.seen = Some((record.room, record.log.clone()));
        let ctx = Context::new(table, record.room.as_ref());
        let mine = |d: Hex32, hand: Option<u64>, own: &mut Vec<(Option<u64>, Hex32)>| {
            if !own.iter().any(|(_, o)| *o == d) {
                own.push((hand, d));
            }
        };
        for k in record.keys.iter().filter(|k| k.seat == seat) {
            mine(key_digest(&ctx, k), None, &mut self.own);
        }
        for h in &record.hands {
            for m in h.shuffles.iter().filter(|m| m.seat == seat) {
                mine(shuffle_digest(&ctx, m), Some(h.hand), &mut self.own);
            }
            for (stage, shares) in staged_shares(h) {
                for m in shares.iter().filter(|m| m.seat == seat) {
                    mine(share_digest(&ctx, stage, m), Some(h.hand), &mut self.own);
                }
            }
        }
        if let Some(h) = record.head
            && !self.evidence.contains(&Evidence::Head(h))
        {
            self.evidence.push(Evidence::Head(h));
        }
    }

    /// Verifies `record` as a table in progress, read by seat `seat` with
    /// its key (its own private cards are opened in the verdict). Only the
    /// proofs this follower has not checked before are checked (see
    /// [`Verifier`]); the verdict is [`crate::verify::verify`]'s.
    ///
    /// # Errors
    ///
    /// [`Refused::Invalid`] with the first difference if the record does
    /// not verify (a wrong key among them); [`Refused::KeysMissing`] if not
    /// every key is in.
    pub fn check<'k>(
        &mut self,
        record: Record,
        (seat, key): (u64, &'k SecretKey),
    ) -> Result<Turn<'k>, Refused> {
        let opts = Options {
            reader: Some((seat, key)),
            in_progress: true,
            evidence: &[],
            pins: &[],
        };
        let table = record
            .is_signed()
            .then(|| Table::new(record.manifest.clone()));
        if let Some(Ok(table)) = &table
            && let Err(e) = self.history(table, &record, seat)
        {
            self.keep_head(table, &record);
            return Err(e);
        }
        let outcome = self.verifier.verify(&record, &opts);
        if let Some(d) = outcome.verdict.differences.first() {
            if let Some(Ok(table)) = &table {
                self.keep_head(table, &record);
            }
            return Err(Refused::Invalid {
                summary: outcome.verdict.summary(),
                first: d.message.clone(),
                error: d.error.clone(),
            });
        }
        if let Some(Ok(table)) = &table {
            self.remember(table, &record, seat);
        }
        let state = outcome.state.ok_or(Refused::KeysMissing)?;
        Ok(Turn {
            record,
            seat,
            key,
            state,
            verdict: outcome.verdict,
        })
    }
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
