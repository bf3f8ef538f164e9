//! Revision-2 transcripts through the key generation (§29.1 steps 2a–2b):
//! a four-seat table tolerating one lost seat verifies; each fault is
//! reported by its kind and names the seat at fault.

use chacha20::ChaCha20Rng;
use curve25519_dalek::scalar::Scalar;

use crate::dkg::digest::{complaint_digest, dealing_digest, ready_digest};
use crate::dkg::{self, DealingSecrets, KeyShare};
use crate::group::{decode_scalar, encode_scalar};
use crate::keys::SecretKey;
use crate::ledger::void_digest;
use crate::record::{Missing, Record, Void};
use crate::seat::{Answer, publish_answer, publish_dealing, publish_key};
use crate::signature::{Context, sign_seat};
use crate::testing::{manifest, rng};
use crate::verdict::Verdict;
use crate::verify::{Options, verify};
use crate::{Error, Table};

const SEATS: usize = 4;

/// A table of four seats tolerating one, its seat keys published.
struct Fixture {
    table: Table,
    record: Record,
    sks: Vec<SecretKey>,
    rng: ChaCha20Rng,
}

impl Fixture {
    fn keys() -> Fixture {
        let mut record = Record::tolerant(manifest("holdem", "standard", SEATS), 1, None);
        let table = record.table().unwrap();
        let mut rng = rng(0x32);
        let sks: Vec<SecretKey> = (0..SEATS).map(|_| SecretKey::generate(&mut rng)).collect();
        for (j, sk) in sks.iter().enumerate() {
            publish_key(&table, &mut record, j as u64, sk, &mut rng).unwrap();
        }
        Fixture {
            table,
            record,
            sks,
            rng,
        }
    }

    fn deal(&mut self, seats: std::ops::Range<u64>) -> &mut Fixture {
        for i in seats {
            let sk = &self.sks[i as usize];
            publish_dealing(&mut self.record, i, sk, &mut self.rng).unwrap();
        }
        self
    }

    fn answer(&mut self, seats: std::ops::Range<u64>) -> Vec<Answer> {
        let (record, sks, rng) = (&mut self.record, &self.sks, &mut self.rng);
        let mut answer = |j: u64| publish_answer(record, j, &sks[j as usize], rng).unwrap();
        seats.map(&mut answer).collect()
    }

    fn ctx(&self) -> Context {
        Context::new(&self.table, None)
    }

    /// Signs `digest` as seat `signer`, replacing `old` in the log by it.
    fn relog(
        &mut self,
        old: crate::wire::Hex32,
        new: crate::wire::Hex32,
        signer: usize,
    ) -> crate::keys::Proof {
        let at = self.record.log.iter().position(|d| *d == old).unwrap();
        self.record.log[at] = new;
        let ctx = self.ctx();
        sign_seat(&ctx, signer as u64, &self.sks[signer], &new, &mut self.rng)
    }

    fn verdict(&self) -> Verdict {
        verify(&self.record, &Options::default()).verdict
    }
}

fn one_fault(v: &Verdict, kind: &str, at_fault: Option<&str>) {
    assert_eq!(v.kinds(), [kind], "{:#?}", v.differences);
    assert_eq!(
        v.differences[0].at_fault.as_deref(),
        at_fault,
        "{:#?}",
        v.differences
    );
}

#[test]
fn a_whole_key_generation_verifies_and_states_its_tolerance() {
    let mut f = Fixture::keys();
    f.deal(0..4).answer(0..4);
    let text = f.record.to_json();
    assert!(text.contains("\"tolerate\": 1"), "{text}");
    assert_eq!(Record::from_json(&text).unwrap(), f.record);
    let outcome = verify(&f.record, &Options::default());
    let v = &outcome.verdict;
    assert!(v.is_valid(), "{:#?}", v.differences);
    assert!(v.signed);
    assert_eq!((v.tolerate, v.threshold), (Some(1), Some(3)));
    let lines = [
        "table tolerates 1 lost seat(s) of 4 (threshold 3): any 3 seats together could read every card",
        "key generation: 4 dealings, 4 readies, no complaint",
    ];
    for line in lines {
        assert!(v.checked.iter().any(|c| c == line), "{:#?}", v.checked);
    }
    let state = outcome.state.unwrap();
    let dealings: Vec<_> = f
        .record
        .dealings
        .iter()
        .map(|m| dkg::check_dealing(&f.table, m).unwrap())
        .collect();
    assert_eq!(
        state.joint,
        dkg::public_result(&f.table, &dealings).unwrap().key
    );
}

#[test]
fn a_key_generation_in_progress_owes_its_messages() {
    let mut f = Fixture::keys();
    f.deal(0..2);
    let progress = Options {
        in_progress: true,
        ..Options::default()
    };
    assert!(verify(&f.record, &progress).verdict.is_valid());
    let v = f.verdict();
    assert_eq!(v.kinds(), ["missing-message"]);
    assert!(
        v.checked
            .iter()
            .any(|c| c == "key generation: 2 of 4 dealings (incomplete or refused)")
    );
    let refused = publish_answer(&mut f.record, 0, &f.sks[0], &mut f.rng).unwrap_err();
    assert!(refused.to_string().contains("seat 2 is next"), "{refused}");
    let refused = publish_dealing(&mut f.record, 3, &f.sks[3], &mut f.rng).unwrap_err();
    assert!(refused.to_string().contains("seat order"), "{refused}");
}

#[test]
fn a_forged_dealing_proof_names_the_dealer() {
    let mut f = Fixture::keys();
    f.deal(0..4);
    let mut m = f.record.dealings[1].clone();
    let s = decode_scalar(&m.proof.s).unwrap() + Scalar::ONE;
    m.proof.s = encode_scalar(&s);
    let new = dealing_digest(&f.ctx(), &m);
    m.signature = Some(f.relog(dealing_digest(&f.ctx(), &f.record.dealings[1]), new, 1));
    f.record.dealings[1] = m;
    one_fault(&f.verdict(), "dealing-proof", Some("seat 1 (s1)"));
}

#[test]
fn a_bad_share_and_its_complaint_name_the_dealer() {
    let mut f = Fixture::keys();
    let keys: Vec<_> = f.sks.iter().map(SecretKey::public_key).collect();
    let secrets = DealingSecrets::draw(&f.table, &mut f.rng);
    let mut m = dkg::deal_shares(&f.table, 0, &keys, &secrets).unwrap();
    let e = decode_scalar(&m.shares[2]).unwrap() + Scalar::ONE; // e_{0,2} + 1
    m.shares[2] = encode_scalar(&e);
    dkg::prove_dealing(&f.table, &mut m, &secrets, &mut f.rng);
    let d = dealing_digest(&f.ctx(), &m);
    m.signature = Some(sign_seat(&f.ctx(), 0, &f.sks[0], &d, &mut f.rng));
    f.record.log.push(d);
    f.record.dealings.push(m);
    f.deal(1..4);
    let answers = f.answer(2..3);
    let Answer::Complaints(c) = &answers[0] else {
        panic!("seat 2 should complain")
    };
    assert_eq!((c.len(), c[0].against), (1, 0));
    let v = f.verdict();
    one_fault(&v, "dealing-share", Some("seat 0 (s0)"));
    assert!(
        v.checked
            .iter()
            .any(|l| l.starts_with("key generation: 4 dealings, 1 complaint(s)"))
    );
    let refused = publish_answer(&mut f.record, 3, &f.sks[3], &mut f.rng).unwrap_err();
    assert!(refused.to_string().contains("does not verify"), "{refused}");
}

#[test]
fn a_false_complaint_names_the_complainer() {
    let mut f = Fixture::keys();
    f.deal(0..4);
    let dealing = dkg::check_dealing(&f.table, &f.record.dealings[1]).unwrap();
    let mut c = dkg::complaint(&f.table, 3, &dealing, &f.sks[3], &mut f.rng).unwrap();
    let d = complaint_digest(&f.ctx(), &c);
    c.signature = Some(sign_seat(&f.ctx(), 3, &f.sks[3], &d, &mut f.rng));
    f.record.log.push(d);
    f.record.complaints.push(c);
    one_fault(&f.verdict(), "complaint", Some("seat 3 (s3)"));
}

#[test]
fn a_ready_with_a_wrong_verifying_share_names_its_seat() {
    let mut f = Fixture::keys();
    f.deal(0..4).answer(0..4);
    let dealings: Vec<_> = (f.record.dealings.iter())
        .map(|m| dkg::check_dealing(&f.table, m).unwrap())
        .collect();
    let key = dkg::public_result(&f.table, &dealings).unwrap().key;
    let mut m = dkg::ready(&f.table, 1, &key, &KeyShare(Scalar::from(7u64)), &mut f.rng).unwrap();
    let old = ready_digest(&f.ctx(), &f.record.readies[1]);
    let new = ready_digest(&f.ctx(), &m);
    m.signature = Some(f.relog(old, new, 1));
    f.record.readies[1] = m;
    one_fault(&f.verdict(), "ready", Some("seat 1 (s1)"));
}

#[test]
fn a_missing_ready_is_a_void_at_the_ready_stage() {
    let mut f = Fixture::keys();
    f.deal(0..4).answer(0..3);
    let v = f.verdict();
    assert_eq!(v.kinds(), ["missing-message"]);
    assert!(
        v.differences[0].message.contains("seat 3"),
        "{}",
        v.differences[0].message
    );
    let void = |seat| Void {
        stage: "ready".into(),
        seat,
        missing: vec![Missing::Ready],
    };
    for (seat, valid) in [(3, true), (2, false)] {
        let mut record = f.record.clone();
        record.log.push(void_digest(&f.ctx(), None, &void(seat)));
        record.void = Some(void(seat));
        let v = verify(&record, &Options::default()).verdict;
        match valid {
            true => assert!(v.is_valid(), "{:#?}", v.differences),
            false => assert_eq!(v.kinds(), ["void"]),
        }
    }
}

#[test]
fn a_dealing_signed_by_another_seat_is_not_its_seats() {
    let mut f = Fixture::keys();
    f.deal(0..4);
    let d = dealing_digest(&f.ctx(), &f.record.dealings[1]);
    let forged = f.relog(d, d, 2);
    f.record.dealings[1].signature = Some(forged);
    let v = f.verdict();
    assert_eq!(v.kinds(), ["signature"], "{:#?}", v.differences);
    assert!(
        v.differences[0].message.contains("seat 1"),
        "{}",
        v.differences[0].message
    );
    assert_eq!(
        v.differences[0].error,
        Error::Signature(1, "the dealing in seat 1's place".into())
    );
}

#[test]
fn the_manifest_rules_and_the_revision_are_checked() {
    let f = Fixture::keys();
    let kind = |r: &Record| verify(r, &Options::default()).verdict.kinds();
    let mut r = f.record.clone();
    r.tolerate = None;
    assert_eq!(kind(&r), ["manifest"]);
    let mut r = Record::signed(manifest("holdem", "standard", SEATS), None);
    r.tolerate = Some(1);
    assert_eq!(kind(&r), ["manifest"]);
    for (game, deck, d) in [
        ("holdem", "standard", 0),
        ("holdem", "standard", 3),
        ("bridge", "standard", 1),
    ] {
        let r = Record::tolerant(manifest(game, deck, SEATS), d, None);
        assert_eq!(kind(&r), ["manifest"], "{game} {d}");
    }
    let mut r = f.record.clone();
    r.hand_mut(1).unwrap();
    let v = verify(&r, &Options::default()).verdict;
    assert_eq!(v.kinds(), ["document"]);
    assert!(v.differences[0].message.contains("not yet implemented"));
    let mut r = f.record.clone();
    r.revision = 3;
    assert_eq!(kind(&r), ["document"]);
    let mut r = Record::signed(manifest("holdem", "standard", SEATS), None);
    r.dealings = f.record.dealings.clone();
    r.dealings
        .push(Fixture::keys().deal(0..1).record.dealings[0].clone());
    assert_eq!(kind(&r), ["document"]);
}
