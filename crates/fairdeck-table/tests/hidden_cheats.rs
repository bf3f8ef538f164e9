//! Cheating seats at a hidden table, over HTTP: each cheat is refused at
//! once with its failure kind and the seat named, nothing of it is stored,
//! and (the negative control) the same seat's honest message is accepted
//! right after.

mod bulletin;

use bulletin::*;
use fairdeck_client::Client;
use fairdeck_hidden::elgamal::{Ciphertext, KeyTable, PublishedDeck};
use fairdeck_hidden::group::{card_point, random_scalar};
use fairdeck_hidden::keys::PublicKey;
use fairdeck_hidden::layout::{Place, Stage};
use fairdeck_hidden::ledger::{key_digest, share_digest, shuffle_digest};
use fairdeck_hidden::signature::{Context, sign_seat};
use fairdeck_hidden::verify::{Options, State, verify};
use fairdeck_table::hidden::{HiddenInvitation, Post};
use rand_core::SeedableRng;

/// A table of three seats with every key in; seat 0 has shuffled when `shuffled`.
fn table(client: &mut Client, id: &str, shuffled: usize) -> (HiddenInvitation, Vec<Seat>) {
    let inv = open(client, &manifest(id, 3, 2), 600);
    let mut seats: Vec<Seat> = (0..3).map(|i| Seat::new(&inv, i, 40 + i)).collect();
    for s in &mut seats {
        assert!(s.step(client, id));
    }
    for s in seats.iter_mut().take(shuffled) {
        assert!(s.step(client, id));
    }
    (inv, seats)
}

/// The verified state of the table so far.
fn state(client: &mut Client, id: &str) -> State {
    let record = transcript(client, id);
    let opts = Options {
        in_progress: true,
        ..Options::default()
    };
    verify(&record, &opts).state.unwrap()
}

/// `post` signed by `seat` (version 3.1): a cheating seat signs what it
/// sends, so the service's refusal is about the cheat, not the signature.
fn signed_by(client: &mut Client, id: &str, seat: &Seat, post: &Post) -> Post {
    let record = transcript(client, id);
    let table = fairdeck_hidden::Table::new(record.manifest.clone()).unwrap();
    let ctx = Context::new(&table, record.room.as_ref());
    let mut rng = chacha20::ChaCha20Rng::seed_from_u64(seat.seat + 900);
    let mut sign = |d| Some(sign_seat(&ctx, seat.seat, &seat.key, &d, &mut rng));
    match post.clone() {
        Post::Key(mut m) => {
            m.signature = sign(key_digest(&ctx, &m));
            Post::Key(m)
        }
        Post::Shuffle(mut m) => {
            m.signature = sign(shuffle_digest(&ctx, &m));
            Post::Shuffle(m)
        }
        Post::Shares(mut list) => {
            let layout = table.layout();
            for m in &mut list {
                let stage = match layout.place(m.position) {
                    Place::Private(owner) if owner == seat.seat => "showdown".to_string(),
                    Place::Street(k) => layout.stage_name(Stage::Street(k)).to_string(),
                    _ => "deal".to_string(),
                };
                m.signature = sign(share_digest(&ctx, &stage, m));
            }
            Post::Shares(list)
        }
        other => other,
    }
}

/// Posts `post` as `seat`, signed by it; asserts 422 with `kind`, the seat
/// named, and nothing stored.
fn refused(client: &mut Client, id: &str, seat: &Seat, post: &Post, kind: &str) {
    let before = status(client, id).entries;
    let post = &signed_by(client, id, seat, post);
    let (code, answer) = send(client, id, (seat.seat, &seat.token), post);
    assert_eq!(code, 422, "{answer}");
    assert_eq!(answer["kind"], kind, "{answer}");
    assert_eq!(answer["seat"], seat.seat, "{answer}");
    let error = answer["error"].as_str().unwrap();
    assert!(error.contains(&format!("seat {}", seat.seat)), "{error}");
    assert_eq!(
        status(client, id).entries,
        before,
        "nothing of a refused message is stored"
    );
}

/// The seat's honest message, accepted.
fn honest(client: &mut Client, id: &str, seat: &Seat, post: &Post) {
    let (code, answer) = send(client, id, (seat.seat, &seat.token), post);
    assert_eq!(code, 200, "{answer}");
}

fn shuffle_of(post: &Post) -> fairdeck_hidden::shuffle::ShuffleMessage {
    match post {
        Post::Shuffle(m) => (**m).clone(),
        _ => panic!("not a shuffle"),
    }
}

#[test]
fn bad_shuffles_are_refused_with_their_kind_and_seat() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("t.sqlite"));
    let mut c = server.client();
    let (_, mut seats) = table(&mut c, "shuf", 1);
    let good = seats[1].next(&mut c, "shuf").unwrap();
    let m = shuffle_of(&good);
    let st = state(&mut c, "shuf");
    let cheat = |f: &dyn Fn(&mut fairdeck_hidden::shuffle::ShuffleMessage)| {
        let mut bad = m.clone();
        f(&mut bad);
        Post::Shuffle(Box::new(bad))
    };
    // Drops a card.
    let dropped = cheat(&|b| b.deck.truncate(51));
    refused(&mut c, "shuf", &seats[1], &dropped, "deck-size");
    // Duplicates a card.
    let duplicated = cheat(&|b| b.deck[1] = b.deck[0]);
    refused(&mut c, "shuf", &seats[1], &duplicated, "shuffle-proof");
    // Substitutes a card: a fresh encryption of the ace of spades.
    let mut rng = chacha20::ChaCha20Rng::seed_from_u64(7);
    let r = random_scalar(&mut rng);
    let ace = Ciphertext::encrypt(&card_point("AS"), &KeyTable::new(&st.joint.0), &r);
    let substituted = cheat(&|b| b.deck[0] = ace.to_wire());
    refused(&mut c, "shuf", &seats[1], &substituted, "shuffle-proof");
    // Re-encrypts under a wrong key (its own instead of the joint key).
    let input = PublishedDeck::from_wire(st.hands[0].deck.wire.clone()).unwrap();
    let own = PublicKey(seats[1].key.public_key().0);
    let (wrong, _) =
        fairdeck_hidden::shuffle::shuffle(&st.table, 1, 1, &own, &input, &mut seats[1].rng)
            .unwrap();
    let wrong_key = Post::Shuffle(Box::new(wrong));
    refused(&mut c, "shuf", &seats[1], &wrong_key, "shuffle-proof");
    // Reuses a proof: seat 0's, on seat 1's deck.
    let theirs = transcript(&mut c, "shuf").hands[0].shuffles[0]
        .proof
        .clone();
    let reused = cheat(&|b| b.proof = theirs.clone());
    refused(&mut c, "shuf", &seats[1], &reused, "shuffle-proof");
    // A message of another hand is a replay.
    let other_hand = cheat(&|b| b.hand = 2);
    refused(&mut c, "shuf", &seats[1], &other_hand, "replay");
    honest(&mut c, "shuf", &seats[1], &good);
}

#[test]
fn bad_keys_and_another_tables_messages_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("t.sqlite"));
    let mut c = server.client();
    // Table "a" plays its keys and seat 0's shuffle.
    let (_, mut a) = table(&mut c, "a", 1);
    let a_record = transcript(&mut c, "a");
    // Table "b": the same seats, hands and game; only its id differs.
    let inv = open(&mut c, &manifest("b", 3, 2), 600);
    let mut b: Vec<Seat> = (0..3).map(|i| Seat::new(&inv, i, 50 + i)).collect();
    // Seat 0 replays its key message of table a: the proof binds table a.
    let replayed_key = Post::Key(a_record.keys[0].clone());
    refused(&mut c, "b", &b[0], &replayed_key, "key-proof");
    assert!(b[0].step(&mut c, "b"));
    // Seat 1 reuses seat 0's key proof under its own seat number.
    let mut stolen = transcript(&mut c, "b").keys[0].clone();
    stolen.seat = 1;
    refused(&mut c, "b", &b[1], &Post::Key(stolen), "key-proof");
    // A key whose proof is for another key.
    let mut own = match b[1].next(&mut c, "b").unwrap() {
        Post::Key(k) => k,
        _ => panic!("a key is owed"),
    };
    let honest_key = own.clone();
    own.public_key = a_record.keys[1].public_key;
    refused(&mut c, "b", &b[1], &Post::Key(own), "key-proof");
    honest(&mut c, "b", &b[1], &Post::Key(honest_key));
    assert!(b[2].step(&mut c, "b"));
    // Seat 0 replays its shuffle of table a: the proof binds table a (and its keys).
    let replayed = Post::Shuffle(Box::new(a_record.hands[0].shuffles[0].clone()));
    refused(&mut c, "b", &b[0], &replayed, "shuffle-proof");
    assert!(b[0].step(&mut c, "b"));
    // A message of seat 1 sent with seat 2's token is a replay of another seat's.
    let seat1 = a[1].next(&mut c, "a").unwrap();
    let (code, answer) = send(&mut c, "a", (2, &a[2].token), &seat1);
    assert_eq!(
        (code, answer["kind"].as_str()),
        (422, Some("replay")),
        "{answer}"
    );
    assert_eq!(answer["seat"], 2);
    // Another seat's token is refused without detail.
    let (code, _) = send(&mut c, "a", (1, &a[2].token), &seat1);
    assert_eq!(code, 403);
    honest(&mut c, "a", &a[1], &seat1);
    assert!(a[2].step(&mut c, "a"));
}

fn shares_of(post: Post) -> Vec<fairdeck_hidden::dleq::ShareMessage> {
    match post {
        Post::Shares(s) => s,
        _ => panic!("not shares"),
    }
}

#[test]
fn bad_shares_are_refused_and_no_owner_share_is_taken_before_the_showdown() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("t.sqlite"));
    let mut c = server.client();
    let (_, mut seats) = table(&mut c, "deal", 3);
    let st = state(&mut c, "deal");
    let good = shares_of(seats[1].next(&mut c, "deal").unwrap());
    assert_eq!(
        good.len(),
        4,
        "seat 1 shares the other two seats' hole cards"
    );
    // A wrong decryption share: another position's share under this one's proof.
    let mut wrong = good.clone();
    wrong[0].share = good[1].share;
    refused(
        &mut c,
        "deal",
        &seats[1],
        &Post::Shares(wrong),
        "share-proof",
    );
    // The same share twice.
    let mut twice = good.clone();
    twice.push(good[0].clone());
    refused(
        &mut c,
        "deal",
        &seats[1],
        &Post::Shares(twice),
        "duplicate-share",
    );
    // A share of a burned card (position 6 is the first burn at three seats).
    let deck = &st.hands[0].deck.deck.0;
    let (key, mut rng) = (
        seats[1].key.clone(),
        chacha20::ChaCha20Rng::seed_from_u64(9),
    );
    let burn =
        fairdeck_hidden::deal::share_message(&st.table, 1, 1, 6, &key, &deck[6], &mut rng).unwrap();
    refused(
        &mut c,
        "deal",
        &seats[1],
        &Post::Shares(vec![burn]),
        "unexpected-message",
    );
    // Its own hole card's share before the showdown would show the card to all: not taken.
    let mine =
        fairdeck_hidden::deal::share_message(&st.table, 1, 1, 1, &key, &deck[1], &mut rng).unwrap();
    let before = status(&mut c, "deal").entries;
    let (code, answer) = send(
        &mut c,
        "deal",
        (1, &seats[1].token),
        &Post::Shares(vec![mine]),
    );
    assert_eq!(code, 409, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("showdown"));
    assert_eq!(status(&mut c, "deal").entries, before);
    honest(&mut c, "deal", &seats[1], &Post::Shares(good.clone()));
    // A share sent again after it was accepted.
    refused(
        &mut c,
        "deal",
        &seats[1],
        &Post::Shares(good[..1].to_vec()),
        "duplicate-share",
    );
}
