//! Negative controls: every cheat of issue #33 is refused, each with its kind.

mod fixture;

use curve25519_dalek::ristretto::RistrettoPoint;
use fairdeck_hidden::deal::{self, Reader};
use fairdeck_hidden::elgamal::{Ciphertext, Deck, KeyTable, PublishedDeck};
use fairdeck_hidden::group::{card_point, encode_point, random_scalar};
use fairdeck_hidden::keys::{self, SecretKey};
use fairdeck_hidden::shuffle::{self, ShuffleMessage, apply, draw_permutation, verify_shuffle};
use fairdeck_hidden::shuffle_proof::{self, Statement, Witness};
use fairdeck_hidden::wire::Hex32;
use fairdeck_hidden::{Error, ShuffleCheck, Table};
use fixture::{Hand, hand, manifest, rng};

/// Seat 1 of `h` cheats: its output deck is `cheat(honest output)` and its
/// proof is the honest prover's over the (possibly false) statement.
fn cheat_with(h: &Hand, w: Witness, edit: impl FnOnce(&mut Deck)) -> Result<PublishedDeck, Error> {
    let input = &h.decks[1];
    let mut out = apply(&input.deck, &h.joint, &w);
    edit(&mut out);
    let output = PublishedDeck::from_deck(out);
    let st = Statement {
        table: &h.table,
        hand: 1,
        seat: 1,
        key: &h.joint,
        input,
        output: &output,
    };
    let proof = shuffle_proof::prove(&st, &w, &mut rng(99));
    let msg = ShuffleMessage {
        hand: 1,
        seat: 1,
        deck: output.wire.clone(),
        proof,
        signature: None,
    };
    verify_shuffle(&h.table, (1, 1), &h.joint, input, &msg)
}

fn honest_witness(h: &Hand, seed: u8) -> Witness {
    let mut rng = rng(seed);
    let n = h.table.deck_size();
    Witness {
        permutation: draw_permutation(n, &mut rng),
        rho: (0..n).map(|_| random_scalar(&mut rng)).collect(),
    }
}

#[test]
fn the_honest_control_verifies() {
    let h = hand("cheat", 3, 1);
    assert!(cheat_with(&h, honest_witness(&h, 2), |_| {}).is_ok());
}

#[test]
fn a_shuffle_that_drops_a_card_is_refused() {
    let h = hand("cheat", 3, 1);
    let mut msg = h.shuffles[1].clone();
    msg.deck.pop(); // the card at the bottom goes up the sleeve
    let err = verify_shuffle(&h.table, (1, 1), &h.joint, &h.decks[1], &msg).unwrap_err();
    assert_eq!(
        err,
        Error::DeckSize {
            expected: 52,
            found: 51
        }
    );
}

#[test]
fn a_shuffle_that_duplicates_a_card_is_refused() {
    let h = hand("cheat", 3, 1);
    let mut w = honest_witness(&h, 2);
    w.permutation[1] = w.permutation[0]; // position 1 repeats position 0's card
    let err = cheat_with(&h, w, |_| {}).unwrap_err();
    assert_eq!(err, Error::ShuffleProof(1, ShuffleCheck::Permutation));
}

#[test]
fn a_shuffle_that_substitutes_a_card_is_refused() {
    let h = hand("cheat", 3, 1);
    let kt = KeyTable::new(&h.joint.0);
    let err = cheat_with(&h, honest_witness(&h, 2), |d| {
        d.0[5] = Ciphertext::encrypt(&card_point("AS"), &kt, &random_scalar(&mut rng(3)));
    });
    assert_eq!(
        err.unwrap_err(),
        Error::ShuffleProof(1, ShuffleCheck::Reencryption)
    );
}

#[test]
fn a_shuffle_under_a_wrong_key_is_refused() {
    let h = hand("cheat", 3, 1);
    let w = honest_witness(&h, 2);
    let wrong = h.secrets[1].public_key(); // the seat's own key, not the joint key
    let input = &h.decks[1];
    let output = PublishedDeck::from_deck(apply(&input.deck, &wrong, &w));
    let st = Statement {
        table: &h.table,
        hand: 1,
        seat: 1,
        key: &h.joint,
        input,
        output: &output,
    };
    let proof = shuffle_proof::prove(&st, &w, &mut rng(4));
    let msg = ShuffleMessage {
        hand: 1,
        seat: 1,
        deck: output.wire.clone(),
        proof,
        signature: None,
    };
    let err = verify_shuffle(&h.table, (1, 1), &h.joint, input, &msg).unwrap_err();
    assert_eq!(err, Error::ShuffleProof(1, ShuffleCheck::Reencryption));
}

#[test]
fn a_proof_reused_for_another_input_deck_is_refused() {
    let h = hand("cheat", 3, 1);
    // Seat 1's message, offered as a shuffle of the starting deck instead of seat 0's output.
    let err = verify_shuffle(&h.table, (1, 1), &h.joint, &h.decks[0], &h.shuffles[1]).unwrap_err();
    assert!(matches!(err, Error::ShuffleProof(1, _)), "{err:?}");
}

#[test]
fn a_shuffle_replayed_from_another_table_is_refused() {
    let h = hand("cheat", 3, 1);
    let other = Table::new(manifest("another table", 3)).unwrap();
    let err = verify_shuffle(&other, (1, 0), &h.joint, &h.decks[0], &h.shuffles[0]).unwrap_err();
    assert!(matches!(err, Error::ShuffleProof(0, _)), "{err:?}");
}

#[test]
fn a_shuffle_claimed_for_another_seat_or_hand_is_refused() {
    let h = hand("cheat", 3, 1);
    let (input, msg) = (&h.decks[0], &h.shuffles[0]);
    // As sent: the envelope names seat 0, hand 1.
    assert_eq!(
        verify_shuffle(&h.table, (1, 1), &h.joint, input, msg),
        Err(Error::Seat(0))
    );
    assert_eq!(
        verify_shuffle(&h.table, (2, 0), &h.joint, input, msg),
        Err(Error::Hand(1))
    );
    // Relabelled: the proof binds the seat and the hand.
    let mut moved = msg.clone();
    moved.seat = 1;
    let err = verify_shuffle(&h.table, (1, 1), &h.joint, input, &moved).unwrap_err();
    assert!(matches!(err, Error::ShuffleProof(1, _)), "{err:?}");
    let mut moved = msg.clone();
    moved.hand = 2;
    let err = verify_shuffle(&h.table, (2, 0), &h.joint, input, &moved).unwrap_err();
    assert!(matches!(err, Error::ShuffleProof(0, _)), "{err:?}");
}

#[test]
fn a_key_proof_for_another_seat_or_table_is_refused() {
    let h = hand("cheat", 3, 1);
    let mut moved = h.key_msgs[0].clone();
    moved.seat = 1;
    assert_eq!(keys::verify_key(&h.table, &moved), Err(Error::KeyProof(1)));
    let other = Table::new(manifest("another table", 3)).unwrap();
    assert_eq!(
        keys::verify_key(&other, &h.key_msgs[0]),
        Err(Error::KeyProof(0))
    );
    // A rogue key (PK_2 = X − PK_0 − PK_1) comes with no proof that verifies.
    let mut rogue = h.key_msgs[2].clone();
    let x = card_point("rogue");
    rogue.public_key = encode_point(&(x - h.keys[0].0 - h.keys[1].0));
    assert_eq!(keys::verify_key(&h.table, &rogue), Err(Error::KeyProof(2)));
    // Keys out of seat order.
    let swapped = [
        h.key_msgs[1].clone(),
        h.key_msgs[0].clone(),
        h.key_msgs[2].clone(),
    ];
    assert_eq!(
        keys::joint_key(&h.table, &swapped).unwrap_err(),
        Error::Seat(0)
    );
}

/// A valid share of `position` by `seat`, for tampering.
fn share(h: &Hand, seat: u64, position: u64) -> fairdeck_hidden::dleq::ShareMessage {
    let e = &h.decks.last().unwrap().deck.0[position as usize];
    deal::share_message(
        &h.table,
        1,
        seat,
        position,
        &h.secrets[seat as usize],
        e,
        &mut rng(7),
    )
    .unwrap()
}

fn open_everyone(
    h: &Hand,
    position: u64,
    shares: &[fairdeck_hidden::dleq::ShareMessage],
) -> Result<String, Error> {
    let deck = &h.decks.last().unwrap().deck;
    deal::open(
        &h.table,
        &h.keys,
        deck,
        (1, position),
        shares,
        Reader::Everyone,
    )
    .map(String::from)
}

#[test]
fn a_wrong_decryption_share_is_refused() {
    let h = hand("cheat", 3, 1);
    let good: Vec<_> = (0..3).map(|j| share(&h, j, 9)).collect();
    assert!(open_everyone(&h, 9, &good).is_ok());
    // Seat 2 shares with another seat's secret (its proof is then about that key).
    let e = &h.decks.last().unwrap().deck.0[9];
    let wrong = deal::share_message(&h.table, 1, 2, 9, &h.secrets[0], e, &mut rng(8)).unwrap();
    let err = open_everyone(&h, 9, &[good[0].clone(), good[1].clone(), wrong]);
    assert_eq!(err.unwrap_err(), Error::ShareProof(2));
    // A share point changed after proving.
    let mut bent = good[1].clone();
    bent.share = encode_point(&(card_point("x") + card_point("y")));
    assert_eq!(
        open_everyone(&h, 9, &[good[0].clone(), bent]).unwrap_err(),
        Error::ShareProof(1)
    );
}

#[test]
fn a_share_proof_reused_for_another_ciphertext_is_refused() {
    let h = hand("cheat", 3, 1);
    let mut moved = share(&h, 0, 9);
    moved.position = 10;
    assert_eq!(
        open_everyone(&h, 10, &[moved]).unwrap_err(),
        Error::ShareProof(0)
    );
    // The same position of another deck (seat 0's output instead of the dealt deck).
    let msg = share(&h, 0, 9);
    let other = &h.decks[1].deck.0[9];
    let err = fairdeck_hidden::dleq::verify_share(&h.table, &h.keys[0], other, &msg);
    assert_eq!(err.unwrap_err(), Error::ShareProof(0));
}

#[test]
fn missing_duplicate_and_misplaced_shares_are_refused() {
    let h = hand("cheat", 3, 1);
    let s: Vec<_> = (0..3).map(|j| share(&h, j, 4)).collect();
    assert_eq!(
        open_everyone(&h, 4, &s[..2]).unwrap_err(),
        Error::MissingShare(2)
    );
    let twice = [s[0].clone(), s[1].clone(), s[1].clone(), s[2].clone()];
    assert_eq!(
        open_everyone(&h, 4, &twice).unwrap_err(),
        Error::DuplicateShare(1)
    );
    assert_eq!(open_everyone(&h, 5, &s).unwrap_err(), Error::Position(4));
    assert_eq!(open_everyone(&h, 52, &s).unwrap_err(), Error::Position(52));
}

#[test]
fn a_decryption_that_is_no_card_is_refused() {
    let h = hand("cheat", 2, 1);
    let kt = KeyTable::new(&h.joint.0);
    let stray = Ciphertext::encrypt(&card_point("ZZ"), &kt, &random_scalar(&mut rng(5)));
    let mut deck = h.decks.last().unwrap().deck.clone();
    deck.0[0] = stray;
    let shares: Vec<_> = (0..2u64)
        .map(|j| {
            deal::share_message(
                &h.table,
                1,
                j,
                0,
                &h.secrets[j as usize],
                &stray,
                &mut rng(6),
            )
            .unwrap()
        })
        .collect();
    let err = deal::open(&h.table, &h.keys, &deck, (1, 0), &shares, Reader::Everyone);
    assert_eq!(err.unwrap_err(), Error::UnknownCard);
}

#[test]
fn non_canonical_encodings_are_refused() {
    let h = hand("cheat", 2, 1);
    let mut msg = h.shuffles[1].clone();
    msg.deck[3].a = Hex32([0xff; 32]);
    let err = verify_shuffle(&h.table, (1, 1), &h.joint, &h.decks[1], &msg);
    assert_eq!(err.unwrap_err(), Error::PointEncoding);
    // s + ℓ: the same response, unreduced (a malleable copy).
    let mut msg = h.shuffles[1].clone();
    msg.proof.s1 = add_order(&msg.proof.s1);
    let err = verify_shuffle(&h.table, (1, 1), &h.joint, &h.decks[1], &msg);
    assert_eq!(err.unwrap_err(), Error::ScalarEncoding);
    let mut key = h.key_msgs[0].clone();
    key.proof.s = add_order(&key.proof.s);
    assert_eq!(keys::verify_key(&h.table, &key), Err(Error::ScalarEncoding));
    key.public_key = Hex32([0; 32]);
    assert_eq!(keys::verify_key(&h.table, &key), Err(Error::Identity));
    let _ = SecretKey::generate(&mut rng(1)); // keep the import honest
    let _: RistrettoPoint = card_point("AS");
}

/// `s + ℓ` as 32 little-endian bytes (fits: s < ℓ < 2^253).
fn add_order(s: &Hex32) -> Hex32 {
    let l =
        Hex32::parse("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010").unwrap();
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for ((o, a), b) in out.iter_mut().zip(s.0).zip(l.0) {
        let sum = a as u16 + b as u16 + carry;
        *o = sum as u8;
        carry = sum >> 8;
    }
    Hex32(out)
}

#[test]
fn secrets_do_not_print() {
    let sk = SecretKey::generate(&mut rng(1));
    assert_eq!(format!("{sk:?}"), "SecretKey(<redacted>)");
    let _ = shuffle::draw_permutation(3, &mut rng(1));
}
