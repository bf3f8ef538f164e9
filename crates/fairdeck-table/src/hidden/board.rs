//! The bulletin board of one hidden table: the transcript so far
//! (`docs/hidden-dealing.md` §14), the tokens' hashes, and where play
//! stands — rebuilt by replaying the table's log, so it holds exactly what
//! was accepted. It holds no secret key: nothing here opens a card.

use fairdeck_hidden::Table;
use fairdeck_hidden::group::encode_point;
use fairdeck_hidden::keys::PublicKey;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::layout::Stage;
use fairdeck_hidden::ledger::{
    Receipt, heads, key_digest, share_digest, shuffle_digest, sign_log, void_digest,
};
use fairdeck_hidden::record::{HandRecord, Missing, Record, StreetRecord};
use fairdeck_hidden::signature::{Context, sign_head};
use fairdeck_hidden::wire::Hex32;
use rand_core::CryptoRng;

use super::entry::Entry;
use crate::Error;
use crate::token::TokenHash;

/// A hidden table as its log replays to.
#[derive(Debug, Clone)]
pub struct Board {
    /// The checked table (manifest, card points, layout).
    pub table: Table,
    /// The transcript so far.
    pub record: Record,
    /// The operator token's hash.
    pub operator: TokenHash,
    /// The seat tokens' hashes.
    pub seats: Vec<TokenHash>,
    /// Seconds a seat may take for a message the table waits for.
    pub step_seconds: u64,
    /// When the last change was accepted, or the service started if later
    /// ([`BoardCache::awake_since`](super::store::BoardCache::awake_since)):
    /// the deadline runs from it.
    pub since: u64,
    /// The hand in play (after the last hand: `last + 1`).
    pub hand: u64,
    /// How many streets of the hand in play the operator has opened.
    pub streets_open: usize,
    /// Whether the operator has opened the showdown of the hand in play.
    pub showdown: bool,
    /// The seats' keys and the joint key, once every key is in.
    pub keys: Option<(Vec<PublicKey>, PublicKey)>,
    /// How many entries the log has.
    pub entries: u64,
    /// Version 3.1: the room's signing key and the signing context (a
    /// table opened before 3.1 has none and is served unsigned).
    pub room: Option<(SecretKey, Context)>,
}

/// What the table waits for: the stage and each seat's missing messages
/// (seats that owe nothing are left out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Due {
    /// `keys`, `shuffle`, `deal` or a street's name.
    pub stage: String,
    /// The hand, `None` for the keys.
    pub hand: Option<u64>,
    /// `(seat, what it has not sent)`, seats in order.
    pub owed: Vec<(u64, Vec<Missing>)>,
}

fn corrupt(why: impl Into<String>) -> Error {
    Error::Corrupt(why.into())
}

impl Board {
    /// Replays a log. O(entries + N) plus decoding the keys.
    ///
    /// # Errors
    ///
    /// [`Error::Corrupt`] if the log does not start with `opened` or an
    /// entry does not fit where it stands.
    pub fn replay(entries: &[Entry]) -> Result<Board, Error> {
        let Some(Entry::Opened {
            manifest,
            operator,
            seats,
            step_seconds,
            room,
            at,
        }) = entries.first()
        else {
            return Err(corrupt("a hidden table's log starts with `opened`"));
        };
        let table = Table::new(manifest.clone()).map_err(|e| corrupt(e.to_string()))?;
        let room = match room {
            Some(bytes) => {
                let key = SecretKey::from_bytes(&bytes.0).map_err(|e| corrupt(e.to_string()))?;
                let pk = encode_point(&key.public_key().0);
                Some((key, Context::new(&table, Some(&pk))))
            }
            None => None,
        };
        let record = match &room {
            Some((_, ctx)) => Record::signed(manifest.clone(), ctx.room),
            None => Record::new(manifest.clone()),
        };
        let mut board = Board {
            hand: manifest.first,
            record,
            room,
            table,
            operator: *operator,
            seats: seats.clone(),
            step_seconds: *step_seconds,
            since: *at,
            streets_open: 0,
            showdown: false,
            keys: None,
            entries: 1,
        };
        for e in &entries[1..] {
            board.apply(e)?;
        }
        Ok(board)
    }

    /// Applies one accepted entry.
    ///
    /// # Errors
    ///
    /// [`Error::Corrupt`] for an entry that does not fit.
    pub fn apply(&mut self, entry: &Entry) -> Result<(), Error> {
        match entry {
            Entry::Opened { .. } => return Err(corrupt("a second `opened` entry")),
            Entry::Key { message, .. } => {
                self.log(|ctx| key_digest(ctx, message));
                self.record.keys.push(message.clone());
                if self.record.keys.len() == self.table.seats() {
                    let keys = fairdeck_hidden::keys::joint_key(&self.table, &self.record.keys);
                    self.keys = Some(keys.map_err(|e| corrupt(e.to_string()))?);
                }
            }
            Entry::Shuffle { message, .. } => {
                self.log(|ctx| shuffle_digest(ctx, message));
                self.hand_record()?.shuffles.push((**message).clone())
            }
            Entry::Shares { stage, shares, .. } => {
                for m in shares {
                    self.log(|ctx| share_digest(ctx, stage, m));
                }
                self.place(stage, shares)?
            }
            Entry::Advance { to, .. } => match to.as_str() {
                "showdown" => self.showdown = true,
                "end" => self.next_hand(),
                _ => self.streets_open += 1,
            },
            Entry::Attestation { attestation, .. } => {
                self.record.attestations.push(*attestation);
            }
            Entry::Void { hand, void, .. } => {
                self.log(|ctx| void_digest(ctx, *hand, void));
                match hand {
                    None => self.record.void = Some(void.clone()),
                    Some(_) => self.hand_record()?.void = Some(void.clone()),
                }
                // A stalled seat would stall every later hand too: the table stops.
                self.hand = self.table.manifest().last.saturating_add(1);
            }
        }
        self.since = entry.at();
        self.entries += 1;
        Ok(())
    }

    /// Version 3.1 (§19): a log read from storage anew (the first request
    /// after a start) is verified whole before it is served: a stored
    /// message that was rewritten fails its seat's signature, and the table
    /// is refused instead of served. O(the table's proofs).
    ///
    /// # Errors
    ///
    /// [`Error::Corrupt`] with the first difference.
    pub fn check_stored(&self) -> Result<(), Error> {
        if self.room.is_none() {
            return Ok(());
        }
        let opts = fairdeck_hidden::verify::Options {
            in_progress: true,
            ..Default::default()
        };
        let record = self.served(&mut rand_core::UnwrapErr(getrandom::SysRng));
        let outcome = fairdeck_hidden::verify::verify(&record, &opts);
        match outcome.verdict.differences.first() {
            None => Ok(()),
            Some(d) => Err(corrupt(format!(
                "the stored log of table {:?} does not verify: {}",
                self.table.manifest().table,
                d.message
            ))),
        }
    }

    /// Appends a message's digest to the log of a version-3.1 table.
    fn log(&mut self, digest: impl FnOnce(&Context) -> Hex32) {
        if let Some((_, ctx)) = &self.room {
            let d = digest(ctx);
            self.record.log.push(d);
        }
    }

    /// The record as served: with the room's signed head of the whole log
    /// (version 3.1). O(log length).
    pub fn served<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> Record {
        let mut record = self.record.clone();
        if let Some((key, ctx)) = &self.room {
            record.head = Some(sign_log(ctx, key, &record.log, rng));
        }
        record
    }

    /// The room's receipts for the last `n` entries of the log (version 3.1;
    /// none for a version-3 table). O(n · log length).
    pub fn receipts<R: CryptoRng + ?Sized>(&self, n: usize, rng: &mut R) -> Vec<Receipt> {
        let Some((key, ctx)) = &self.room else {
            return Vec::new();
        };
        let log = &self.record.log;
        let hs = heads(ctx, log);
        (log.len().saturating_sub(n)..log.len())
            .map(|i| {
                let (length, head) = (i as u64 + 1, hs[i + 1]);
                Receipt {
                    index: i as u64,
                    digest: log[i],
                    length,
                    head,
                    signature: sign_head(ctx, key, length, &head, rng),
                }
            })
            .collect()
    }

    fn next_hand(&mut self) {
        self.hand += 1;
        self.streets_open = 0;
        self.showdown = false;
    }

    /// The record of the hand in play, begun if it is not there yet.
    fn hand_record(&mut self) -> Result<&mut HandRecord, Error> {
        self.record
            .hand_mut(self.hand)
            .map_err(|e| corrupt(e.to_string()))
    }

    fn place(
        &mut self,
        stage: &str,
        shares: &[fairdeck_hidden::dleq::ShareMessage],
    ) -> Result<(), Error> {
        let stage_of = self.table.layout().stage_named(stage);
        let rec = self.hand_record()?;
        match (stage, stage_of) {
            ("showdown", _) => rec.showdown.extend_from_slice(shares),
            (_, Some(Stage::Deal)) => rec.deal.extend_from_slice(shares),
            (name, Some(Stage::Street(k))) => {
                if rec.streets.len() == k {
                    rec.streets.push(StreetRecord {
                        street: name.to_string(),
                        shares: Vec::new(),
                    });
                }
                let street = rec.streets.get_mut(k).ok_or_else(|| {
                    corrupt(format!("shares of {name} before the street before it"))
                })?;
                street.shares.extend_from_slice(shares);
            }
            _ => return Err(corrupt(format!("shares of an unknown stage {stage:?}"))),
        }
        Ok(())
    }

    /// Whether the table is over: void, or every hand of its range ended.
    pub fn finished(&self) -> bool {
        self.record.void.is_some() || self.hand > self.table.manifest().last
    }

    /// Whether the table was voided (at its keys or at a hand).
    pub fn void(&self) -> bool {
        self.record.void.is_some() || self.record.hands.iter().any(|h| h.void.is_some())
    }

    /// The record of the hand in play, if it has begun.
    pub fn current(&self) -> Option<&HandRecord> {
        self.record.hand(self.hand)
    }

    /// The first stage that waits for messages, with what each seat owes
    /// there; `None` when the table waits for nobody (finished, or the
    /// operator's next step). O(P · N).
    pub fn due(&self) -> Option<Due> {
        if self.finished() {
            return None;
        }
        let seats = self.table.seats() as u64;
        let keys = self.record.keys.len() as u64;
        if keys < seats {
            return Some(Due {
                stage: "keys".into(),
                hand: None,
                owed: (keys..seats).map(|j| (j, vec![Missing::Key])).collect(),
            });
        }
        let shuffled = self.current().map_or(0, |h| h.shuffles.len()) as u64;
        if shuffled < seats {
            return Some(self.due_at(Stage::Shuffle, vec![(shuffled, vec![Missing::Shuffle])]));
        }
        let open = (0..self.streets_open).map(Stage::Street);
        [Stage::Deal].into_iter().chain(open).find_map(|stage| {
            let owed = self.owed_shares(stage);
            (!owed.is_empty()).then(|| self.due_at(stage, owed))
        })
    }

    fn due_at(&self, stage: Stage, owed: Vec<(u64, Vec<Missing>)>) -> Due {
        Due {
            stage: self.table.layout().stage_name(stage).to_string(),
            hand: Some(self.hand),
            owed,
        }
    }

    /// Each seat's shares of `stage` not yet accepted, seats owing none left out.
    fn owed_shares(&self, stage: Stage) -> Vec<(u64, Vec<Missing>)> {
        let rec = self.current();
        let sent = |seat: u64, p: u64| {
            rec.is_some_and(|r| r.all_shares().any(|m| m.seat == seat && m.position == p))
        };
        (0..self.table.seats() as u64)
            .map(|j| {
                let owed = self.table.layout().owed(stage, j).into_iter();
                let missing = owed.filter(|&p| !sent(j, p));
                (
                    j,
                    missing
                        .map(|position| Missing::Share { position })
                        .collect::<Vec<_>>(),
                )
            })
            .filter(|(_, m)| !m.is_empty())
            .collect()
    }

    /// The deadline of what the table waits for, if it waits for a seat.
    pub fn deadline(&self) -> Option<u64> {
        self.due()
            .map(|_| self.since.saturating_add(self.step_seconds))
    }
}
