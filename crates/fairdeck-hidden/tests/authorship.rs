//! Version 3.1 (`docs/hidden-dealing.md` §17–§19) played against a
//! dishonest room, from §11's "cannot"s: the room replaces a seat's
//! shuffle with its own (and so would choose the deal), rewrites an
//! earlier shuffle, swaps in a key it knows, drops shares it receipted and
//! voids the hand against the seat that sent them, shows two histories.
//! Each attack is caught by the honest parties and the room is named; the
//! honest run beside each is valid and names nobody.

mod fixture;

use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::ledger::{Evidence, Receipt, receipt, sign_log};
use fairdeck_hidden::record::{Missing, Record, Void};
use fairdeck_hidden::seat::{Follower, Refused, publish_key};
use fairdeck_hidden::shuffle::shuffle;
use fairdeck_hidden::signature::Context;
use fairdeck_hidden::verdict::Verdict;
use fairdeck_hidden::verify::{Options, State, verify};
use fairdeck_hidden::wire::Hex32;
use fairdeck_hidden::{Table, group::encode_point};
use fixture::{manifest, rng};

/// A room and its table, three seats, with what each seat was handed.
struct Room {
    table: Table,
    key: SecretKey,
    record: Record,
    seats: Vec<SecretKey>,
    /// Each seat's receipts, by seat.
    receipts: Vec<Vec<Receipt>>,
    rng: chacha20::ChaCha20Rng,
}

impl Room {
    fn open(seed: u8) -> Room {
        let mut rng = rng(seed);
        let table = Table::new(manifest("auth", 3)).unwrap();
        let key = SecretKey::generate(&mut rng);
        let pk = encode_point(&key.public_key().0);
        let record = Record::signed(table.manifest().clone(), Some(pk));
        let seats = (0..3).map(|_| SecretKey::generate(&mut rng)).collect();
        Room {
            table,
            key,
            record,
            seats,
            receipts: vec![Vec::new(); 3],
            rng,
        }
    }

    fn ctx(&self) -> Context {
        Context::new(&self.table, self.record.room.as_ref())
    }

    /// The room signs the head of its log into the record it serves.
    fn serve(&mut self) -> Record {
        let ctx = self.ctx();
        self.record.head = Some(sign_log(&ctx, &self.key, &self.record.log, &mut self.rng));
        self.record.clone()
    }

    /// Accepts `record` (a seat's step on what it was served): every new
    /// log entry is receipted to `seat`.
    fn accept(&mut self, seat: usize, record: Record) {
        let ctx = self.ctx();
        for end in self.record.log.len() + 1..=record.log.len() {
            let r = receipt(&ctx, &self.key, &record.log[..end], &mut self.rng);
            self.receipts[seat].push(r);
        }
        self.record = record;
    }

    fn keys(&mut self) {
        for j in 0..3 {
            let mut record = self.serve();
            let key = self.seats[j].clone();
            publish_key(&self.table, &mut record, j as u64, &key, &mut self.rng).unwrap();
            self.accept(j, record);
        }
    }

    fn shuffle(&mut self, follower: &mut Follower, j: usize) -> Result<(), Refused> {
        let served = self.serve();
        let key = self.seats[j].clone();
        let mut turn = follower.check(served, (j as u64, &key))?;
        turn.shuffle(Some(1), &mut self.rng).unwrap();
        let record = turn.record;
        self.accept(j, record);
        Ok(())
    }

    fn deal(&mut self, follower: &mut Follower, j: usize) -> Result<(), Refused> {
        let served = self.serve();
        let key = self.seats[j].clone();
        let mut turn = follower.check(served, (j as u64, &key))?;
        let stage = turn.stage("deal").unwrap();
        turn.share(stage, Some(1), &mut self.rng).unwrap();
        let record = turn.record;
        self.accept(j, record);
        Ok(())
    }

    /// The room's own valid shuffle for seat `j`'s place: a permutation it
    /// knows, with a proof that holds (a shuffle proof needs no secret).
    fn forged_shuffle(&mut self, j: usize) -> fairdeck_hidden::shuffle::ShuffleMessage {
        let State { joint, .. } = verify(&self.record, &Options::default()).state.unwrap();
        let deck = verify(&self.record, &progress()).state.unwrap().hands[0]
            .deck
            .clone();
        let input = match j {
            0 => fairdeck_hidden::elgamal::PublishedDeck::from_deck(self.table.starting_deck()),
            _ => deck,
        };
        shuffle(&self.table, 1, j as u64, &joint, &input, &mut self.rng)
            .unwrap()
            .0
    }
}

fn progress() -> Options<'static> {
    Options {
        in_progress: true,
        ..Options::default()
    }
}

fn verdict(record: &Record, evidence: &[Evidence]) -> Verdict {
    let opts = Options {
        evidence,
        ..Options::default()
    };
    verify(record, &opts).verdict
}

fn faults(v: &Verdict) -> Vec<(String, String)> {
    v.differences
        .iter()
        .map(|d| (d.kind.to_string(), d.at_fault.clone().unwrap_or_default()))
        .collect()
}

/// Keys, three shuffles, the deal: the honest run, each seat a follower.
fn honest(seed: u8) -> (Room, Vec<Follower>) {
    let mut room = Room::open(seed);
    room.keys();
    let mut followers: Vec<Follower> = (0..3).map(|_| Follower::new()).collect();
    for (j, f) in followers.iter_mut().enumerate() {
        room.shuffle(f, j).unwrap();
    }
    for (j, f) in followers.iter_mut().enumerate() {
        room.deal(f, j).unwrap();
    }
    (room, followers)
}

#[test]
fn the_honest_run_is_valid_signed_and_names_nobody() {
    let (mut room, _) = honest(1);
    let record = room.serve();
    let evidence: Vec<Evidence> = room
        .receipts
        .concat()
        .into_iter()
        .map(Evidence::Receipt)
        .collect();
    let v = verdict(&record, &evidence);
    assert!(v.is_valid(), "{:?}", v.differences);
    assert!(v.signed);
    assert!(
        v.summary().contains("signed by its seat"),
        "{}",
        v.summary()
    );
    // 3 keys, 3 shuffles, 3 seats × 2 cards × 2 other seats' shares.
    assert_eq!(record.log.len(), 3 + 3 + 12);
    // Round trip through the wire form: the same verdict.
    let again = Record::from_json(&record.to_json()).unwrap();
    assert!(verdict(&again, &evidence).is_valid());
}

#[test]
fn a_version_3_transcript_says_it_does_not_bind_messages_to_authors() {
    let table = Table::new(manifest("v3", 2)).unwrap();
    let mut g = rng(2);
    let mut record = Record::new(table.manifest().clone());
    for j in 0..2 {
        let k = SecretKey::generate(&mut g);
        publish_key(&table, &mut record, j, &k, &mut g).unwrap();
    }
    let v = verify(&record, &progress()).verdict;
    assert!(v.is_valid());
    assert!(!v.signed);
    assert!(
        v.summary().contains("messages are not signed"),
        "{}",
        v.summary()
    );
    assert!(
        v.checked
            .iter()
            .any(|c| c.contains("not who sent each message"))
    );
    // A signature in a version-3 document is refused as unreadable.
    let mut signed = record.clone();
    signed.keys[0].signature = Some(signed.keys[0].proof);
    assert_eq!(verify(&signed, &progress()).verdict.kinds(), ["document"]);
}

#[test]
fn the_room_cannot_swap_in_its_own_shuffle_and_choose_the_deal() {
    let mut room = Room::open(3);
    room.keys();
    let mut followers: Vec<Follower> = (0..3).map(|_| Follower::new()).collect();
    room.shuffle(&mut followers[0], 0).unwrap();
    // The room replaces seat 1's shuffle, in flight, by its own valid one
    // and logs it (as a proxy or a database edit would).
    room.shuffle(&mut followers[1], 1).unwrap();
    let forged = room.forged_shuffle(1);
    let ctx = room.ctx();
    let at = room.record.log.len() - 1;
    room.record.log[at] = fairdeck_hidden::ledger::shuffle_digest(&ctx, &forged);
    room.record.hands[0].shuffles[1] = fairdeck_hidden::shuffle::ShuffleMessage {
        signature: room.record.hands[0].shuffles[1].signature,
        ..forged
    };
    // Seat 2 refuses to build on it, naming the signature of seat 1's place.
    let served = room.serve();
    let key2 = room.seats[2].clone();
    let Err(Refused::Invalid { error, .. }) = followers[2].check(served.clone(), (2, &key2)) else {
        panic!("seat 2 shuffled on a forged shuffle");
    };
    assert_eq!(error.kind(), "signature");
    // Seat 1 kept the room's receipt for its shuffle: the log no longer
    // holds it at its index, and seat 1 stops.
    for r in room.receipts[1].clone() {
        followers[1].receipt(r);
    }
    let key1 = room.seats[1].clone();
    assert!(matches!(
        followers[1].check(served.clone(), (1, &key1)),
        Err(Refused::Room(_))
    ));
    // The verifier names the room, not seat 1 or seat 2.
    let v = verdict(&served, &[]);
    assert_eq!(faults(&v)[0], ("signature".into(), "the room".into()));
    assert!(!v.differences.iter().any(|d| d.kind == "shuffle-proof"));
    let evidence: Vec<Evidence> = room.receipts[1]
        .iter()
        .copied()
        .map(Evidence::Receipt)
        .collect();
    let v = verdict(&served, &evidence);
    assert!(
        faults(&v).contains(&("room".into(), "the room".into())),
        "{:?}",
        faults(&v)
    );
}

#[test]
fn a_rewritten_earlier_shuffle_is_blamed_on_its_place_not_the_next_seat() {
    let (mut room, mut followers) = honest(4);
    let forged = room.forged_shuffle(0);
    let signature = room.record.hands[0].shuffles[0].signature;
    room.record.hands[0].shuffles[0] = fairdeck_hidden::shuffle::ShuffleMessage {
        signature,
        ..forged
    };
    let served = room.serve();
    let v = verdict(&served, &[]);
    let first = &v.differences[0];
    assert_eq!(first.kind, "signature");
    assert!(
        first.message.contains("seat 0's place"),
        "{}",
        first.message
    );
    assert!(
        !v.differences
            .iter()
            .any(|d| d.message.contains("seat 1's shuffle proof"))
    );
    // Every seat that verified the hand before stops with an alarm.
    for (j, f) in followers.iter_mut().enumerate() {
        let key = room.seats[j].clone();
        let got = f.check(served.clone(), (j as u64, &key));
        assert!(got.is_err(), "seat {j} went on");
    }
}

#[test]
fn a_key_the_room_swapped_in_is_proved_by_the_seats_receipt() {
    let mut room = Room::open(5);
    room.keys();
    // The room replaces seat 2's key with one it knows, properly signed
    // under that key, and rewrites its log to match.
    let mut g = rng(55);
    let mine = SecretKey::generate(&mut g);
    let mut fake = room.record.clone();
    fake.keys.truncate(2);
    fake.log.truncate(2);
    publish_key(&room.table, &mut fake, 2, &mine, &mut g).unwrap();
    room.record = fake;
    let served = room.serve();
    // Without the seat's evidence the transcript looks valid...
    assert!(verdict(&served, &[]).is_valid());
    // ... seat 2's receipt for its real key shows the room replaced it.
    let evidence: Vec<Evidence> = room.receipts[2]
        .iter()
        .copied()
        .map(Evidence::Receipt)
        .collect();
    let v = verdict(&served, &evidence);
    assert_eq!(faults(&v), [("room".to_string(), "the room".to_string())]);
    // And seat 2 itself refuses the served transcript: not its key.
    let key2 = room.seats[2].clone();
    assert!(Follower::new().check(served, (2, &key2)).is_err());
}

#[test]
fn shares_receipted_then_dropped_make_the_void_false_and_name_the_room() {
    let mut room = Room::open(6);
    room.keys();
    let mut followers: Vec<Follower> = (0..3).map(|_| Follower::new()).collect();
    for (j, f) in followers.iter_mut().enumerate() {
        room.shuffle(f, j).unwrap();
    }
    room.deal(&mut followers[0], 0).unwrap();
    let kept = room.record.clone();
    room.deal(&mut followers[1], 1).unwrap(); // answered with receipts...
    let receipts1 = room.receipts[1].clone();
    room.record = kept; // ... and not stored
    // The room voids the hand against seat 1 and signs that log.
    let owed: Vec<Missing> = room
        .table
        .layout()
        .owed(fairdeck_hidden::layout::Stage::Deal, 1)
        .into_iter()
        .map(|position| Missing::Share { position })
        .collect();
    let void = Void {
        stage: "deal".into(),
        seat: 1,
        missing: owed,
    };
    let ctx = room.ctx();
    room.record
        .log
        .push(fairdeck_hidden::ledger::void_digest(&ctx, Some(1), &void));
    room.record.hands[0].void = Some(void);
    let served = room.serve();
    // Alone, the void is the room's claim and the hand is void.
    assert!(verdict(&served, &[]).is_valid());
    // Seat 1's receipts refute it: the room is named, the void is not proof.
    let evidence: Vec<Evidence> = receipts1.into_iter().map(Evidence::Receipt).collect();
    let v = verdict(&served, &evidence);
    assert!(!v.is_valid());
    assert!(
        v.differences
            .iter()
            .all(|d| d.at_fault.as_deref() == Some("the room"))
    );
    assert!(
        v.differences
            .iter()
            .any(|d| d.message.contains("not proof against that seat"))
    );
    // Seat 1, holding its receipts and shown the log without its shares, stops.
    for r in room.receipts[1].clone() {
        followers[1].receipt(r);
    }
    let key1 = room.seats[1].clone();
    assert!(matches!(
        followers[1].check(served, (1, &key1)),
        Err(Refused::Room(_))
    ));
}

#[test]
fn two_histories_cannot_both_agree_with_the_published_log() {
    let (mut room, _) = honest(7);
    let head_a = Evidence::Head(room.serve().head.unwrap());
    // The room shows another history: the last share moved before the one
    // ahead of it (reordered), and signs it.
    let n = room.record.log.len();
    room.record.log.swap(n - 1, n - 2);
    let served_b = room.serve();
    let head_b = Evidence::Head(served_b.head.unwrap());
    assert!(verdict(&served_b, &[head_b]).is_valid());
    let v = verdict(&served_b, &[head_a, head_b]);
    assert_eq!(faults(&v), [("room".to_string(), "the room".to_string())]);
}

#[test]
fn a_head_or_evidence_not_signed_by_the_room_proves_nothing() {
    let (mut room, _) = honest(8);
    let mut record = room.serve();
    let ctx = room.ctx();
    let mut g = rng(88);
    let stranger = SecretKey::generate(&mut g);
    let forged = sign_log(&ctx, &stranger, &record.log, &mut g);
    let v = verdict(&record, &[Evidence::Head(forged)]);
    assert_eq!(v.kinds(), ["room-signature"]);
    record.head = Some(forged);
    assert_eq!(verdict(&record, &[]).kinds(), ["room-signature"]);
    // A message slipped into the transcript behind the log's back.
    let mut slipped = room.serve();
    slipped.log.pop();
    slipped.head = Some(sign_log(&ctx, &room.key, &slipped.log, &mut g));
    assert_eq!(verdict(&slipped, &[]).kinds(), ["log"]);
    let _ = Hex32([0; 32]);
}

#[test]
fn attestations_name_the_seats_that_signed_the_whole_log() {
    let (mut room, mut followers) = honest(9);
    let served = room.serve();
    for j in [0usize, 2] {
        let key = room.seats[j].clone();
        let turn = followers[j]
            .check(served.clone(), (j as u64, &key))
            .unwrap();
        let a = turn.attest(&mut room.rng).unwrap();
        room.record.attestations.push(a);
    }
    let record = room.serve();
    let v = verdict(&record, &[]);
    assert!(v.is_valid(), "{:?}", v.differences);
    assert_eq!(v.attested_by, [0, 2]);
    // An attestation moved to another seat fails.
    let mut moved = record.clone();
    moved.attestations[0].seat = 1;
    assert_eq!(verdict(&moved, &[]).kinds(), ["attestation"]);
}

#[test]
fn colluding_seats_pooling_everything_cannot_read_the_honest_seats_cards() {
    // §11: seats 0 and 1 collude against seat 2 — they pool their keys and
    // every public message — and try to open seat 2's hole cards with what
    // was published (every share but seat 2's own, which it never sends).
    let (mut room, _) = honest(10);
    let record = room.serve();
    let state = verify(&record, &Options::default()).state.unwrap();
    let deck = &state.hands[0].deck.deck.0;
    let layout = room.table.layout();
    let shares: Vec<_> = record.hands[0].deal.clone();
    let share_of = |p: u64, j: u64| {
        let m = shares
            .iter()
            .find(|m| m.position == p && m.seat == j)
            .unwrap();
        fairdeck_hidden::group::decode_point(&m.share).unwrap()
    };
    for &p in layout.private(2) {
        let e = &deck[p as usize];
        let pooled = e.a - share_of(p, 0) - share_of(p, 1);
        assert_eq!(
            room.table.card_of(&pooled),
            None,
            "position {p} read without seat 2"
        );
    }
    // The control: with seat 2's key the same transcript opens both cards.
    let key2 = room.seats[2].clone();
    let opts = Options {
        reader: Some((2, &key2)),
        ..Options::default()
    };
    let own = &verify(&record, &opts).verdict.hands[0].own;
    assert_eq!(own.len(), 2);
    assert!(own.iter().all(|c| layout.private(2).contains(&c.position)));
}
