//! Incremental verification: a [`Verifier`] remembers every proof it
//! checked together with the exact inputs it was checked on, so a seat that
//! verifies the transcript before each of its steps checks each proof once
//! instead of once per step (a hand costs O(messages) proof checks instead
//! of O(messages²)).
//!
//! A remembered result is used only when the message is field for field
//! the one checked, and everything it was checked against is the same:
//!
//! * a key proof: the manifest and the key message;
//! * seat `j`'s shuffle of hand `n`: the manifest, the seats' keys, and the
//!   shuffles of seats `0 ..= j` of hand `n` (the input deck is the output
//!   of the shuffle before it, so the whole prefix must match);
//! * a share: the manifest, the keys, every shuffle of its hand (they make
//!   the dealt deck), and the share message.
//!
//! Anything else that changed (an earlier message rewritten, a message
//! removed, another manifest or key) is checked again from its first
//! difference on; nothing changed is ever trusted. Everything that is not
//! a proof (places, duplicates, stages, cards, the report) is recomputed on
//! every call by the same code as [`super::verify`], so the verdict is the
//! one a verification from scratch gives.

use std::collections::HashMap;

use curve25519_dalek::ristretto::RistrettoPoint;
use fairdeck_fair::Manifest;

use crate::Error;
use crate::dleq::ShareMessage;
use crate::elgamal::PublishedDeck;
use crate::keys::{KeyMessage, PublicKey};
use crate::record::Record;
use crate::shuffle::ShuffleMessage;
use crate::wire::Hex32;

use super::{Options, Outcome};

/// A transcript verifier that keeps what it checked (see the module docs).
///
/// [`Verifier::verify`] gives exactly the [`Outcome`] of
/// [`super::verify`] on the same record; on a record that extends one it
/// verified before, it checks only the new proofs.
///
/// ```
/// use fairdeck_hidden::record::Record;
/// use fairdeck_hidden::verify::{Options, Verifier};
/// # use fairdeck_fair::Manifest;
/// # let manifest = Manifest { version: 3, table: "doc".into(), game: "holdem".into(),
/// #     deck: "standard".into(), seats: vec!["ann".into(), "bob".into()], first: 1, last: 1 };
/// let mut verifier = Verifier::new();
/// let record = Record::new(manifest);
/// let opts = Options { in_progress: true, ..Options::default() };
/// assert!(verifier.verify(&record, &opts).verdict.is_valid());
/// ```
#[derive(Default)]
pub struct Verifier {
    memo: Memo,
}

impl core::fmt::Debug for Verifier {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let shuffles: usize = self.memo.hands.values().map(|h| h.shuffles.len()).sum();
        let shares: usize = self.memo.hands.values().map(|h| h.shares.len()).sum();
        write!(
            f,
            "Verifier {{ keys: {}, shuffles: {shuffles}, shares: {shares} }}",
            self.memo.keys.len()
        )
    }
}

impl Verifier {
    /// A verifier that has checked nothing yet. O(1).
    pub fn new() -> Verifier {
        Verifier::default()
    }

    /// How many key, shuffle and share proofs this verifier has checked
    /// (not counting the results it reused): one per new proof. O(1).
    pub fn proofs_checked(&self) -> u64 {
        self.memo.checked
    }

    /// Verifies `record` (§15) as [`super::verify`] does, checking only the
    /// proofs it has not checked on the same inputs before. O(new proofs)
    /// group operations, plus O(length of the record) for the rest; memory
    /// O(the proofs of the hands in the last record verified).
    pub fn verify(&mut self, record: &Record, opts: &Options<'_>) -> Outcome {
        self.memo.table(record);
        let outcome = super::run(record, opts, &mut self.memo);
        let memo = &mut self.memo;
        memo.checked += memo
            .hands
            .values_mut()
            .map(|h| core::mem::take(&mut h.checked))
            .sum::<u64>();
        // Forget the hands the record no longer has (a served transcript
        // of the hand in play drops the hands before it).
        self.memo
            .hands
            .retain(|n, _| record.hands.iter().any(|h| h.hand == *n));
        outcome
    }
}

/// The remembered proof results (see the module docs for when each holds).
#[derive(Default)]
pub(super) struct Memo {
    /// The version, revision, room and manifest every result below was
    /// checked under (signatures depend on all four).
    table: Option<(u64, u64, Option<Hex32>, Manifest)>,
    /// Key proof results by seat place.
    keys: HashMap<usize, (KeyMessage, Result<PublicKey, Error>)>,
    /// The seats' keys the hands below were checked under.
    seat_keys: Vec<PublicKey>,
    /// By hand number.
    hands: HashMap<u64, HandMemo>,
    /// How many proofs were checked, over every table.
    checked: u64,
}

/// One hand's remembered proofs.
#[derive(Default)]
pub(super) struct HandMemo {
    /// How many proofs were checked (added to the memo's count).
    checked: u64,
    /// The shuffles in seat order, each with its result (the next deck).
    shuffles: Vec<(ShuffleMessage, Result<PublishedDeck, Error>)>,
    /// Share results by (position, seat), for the deck of all of `shuffles`.
    shares: HashMap<(u64, u64), (ShareMessage, Result<RistrettoPoint, Error>)>,
}

impl Memo {
    /// A memo with nothing remembered: what [`super::verify`] runs with.
    pub(super) fn empty() -> Memo {
        Memo::default()
    }

    /// Keeps the results only if they were checked under this record's
    /// version, revision, room and manifest.
    fn table(&mut self, record: &Record) {
        let (version, revision, room) = (record.version, record.revision, record.room);
        let same = self.table.as_ref().is_some_and(|(v, r, o, m)| {
            (*v, *r, *o) == (version, revision, room) && *m == record.manifest
        });
        if !same {
            *self = Memo {
                table: Some((version, revision, room, record.manifest.clone())),
                checked: self.checked,
                ..Memo::default()
            };
        }
    }

    /// The key proof of the message in seat place `k`.
    pub(super) fn key(
        &mut self,
        k: usize,
        m: &KeyMessage,
        check: impl FnOnce() -> Result<PublicKey, Error>,
    ) -> Result<PublicKey, Error> {
        match self.keys.get(&k) {
            Some((seen, result)) if seen == m => result.clone(),
            _ => {
                self.checked += 1;
                let result = check();
                self.keys.insert(k, (m.clone(), result.clone()));
                result
            }
        }
    }

    /// The hands' results hold only under the same seat keys.
    pub(super) fn seat_keys(&mut self, keys: &[PublicKey]) {
        if self.seat_keys != keys {
            self.seat_keys = keys.to_vec();
            self.hands.clear();
        }
    }

    /// Hand `n`'s results.
    pub(super) fn hand(&mut self, n: u64) -> &mut HandMemo {
        self.hands.entry(n).or_default()
    }
}

impl HandMemo {
    /// The result of seat `j`'s shuffle `m`, called for `j = 0, 1, …` in
    /// order: a remembered result holds only if the shuffles before it were
    /// the same (each call before it found them so); a different one
    /// forgets it, every later shuffle and every share.
    pub(super) fn shuffle(
        &mut self,
        j: usize,
        m: &ShuffleMessage,
        check: impl FnOnce() -> Result<PublishedDeck, Error>,
    ) -> Result<PublishedDeck, Error> {
        if let Some((_, result)) = self.shuffles.get(j).filter(|(seen, _)| seen == m) {
            return result.clone();
        }
        self.shuffles.truncate(j);
        self.shares.clear();
        self.checked += 1;
        let result = check();
        self.shuffles.push((m.clone(), result.clone()));
        result
    }

    /// The result of share `m` on the dealt deck of this hand's shuffles.
    pub(super) fn share(
        &mut self,
        m: &ShareMessage,
        check: impl FnOnce() -> Result<RistrettoPoint, Error>,
    ) -> Result<RistrettoPoint, Error> {
        let at = (m.position, m.seat);
        match self.shares.get(&at) {
            Some((seen, result)) if seen == m => result.clone(),
            _ => {
                self.checked += 1;
                let result = check();
                self.shares.insert(at, (m.clone(), result.clone()));
                result
            }
        }
    }
}
