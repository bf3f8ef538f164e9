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
