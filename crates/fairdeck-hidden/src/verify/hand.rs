//! Step 4 of §15: one hand — envelopes, shuffles, deal, streets, showdown,
//! the reader's own cards, and the stages' completeness or void.

use std::collections::{HashMap, HashSet};

use curve25519_dalek::ristretto::RistrettoPoint;

use super::HandState;
use super::authorship;
use super::incremental::HandMemo;
use crate::dleq::{ShareMessage, verify_share};
use crate::elgamal::PublishedDeck;
use crate::keys::{PublicKey, SecretKey};
use crate::layout::{Place, Stage};
use crate::ledger::{share_digest, shuffle_digest};
use crate::record::{HandRecord, Missing};
use crate::shuffle::verify_shuffle;
use crate::signature::Context as Signing;
use crate::verdict::{CardAt, Difference, HandReport, Hidden};
use crate::{Error, Table};

/// What every hand is checked against.
pub(super) struct Context<'a> {
    pub table: &'a Table,
    pub keys: &'a [PublicKey],
    pub joint: &'a PublicKey,
    pub reader: Option<(u64, &'a SecretKey)>,
    pub in_progress: bool,
    /// Version 3.1: the signing context (every message signed by its seat).
    pub signing: Option<&'a Signing>,
}

pub(super) struct Check<'a> {
    pub(super) ctx: &'a Context<'a>,
    n: u64,
    diffs: Vec<Difference>,
    pub(super) report: HandReport,
    /// Shares present (whether or not their proof holds), by (position, seat).
    seen: HashSet<(u64, u64)>,
    /// Shares whose proof holds.
    valid: HashMap<(u64, u64), RistrettoPoint>,
    /// The proofs of this hand already checked.
    memo: &'a mut HandMemo,
}

/// Checks one hand: its report, its state and its differences.
pub(super) fn check(
    ctx: &Context<'_>,
    rec: &HandRecord,
    memo: &mut HandMemo,
) -> (HandReport, HandState, Vec<Difference>) {
    let mut c = Check {
        ctx,
        n: rec.hand,
        diffs: Vec::new(),
        report: HandReport {
            hand: rec.hand,
            ..HandReport::default()
        },
        seen: HashSet::new(),
        valid: HashMap::new(),
        memo,
    };
    for m in rec.all_shares().filter(|m| m.hand != rec.hand) {
        c.fail(Error::Replay(format!(
            "seat {}'s share of hand {} is in hand {}",
            m.seat, m.hand, rec.hand
        )));
    }
    let (deck, shuffled, failed) = c.shuffles(rec);
    let mut state = HandState {
        hand: rec.hand,
        deck,
        shuffled,
        stage: None,
        failed,
        void: false,
    };
    if failed {
        c.report.status = format!("not checked further: seat {shuffled}'s shuffle is refused");
        return (c.report, state, c.diffs);
    }
    let mut missing = vec![(Stage::Shuffle, shuffle_missing(ctx, shuffled))];
    let dealt = (shuffled == ctx.table.seats()).then_some(&state.deck);
    if let Some(d) = dealt {
        missing.push((Stage::Deal, c.shares(Stage::Deal, &rec.deal, d)));
        c.streets(rec, d, &mut missing);
        c.showdown(&rec.showdown, d);
        c.own_cards(d);
        c.hidden(rec);
    }
    let stages = c.stages(rec, &missing);
    state.stage = stages.0;
    state.void = stages.1;
    (c.report, state, c.diffs)
}

fn shuffle_missing(ctx: &Context<'_>, shuffled: usize) -> Vec<Vec<Missing>> {
    let mut m = vec![Vec::new(); ctx.table.seats()];
    if let Some(s) = m.get_mut(shuffled) {
        s.push(Missing::Shuffle);
    }
    m
}

impl Check<'_> {
    pub(super) fn fail(&mut self, e: Error) {
        self.diffs.push(Difference::new(Some(self.n), e));
    }

    /// 4.1–4.2: the shuffles in seat order; the last verified deck, how many
    /// verified, and whether one was refused.
    fn shuffles(&mut self, rec: &HandRecord) -> (PublishedDeck, usize, bool) {
        let (table, seats) = (self.ctx.table, self.ctx.table.seats());
        let mut deck = PublishedDeck::from_deck(table.starting_deck());
        if rec.shuffles.len() > seats {
            self.fail(Error::UnexpectedMessage(format!(
                "{} shuffles for {seats} seats",
                rec.shuffles.len()
            )));
        }
        for (j, m) in rec.shuffles.iter().take(seats).enumerate() {
            if m.hand != self.n || m.seat != j as u64 {
                let why = format!(
                    "seat {}'s shuffle of hand {} is in seat {j}'s place of hand {}",
                    m.seat, m.hand, self.n
                );
                self.fail(Error::Replay(why));
                return (deck, j, true);
            }
            let (ctx, n) = (self.ctx, self.n);
            let check = || {
                if let Some(sig) = ctx.signing {
                    let what = format!("the shuffle in seat {j}'s place of hand {n}");
                    let pk = (j as u64, &ctx.keys[j]);
                    authorship::check(sig, pk, &shuffle_digest(sig, m), &m.signature, what)?;
                }
                verify_shuffle(table, (n, j as u64), ctx.joint, &deck, m)
            };
            match self.memo.shuffle(j, m, check) {
                Ok(next) => deck = next,
                Err(e) => {
                    self.fail(e);
                    return (deck, j, true);
                }
            }
            self.report.shuffles_verified += 1;
        }
        let done = rec.shuffles.len().min(seats);
        (deck, done, false)
    }

    /// 4.3–4.4: the shares of one stage; returns each seat's missing shares.
    fn shares(
        &mut self,
        stage: Stage,
        shares: &[ShareMessage],
        deck: &PublishedDeck,
    ) -> Vec<Vec<Missing>> {
        let layout = self.ctx.table.layout();
        let n = self.n;
        for m in shares.iter().filter(|m| m.hand == n) {
            let fits = match (stage, layout.place(m.position)) {
                (Stage::Deal, Place::Private(i)) => i != m.seat,
                (Stage::Street(k), Place::Street(s)) => k == s,
                _ => false,
            };
            if !fits || self.ctx.table.check_seat(m.seat).is_err() {
                let why = format!(
                    "seat {}'s share of position {} has no place in the {} stage",
                    m.seat,
                    m.position,
                    layout.stage_name(stage)
                );
                self.fail(Error::UnexpectedMessage(why));
                continue;
            }
            self.share(m, deck, layout.stage_name(stage));
        }
        (0..self.ctx.table.seats() as u64)
            .map(|j| {
                let owed = layout.owed(stage, j).into_iter();
                owed.filter(|&p| !self.seen.contains(&(p, j)))
                    .map(|position| Missing::Share { position })
                    .collect()
            })
            .collect()
    }

    /// One share in its place (stage `stage`): not a duplicate, signed by
    /// its seat (version 3.1), and its proof holds.
    fn share(&mut self, m: &ShareMessage, deck: &PublishedDeck, stage: &str) {
        if !self.seen.insert((m.position, m.seat)) {
            return self.fail(Error::DuplicateShare(m.seat));
        }
        let e = &deck.deck.0[m.position as usize];
        let key = &self.ctx.keys[m.seat as usize];
        let ctx = self.ctx;
        let check = || {
            if let Some(sig) = ctx.signing {
                let what = format!(
                    "the {stage} share of position {} in seat {}'s place",
                    m.position, m.seat
                );
                let d = share_digest(sig, stage, m);
                authorship::check(sig, (m.seat, key), &d, &m.signature, what)?;
            }
            verify_share(ctx.table, key, e, m)
        };
        match self.memo.share(m, check) {
            Ok(d) => {
                self.valid.insert((m.position, m.seat), d);
                self.report.shares_verified += 1;
            }
            Err(err) => self.fail(err),
        }
    }

    /// 4.4: the streets in the layout's order; complete ones are opened.
    fn streets(
        &mut self,
        rec: &HandRecord,
        deck: &PublishedDeck,
        missing: &mut Vec<(Stage, Vec<Vec<Missing>>)>,
    ) {
        let layout = self.ctx.table.layout();
        for (k, street) in rec.streets.iter().enumerate() {
            let Some(want) = layout.streets().get(k).filter(|s| s.name == street.street) else {
                let why = match layout.streets().get(k) {
                    Some(s) => format!(
                        "street {:?} where the layout has {:?}",
                        street.street, s.name
                    ),
                    None => format!(
                        "street {:?} where the layout has no more streets",
                        street.street
                    ),
                };
                return self.fail(Error::UnexpectedMessage(why));
            };
            let stage_missing = self.shares(Stage::Street(k), &street.shares, deck);
            for &p in &want.positions {
                if let Some(card) = self.open(p, None, deck) {
                    let street = Some(want.name.clone());
                    self.report.community.push(CardAt {
                        position: p,
                        card,
                        seat: None,
                        street,
                    });
                }
            }
            missing.push((Stage::Street(k), stage_missing));
        }
    }

    /// 4.5: each seat's own shares of its private positions.
    fn showdown(&mut self, shares: &[ShareMessage], deck: &PublishedDeck) {
        let layout = self.ctx.table.layout();
        let n = self.n;
        for m in shares.iter().filter(|m| m.hand == n) {
            if layout.place(m.position) != Place::Private(m.seat) {
                let why = format!(
                    "seat {}'s showdown share of position {}, not its own card",
                    m.seat, m.position
                );
                self.fail(Error::UnexpectedMessage(why));
                continue;
            }
            self.share(m, deck, "showdown");
            if let Some(card) = self.open(m.position, None, deck) {
                self.report.opened.push(CardAt {
                    position: m.position,
                    card,
                    seat: Some(m.seat),
                    street: None,
                });
            }
        }
    }

    /// Step 5: the reader's private cards, its own share computed locally.
    fn own_cards(&mut self, deck: &PublishedDeck) {
        let Some((seat, key)) = self.ctx.reader else {
            return;
        };
        for &p in self.ctx.table.layout().private(seat) {
            if let Some(card) = self.open(p, Some((seat, key)), deck) {
                self.report.own.push(CardAt {
                    position: p,
                    card,
                    seat: Some(seat),
                    street: None,
                });
            }
        }
    }

    /// Decrypts position `p` if every share it needs holds (§9); a
    /// decryption that is no card is a difference.
    fn open(
        &mut self,
        p: u64,
        reader: Option<(u64, &SecretKey)>,
        deck: &PublishedDeck,
    ) -> Option<String> {
        let e = &deck.deck.0[p as usize];
        let mut x = e.a;
        for j in 0..self.ctx.table.seats() as u64 {
            match (self.valid.get(&(p, j)), reader) {
                (Some(d), _) => x -= d,
                (None, Some((r, key))) if r == j => x -= key.0 * e.b,
                (None, _) => return None,
            }
        }
        match self.ctx.table.card_of(&x) {
            Some(card) => Some(card.to_string()),
            None => {
                self.fail(Error::UnknownCard);
                None
            }
        }
    }

    /// The positions nobody reads from this transcript.
    fn hidden(&mut self, rec: &HandRecord) {
        let (table, layout) = (self.ctx.table, self.ctx.table.layout());
        let shown: HashSet<u64> = self
            .report
            .opened
            .iter()
            .chain(&self.report.own)
            .map(|c| c.position)
            .collect();
        for seat in 0..table.seats() as u64 {
            let positions: Vec<u64> = layout
                .private(seat)
                .iter()
                .copied()
                .filter(|p| !shown.contains(p))
                .collect();
            if !positions.is_empty() {
                let what = format!(
                    "seat {seat} ({}): private, not opened (folded, mucked or not yet shown); only its key reads them",
                    table.seat_name(seat)
                );
                self.report.hidden.push(Hidden { what, positions });
            }
        }
        for street in layout.streets().iter().skip(rec.streets.len()) {
            let what = format!(
                "{}: not shown (not yet, or the hand ended before it)",
                street.name
            );
            self.report.hidden.push(Hidden {
                what,
                positions: street.positions.clone(),
            });
        }
        let never = layout.hidden();
        if !never.is_empty() {
            let what = "burned cards, kitty and stock: never decrypted".to_string();
            self.report.hidden.push(Hidden {
                what,
                positions: never,
            });
        }
    }
}
