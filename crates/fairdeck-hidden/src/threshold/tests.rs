use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;

use super::*;
use crate::elgamal::KeyTable;
use crate::group::{encode_scalar, random_scalar};
use crate::testing::{Keygen, keygen, rng};
use crate::wire::Hex32;

/// Position `p` of a deck under the joint key: card `p` of the starting
/// deck, encrypted with a drawn factor.
fn encrypted(kg: &Keygen, p: usize, seed: u8) -> Ciphertext {
    let rho = random_scalar(&mut rng(seed));
    kg.table.starting_deck().0[p].reencrypt(&KeyTable::new(&kg.result.key.0), &rho)
}

/// The checked shares of `e` from `seats`.
fn shares(kg: &Keygen, e: &Ciphertext, p: u64, seats: &[u64]) -> Vec<(u64, RistrettoPoint)> {
    let mut r = rng(60);
    seats
        .iter()
        .map(|&j| {
            let msg =
                share_message(&kg.table, (1, j, p), &kg.shares[j as usize], e, &mut r).unwrap();
            let y = &kg.result.verifying_shares[j as usize];
            (j, verify_share(&kg.table, y, e, &msg).unwrap())
        })
        .collect()
}

#[test]
fn the_weights_of_section_30_are_reproduced_exactly() {
    let hex = |w: &[Scalar]| {
        w.iter()
            .map(|s| encode_scalar(s).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        hex(&lagrange_weights(&[0, 1, 3]).unwrap()),
        [
            "a746a7c9082106c89c8952364a534a5c55555555555555555555555555555505",
            "ebd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010",
            "498d4e9311420c903913a56c94a694b8aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa0a",
        ]
    );
    assert_eq!(
        hex(&lagrange_weights(&[0, 1, 2, 3]).unwrap()),
        [
            "0400000000000000000000000000000000000000000000000000000000000000",
            "e7d3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010",
            "0400000000000000000000000000000000000000000000000000000000000000",
            "ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010",
        ]
    );
    let w = lagrange_weights(&[0, 1, 3]).unwrap();
    assert_eq!(w.iter().sum::<Scalar>(), Scalar::ONE);
    assert_eq!(lagrange_weights(&[2, 0, 2]), Err(Error::DuplicateShare(2)));
}

#[test]
fn any_three_of_four_read_a_community_card_and_two_cannot() {
    let kg = keygen(4, 1, 20);
    let e = encrypted(&kg, 7, 21);
    let want = kg.table.card_names()[7].as_str();
    for seats in [&[0, 1, 3][..], &[1, 2, 3], &[3, 0, 2], &[0, 1, 2, 3]] {
        let s = shares(&kg, &e, 7, seats);
        assert_eq!(community_card(&kg.table, &e, &s), Ok(want), "{seats:?}");
    }
    let two = shares(&kg, &e, 7, &[0, 3]);
    assert_eq!(
        community_card(&kg.table, &e, &two),
        Err(Error::MissingShare(1))
    );
}

#[test]
fn a_share_is_checked_against_its_seats_verifying_share_and_the_blinded_b() {
    let kg = keygen(4, 1, 22);
    let e = encrypted(&kg, 3, 23);
    let mut r = rng(24);
    let msg = share_message(&kg.table, (1, 2, 3), &kg.shares[2], &e, &mut r).unwrap();
    let ys = &kg.result.verifying_shares;
    assert!(verify_share(&kg.table, &ys[2], &e, &msg).is_ok());
    let err = verify_share(&kg.table, &ys[1], &e, &msg).unwrap_err();
    assert_eq!(err, Error::ShareProof(2));
    let z = Blinding::draw(&mut r);
    let other = blinded(&e, &z.point());
    assert_eq!(
        verify_share(&kg.table, &ys[2], &other, &msg),
        Err(Error::ShareProof(2))
    );
    // A version-3 share proof (its own domain) does not pass for version 3.2.
    let v3 = crate::dleq::share_message(&kg.table, 1, 2, 3, &kg.sks[2], &e, &mut r).unwrap();
    let pk2 = kg.sks[2].public_key();
    assert!(verify_share(&kg.table, &pk2, &e, &v3).is_err());
}

#[test]
fn the_owner_reads_its_blinded_card_with_a_lost_seat() {
    let kg = keygen(4, 1, 25);
    let e = encrypted(&kg, 0, 26);
    let mut r = rng(27);
    let z = Blinding::draw(&mut r);
    let msg = blind(&kg.table, (1, 0, 0), &e, &z, &mut r).unwrap();
    let zp = check_blind(&kg.table, &e, &msg).unwrap();
    let eb = blinded(&e, &zp);
    let others = shares(&kg, &eb, 0, &[1, 3]); // seat 2 lost
    let mine = (0, &kg.shares[0], &z);
    let want = kg.table.card_names()[0].as_str();
    assert_eq!(
        own_card(&kg.table, &eb, mine, &kg.result.key, &others),
        Ok(want)
    );
    // At the showdown anyone reads it from the open message.
    let open_msg = open(&kg.table, (1, 0, 0), &kg.shares[0], &z, &eb, &mut r).unwrap();
    let keys = (&kg.result.verifying_shares[0], &kg.result.key);
    assert_eq!(
        opened_card(&kg.table, (&eb, &zp), keys, &open_msg, &others),
        Ok(want)
    );
    let mut lie = open_msg.clone();
    lie.blinding = encode_scalar(&Scalar::from(7u64));
    let err = opened_card(&kg.table, (&eb, &zp), keys, &lie, &others).unwrap_err();
    assert_eq!((err.kind(), err), ("blind-proof", Error::BlindProof(0)));
}

#[test]
fn a_blind_answers_for_its_own_position_only() {
    let kg = keygen(4, 1, 28);
    let (e0, e4) = (encrypted(&kg, 0, 29), encrypted(&kg, 4, 30));
    let mut r = rng(31);
    let z = Blinding::draw(&mut r);
    let msg = blind(&kg.table, (1, 0, 0), &e0, &z, &mut r).unwrap();
    assert!(check_blind(&kg.table, &e0, &msg).is_ok());
    let mut moved = msg.clone();
    moved.position = 4;
    let err = check_blind(&kg.table, &e4, &moved).unwrap_err();
    assert_eq!((err.kind(), err), ("blind-proof", Error::BlindProof(0)));
    assert_eq!(check_blind(&kg.table, &e4, &msg), Err(Error::BlindProof(0)));
    let mut zero = msg.clone();
    zero.blind = Hex32([0; 32]);
    assert_eq!(check_blind(&kg.table, &e0, &zero), Err(Error::Identity));
    let json = serde_json::to_string(&msg).unwrap();
    assert!(
        json.starts_with(r#"{"hand":1,"seat":0,"position":0,"blind":""#),
        "{json}"
    );
}

/// §24 with the colluding seats of §11: `t − 1 = 2` seats (1 and 2) pool
/// their key shares, their seat keys and every published deal share of
/// seat 0's blinded hole card; whatever they combine is no card of the
/// 52, while the owner reads it.
#[test]
fn two_colluders_cannot_read_a_third_seats_hole_card() {
    let kg = keygen(4, 1, 32);
    let table = &kg.table;
    let e = encrypted(&kg, 9, 33);
    let mut r = rng(34);
    let z = Blinding::draw(&mut r);
    let zp = check_blind(table, &e, &blind(table, (1, 0, 9), &e, &z, &mut r).unwrap()).unwrap();
    let eb = blinded(&e, &zp);
    let published = shares(&kg, &eb, 9, &[1, 2, 3]);
    // Their best: all three published shares (t of them) give sk·b'_p.
    let all = community_card(table, &eb, &published);
    assert_eq!(all, Err(Error::UnknownCard));
    let x = eb.a - interpolate(table, &published).unwrap();
    assert_eq!(x, table.starting_deck().0[9].a - z.0 * kg.result.key.0); // P_c − z·PK
    // Their own shares of the unblinded b with seat 3's share of b'_p.
    let (s1, s2) = (&kg.shares[1].0, &kg.shares[2].0);
    let mixed = [(1, s1 * e.b), (2, s2 * e.b), published[2]];
    assert_eq!(community_card(table, &e, &mixed), Err(Error::UnknownCard));
    // Removing Z_p with their key shares alone (two of three needed).
    let w = lagrange_weights(&[1, 2]).unwrap();
    let guess = e.a - (w[0] * s1 + w[1] * s2) * e.b;
    assert_eq!(table.card_of(&guess), None);
    for card in table.card_names() {
        let point = crate::group::card_point(card);
        assert!(x != point && guess != point, "{card}");
    }
    let mine = (0, &kg.shares[0], &z);
    let others = &published[..2];
    let want = table.card_names()[9].as_str();
    assert_eq!(own_card(table, &eb, mine, &kg.result.key, others), Ok(want));
}

#[test]
fn secrets_never_print() {
    assert_eq!(
        format!("{:?}", Blinding::draw(&mut rng(35))),
        "Blinding(<redacted>)"
    );
}

#[test]
fn blind_and_open_digests_cover_their_bodies() {
    use crate::signature::Context;
    let kg = keygen(3, 1, 36);
    let ctx = Context::new(&kg.table, None);
    let e = encrypted(&kg, 1, 37);
    let mut r = rng(38);
    let z = Blinding::draw(&mut r);
    let b = blind(&kg.table, (1, 1, 1), &e, &z, &mut r).unwrap();
    let mut moved = b.clone();
    moved.position = 2;
    assert_ne!(blind_digest(&ctx, &b), blind_digest(&ctx, &moved));
    let eb = blinded(&e, &z.point());
    let o = open(&kg.table, (1, 1, 1), &kg.shares[1], &z, &eb, &mut r).unwrap();
    assert_eq!(o.blinding, Hex32(*z.to_bytes()));
    let mut other_z = o.clone();
    other_z.blinding.0[0] ^= 1;
    assert_ne!(open_digest(&ctx, &o), open_digest(&ctx, &other_z));
}
