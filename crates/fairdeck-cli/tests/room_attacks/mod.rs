//! A dishonest room against real seats (`docs/hidden-dealing.md` §11,
//! §17–§19): `fairdeck table serve` on a SQLite file, `fairdeck hidden seat
//! --link` processes whose links point at a proxy the room runs in front of
//! its own service, and the room's signing key read from its own database.
//! The proxy relays every request and may rewrite it or its answer (a
//! [`Hook`]), per seat: each seat has its own proxy port, so the room can
//! show one seat what it shows no other.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use chacha20::ChaCha20Rng;
use fairdeck_client::Client;
use fairdeck_hidden::keys::{KeyMessage, SecretKey, key_message};
use fairdeck_hidden::ledger::{SignedHead, heads, key_digest, sign_log};
use fairdeck_hidden::record::Record;
use fairdeck_hidden::signature::{Context, sign_seat};
use fairdeck_hidden::wire::Hex32;
use fairdeck_table::hidden::{HiddenInvitation, Status};
use rand_core::SeedableRng;
use serde_json::{Value, json};

pub use crate::common::served::Served;

/// One request a seat sent to the room's proxy.
pub struct Req {
    /// The seat whose proxy port it came to.
    pub seat: usize,
    pub method: String,
    pub path: String,
    pub token: Option<String>,
    pub body: Option<Value>,
}

impl Req {
    /// A `GET` of the transcript (whole or `?hand=N`).
    pub fn transcript(&self) -> bool {
        self.method == "GET" && self.path.contains("/transcript")
    }

    /// A seat's `POST` of `route` (`key`, `shuffle`, `shares`, `attestation`).
    pub fn posts(&self, route: &str) -> bool {
        self.method == "POST" && self.path.ends_with(&format!("/{route}"))
    }
}

/// What the room does with a request: `None` relays it unchanged; `Some`
/// is the answer the seat gets (the hook may call the service itself).
pub type Hook = dyn Fn(&Req, &mut Client) -> Option<(u16, Value)> + Send + Sync;

/// Relays `req` to the service unchanged.
pub fn relay(req: &Req, up: &mut Client) -> (u16, Value) {
    let body = req.body.as_ref();
    up.call(&req.method, &req.path, req.token.as_deref(), body)
        .unwrap_or((502, json!({"error": "the service is unreachable"})))
}

/// The room's proxy for seat `seat`: its address.
pub fn proxy(upstream: &str, seat: usize, hook: Arc<Hook>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let upstream = upstream.to_string();
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            let (hook, upstream) = (hook.clone(), upstream.clone());
            std::thread::spawn(move || {
                let _ = answer(conn, &upstream, seat, &*hook);
            });
        }
    });
    addr
}

/// One request on one connection (answered with `Connection: close`).
fn answer(mut conn: TcpStream, upstream: &str, seat: usize, hook: &Hook) -> std::io::Result<()> {
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let path = parts.next().unwrap_or_default().to_string();
    let (mut length, mut token) = (0usize, None);
    loop {
        let mut header = String::new();
        reader.read_line(&mut header)?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap_or(0),
                "authorization" => token = value.trim().strip_prefix("Bearer ").map(str::to_string),
                _ => {}
            }
        }
    }
    let mut bytes = vec![0; length];
    reader.read_exact(&mut bytes)?;
    let body = (length > 0).then(|| serde_json::from_slice(&bytes).unwrap_or(Value::Null));
    let req = Req {
        seat,
        method,
        path,
        token,
        body,
    };
    let mut up = Client::new(upstream).with_max_answer(1 << 24);
    let (code, value) = hook(&req, &mut up).unwrap_or_else(|| relay(&req, &mut up));
    let text = value.to_string();
    write!(
        conn,
        "HTTP/1.1 {code} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    )?;
    conn.flush()
}

/// The room: its service, its signing key for the table, its table.
pub struct Room {
    pub served: Served,
    pub dir: tempfile::TempDir,
    pub inv: HiddenInvitation,
    pub key: SecretKey,
}

impl Room {
    /// A room serving one hidden table of three seats (`hands` hands),
    /// each step allowed `step_seconds`.
    pub fn open(id: &str, hands: u64, step_seconds: u64) -> Room {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.sqlite");
        let db = db.to_str().unwrap().to_string();
        Room::open_on(dir, &db, (id, hands, step_seconds))
    }

    /// [`Room::open`] on the store `db`: a SQLite file, or a PostgreSQL
    /// connection string (the room's key read from there).
    pub fn open_on(
        dir: tempfile::TempDir,
        db: &str,
        (id, hands, step_seconds): (&str, u64, u64),
    ) -> Room {
        let served = Served::start(db, dir.path());
        let mut c = served.client();
        let manifest = json!({"version": 3, "table": id, "game": "holdem", "deck": "standard",
            "seats": ["ann", "bo", "cy"], "first": 1, "last": hands});
        let body = json!({"manifest": manifest, "step_seconds": step_seconds});
        let (code, answer) = c
            .call("POST", "/api/hidden", Some(&served.admin()), Some(&body))
            .unwrap();
        assert_eq!(code, 201, "{answer}");
        let inv: HiddenInvitation = serde_json::from_value(answer).unwrap();
        let key = match fairdeck_table::Location::parse(db).unwrap() {
            fairdeck_table::Location::Sqlite(_) => room_key(Path::new(db), id),
            _ => room_key_postgres(db, id),
        };
        Room {
            served,
            dir,
            inv,
            key,
        }
    }

    pub fn id(&self) -> &str {
        &self.inv.table
    }

    pub fn client(&self) -> Client {
        self.served.client()
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Seat `seat` as a `fairdeck hidden seat --link` process whose link
    /// points at the room's proxy running `hook` for it.
    pub fn seat(&self, seat: usize, hook: Arc<Hook>) -> Child {
        let addr = proxy(&self.served.addr, seat, hook);
        let link = self.inv.links[seat].replace(&self.served.addr, &addr);
        assert_ne!(link, self.inv.links[seat], "the link names the service");
        Command::new(cargo_bin("fairdeck"))
            .args(["hidden", "seat", "--poll-ms", "100", "--patience", "20"])
            .args(["--link", &link, "--key"])
            .arg(self.path(&format!("seat{seat}.key")))
            .args(["--seed", &format!("attack seat {seat}")])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// The three seats, each behind `hook`.
    pub fn seats(&self, hook: &Arc<Hook>) -> Vec<Child> {
        (0..3).map(|i| self.seat(i, hook.clone())).collect()
    }

    /// The transcript as `hook` serves it to seat `seat`.
    pub fn served(&self, seat: usize, hook: &Arc<Hook>) -> Record {
        let addr = proxy(&self.served.addr, seat, hook.clone());
        let (code, answer) = Client::new(&addr)
            .with_max_answer(1 << 24)
            .call(
                "GET",
                &format!("/api/hidden/{}/transcript", self.id()),
                None,
                None,
            )
            .unwrap();
        assert_eq!(code, 200, "{answer}");
        Record::from_json(&answer.to_string()).unwrap()
    }

    /// The table as the service has it.
    pub fn transcript(&self) -> Record {
        let (code, answer) = self
            .client()
            .call(
                "GET",
                &format!("/api/hidden/{}/transcript", self.id()),
                None,
                None,
            )
            .unwrap();
        assert_eq!(code, 200, "{answer}");
        Record::from_json(&answer.to_string()).unwrap()
    }

    pub fn status(&self, c: &mut Client) -> Status {
        let (code, answer) = c
            .call("GET", &format!("/api/hidden/{}", self.id()), None, None)
            .unwrap();
        assert_eq!(code, 200, "{answer}");
        serde_json::from_value(answer).unwrap()
    }

    /// The operator (the room) moves the table on until it is finished or
    /// void, calling `also` with each status first (the room's own moves).
    pub fn operate(&self, mut also: impl FnMut(&Status, &mut Client)) -> Status {
        let mut c = self.client();
        let start = Instant::now();
        loop {
            assert!(
                start.elapsed() < Duration::from_secs(90),
                "the table did not end"
            );
            let st = self.status(&mut c);
            if st.state == "finished" || st.state == "void" {
                return st;
            }
            also(&st, &mut c);
            if st.owed.is_empty() && !st.next.is_empty() {
                let to = st.next[0].clone();
                if to == "end" && !self.opened(st.hand) {
                    std::thread::sleep(Duration::from_millis(100));
                    continue;
                }
                let body = json!({"hand": st.hand, "to": to});
                let path = format!("/api/hidden/{}/advance", self.id());
                c.call("POST", &path, Some(&self.inv.operator), Some(&body))
                    .unwrap();
                continue;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn opened(&self, hand: Option<u64>) -> bool {
        let record = self.transcript();
        let rec = hand.and_then(|n| record.hand(n));
        rec.is_some_and(|h| h.showdown.len() == 6)
    }

    /// `fairdeck --format json fair verify` of `record` (written to
    /// `name`), with seat `evidence`'s evidence file if given.
    pub fn fair(&self, record: &Record, name: &str, evidence: Option<usize>) -> Value {
        let path = self.path(name);
        std::fs::write(&path, record.to_json()).unwrap();
        let mut cmd = Command::new(cargo_bin("fairdeck"));
        cmd.args(["--format", "json", "fair", "verify"]).arg(&path);
        if let Some(i) = evidence {
            cmd.arg("--evidence").arg(self.evidence(i));
        }
        let out = cmd.output().unwrap();
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
            panic!(
                "fair verify: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        })
    }

    /// `fair verify --format json` of `record` with seat key pins
    /// (`--seat-key SEAT=FINGERPRINT`).
    pub fn fair_pinned(&self, record: &Record, name: &str, pins: &[(u64, &str)]) -> Value {
        let path = self.path(name);
        std::fs::write(&path, record.to_json()).unwrap();
        let mut cmd = Command::new(cargo_bin("fairdeck"));
        cmd.args(["--format", "json", "fair", "verify"]).arg(&path);
        for (seat, fp) in pins {
            cmd.arg("--seat-key").arg(format!("{seat}={fp}"));
        }
        let out = cmd.output().unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// Seat `i`'s evidence file.
    pub fn evidence(&self, i: usize) -> PathBuf {
        self.path(&format!("seat{i}.evidence.json"))
    }
}

/// The room's signing key of table `id`, read from its own database.
pub fn room_key(db: &Path, id: &str) -> SecretKey {
    let conn = rusqlite::Connection::open(db).unwrap();
    let entry: String = conn
        .query_row(
            "SELECT entry FROM hidden_log WHERE table_id = ?1 AND kind = 'opened'",
            [id],
            |r| r.get(0),
        )
        .unwrap();
    let value: Value = serde_json::from_str(&entry).unwrap();
    let hex = Hex32::parse(value["room"].as_str().unwrap()).unwrap();
    SecretKey::from_bytes(&hex.0).unwrap()
}

/// [`room_key`] from a PostgreSQL store.
pub fn room_key_postgres(db: &str, id: &str) -> SecretKey {
    let mut conn = postgres::Client::connect(db, postgres::NoTls).unwrap();
    let row = conn
        .query_one(
            "SELECT entry::text FROM hidden_log WHERE table_id = $1 AND kind = 'opened'",
            &[&id],
        )
        .unwrap();
    let value: Value = serde_json::from_str(row.get(0)).unwrap();
    let hex = Hex32::parse(value["room"].as_str().unwrap()).unwrap();
    SecretKey::from_bytes(&hex.0).unwrap()
}

/// A seat process's exit and everything it printed.
pub fn output_of(child: Child) -> (bool, String) {
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// Whether every difference of a `fair verify` answer names the room, and
/// there is one.
pub fn names_the_room(verdict: &Value) -> bool {
    let diffs = verdict["differences"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    !diffs.is_empty()
        && diffs
            .iter()
            .all(|d| d["at_fault"].as_str() == Some("the room"))
}

/// The kinds of a `fair verify` answer's differences.
pub fn kinds(verdict: &Value) -> Vec<String> {
    let diffs = verdict["differences"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    diffs
        .iter()
        .map(|d| d["kind"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Whether a `fair verify` answer is valid.
pub fn valid(verdict: &Value) -> bool {
    verdict["differences"]
        .as_array()
        .is_some_and(|d| d.is_empty())
}

/// The signing context of a record's table.
pub fn context(record: &Record) -> Context {
    let table = fairdeck_hidden::Table::new(record.manifest.clone()).unwrap();
    Context::new(&table, record.room.as_ref())
}

/// The room's signed head of `log`.
pub fn sign(room: &SecretKey, record: &Record, log: &[Hex32]) -> SignedHead {
    let mut rng = ChaCha20Rng::seed_from_u64(log.len() as u64);
    sign_log(&context(record), room, log, &mut rng)
}

/// What the room does after editing a record it serves: each digest of
/// `swaps` replaced in the log by its new one, the head signed again.
pub fn resign(room: &SecretKey, record: &mut Record, swaps: &[(Hex32, Hex32)]) {
    for (old, new) in swaps {
        for d in record.log.iter_mut().filter(|d| *d == old) {
            *d = *new;
        }
    }
    record.head = Some(sign(room, record, &record.log.clone()));
}

/// The served transcript in `answer`, edited by `edit` (which returns the
/// digest swaps it made) and signed again with the room's key `room`;
/// unchanged when `edit` returns `None`.
pub fn edited(
    room: &SecretKey,
    answer: (u16, Value),
    edit: impl FnOnce(&mut Record, &Context) -> Option<Vec<(Hex32, Hex32)>>,
) -> (u16, Value) {
    let (code, value) = answer;
    if code != 200 {
        return (code, value);
    }
    let mut record = Record::from_json(&value.to_string()).unwrap();
    let ctx = context(&record);
    match edit(&mut record, &ctx) {
        Some(swaps) => {
            resign(room, &mut record, &swaps);
            (200, serde_json::from_str(&record.to_json()).unwrap())
        }
        None => (200, value),
    }
}

/// Whether `log`'s head at its length is `head` (a check the tests use
/// to be sure a re-signed head is the room's own signature of its edit).
pub fn head_of(ctx: &Context, log: &[Hex32]) -> Hex32 {
    *heads(ctx, log).last().unwrap()
}

/// A no-op hook: the honest room.
pub fn honest() -> Arc<Hook> {
    Arc::new(|_: &Req, _: &mut Client| None)
}

/// A shared list a hook writes what it saw into.
pub type Seen = Arc<Mutex<Vec<String>>>;

/// The transcript as the service has it, read by a hook.
pub fn upstream(up: &mut Client, id: &str) -> Record {
    let (code, answer) = up
        .call("GET", &format!("/api/hidden/{id}/transcript"), None, None)
        .unwrap();
    assert_eq!(code, 200, "{answer}");
    Record::from_json(&answer.to_string()).unwrap()
}

/// A key message for seat 2 with the room's key `x`: signed by `signer`
/// as seat 2 (the room's signing key: it cannot sign as seat 2), or by
/// `x` itself (a whole new key message the room owns).
pub fn rooms_key(record: &Record, x: &SecretKey, signer: Option<&SecretKey>) -> KeyMessage {
    let table = fairdeck_hidden::Table::new(record.manifest.clone()).unwrap();
    let ctx = context(record);
    let mut rng = ChaCha20Rng::seed_from_u64(21);
    let mut m = key_message(&table, 2, x, &mut rng).unwrap();
    let d = key_digest(&ctx, &m);
    m.signature = Some(sign_seat(&ctx, 2, signer.unwrap_or(x), &d, &mut rng));
    m
}

/// The room's answer to seat 2's key before its turn (relaying it could
/// race with seat 1's key and let seat 2's own key in).
pub fn not_now() -> (u16, Value) {
    (409, json!({"error": "keys come in seat order"}))
}

/// The one line a seat stopped with (its last line on stderr).
pub fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

/// Seat processes' results, in seat order.
pub fn results(seats: Vec<std::process::Child>) -> Vec<(bool, String)> {
    seats.into_iter().map(output_of).collect()
}

/// The served void's seat and stage.
pub fn void_of(record: &Record) -> Option<(u64, String)> {
    let hands = record.hands.iter().filter_map(|h| h.void.as_ref());
    let v = record.void.iter().chain(hands).next()?;
    Some((v.seat, v.stage.clone()))
}

pub fn says_the_void_is_not_proof(verdict: &Value) -> bool {
    verdict
        .to_string()
        .contains("is not proof against that seat")
}

/// The key fingerprint a seat printed for its own key (§17).
pub fn own_fingerprint(text: &str) -> String {
    let after = text
        .split("key fingerprint ")
        .nth(1)
        .unwrap_or_else(|| panic!("no fingerprint printed: {text}"));
    after.split_whitespace().next().unwrap().to_string()
}
