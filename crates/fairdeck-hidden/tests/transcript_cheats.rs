//! Every cheat of issue #33, and of layer 1's negative controls, caught by
//! the whole-transcript verifier with its kind (docs/hidden-dealing.md §15).
//! Every verdict is also checked to be the same from an incremental
//! verifier that saw the honest hand first, message by message, and then
//! the cheat's (`fixture::verify_both`).

mod fixture;

use fairdeck_hidden::Table;
use fairdeck_hidden::elgamal::{Ciphertext, KeyTable, PublishedDeck};
use fairdeck_hidden::group::{card_point, encode_point, random_scalar};
use fairdeck_hidden::keys::{PublicKey, joint_key};
use fairdeck_hidden::record::Record;
use fairdeck_hidden::shuffle::{ShuffleMessage, apply, draw_permutation};
use fairdeck_hidden::shuffle_proof::{self, Statement, Witness};
use fairdeck_hidden::verdict::Verdict;
use fairdeck_hidden::verify::Options;
use fixture::{Played, play, rng, verify_both};

/// The verdict, the same from scratch and incrementally after the honest hand.
fn checked(record: &Record) -> Verdict {
    verify_both(record, &Options::default(), &[&played().record])
}

fn kinds(record: &Record) -> Vec<&'static str> {
    checked(record).kinds()
}

fn played() -> Played {
    play("cheats", 3, 21, 1, &[0])
}

/// Seat 1's shuffle replaced by a cheat: the honest prover run over the
/// deck `edit` makes of the (possibly wrong) witness's output, under `key`.
fn cheat(
    record: &mut Record,
    w: Witness,
    key: Option<PublicKey>,
    edit: impl FnOnce(&mut Vec<Ciphertext>),
) {
    let table = Table::new(record.manifest.clone()).unwrap();
    let (_, joint) = joint_key(&table, &record.keys).unwrap();
    let input = PublishedDeck::from_wire(record.hands[0].shuffles[0].deck.clone()).unwrap();
    let mut out = apply(&input.deck, &key.unwrap_or(joint), &w);
    edit(&mut out.0);
    let output = PublishedDeck::from_deck(out);
    let st = Statement {
        table: &table,
        hand: 1,
        seat: 1,
        key: &joint,
        input: &input,
        output: &output,
    };
    let proof = shuffle_proof::prove(&st, &w, &mut rng(77));
    record.hands[0].shuffles[1] = ShuffleMessage {
        hand: 1,
        seat: 1,
        deck: output.wire.clone(),
        proof,
        signature: None,
    };
}

fn witness() -> Witness {
    let mut rng = rng(78);
    Witness {
        permutation: draw_permutation(52, &mut rng),
        rho: (0..52).map(|_| random_scalar(&mut rng)).collect(),
    }
}

#[test]
fn the_honest_control_and_an_honest_cheat_harness_verify() {
    let mut p = played();
    assert!(checked(&p.record).is_valid());
    // The harness with an honest witness: seat 1's shuffle verifies; seat 2's,
    // made over the old deck, is now the one refused.
    cheat(&mut p.record, witness(), None, |_| {});
    let v = checked(&p.record);
    assert_eq!(v.kinds(), ["shuffle-proof"]);
    assert!(
        v.differences[0].message.contains("seat 2"),
        "{}",
        v.differences[0].message
    );
}

#[test]
fn a_seat_that_drops_a_card_is_caught() {
    let mut p = played();
    p.record.hands[0].shuffles[1].deck.pop();
    assert_eq!(kinds(&p.record), ["deck-size"]);
}

#[test]
fn a_seat_that_duplicates_a_card_is_caught() {
    let mut p = played();
    let mut w = witness();
    w.permutation[1] = w.permutation[0];
    cheat(&mut p.record, w, None, |_| {});
    let v = checked(&p.record);
    assert_eq!(v.kinds(), ["shuffle-proof"]);
    assert!(
        v.differences[0]
            .message
            .contains("seat 1's shuffle proof fails (permutation)")
    );
}

#[test]
fn a_seat_that_substitutes_a_card_is_caught() {
    let mut p = played();
    let table = Table::new(p.record.manifest.clone()).unwrap();
    let (_, joint) = joint_key(&table, &p.record.keys).unwrap();
    let ace = Ciphertext::encrypt(
        &card_point("AS"),
        &KeyTable::new(&joint.0),
        &random_scalar(&mut rng(5)),
    );
    cheat(&mut p.record, witness(), None, |d| d[7] = ace);
    let v = checked(&p.record);
    assert!(
        v.differences[0]
            .message
            .contains("seat 1's shuffle proof fails (reencryption)")
    );
}

#[test]
fn a_seat_that_reencrypts_under_a_wrong_key_is_caught() {
    let mut p = played();
    let own = p.secrets[1].public_key();
    cheat(&mut p.record, witness(), Some(own), |_| {});
    let v = checked(&p.record);
    assert!(
        v.differences[0]
            .message
            .contains("seat 1's shuffle proof fails (reencryption)")
    );
}

#[test]
fn a_seat_that_reuses_a_proof_is_caught() {
    let mut p = played();
    let h = &mut p.record.hands[0];
    h.shuffles[2].proof = h.shuffles[1].proof.clone();
    let v = checked(&p.record);
    assert_eq!(v.kinds(), ["shuffle-proof"]);
    assert!(v.differences[0].message.contains("seat 2"));
}

#[test]
fn a_wrong_decryption_share_is_caught() {
    let mut p = played();
    let m = &mut p.record.hands[0].deal[3];
    m.share = encode_point(&card_point("bent"));
    assert_eq!(kinds(&p.record), ["share-proof"]);
    // A community share moved to another position of the street.
    let mut p = played();
    let flop = &mut p.record.hands[0].streets[0].shares;
    let (a, b) = (
        flop[0].position,
        flop.iter()
            .find(|m| m.position != flop[0].position)
            .unwrap()
            .position,
    );
    let i = flop
        .iter()
        .position(|m| m.position == b && m.seat == flop[0].seat)
        .unwrap();
    flop[i].position = a;
    flop[0].position = b;
    assert_eq!(kinds(&p.record), ["share-proof"]);
}

#[test]
fn messages_replayed_from_another_table_are_caught() {
    let other = play("another table", 3, 22, 1, &[0]);
    let mut p = played();
    p.record.keys[1] = other.record.keys[1].clone();
    assert_eq!(kinds(&p.record), ["key-proof"]);
    let mut p = played();
    p.record.hands[0].shuffles[0] = other.record.hands[0].shuffles[0].clone();
    assert_eq!(kinds(&p.record), ["shuffle-proof"]);
    let mut p = played();
    let theirs = other.record.hands[0].deal[0].clone();
    let i = p.record.hands[0]
        .deal
        .iter()
        .position(|m| m.seat == theirs.seat && m.position == theirs.position)
        .unwrap();
    p.record.hands[0].deal[i] = theirs;
    assert_eq!(kinds(&p.record), ["share-proof"]);
}

#[test]
fn messages_replayed_from_another_hand_or_seat_are_caught() {
    let mut p = played();
    p.record.hands[0].shuffles[1] = p.record.hands[0].shuffles[0].clone();
    assert_eq!(kinds(&p.record), ["replay"]);
    let mut p = played();
    p.record.hands[0].deal[0].hand = 2;
    assert_eq!(kinds(&p.record)[0], "replay");
    let mut p = played();
    p.record.keys[2] = p.record.keys[1].clone();
    assert_eq!(kinds(&p.record), ["replay"]);
    // Relabelled to fit its new place, the proof no longer holds.
    let mut p = played();
    let mut moved = p.record.hands[0].shuffles[0].clone();
    moved.seat = 1;
    p.record.hands[0].shuffles[1] = moved;
    assert_eq!(kinds(&p.record), ["shuffle-proof"]);
}

#[test]
fn a_bad_key_proof_stops_the_table() {
    let mut p = played();
    p.record.keys[0].proof.c = p.record.keys[0].proof.s;
    let v = checked(&p.record);
    assert_eq!(v.kinds(), ["key-proof"]);
    assert!(v.hands.is_empty(), "no hand is checked under a refused key");
}

#[test]
fn shares_out_of_place_are_caught() {
    // The owner publishing its own hole card in the deal would show it to everybody.
    let mut p = played();
    let own = p.record.hands[0].showdown[0].clone();
    p.record.hands[0].deal.push(own);
    assert_eq!(kinds(&p.record), ["unexpected-message"]);
    // A share of a burned card.
    let mut p = played();
    p.record.hands[0].streets[0].shares[0].position = 6; // 2P: the first burn
    assert!(kinds(&p.record).contains(&"unexpected-message"));
    // The same share twice.
    let mut p = played();
    let again = p.record.hands[0].deal[0].clone();
    p.record.hands[0].deal.push(again);
    assert_eq!(kinds(&p.record), ["duplicate-share"]);
    // A street of another name.
    let mut p = played();
    p.record.hands[0].streets[0].street = "turn".into();
    assert_eq!(kinds(&p.record), ["unexpected-message"]);
}

#[test]
fn hands_outside_the_range_or_out_of_order_are_caught() {
    let mut p = played();
    p.record.hands[0].hand = 9;
    assert_eq!(kinds(&p.record), ["hand"]);
    let mut p = played();
    let again = p.record.hands[0].clone();
    p.record.hands.push(again);
    assert_eq!(kinds(&p.record), ["hand-order"]);
}

#[test]
fn a_manifest_of_another_version_is_refused() {
    let mut p = played();
    p.record.version = 2;
    assert_eq!(kinds(&p.record), ["manifest"]);
    let mut p = played();
    p.record.manifest.version = 2;
    assert_eq!(kinds(&p.record), ["manifest"]);
}
