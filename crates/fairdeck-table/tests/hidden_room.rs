//! A dishonest room against the live service (`docs/hidden-dealing.md`
//! §11, §17–§19), played as the room would: a proxy that swaps a seat's
//! shuffle for the room's own valid one (which would let it choose the
//! deal), and an edit of the service's own database that rewrites a stored
//! shuffle behind the append-only trigger. Each is caught — the service
//! refuses the swapped message as not signed by the seat, and refuses to
//! serve the edited table after a restart — and the honest control passes.

mod bulletin;

use bulletin::*;
use fairdeck_hidden::shuffle::ShuffleMessage;
use fairdeck_hidden::verify::{Options, verify};
use fairdeck_table::hidden::Post;

fn progress() -> Options<'static> {
    Options {
        in_progress: true,
        ..Options::default()
    }
}

#[test]
fn a_proxy_cannot_swap_a_seats_shuffle_for_the_rooms() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("t.sqlite"));
    let mut c = server.client();
    let inv = open(&mut c, &manifest("proxy", 3, 1), 600);
    let mut seats: Vec<Seat> = (0..3).map(|i| Seat::new(&inv, i, 70 + i)).collect();
    for s in &mut seats {
        assert!(s.step(&mut c, "proxy"));
    }
    assert!(seats[0].step(&mut c, "proxy"));
    // Seat 1 sends its shuffle; the proxy (it relays the seat's request and
    // so holds its token) posts the room's own valid shuffle instead.
    let honest = seats[1].next(&mut c, "proxy").unwrap();
    let mine = rooms_shuffle(&mut c, "proxy", 1);
    for forged in [
        // as computed (no signature) ...
        mine.clone(),
        // ... or wearing seat 1's signature of its real shuffle
        ShuffleMessage {
            signature: match &honest {
                Post::Shuffle(m) => m.signature,
                _ => panic!("a shuffle is owed"),
            },
            ..mine.clone()
        },
    ] {
        let before = status(&mut c, "proxy").entries;
        let post = Post::Shuffle(Box::new(forged));
        let (code, answer) = send(&mut c, "proxy", (1, &seats[1].token), &post);
        assert_eq!(
            (code, answer["kind"].as_str()),
            (422, Some("signature")),
            "{answer}"
        );
        assert_eq!(status(&mut c, "proxy").entries, before, "nothing stored");
    }
    // The control: the seat's own shuffle is taken, with its receipt.
    let (code, answer) = send(&mut c, "proxy", (1, &seats[1].token), &honest);
    assert_eq!(code, 200, "{answer}");
    let receipts = answer["receipts"].as_array().unwrap();
    assert_eq!(receipts.len(), 1);
    let record = transcript(&mut c, "proxy");
    assert_eq!(receipts[0]["index"], record.log.len() as u64 - 1);
    assert!(verify(&record, &progress()).verdict.is_valid());
}

/// Rewrites the stored shuffle of seat `j` as the room would by hand: drop
/// the append-only trigger, update the row (its time and the seat's
/// signature kept), put the trigger back.
fn rewrite_shuffle(db: &std::path::Path, j: usize, forged: &ShuffleMessage) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let (seq, entry): (i64, String) = conn
        .query_row(
            "SELECT seq, entry FROM hidden_log WHERE table_id = 'edited' AND kind = 'shuffle' ORDER BY seq LIMIT 1 OFFSET ?1",
            [j as i64],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&entry).unwrap();
    let signature = value["message"]["signature"].clone();
    value["message"] = serde_json::to_value(forged).unwrap();
    value["message"]["signature"] = signature;
    conn.execute_batch("DROP TRIGGER hidden_log_no_update")
        .unwrap();
    conn.execute(
        "UPDATE hidden_log SET entry = ?1 WHERE table_id = 'edited' AND seq = ?2",
        rusqlite::params![value.to_string(), seq],
    )
    .unwrap();
    conn.execute_batch(
        "CREATE TRIGGER hidden_log_no_update BEFORE UPDATE ON hidden_log
         BEGIN SELECT RAISE(ABORT, 'the hidden table log is append-only'); END;",
    )
    .unwrap();
}

#[test]
fn a_room_that_edits_its_database_is_refused_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let forged = {
        let server = Server::start(&db);
        let mut c = server.client();
        for id in ["edited", "control"] {
            let inv = open(&mut c, &manifest(id, 3, 1), 600);
            let mut seats: Vec<Seat> = (0..3).map(|i| Seat::new(&inv, i, 80 + i)).collect();
            for _ in 0..2 {
                for s in &mut seats {
                    assert!(s.step(&mut c, id));
                }
            }
        }
        rooms_shuffle(&mut c, "edited", 1)
    };
    rewrite_shuffle(&db, 1, &forged);
    let server = Server::start(&db);
    let mut c = server.client();
    let (code, answer) = call(&mut c, "GET", "/api/hidden/edited/transcript", None, None);
    assert_eq!(code, 500, "{answer}");
    let error = answer["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("does not verify") && error.contains("signature"),
        "{error}"
    );
    // The control: the table nobody edited is served and verifies.
    let (code, answer) = call(&mut c, "GET", "/api/hidden/control/transcript", None, None);
    assert_eq!(code, 200, "{answer}");
    assert!(
        verify(&transcript(&mut c, "control"), &progress())
            .verdict
            .is_valid()
    );
}

/// The room's signing key of table `id`, read from its own database.
fn room_key(db: &std::path::Path, id: &str) -> fairdeck_hidden::keys::SecretKey {
    let conn = rusqlite::Connection::open(db).unwrap();
    let entry: String = conn
        .query_row(
            "SELECT entry FROM hidden_log WHERE table_id = ?1 AND kind = 'opened'",
            [id],
            |r| r.get(0),
        )
        .unwrap();
    let value: serde_json::Value = serde_json::from_str(&entry).unwrap();
    let hex = fairdeck_hidden::wire::Hex32::parse(value["room"].as_str().unwrap()).unwrap();
    fairdeck_hidden::keys::SecretKey::from_bytes(&hex.0).unwrap()
}

#[test]
fn a_room_that_drops_receipted_shares_cannot_blame_the_seat_that_sent_them() {
    use fairdeck_hidden::ledger::{Evidence, receipt, share_digest};
    use fairdeck_hidden::signature::Context;
    use rand_core::SeedableRng;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let server = Server::start(&db);
    let mut c = server.client();
    let inv = open(&mut c, &manifest("frame", 3, 1), 2);
    let mut seats: Vec<Seat> = (0..3).map(|i| Seat::new(&inv, i, 60 + i)).collect();
    for _ in 0..2 {
        for s in &mut seats {
            assert!(s.step(&mut c, "frame"));
        }
    }
    assert!(seats[0].step(&mut c, "frame")); // seat 0's deal shares, stored
    // Seat 1 sends its deal shares; the room answers with receipts it signs
    // and never stores them.
    let Some(Post::Shares(shares)) = seats[1].next(&mut c, "frame") else {
        panic!("seat 1 owes its deal shares");
    };
    let before = transcript(&mut c, "frame");
    let table = fairdeck_hidden::Table::new(before.manifest.clone()).unwrap();
    let ctx = Context::new(&table, before.room.as_ref());
    let room = room_key(&db, "frame");
    let mut log = before.log.clone();
    let mut rng = chacha20::ChaCha20Rng::seed_from_u64(5);
    let mut receipts = Vec::new();
    for m in &shares {
        log.push(share_digest(&ctx, "deal", m));
        receipts.push(Evidence::Receipt(receipt(&ctx, &room, &log, &mut rng)));
    }
    // The deadline passes: the service voids the hand, naming seat 1.
    std::thread::sleep(std::time::Duration::from_millis(3100));
    let voided = transcript(&mut c, "frame");
    let void = voided.hands[0].void.clone().expect("the hand is void");
    assert_eq!((void.stage.as_str(), void.seat), ("deal", 1));
    // Alone, the transcript is valid: the void is the room's claim.
    let plain = verify(&voided, &Options::default()).verdict;
    assert!(plain.is_valid(), "{:?}", plain.differences);
    // Seat 1's receipts refute it and name the room.
    let opts = Options {
        evidence: &receipts,
        ..Options::default()
    };
    let v = verify(&voided, &opts).verdict;
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
    // The control: seat 0's real receipts (from the service) agree with the log.
    let head = Evidence::Head(voided.head.unwrap());
    let opts = Options {
        evidence: std::slice::from_ref(&head),
        ..Options::default()
    };
    assert!(verify(&voided, &opts).verdict.is_valid());
}
