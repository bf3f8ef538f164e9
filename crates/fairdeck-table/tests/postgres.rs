//! The end-to-end suite against a real PostgreSQL server, and two
//! connections dealing the same tables at once. `scripts/test-table`
//! starts a throwaway server and runs these with `--ignored`, giving its
//! address in `FAIRDECK_TABLE_PG`.

mod bulletin;
mod common;

use std::sync::OnceLock;

use common::*;
use fairdeck_table::{Error, PostgresStore, Room, Store};

fn url() -> String {
    std::env::var("FAIRDECK_TABLE_PG")
        .expect("FAIRDECK_TABLE_PG must name a PostgreSQL server (scripts/test-table starts one)")
}

fn store() -> PostgresStore {
    PostgresStore::connect(&url()).unwrap()
}

/// Table ids unique to this run, so a database can be reused.
fn id(name: &str) -> String {
    static RUN: OnceLock<String> = OnceLock::new();
    let run = RUN.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        format!("{}-{nanos}", std::process::id())
    });
    format!("{name}-{run}")
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn holdem_hand_end_to_end() {
    holdem_hand(&mut Room::new(store()), &id("holdem"));
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn bridge_dummy_end_to_end() {
    bridge_boards(&mut Room::new(store()), &id("bridge"));
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn a_seat_that_never_reveals_voids_the_table() {
    silent_seat(&mut Room::new(store()), &id("silent"));
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn a_new_connection_finishes_the_table() {
    let m = holdem(&id("reconnect"), 4);
    let inv = open_seeded(&mut Room::new(store()), &m, 7).unwrap();
    {
        let mut r = Room::new(store());
        r.claim(&m.table, 0, pass(&inv, 0), T0).unwrap();
        r.commit(&m.table, 0, pass(&inv, 0), &commitment(&m, 0), T0 + 1)
            .unwrap();
    }
    let mut r = Room::new(store());
    finish(&mut r, &m, &inv, T0 + 2);
    assert!(
        Room::new(store())
            .audit(&m.table)
            .unwrap()
            .verification
            .unwrap()
            .is_valid()
    );
    assert!(r.store().tables().unwrap().contains(&m.table));
    assert_eq!(
        open_seeded(&mut r, &m, 8),
        Err(Error::Exists(m.table.clone()))
    );
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn two_connections_never_deal_a_table_twice() {
    concurrent_deal(store, &id("race"), 40);
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn the_log_is_append_only_and_an_edit_is_detected() {
    let table = id("edited");
    holdem_hand(&mut Room::new(store()), &table);
    let mut raw = postgres::Client::connect(&url(), postgres::NoTls).unwrap();
    let refused = raw.execute("DELETE FROM table_log WHERE table_id = $1", &[&table]);
    let refused = refused.expect_err("the log refuses a delete");
    assert!(
        refused
            .as_db_error()
            .unwrap()
            .message()
            .contains("append-only")
    );
    let mut tx = raw.transaction().unwrap();
    tx.batch_execute("ALTER TABLE table_log DISABLE TRIGGER table_log_append_only")
        .unwrap();
    tx.execute(
        "UPDATE table_log SET event = replace(event, 'seed of seat 1', 'seed of seat 7') WHERE table_id = $1",
        &[&table],
    )
    .unwrap();
    tx.batch_execute("ALTER TABLE table_log ENABLE TRIGGER table_log_append_only")
        .unwrap();
    tx.commit().unwrap();
    match Room::new(store()).audit(&table) {
        Err(Error::Corrupt(why)) => assert!(why.contains("its hash does not match"), "{why}"),
        other => panic!("the edit was not detected: {other:?}"),
    }
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn two_processes_never_deal_a_table_twice() {
    let envs = [("FAIRDECK_TABLE_PG", url())];
    race_processes(
        &mut Room::new(store()),
        &id("processes"),
        "race_child_postgres",
        &envs,
    );
}

#[test]
#[ignore = "a child process of two_processes_never_deal_a_table_twice"]
fn race_child_postgres() {
    race_child(Room::new(store()));
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn a_lost_connection_is_opened_again() {
    let m = holdem(&id("lost"), 2);
    let mut room = Room::new(store());
    open_seeded(&mut room, &m, 1).unwrap();
    let mut raw = postgres::Client::connect(&url(), postgres::NoTls).unwrap();
    let killed = raw
        .execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE pid <> pg_backend_pid() AND datname = current_database()",
            &[],
        )
        .unwrap();
    assert!(killed >= 1);
    // The call that meets the closed connection opens a new one and runs
    // again there: the caller does not see the loss.
    assert_eq!(room.public_view(&m.table).unwrap().phase, "committing");
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn claims_and_reissues_survive_a_new_connection() {
    let m = holdem(&id("claims"), 2);
    let inv = open_seeded(&mut Room::new(store()), &m, 9).unwrap();
    {
        let mut r = Room::new(store());
        r.claim(&m.table, 0, pass(&inv, 0), T0).unwrap();
        r.reissue(&m.table, Some(inv.operator.as_str()), 1, T0 + 1)
            .unwrap();
    }
    // A new connection (a restarted service): seat 0 is still claimed, and
    // seat 1's old token is refused.
    let mut r = Room::new(store());
    let elsewhere = fairdeck_table::SeatPass::new(inv.seats[0].as_str(), device(5));
    assert_eq!(
        r.seat_view(&m.table, 0, elsewhere).unwrap_err(),
        Error::ClaimedElsewhere
    );
    assert!(
        r.seat_view(&m.table, 0, pass(&inv, 0))
            .unwrap()
            .public
            .seats[0]
            .claimed
    );
    assert_eq!(
        r.claim(&m.table, 1, pass(&inv, 1), T0 + 2).unwrap_err(),
        Error::Forbidden
    );
    let log = r.store().log(&m.table).unwrap();
    let kinds: Vec<&str> = log.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["created", "claimed", "reissued"]);
    r.audit(&m.table).unwrap();
}

/// A hidden (version-3) table on PostgreSQL, over HTTP: keys and seat 0's
/// shuffle, the service restarted on a new connection mid-shuffle, then the
/// rest of the hand; the served transcript verifies.
#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn a_hidden_hand_survives_a_restart_mid_shuffle() {
    use bulletin::{Seat, Server, open, play, status, transcript};
    let table = id("hidden");
    let server = Server::with(store());
    let mut c = server.client();
    let inv = open(&mut c, &bulletin::manifest(&table, 3, 1), 600);
    let mut seats: Vec<Seat> = (0..3).map(|i| Seat::new(&inv, i, 80 + i)).collect();
    for s in &mut seats {
        assert!(s.step(&mut c, &table));
    }
    assert!(seats[0].step(&mut c, &table));
    let before = status(&mut c, &table);
    drop(server);
    let server = Server::with(store());
    let mut c = server.client();
    assert_eq!(status(&mut c, &table), before);
    let end = play(&mut c, &table, &inv.operator, &mut seats, |_| false);
    assert_eq!(end.state, "finished");
    let record = transcript(&mut c, &table);
    let opts = fairdeck_hidden::verify::Options::default();
    let v = fairdeck_hidden::verify::verify(&record, &opts).verdict;
    assert!(v.is_valid(), "{:?}", v.differences);
}

/// Version 3.1 (spec §19): the room edits its own PostgreSQL log behind the
/// append-only trigger — seat 1's stored shuffle replaced by the room's own
/// valid one, its time and seat 1's signature kept — and restarts the
/// service: the table is refused, not served. The control table beside it,
/// not edited, is served and verifies.
#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn a_room_that_edits_its_postgres_log_is_refused_after_a_restart() {
    use bulletin::{Seat, Server, call, open, rooms_shuffle, transcript};
    let (edited, control) = (id("edited"), id("control"));
    let forged = {
        let server = Server::with(store());
        let mut c = server.client();
        for t in [&edited, &control] {
            let inv = open(&mut c, &bulletin::manifest(t, 3, 1), 600);
            let mut seats: Vec<Seat> = (0..3).map(|i| Seat::new(&inv, i, 90 + i)).collect();
            for _ in 0..2 {
                for s in &mut seats {
                    assert!(s.step(&mut c, t));
                }
            }
        }
        rooms_shuffle(&mut c, &edited, 1)
    };
    let mut db = postgres::Client::connect(&url(), postgres::NoTls).unwrap();
    let row = db
        .query_one(
            "SELECT seq, entry FROM hidden_log WHERE table_id = $1 AND kind = 'shuffle' ORDER BY seq OFFSET 1 LIMIT 1",
            &[&edited],
        )
        .unwrap();
    let (seq, entry): (i64, String) = (row.get(0), row.get(1));
    let mut value: serde_json::Value = serde_json::from_str(&entry).unwrap();
    let signature = value["message"]["signature"].clone();
    value["message"] = serde_json::to_value(&forged).unwrap();
    value["message"]["signature"] = signature;
    db.batch_execute("ALTER TABLE hidden_log DISABLE TRIGGER hidden_log_append_only")
        .unwrap();
    db.execute(
        "UPDATE hidden_log SET entry = $1 WHERE table_id = $2 AND seq = $3",
        &[&value.to_string(), &edited, &seq],
    )
    .unwrap();
    db.batch_execute("ALTER TABLE hidden_log ENABLE TRIGGER hidden_log_append_only")
        .unwrap();
    let server = Server::with(store());
    let mut c = server.client();
    let path = format!("/api/hidden/{edited}/transcript");
    let (code, answer) = call(&mut c, "GET", &path, None, None);
    assert_eq!(code, 500, "{answer}");
    let error = answer["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("does not verify") && error.contains("signature"),
        "{error}"
    );
    let opts = fairdeck_hidden::verify::Options {
        in_progress: true,
        ..Default::default()
    };
    let record = transcript(&mut c, &control);
    assert!(
        fairdeck_hidden::verify::verify(&record, &opts)
            .verdict
            .is_valid()
    );
}
