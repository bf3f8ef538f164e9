mod frost;
use curve25519_dalek::constants::RISTRETTO_BASEPOINT_TABLE;
use curve25519_dalek::scalar::Scalar;

use super::*;
use crate::Error;
use crate::group::{encode_point, encode_scalar, hash_to_group};
use crate::testing::{Keygen, keygen, rng};
use crate::threshold::lagrange_weights;
use crate::wire::Hex32;

/// Every subset of `0..p` with at least `t` seats.
fn quorums(p: u64, t: usize) -> Vec<Vec<u64>> {
    (0u32..1 << p)
        .map(|mask| (0..p).filter(|j| mask >> j & 1 == 1).collect::<Vec<_>>())
        .filter(|s| s.len() >= t)
        .collect()
}

#[test]
fn four_seats_tolerating_one_share_the_key_three_ways() {
    let kg = keygen(4, 1, 1);
    assert_eq!(kg.table.threshold(), 3);
    let sk = kg.secret();
    assert_eq!(kg.result.key.0, RISTRETTO_BASEPOINT_TABLE * &sk);
    for (j, s) in kg.shares.iter().enumerate() {
        assert_eq!(s.verifying_share(), kg.result.verifying_shares[j], "Y_{j}");
        let msg = ready(&kg.table, j as u64, &kg.result.key, s, &mut rng(9)).unwrap();
        assert_eq!(check_ready(&kg.table, &kg.result, &msg), Ok(()));
    }
    let b = hash_to_group("test", b"b");
    let sets = quorums(4, 3);
    assert_eq!(sets.len(), 5); // the four 3-subsets and the 4-set
    for set in sets {
        let weights = lagrange_weights(&set).unwrap();
        let sum: curve25519_dalek::ristretto::RistrettoPoint = set
            .iter()
            .zip(&weights)
            .map(|(&j, w)| w * (kg.shares[j as usize].0 * b))
            .sum();
        assert_eq!(sum, sk * b, "S = {set:?}");
    }
    // Two shares are not enough: their weighted sum is not sk·b.
    let w = lagrange_weights(&[0, 1]).unwrap();
    assert_ne!(w[0] * kg.shares[0].0 + w[1] * kg.shares[1].0, sk);
}

#[test]
fn a_dealing_round_trips_with_the_spec_field_names() {
    let kg = keygen(3, 1, 2);
    let json = serde_json::to_value(&kg.msgs[0]).unwrap();
    let fields: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(fields.len(), 5);
    for f in ["seat", "commitments", "ephemeral", "shares", "proof"] {
        assert!(fields.contains(&f), "{f}");
    }
    let back: DealingMessage = serde_json::from_value(json).unwrap();
    assert_eq!(back, kg.msgs[0]);
    let mut extra = serde_json::to_value(&kg.msgs[0]).unwrap();
    extra["tolerate"] = 1.into();
    assert!(serde_json::from_value::<DealingMessage>(extra).is_err());
}

#[test]
fn a_dealing_with_the_wrong_counts_is_dealing() {
    let kg = keygen(4, 1, 3);
    let mut short = kg.msgs[2].clone();
    short.commitments.pop();
    assert_eq!(check_dealing(&kg.table, &short), Err(Error::Dealing(2)));
    let mut long = kg.msgs[2].clone();
    long.shares.push(long.shares[0]);
    let err = check_dealing(&kg.table, &long).unwrap_err();
    assert_eq!((err.kind(), err), ("dealing", Error::Dealing(2)));
}

#[test]
fn a_forged_or_moved_dealing_proof_is_dealing_proof() {
    let kg = keygen(4, 1, 4);
    let mut forged = kg.msgs[1].clone();
    forged.proof.s =
        encode_scalar(&(Scalar::ONE + crate::group::decode_scalar(&forged.proof.s).unwrap()));
    assert_eq!(
        check_dealing(&kg.table, &forged),
        Err(Error::DealingProof(1))
    );
    // The proof binds the shares: changing one after proving is caught.
    let mut changed = kg.msgs[1].clone();
    changed.shares[3] = encode_scalar(&Scalar::from(5u64));
    assert_eq!(
        check_dealing(&kg.table, &changed),
        Err(Error::DealingProof(1))
    );
    // …and the dealer's seat: the same dealing in seat 0's place fails.
    let mut moved = kg.msgs[1].clone();
    moved.seat = 0;
    let err = check_dealing(&kg.table, &moved).unwrap_err();
    assert_eq!(err.kind(), "dealing-proof");
    // …and the tolerance: the same dealing under D = 2 of 4 seats is refused.
    let other =
        crate::Table::with_tolerance(crate::testing::manifest("holdem", "standard", 4), 2).unwrap();
    let mut two = kg.msgs[1].clone();
    two.commitments.pop();
    assert_eq!(check_dealing(&other, &two), Err(Error::DealingProof(1)));
}

#[test]
fn encodings_and_an_identity_constant_are_refused() {
    let kg = keygen(4, 1, 5);
    let mut zero = kg.msgs[3].clone();
    zero.commitments[0] = encode_point(&curve25519_dalek::ristretto::RistrettoPoint::default());
    let err = check_dealing(&kg.table, &zero).unwrap_err();
    assert_eq!((err.kind(), err), ("identity", Error::Identity));
    let mut point = kg.msgs[3].clone();
    point.ephemeral = Hex32([1; 32]);
    assert_eq!(check_dealing(&kg.table, &point), Err(Error::PointEncoding));
    let mut scalar = kg.msgs[3].clone();
    scalar.shares[0] = Hex32([0xff; 32]);
    assert_eq!(
        check_dealing(&kg.table, &scalar),
        Err(Error::ScalarEncoding)
    );
}

/// Seat 0 deals seat 2 a share increased by 1, and proves the dealing.
fn with_bad_share(kg: &Keygen) -> Vec<Dealing> {
    let mut r = rng(40);
    let mut msg = deal_shares(&kg.table, 0, &kg.keys, &kg.secrets[0]).unwrap();
    let e = crate::group::decode_scalar(&msg.shares[2]).unwrap();
    msg.shares[2] = encode_scalar(&(e + Scalar::ONE));
    prove_dealing(&kg.table, &mut msg, &kg.secrets[0], &mut r);
    let mut dealings = kg.dealings.clone();
    dealings[0] = check_dealing(&kg.table, &msg).expect("the proof holds");
    dealings
}

#[test]
fn a_bad_share_draws_a_complaint_that_blames_the_dealer() {
    let kg = keygen(4, 1, 6);
    let dealings = with_bad_share(&kg);
    for j in [0, 1, 3] {
        assert!(matches!(
            receive(&kg.table, &dealings, j, &kg.sks[j as usize]),
            Received::Ready(_)
        ));
    }
    let Received::Complain(bad) = receive(&kg.table, &dealings, 2, &kg.sks[2]) else {
        panic!("seat 2 must complain");
    };
    assert_eq!(bad, [0]);
    let msg = complaint(&kg.table, 2, &dealings[0], &kg.sks[2], &mut rng(41)).unwrap();
    let fault = judge(&kg.table, &kg.keys, &dealings, &msg);
    assert_eq!(
        (fault.kind(), fault),
        ("dealing-share", Error::DealingShare(0))
    );
}

#[test]
fn a_false_complaint_blames_the_complainer() {
    let kg = keygen(4, 1, 7);
    // The true K_{1,3} with a valid proof, against a right share.
    let msg = complaint(&kg.table, 3, &kg.dealings[1], &kg.sks[3], &mut rng(42)).unwrap();
    let fault = judge(&kg.table, &kg.keys, &kg.dealings, &msg);
    assert_eq!((fault.kind(), fault), ("complaint", Error::Complaint(3)));
    // A wrong K (so the pad, hence the share, is wrong) fails its proof.
    let dealings = with_bad_share(&kg);
    let mut lie = complaint(&kg.table, 2, &dealings[0], &kg.sks[2], &mut rng(43)).unwrap();
    lie.key = encode_point(&hash_to_group("test", b"K"));
    assert_eq!(
        judge(&kg.table, &kg.keys, &dealings, &lie),
        Error::Complaint(2)
    );
    // A true K with a broken proof is false too, though the share is bad.
    let mut broken = complaint(&kg.table, 2, &dealings[0], &kg.sks[2], &mut rng(44)).unwrap();
    broken.proof.c = broken.proof.s;
    assert_eq!(
        judge(&kg.table, &kg.keys, &dealings, &broken),
        Error::Complaint(2)
    );
    // Another seat cannot complain with seat 2's key in its own name.
    let mut borrowed = complaint(&kg.table, 2, &dealings[0], &kg.sks[2], &mut rng(45)).unwrap();
    borrowed.seat = 1;
    assert_eq!(
        judge(&kg.table, &kg.keys, &dealings, &borrowed),
        Error::Complaint(1)
    );
}

#[test]
fn a_ready_with_a_wrong_verifying_share_or_proof_is_ready() {
    let kg = keygen(4, 1, 8);
    let mut r = rng(46);
    // Seat 1 claims seat 0's share.
    let wrong = ready(&kg.table, 1, &kg.result.key, &kg.shares[0], &mut r).unwrap();
    let err = check_ready(&kg.table, &kg.result, &wrong).unwrap_err();
    assert_eq!((err.kind(), err), ("ready", Error::Ready(1)));
    let mut forged = ready(&kg.table, 2, &kg.result.key, &kg.shares[2], &mut r).unwrap();
    forged.proof.s = forged.proof.c;
    assert_eq!(
        check_ready(&kg.table, &kg.result, &forged),
        Err(Error::Ready(2))
    );
}

#[test]
fn dealings_must_be_one_per_seat_in_order() {
    let kg = keygen(3, 1, 10);
    let mut swapped = kg.dealings.clone();
    swapped.swap(0, 1);
    assert_eq!(public_result(&kg.table, &swapped), Err(Error::Seat(0)));
    assert_eq!(
        public_result(&kg.table, &kg.dealings[..2]),
        Err(Error::Seat(2))
    );
    let mut extra = kg.dealings.clone();
    extra.push(kg.dealings[0].clone());
    assert_eq!(public_result(&kg.table, &extra), Err(Error::Seat(3)));
}

#[test]
fn secrets_never_print() {
    let kg = keygen(3, 1, 11);
    assert_eq!(format!("{:?}", kg.shares[0]), "KeyShare(<redacted>)");
    assert_eq!(format!("{:?}", kg.secrets[0]), "DealingSecrets(<redacted>)");
}

#[test]
fn digests_cover_every_field_of_the_body() {
    use crate::signature::Context;
    let kg = keygen(3, 1, 12);
    let ctx = Context::new(&kg.table, None);
    let d = digest::dealing_digest(&ctx, &kg.msgs[0]);
    let mut share = kg.msgs[0].clone();
    share.shares[2].0[0] ^= 1;
    let mut commitment = kg.msgs[0].clone();
    commitment.commitments[1].0[0] ^= 1;
    let mut seat = kg.msgs[0].clone();
    seat.seat = 1;
    for other in [share, commitment, seat] {
        assert_ne!(digest::dealing_digest(&ctx, &other), d);
    }
    let mut r = rng(13);
    let ready0 = ready(&kg.table, 0, &kg.result.key, &kg.shares[0], &mut r).unwrap();
    let mut ready1 = ready0.clone();
    ready1.seat = 1;
    assert_ne!(
        digest::ready_digest(&ctx, &ready0),
        digest::ready_digest(&ctx, &ready1)
    );
    let c = complaint(&kg.table, 2, &kg.dealings[0], &kg.sks[2], &mut r).unwrap();
    let mut against = c.clone();
    against.against = 1;
    assert_ne!(
        digest::complaint_digest(&ctx, &c),
        digest::complaint_digest(&ctx, &against)
    );
}
