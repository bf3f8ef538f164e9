//! Version 3.1's log (`docs/hidden-dealing.md` §17–§18): message digests,
//! the hash chain of the room's log, signed heads, receipts, attestations,
//! and the check of a seat's evidence against a published transcript.
//!
//! The log is the list of digests of every message and void record, in the
//! order the room accepted them. Its head at length `L` is
//! `h_0 = first32(SHA-512(lp(D_chain) ‖ C))`,
//! `h_{i+1} = first32(SHA-512(lp(D_chain) ‖ h_i ‖ d_i))`: a head commits to
//! the whole log before it, so a log that was rewritten, reordered or cut
//! does not reach a head the room signed earlier.
//!
//! ```
//! use fairdeck_hidden::ledger::heads;
//! use fairdeck_hidden::signature::Context;
//! use fairdeck_hidden::wire::Hex32;
//! # use fairdeck_fair::Manifest;
//! # let manifest = Manifest { version: 3, table: "doc".into(), game: "holdem".into(),
//! #     deck: "standard".into(), seats: vec!["ann".into(), "bob".into()], first: 1, last: 1 };
//! let table = fairdeck_hidden::Table::new(manifest)?;
//! let ctx = Context::new(&table, None);
//! let log = [Hex32([1; 32]), Hex32([2; 32])];
//! let h = heads(&ctx, &log);
//! assert_eq!(h.len(), 3); // h_0, h_1, h_2
//! assert_ne!(heads(&ctx, &[log[1], log[0]])[2], h[2]); // the order counts
//! # Ok::<(), fairdeck_hidden::Error>(())
//! ```

use rand_core::CryptoRng;

use crate::dleq::ShareMessage;
pub use crate::head::{Attestation, Evidence, Receipt, SignedHead};
use crate::keys::{KeyMessage, Proof, PublicKey, SecretKey};
use crate::record::{HandRecord, Missing, Record, Void};
use crate::shuffle::ShuffleMessage;
use crate::signature::{Context, list, message, sign_head, sign_seat, verify_head, verify_seat};
use crate::transcript::Transcript;
use crate::wire::Hex32;
use crate::{Error, Table};

pub use crate::signature::MESSAGE_DOMAIN;
/// Domain of the log's hash chain.
pub const CHAIN_DOMAIN: &str = "fairdeck-hidden-v3.1/chain";
/// Domain of attestations.
pub const ATTESTATION_DOMAIN: &str = "fairdeck-hidden-v3.1/attestation";

/// The digest of a key message: `body = u64_be(j) ‖ enc(PK_j) ‖ c ‖ s`. O(1).
pub fn key_digest(ctx: &Context, m: &KeyMessage) -> Hex32 {
    let mut t = message(ctx, "key");
    t.u64(m.seat)
        .element(&m.public_key)
        .element(&m.proof.c)
        .element(&m.proof.s);
    t.digest()
}

/// The digest of a shuffle message: the hand, the seat, the output deck
/// and every field of the proof, each list with its count (§17). O(N).
pub fn shuffle_digest(ctx: &Context, m: &ShuffleMessage) -> Hex32 {
    let mut t = message(ctx, "shuffle");
    t.u64(m.hand).u64(m.seat).u64(m.deck.len() as u64);
    for e in &m.deck {
        t.element(&e.a).element(&e.b);
    }
    let p = &m.proof;
    list(&mut t, p.commitments.iter());
    list(&mut t, p.chain.iter());
    t.elements([&p.t1, &p.t2, &p.t3, &p.t4a, &p.t4b]);
    list(&mut t, p.t_hat.iter());
    t.elements([&p.s1, &p.s2, &p.s3, &p.s4]);
    list(&mut t, p.s_hat.iter());
    list(&mut t, p.s_prime.iter());
    t.digest()
}

/// The digest of a share message in stage `stage` (`deal`, a street's
/// name, `showdown`): `body = lp(stage) ‖ u64_be(n) ‖ u64_be(j) ‖ u64_be(p)
/// ‖ share ‖ c ‖ s`. O(1).
pub fn share_digest(ctx: &Context, stage: &str, m: &ShareMessage) -> Hex32 {
    let mut t = message(ctx, "share");
    t.bytes(stage.as_bytes())
        .u64(m.hand)
        .u64(m.seat)
        .u64(m.position)
        .element(&m.share)
        .element(&m.proof.c)
        .element(&m.proof.s);
    t.digest()
}

/// The digest of a void record of hand `hand` (`None`: the table's keys).
/// O(missing).
pub fn void_digest(ctx: &Context, hand: Option<u64>, v: &Void) -> Hex32 {
    let mut t = message(ctx, "void");
    t.bytes(if hand.is_some() { b"hand" } else { b"table" })
        .u64(hand.unwrap_or(0))
        .bytes(v.stage.as_bytes())
        .u64(v.seat)
        .u64(v.missing.len() as u64);
    for m in &v.missing {
        let (what, position) = match m {
            Missing::Key => ("key", 0),
            Missing::Shuffle => ("shuffle", 0),
            Missing::Dealing => ("dealing", 0),
            Missing::Ready => ("ready", 0),
            Missing::Share { position } => ("share", *position),
        };
        t.bytes(what.as_bytes()).u64(position);
    }
    t.digest()
}

/// Seat `seat`'s signature (key `pk`) on `digest`; `what` names the
/// message's place for the error. O(1).
///
/// # Errors
///
/// [`Error::Signature`] if it is absent or does not hold.
pub fn check_signature(
    ctx: &Context,
    (seat, pk): (u64, &PublicKey),
    digest: &Hex32,
    sig: &Option<Proof>,
    what: String,
) -> Result<(), Error> {
    match sig {
        Some(sig) if verify_seat(ctx, seat, pk, digest, sig) => Ok(()),
        Some(_) => Err(Error::Signature(seat, what)),
        None => Err(Error::Signature(
            seat,
            format!("{what} (it has no signature)"),
        )),
    }
}

/// The heads `h_0 … h_L` of a log of length `L`. O(L).
pub fn heads(ctx: &Context, log: &[Hex32]) -> Vec<Hex32> {
    let mut t = Transcript::new(CHAIN_DOMAIN);
    t.element(&ctx.bytes);
    let mut out = Vec::with_capacity(log.len() + 1);
    out.push(t.digest());
    for d in log {
        let mut t = Transcript::new(CHAIN_DOMAIN);
        t.element(out.last().expect("h_0 is in")).element(d);
        out.push(t.digest());
    }
    out
}

/// The room's signed head of the whole `log`. O(L).
pub fn sign_log<R: CryptoRng + ?Sized>(
    ctx: &Context,
    room: &SecretKey,
    log: &[Hex32],
    rng: &mut R,
) -> SignedHead {
    let head = *heads(ctx, log).last().expect("h_0 is in");
    let length = log.len() as u64;
    SignedHead {
        length,
        head,
        signature: sign_head(ctx, room, length, &head, rng),
    }
}

/// The room's receipt for the last entry of `log`. O(L).
///
/// # Panics
///
/// If `log` is empty (there is nothing to receipt).
pub fn receipt<R: CryptoRng + ?Sized>(
    ctx: &Context,
    room: &SecretKey,
    log: &[Hex32],
    rng: &mut R,
) -> Receipt {
    let h = sign_log(ctx, room, log, rng);
    Receipt {
        index: h.length - 1,
        digest: log[log.len() - 1],
        length: h.length,
        head: h.head,
        signature: h.signature,
    }
}

/// Whether `h` carries the room's signature (key `room`). O(1).
pub fn head_signed(ctx: &Context, room: &Hex32, h: &SignedHead) -> bool {
    verify_head(ctx, room, h.length, &h.head, &h.signature)
}

fn attestation_digest(length: u64, head: &Hex32) -> Hex32 {
    let mut t = Transcript::new(ATTESTATION_DOMAIN);
    t.u64(length).element(head);
    t.digest()
}

/// Seat `seat`'s attestation of `log` (the whole log it verified). O(L).
pub fn attest<R: CryptoRng + ?Sized>(
    ctx: &Context,
    seat: u64,
    sk: &SecretKey,
    log: &[Hex32],
    rng: &mut R,
) -> Attestation {
    let head = *heads(ctx, log).last().expect("h_0 is in");
    let length = log.len() as u64;
    let d = attestation_digest(length, &head);
    Attestation {
        seat,
        length,
        head,
        signature: sign_seat(ctx, seat, sk, &d, rng),
    }
}

/// Checks an attestation against the seats' keys and the log's heads
/// (`heads` = `h_0 … h_L`). O(1).
///
/// # Errors
///
/// [`Error::Attestation`] saying what fails.
pub fn check_attestation(
    ctx: &Context,
    keys: &[PublicKey],
    heads: &[Hex32],
    a: &Attestation,
) -> Result<(), Error> {
    let Some(pk) = keys.get(a.seat as usize) else {
        return Err(Error::Attestation(
            a.seat,
            "seat is not a seat of the table".into(),
        ));
    };
    let d = attestation_digest(a.length, &a.head);
    if !verify_seat(ctx, a.seat, pk, &d, &a.signature) {
        return Err(Error::Attestation(
            a.seat,
            "attestation is not signed by it".into(),
        ));
    }
    match heads.get(a.length as usize) {
        Some(h) if *h == a.head => Ok(()),
        Some(_) => Err(Error::Attestation(
            a.seat,
            format!("attested log of {} entries is not this one", a.length),
        )),
        None => Err(Error::Attestation(
            a.seat,
            format!(
                "attested log of {} entries is longer than this one",
                a.length
            ),
        )),
    }
}

/// Checks one item of a seat's evidence against the published log's heads
/// (`h_0 … h_L`) and log. O(1).
///
/// # Errors
///
/// [`Error::RoomSignature`] if the item is not signed by the room, or is
/// a receipt whose index or digest is not what its signed head covers (it
/// proves nothing, and blames the room for nothing); [`Error::Room`] if the
/// room signed a head that the published log does not reach.
pub fn check_evidence(
    ctx: &Context,
    room: &Hex32,
    log_heads: (&[Hex32], &[Hex32]),
    item: &Evidence,
) -> Result<(), Error> {
    evidence_signed(ctx, room, item)?;
    evidence_agrees(log_heads, item)
}

/// The first half of [`check_evidence`]: the item's head carries the
/// room's signature (a party that keeps its evidence checks this once).
/// O(1).
///
/// # Errors
///
/// [`Error::RoomSignature`] if it does not.
pub fn evidence_signed(ctx: &Context, room: &Hex32, item: &Evidence) -> Result<(), Error> {
    let h = item.head();
    match head_signed(ctx, room, &h) {
        true => Ok(()),
        false => Err(Error::RoomSignature(format!(
            "a head of {} entries given as evidence is not signed by the table's room",
            h.length
        ))),
    }
}

/// The second half of [`check_evidence`], for an item whose signature
/// holds: against the published log and its heads `h_0 … h_L`. O(1).
///
/// # Errors
///
/// As [`check_evidence`], but for the signature.
pub fn evidence_agrees((log, heads): (&[Hex32], &[Hex32]), item: &Evidence) -> Result<(), Error> {
    let h = item.head();
    let covered = match item {
        Evidence::Receipt(r) => r.length == r.index + 1,
        Evidence::Head(_) => true,
    };
    if !covered {
        return Err(Error::RoomSignature(
            "a receipt whose length is not its index + 1: its index is not what the room signed"
                .into(),
        ));
    }
    match heads.get(h.length as usize) {
        None => Err(Error::Room(format!(
            "the room signed a log of {} entries; it published {}: it dropped messages it had accepted",
            h.length,
            log.len()
        ))),
        Some(at) if *at != h.head => Err(Error::Room(format!(
            "the room signed a log of {} entries that the published log does not extend: it rewrote, reordered or dropped messages, or showed two histories",
            h.length
        ))),
        // The published log reaches the signed head, so its entry at the
        // receipt's index is the one the room signed: a receipt naming
        // another digest was altered by whoever holds it, and proves nothing.
        Some(_) => match item {
            Evidence::Receipt(r) if log.get(r.index as usize) != Some(&r.digest) => {
                Err(Error::RoomSignature(format!(
                    "a receipt names digest {} at index {}, which its signed head does not cover: it was altered and proves nothing",
                    r.digest, r.index
                )))
            }
            _ => Ok(()),
        },
    }
}

/// A hand's shares with the stage each sits in (`deal`, each street's
/// name, `showdown`), in the record's order: the stage is part of a
/// share's digest (§17).
pub fn staged_shares(h: &HandRecord) -> impl Iterator<Item = (&str, &[ShareMessage])> {
    let streets = h.streets.iter().map(|s| (s.street.as_str(), &s.shares[..]));
    [("deal", &h.deal[..])]
        .into_iter()
        .chain(streets)
        .chain([("showdown", &h.showdown[..])])
}

/// Every message and void record of `record` with its digest and a few
/// words saying where it is, in the record's order (keys, the table's
/// void, then each hand's shuffles, deal, streets, showdown and void).
/// O(size of the record).
pub fn digests(table: &Table, record: &Record) -> Vec<(Hex32, String)> {
    let ctx = Context::new(table, record.room.as_ref());
    let mut out = Vec::new();
    for k in &record.keys {
        out.push((key_digest(&ctx, k), format!("seat {}'s key", k.seat)));
    }
    if let Some(v) = &record.void {
        out.push((void_digest(&ctx, None, v), "the table's void record".into()));
    }
    for h in &record.hands {
        let n = h.hand;
        for m in &h.shuffles {
            let what = format!("seat {}'s shuffle of hand {n}", m.seat);
            out.push((shuffle_digest(&ctx, m), what));
        }
        for (stage, shares) in staged_shares(h) {
            for m in shares {
                let what = format!(
                    "seat {}'s {stage} share of position {} in hand {n}",
                    m.seat, m.position
                );
                out.push((share_digest(&ctx, stage, m), what));
            }
        }
        if let Some(v) = &h.void {
            out.push((
                void_digest(&ctx, Some(n), v),
                format!("hand {n}'s void record"),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests;
