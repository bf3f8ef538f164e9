//! A seat's [`Follower`]: one [`Verifier`] kept from step to step and, in
//! version 3.1, the seat's own history (§19), checked before every step.

use crate::Table;
use crate::ledger::{
    Evidence, Receipt, digests, evidence_agrees, evidence_signed, head_signed, heads, key_digest,
    share_digest, shuffle_digest, staged_shares,
};
use crate::record::Record;
use crate::signature::Context;
use crate::verify::{Options, Outcome, Verifier};
use crate::wire::Hex32;

use super::{Refused, Turn};
use crate::keys::SecretKey;

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
    /// every key is in; [`Refused::Step`] for a version-3.2 table, whose
    /// hands are not yet implemented (its key generation is
    /// [`super::publish_dealing`] and [`super::publish_answer`]).
    pub fn check<'k>(
        &mut self,
        record: Record,
        (seat, key): (u64, &'k SecretKey),
    ) -> Result<Turn<'k>, Refused> {
        if record.revision == crate::record::TOLERANT_REVISION {
            return Err(Refused::Step(crate::Error::Document(
                "a version-3.2 table (revision 2) plays its key generation only: hands of revision 2 are not yet implemented".into(),
            )));
        }
        let opts = Options {
            reader: Some((seat, key)),
            in_progress: true,
            evidence: &[],
            pins: &[],
        };
        let table = record.is_signed().then(|| record.table());
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
