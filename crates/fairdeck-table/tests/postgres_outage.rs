//! A PostgreSQL server that restarts, stays down, or drops the connection
//! in the middle of a change: `scripts/test-table` gives the test cluster's
//! pg_ctl command in `FAIRDECK_TABLE_PG_CTL`. A change whose connection was
//! lost before COMMIT is retried once on a new connection; one lost during
//! COMMIT is not retried (it may have been made); a database that stays
//! down answers 503 with one line.

mod common;

use std::process::Command;
use std::sync::OnceLock;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use fairdeck_fair::Manifest;
use fairdeck_table::hidden::{HiddenDecide, HiddenStore, Refused};
use fairdeck_table::ledger::LogEntry;
use fairdeck_table::{Decide, Error, Event, Invitation, PostgresStore, Room, Snapshot, Store};
use serde_json::Value;
use tower::ServiceExt;

use common::*;

fn url() -> String {
    std::env::var("FAIRDECK_TABLE_PG").expect("FAIRDECK_TABLE_PG is set by scripts/test-table")
}

/// Runs the test cluster's pg_ctl with `args`.
fn pg_ctl(args: &str) {
    let ctl = std::env::var("FAIRDECK_TABLE_PG_CTL").expect("set by scripts/test-table");
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("{ctl} {args} >/dev/null"))
        .status()
        .unwrap();
    assert!(status.success(), "pg_ctl {args}: {status}");
}

/// Table ids unique to this run.
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

/// A store that counts how often `decide` was asked.
struct Counting {
    inner: PostgresStore,
    decided: u32,
}

impl Store for Counting {
    fn create(&mut self, created: &Event) -> Result<Snapshot, Error> {
        self.inner.create(created)
    }
    fn change(&mut self, table: &str, decide: &mut Decide<'_>) -> Result<Snapshot, Error> {
        let decided = &mut self.decided;
        self.inner.change(table, &mut |state| {
            *decided += 1;
            decide(state)
        })
    }
    fn load(&mut self, table: &str) -> Result<Snapshot, Error> {
        self.inner.load(table)
    }
    fn log(&mut self, table: &str) -> Result<Vec<LogEntry>, Error> {
        self.inner.log(table)
    }
    fn tables(&mut self) -> Result<Vec<String>, Error> {
        self.inner.tables()
    }
}

/// Hidden tables pass straight through (not counted).
impl HiddenStore for Counting {
    fn hidden_create(&mut self, id: &str, opened: &str) -> Result<(), Error> {
        self.inner.hidden_create(id, opened)
    }
    fn hidden_change(
        &mut self,
        id: &str,
        from: u64,
        decide: &mut HiddenDecide<'_>,
    ) -> Result<(), Refused> {
        self.inner.hidden_change(id, from, decide)
    }
    fn hidden_entries(&mut self, id: &str, from: u64) -> Result<Vec<String>, Error> {
        self.inner.hidden_entries(id, from)
    }
}

fn counting_room() -> Room<Counting> {
    let inner = PostgresStore::connect(&url()).unwrap();
    Room::new(Counting { inner, decided: 0 })
}

/// A trigger that ends its own connection when log entry `seq` of `table`
/// is written, the first `shots` times: at the INSERT (before COMMIT) or,
/// deferred, at COMMIT. Removed when dropped.
struct Cut {
    name: String,
}

impl Cut {
    fn new(table: &str, seq: u64, shots: u32, at_commit: bool) -> Cut {
        let name = format!("fd_cut_{seq}_{}", table.replace(['-', '.'], "_"));
        let (constraint, deferred) = if at_commit {
            ("CONSTRAINT", "DEFERRABLE INITIALLY DEFERRED")
        } else {
            ("", "")
        };
        raw()
            .batch_execute(&format!(
                "CREATE SEQUENCE {name};
                 CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
                 BEGIN
                   IF nextval('{name}') <= {shots} THEN
                     PERFORM pg_terminate_backend(pg_backend_pid());
                   END IF;
                   RETURN NULL;
                 END $$;
                 CREATE {constraint} TRIGGER {name} AFTER INSERT ON table_log {deferred}
                 FOR EACH ROW WHEN (NEW.table_id = '{table}' AND NEW.seq = {seq})
                 EXECUTE FUNCTION {name}();"
            ))
            .unwrap();
        Cut { name }
    }
}

impl Drop for Cut {
    fn drop(&mut self) {
        let name = &self.name;
        let _ = raw().batch_execute(&format!(
            "DROP TRIGGER IF EXISTS {name} ON table_log; DROP FUNCTION IF EXISTS {name}(); \
             DROP SEQUENCE IF EXISTS {name};"
        ));
    }
}

fn raw() -> postgres::Client {
    postgres::Client::connect(&url(), postgres::NoTls).unwrap()
}

fn commit_seat(
    room: &mut Room<Counting>,
    m: &Manifest,
    inv: &Invitation,
    seat: usize,
) -> Result<(), Error> {
    let c = commitment(m, seat);
    room.commit(&m.table, seat, pass(inv, seat), &c, T0 + 1)
        .map(drop)
}

/// Log entries before the first commitment: the table created, each of
/// its two seats claimed.
const BEFORE_COMMITS: u64 = 3;

/// A two-seat table opened with `seed` and both seats claimed; the count of
/// `decide` calls starts from there.
fn opened(room: &mut Room<Counting>, m: &Manifest, seed: u64) -> Invitation {
    let inv = open_seeded(room, m, seed).unwrap();
    claim_all(room, m, &inv);
    room.store().decided = 0;
    inv
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn a_connection_lost_before_commit_is_retried_once_and_applied_once() {
    let m = holdem(&id("retry"), 2);
    let mut room = counting_room();
    let inv = opened(&mut room, &m, 3);
    let _cut = Cut::new(&m.table, BEFORE_COMMITS, 1, false);
    commit_seat(&mut room, &m, &inv, 0).unwrap();
    assert_eq!(room.store().decided, 2, "one attempt cut, one retry");
    commit_seat(&mut room, &m, &inv, 1).unwrap();
    // A reveal (its event is made before the store is called) cut likewise.
    let _cut = Cut::new(&m.table, BEFORE_COMMITS + 2, 1, false);
    let seed0 = seed(&m.table, 0);
    room.reveal(&m.table, 0, pass(&inv, 0), &seed0, T0 + 2)
        .unwrap();
    assert_eq!(room.store().decided, 5);
    let log = room.store().log(&m.table).unwrap();
    let kinds: Vec<&str> = log.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "created",
            "claimed",
            "claimed",
            "committed",
            "committed",
            "revealed"
        ]
    );
    assert!(room.audit(&m.table).is_ok());
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn a_connection_lost_again_is_not_retried_twice() {
    let m = holdem(&id("twice"), 2);
    let mut room = counting_room();
    let inv = opened(&mut room, &m, 4);
    let cut = Cut::new(&m.table, BEFORE_COMMITS, 1000, false);
    match commit_seat(&mut room, &m, &inv, 0) {
        Err(Error::Unavailable(why)) => assert!(why.contains("lost twice"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(room.store().decided, 2);
    drop(cut);
    assert_eq!(
        room.store().log(&m.table).unwrap().len() as u64,
        BEFORE_COMMITS,
        "nothing was written"
    );
    commit_seat(&mut room, &m, &inv, 0).unwrap();
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn a_connection_lost_during_commit_is_not_retried() {
    let m = holdem(&id("doubt"), 2);
    let mut room = counting_room();
    let inv = opened(&mut room, &m, 5);
    let cut = Cut::new(&m.table, BEFORE_COMMITS, 1, true);
    match commit_seat(&mut room, &m, &inv, 0) {
        Err(e @ Error::Unavailable(_)) => {
            let text = e.to_string();
            assert!(
                text.contains("during the commit") && !text.contains('\n'),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        room.store().decided,
        1,
        "a commit in doubt is never retried"
    );
    drop(cut);
    // Here the server had not committed: the seat commits now, once.
    commit_seat(&mut room, &m, &inv, 0).unwrap();
    assert!(room.audit(&m.table).is_ok());
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn a_restart_between_two_commits_loses_nothing() {
    let m = holdem(&id("restart-room"), 2);
    let mut room = counting_room();
    let inv = opened(&mut room, &m, 6);
    commit_seat(&mut room, &m, &inv, 0).unwrap();
    pg_ctl("restart -m fast -w");
    commit_seat(&mut room, &m, &inv, 1).unwrap();
    let audit = room.audit(&m.table).unwrap();
    assert_eq!(audit.entries as u64, BEFORE_COMMITS + 2);
    assert_eq!(room.public_view(&m.table).unwrap().phase, "revealing");
}

/// The service's router over the test database, and a runtime to call it
/// on. The router (holding the blocking client) must be dropped after the
/// runtime.
fn service() -> (Router, tokio::runtime::Runtime) {
    let store = PostgresStore::connect(&url()).unwrap();
    let bind: std::net::SocketAddr = HOST.parse().unwrap();
    let app = fairdeck_table::service::router(
        fairdeck_table::service::Service::new(store, ADMIN),
        fairdeck_http::access::Access::new(bind, vec![]),
    );
    (app, tokio::runtime::Runtime::new().unwrap())
}

/// One request; the status and the JSON answer.
fn call(
    rt: &tokio::runtime::Runtime,
    app: &Router,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, HOST);
    req = req.header(header::AUTHORIZATION, format!("Bearer {ADMIN}"));
    let body = match body {
        Some(v) => {
            req = req.header(header::CONTENT_TYPE, "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let app = app.clone();
    rt.block_on(async move {
        let answer = app.oneshot(req.body(body).unwrap()).await.unwrap();
        let status = answer.status();
        let bytes = axum::body::to_bytes(answer.into_body(), 1 << 22)
            .await
            .unwrap();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    })
}

fn open(rt: &tokio::runtime::Runtime, app: &Router, table: &str) -> (StatusCode, Value) {
    let body = serde_json::to_value(request(&holdem(table, 2))).unwrap();
    call(rt, app, "POST", "/api/tables", Some(&body))
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn a_restart_between_two_requests_is_not_seen() {
    let (app, rt) = service();
    let (a, b) = (id("http-a"), id("http-b"));
    assert_eq!(open(&rt, &app, &a).0, StatusCode::CREATED);
    pg_ctl("restart -m fast -w");
    let (status, answer) = open(&rt, &app, &b);
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    pg_ctl("restart -m fast -w");
    for table in [&a, &b] {
        let (status, view) = call(&rt, &app, "GET", &format!("/api/tables/{table}"), None);
        assert_eq!(
            (status, view["phase"].as_str()),
            (StatusCode::OK, Some("committing"))
        );
    }
    drop(rt);
    let mut store = PostgresStore::connect(&url()).unwrap();
    for table in [&a, &b] {
        assert_eq!(store.audit(table).unwrap().entries, 1);
    }
}

/// Stops the cluster until dropped.
struct Down;

impl Drop for Down {
    fn drop(&mut self) {
        pg_ctl("start -w");
    }
}

#[test]
#[ignore = "needs a PostgreSQL server: run by scripts/test-table"]
fn a_database_that_stays_down_answers_503_in_one_line() {
    let (app, rt) = service();
    let a = id("down");
    assert_eq!(open(&rt, &app, &a).0, StatusCode::CREATED);
    pg_ctl("stop -m fast -w");
    let down = Down;
    for (status, answer) in [
        call(&rt, &app, "GET", &format!("/api/tables/{a}"), None),
        open(&rt, &app, &id("down-b")),
    ] {
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(
            error.starts_with("the database is unavailable: "),
            "{error}"
        );
        assert!(!error.contains('\n'), "{error}");
    }
    drop(down);
    let (status, view) = call(&rt, &app, "GET", &format!("/api/tables/{a}"), None);
    assert_eq!(
        (status, view["phase"].as_str()),
        (StatusCode::OK, Some("committing"))
    );
    assert_eq!(open(&rt, &app, &id("down-b")).0, StatusCode::CREATED);
    drop(rt);
}
