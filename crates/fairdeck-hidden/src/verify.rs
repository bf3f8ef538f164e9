//! The whole-transcript verifier (`docs/hidden-dealing.md` §15): manifest,
//! keys, then every hand's shuffles, shares, streets, showdown and void, in
//! that order, each failure named by kind.
//!
//! ```
//! use fairdeck_hidden::record::Record;
//! use fairdeck_hidden::verify::{Options, verify};
//! # use fairdeck_fair::Manifest;
//! # let manifest = Manifest { version: 3, table: "doc".into(), game: "holdem".into(),
//! #     deck: "standard".into(), seats: vec!["ann".into(), "bob".into()], first: 1, last: 1 };
//! // A table whose keys have not arrived: in progress it is fine, final it is not.
//! let record = Record::new(manifest);
//! let progress = verify(&record, &Options { in_progress: true, ..Options::default() });
//! assert!(progress.verdict.is_valid());
//! let done = verify(&record, &Options::default());
//! assert_eq!(done.verdict.kinds(), ["missing-message"]);
//! ```

mod authorship;
mod hand;
mod incremental;
mod keygen;
mod seat_keys;
mod stages;

pub use incremental::Verifier;

use crate::elgamal::PublishedDeck;
use crate::keys::{PublicKey, SecretKey};
use crate::layout::Stage;
use crate::ledger::Evidence;
use crate::record::{Missing, Record};
use crate::signature::Context as Signing;
use crate::verdict::{Difference, HandReport, Owed, Verdict};
use crate::{Error, Table};

/// How to verify.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options<'a> {
    /// A seat and its secret key: its own private cards are opened too.
    pub reader: Option<(u64, &'a SecretKey)>,
    /// Check a hand in progress: the first incomplete stage may be partial
    /// (what is owed is reported), instead of a finished transcript.
    pub in_progress: bool,
    /// Version 3.1: receipts and signed heads a seat holds, weighed against
    /// the published log (§18, "Evidence").
    pub evidence: &'a [Evidence],
    /// Seats' key fingerprints the verifier knows from outside the
    /// transcript (the players compared them, §17): a key in a pinned
    /// seat's place with another fingerprint is `room`.
    pub pins: &'a [(u64, String)],
}

/// The verdict, and for parties that play on, what the checks established.
#[derive(Debug)]
pub struct Outcome {
    /// The report.
    pub verdict: Verdict,
    /// The table, keys and hand states, when the manifest and keys hold.
    pub state: Option<State>,
}

/// The checked table: its keys and the state of every hand.
#[derive(Debug)]
pub struct State {
    /// The table.
    pub table: Table,
    /// The seats' public keys, in seat order.
    pub keys: Vec<PublicKey>,
    /// The joint key.
    pub joint: PublicKey,
    /// One state per hand of the record, in its order.
    pub hands: Vec<HandState>,
}

/// How far a hand got.
#[derive(Debug)]
pub struct HandState {
    /// The hand (deal number).
    pub hand: u64,
    /// The deck after the last verified shuffle (the dealt deck once all
    /// seats have shuffled).
    pub deck: PublishedDeck,
    /// How many shuffles verified.
    pub shuffled: usize,
    /// The first stage with a message still owed, if any.
    pub stage: Option<Stage>,
    /// Whether a proof failed (nothing more is played on such a hand).
    pub failed: bool,
    /// Whether the hand is void.
    pub void: bool,
}

/// Reads `text` strictly and verifies it; an unreadable document is one
/// difference of kind `document`.
pub fn verify_json(text: &str, opts: &Options<'_>) -> Outcome {
    match Record::from_json(text) {
        Ok(record) => verify(&record, opts),
        Err(e) => Outcome {
            verdict: verdict(
                None,
                vec!["nothing: the document is unreadable".into()],
                Vec::new(),
                vec![Difference::new(None, e)],
                false,
            ),
            state: None,
        },
    }
}

fn verdict(
    table: Option<String>,
    checked: Vec<String>,
    hands: Vec<crate::verdict::HandReport>,
    differences: Vec<Difference>,
    signed: bool,
) -> Verdict {
    Verdict {
        version: crate::VERSION,
        verdict: if differences.is_empty() {
            "valid"
        } else {
            "invalid"
        },
        signed,
        tolerate: None,
        threshold: None,
        attested_by: Vec::new(),
        key_fingerprints: Vec::new(),
        table,
        checked,
        hands,
        differences,
    }
}

/// Verifies a whole transcript (§15). O(hands · P · N) group operations.
///
/// A party that verifies the same growing transcript again and again (a
/// seat before each step) keeps a [`Verifier`] instead: same verdict, each
/// proof checked once.
pub fn verify(record: &Record, opts: &Options<'_>) -> Outcome {
    run(record, opts, &mut incremental::Memo::empty())
}

/// The verification, with the proof results `memo` remembers.
/// The outcome when the manifest is refused: nothing else is checked.
fn refused_manifest(e: Error) -> Outcome {
    let checked = vec!["the manifest (refused: nothing else checked)".into()];
    Outcome {
        verdict: verdict(
            None,
            checked,
            Vec::new(),
            vec![Difference::new(None, e)],
            false,
        ),
        state: None,
    }
}

/// The seat whose own cards the verifier reads, if its key file matches
/// the seat's published key (a mismatch is a difference, `WrongKey`).
fn reader<'a>(
    opts: &Options<'a>,
    keys: &[PublicKey],
    diffs: &mut Vec<Difference>,
) -> Option<(u64, &'a SecretKey)> {
    opts.reader.filter(|(seat, sk)| {
        let ok = (keys.get(*seat as usize)).is_some_and(|pk| *pk == sk.public_key());
        if !ok {
            diffs.push(Difference::new(None, Error::WrongKey(*seat)));
        }
        ok
    })
}

fn run(record: &Record, opts: &Options<'_>, memo: &mut incremental::Memo) -> Outcome {
    let mut diffs = Vec::new();
    let mut checked = Vec::new();
    let table = match table(record) {
        Ok(t) => t,
        Err(e) => return refused_manifest(e),
    };
    let signing = record
        .is_signed()
        .then(|| Signing::new(&table, record.room.as_ref()));
    let id = Some(table.manifest().table.clone());
    checked.push(manifest_line(&table));
    let found = seat_keys::keys(&table, record, (opts, signing.as_ref()), &mut diffs, memo);
    let Some((keys, joint)) = found else {
        checked.push("the keys (incomplete or refused: no hand checked)".into());
        let signed = signing.is_some();
        return stopped((&table, record, None), opts, (id, checked, diffs), signed);
    };
    checked.push(format!("{} key proof(s) and the joint key", keys.len()));
    let joint = card_key(
        &table,
        record,
        (joint, &keys),
        opts,
        (&mut checked, &mut diffs),
    );
    let Some(joint) = joint else {
        return stopped(
            (&table, record, Some(&keys)),
            opts,
            (id, checked, diffs),
            true,
        );
    };
    let reader = reader(opts, &keys, &mut diffs);
    memo.seat_keys(&keys);
    let base = hand::Context {
        table: &table,
        keys: &keys,
        joint: &joint,
        reader,
        in_progress: opts.in_progress,
        signing: signing.as_ref(),
    };
    let (reports, hands) = check_hands(&base, record, memo, &mut diffs);
    checked.push(format!(
        "{} hand(s): every shuffle proof and share proof present, every message's place",
        reports.len()
    ));
    let mut v = verdict(id, checked, reports, diffs, signing.is_some());
    tolerance(&table, &mut v);
    authorship::finish(&table, record, Some(&keys), opts, &mut v);
    Outcome {
        verdict: v,
        state: Some(State {
            table,
            keys,
            joint,
            hands,
        }),
    }
}

/// Version 3.2's line on the price of the table's tolerance (§29.3).
fn tolerance_line(table: &Table) -> String {
    let (d, p, t) = (table.tolerate(), table.seats(), table.threshold());
    format!(
        "table tolerates {d} lost seat(s) of {p} (threshold {t}): any {t} seats together could read every card"
    )
}

/// The outcome of a table whose table stages did not all complete: no
/// hand checked, no state. `keys` are the verified seat keys, if they are.
fn stopped(
    (table, record, keys): (&Table, &Record, Option<&[PublicKey]>),
    opts: &Options<'_>,
    (id, checked, diffs): (Option<String>, Vec<String>, Vec<Difference>),
    signed: bool,
) -> Outcome {
    let mut v = verdict(id, checked, Vec::new(), diffs, signed);
    tolerance(table, &mut v);
    authorship::finish(table, record, keys, opts, &mut v);
    Outcome {
        verdict: v,
        state: None,
    }
}

/// The card key: the joint key of the seat keys, or in version 3.2 the
/// key generation's `PK` after steps 2a–2b (§29.1), its lines added to
/// `checked`; `None` when the key generation is incomplete or failed.
fn card_key(
    table: &Table,
    record: &Record,
    (joint, keys): (PublicKey, &[PublicKey]),
    opts: &Options<'_>,
    (checked, diffs): (&mut Vec<String>, &mut Vec<Difference>),
) -> Option<PublicKey> {
    if table.tolerate() == 0 {
        return Some(joint);
    }
    // A revision-2 record is signed (`authorship::shape`).
    let ctx = Signing::new(table, record.room.as_ref());
    checked.push(tolerance_line(table));
    let kg = keygen::check(table, record, (keys, &ctx, opts), diffs);
    checked.push(kg.line);
    kg.result.map(|r| r.key)
}

/// Version 3.2: the verdict's `tolerate` and `threshold` (§29.3); nothing
/// before version 3.2.
fn tolerance(table: &Table, v: &mut Verdict) {
    if table.tolerate() == 0 {
        return;
    }
    v.tolerate = Some(table.tolerate() as u64);
    v.threshold = Some(table.threshold() as u64);
}

/// The first line of what was checked: the manifest's fields.
fn manifest_line(table: &Table) -> String {
    let m = table.manifest();
    format!(
        "the manifest: table {:?}, {}, {} deck, seats {}, hands {}-{}",
        m.table,
        m.game,
        m.deck,
        m.seats.join(", "),
        m.first,
        m.last
    )
}

/// Every hand of `record` in order: its report and state, its differences
/// added to `diffs` (a hand the table does not have, or out of order).
fn check_hands(
    ctx: &hand::Context<'_>,
    record: &Record,
    memo: &mut incremental::Memo,
    diffs: &mut Vec<Difference>,
) -> (Vec<HandReport>, Vec<HandState>) {
    let mut reports = Vec::new();
    let mut hands = Vec::new();
    let mut prev: Option<u64> = None;
    for h in &record.hands {
        if let Err(e) = ctx.table.check_hand(h.hand) {
            diffs.push(Difference::new(Some(h.hand), e));
            continue;
        }
        if prev.is_some_and(|p| p >= h.hand) {
            diffs.push(Difference::new(Some(h.hand), Error::HandOrder(h.hand)));
        }
        prev = Some(h.hand);
        let (report, state, found) = hand::check(ctx, h, memo.hand(h.hand));
        diffs.extend(found);
        reports.push(report);
        hands.push(state);
    }
    (reports, hands)
}

fn table(record: &Record) -> Result<Table, Error> {
    if record.version != crate::VERSION {
        return Err(Error::Manifest(format!(
            "the document's version {} is not 3",
            record.version
        )));
    }
    authorship::shape(record)?;
    record.table()
}

/// What every seat owes in `stage`, from the per-seat missing lists.
pub(crate) fn owed(name: &str, missing: &[Vec<Missing>]) -> Vec<Owed> {
    missing
        .iter()
        .enumerate()
        .filter(|(_, m)| !m.is_empty())
        .map(|(seat, m)| Owed {
            seat: seat as u64,
            stage: name.into(),
            missing: m.clone(),
        })
        .collect()
}
