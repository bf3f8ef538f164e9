//! `fairdeck table serve` as a process: it writes a private admin token,
//! prints its URL, opens a table over HTTP, and a table answered before a
//! SIGKILL is there after a restart on the same SQLite file. Under load
//! (four clients playing 24 tables), a SIGKILL loses no answered request:
//! after the restart every acknowledged commitment, reveal, deal, release
//! and close is there, and every table finishes with a transcript that
//! verifies. Bad flags are one line and a non-zero exit.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command};

struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(dir: &Path) -> Server {
        let (db, admin) = (dir.join("tables.sqlite"), dir.join("admin"));
        let args: Vec<&std::ffi::OsStr> = ["table", "serve", "--bind", "127.0.0.1:0", "--db"]
            .iter()
            .map(std::ffi::OsStr::new)
            .chain([
                db.as_os_str(),
                "--admin-token-file".as_ref(),
                admin.as_os_str(),
            ])
            .collect();
        let (child, addr) = common::spawn_server(&args, "fairdeck table serve:");
        Server { child, addr }
    }

    /// One request; the status code and the body.
    fn call(&self, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{auth}Content-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut reply = String::new();
        s.read_to_string(&mut reply).unwrap();
        let status = reply[9..12].parse().unwrap();
        let body = reply
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const TABLE: &str = r#"{"manifest": {"version": 2, "table": "t1", "game": "holdem", "deck": "standard",
  "seats": ["ann", "bob"], "first": 0, "last": 0}, "commit_seconds": 600, "reveal_seconds": 600}"#;

#[test]
fn opens_a_table_and_keeps_it_across_a_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let admin_file = dir.path().join("admin");
    let mode = std::fs::metadata(&admin_file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let admin = std::fs::read_to_string(&admin_file)
        .unwrap()
        .trim()
        .to_string();
    assert_eq!(admin.len(), 64);
    assert_eq!(server.call("POST", "/api/tables", None, TABLE).0, 401);
    let (status, body) = server.call("POST", "/api/tables", Some(&admin), TABLE);
    assert_eq!(status, 201, "{body}");
    let invitation: serde_json::Value = serde_json::from_str(&body).unwrap();
    drop(server); // SIGKILL
    let again = Server::start(dir.path());
    // The same admin token is read back, and the table is there.
    let (status, body) = again.call("GET", "/api/tables/t1", None, "");
    assert_eq!(status, 200, "{body}");
    let public: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(public["commitment"], invitation["commitment"]);
    assert_eq!(
        again.call("POST", "/api/tables", Some(&admin), TABLE).0,
        409
    );
}

#[test]
fn bad_flags_are_one_line() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_fairdeck"))
            .args(["table", "serve"])
            .args(args)
            .output()
            .unwrap()
    };
    let bad_bind = run(&["--bind", "localhost"]);
    assert_eq!(bad_bind.status.code(), Some(2));
    let dir = tempfile::tempdir().unwrap();
    let short = dir.path().join("short");
    std::fs::write(&short, "abc\n").unwrap();
    let weak = run(&[
        "--admin-token-file",
        short.to_str().unwrap(),
        "--bind",
        "127.0.0.1:0",
    ]);
    assert_eq!(weak.status.code(), Some(2));
    let err = String::from_utf8_lossy(&weak.stderr);
    assert!(
        err.contains("at least 32 characters") && err.lines().count() == 1,
        "{err}"
    );
    let nowhere = dir.path().join("no/such/dir/tables.sqlite");
    let token = dir.path().join("token");
    let out = run(&[
        "--db",
        nowhere.to_str().unwrap(),
        "--admin-token-file",
        token.to_str().unwrap(),
        "--bind",
        "127.0.0.1:0",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines()
            .last()
            .unwrap()
            .starts_with("fairdeck: cannot open"),
        "{err}"
    );
    assert!(!err.contains("panicked"));
    // A database that cannot be opened leaves no admin token file behind.
    assert!(!token.exists(), "token file written for a failed start");
}

/// `--db` is read by one rule: a key=value string is PostgreSQL (here one
/// that cannot be reached: a one-line error), another URL scheme is
/// refused; neither ever becomes a SQLite file named like it.
#[test]
fn a_connection_string_never_becomes_a_sqlite_file() {
    let dir = tempfile::tempdir().unwrap();
    let run = |db: &str| {
        Command::new(env!("CARGO_BIN_EXE_fairdeck"))
            .current_dir(dir.path())
            .args(["table", "serve", "--bind", "127.0.0.1:0", "--db", db])
            .output()
            .unwrap()
    };
    let unreachable =
        run("host=/nonexistent/socket/dir dbname=tables user=nobody connect_timeout=2");
    assert_eq!(unreachable.status.code(), Some(1));
    let err = String::from_utf8_lossy(&unreachable.stderr);
    assert!(
        !err.contains("cannot open") && !err.contains("panicked"),
        "{err}"
    );
    let other = run("mysql://host/tables");
    assert_eq!(other.status.code(), Some(2));
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(
        err.contains("mysql:// is not a database") && err.lines().count() == 1,
        "{err}"
    );
    // Nothing named like either string was created (the admin token only
    // for the reachable-looking one, which failed at connecting).
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "tables.admin-token")
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

/// A token file is one line of text: binary bytes, an empty file and an
/// endless one (`/dev/zero`, read only up to a line's worth) are refused in
/// one line, exit 2, before the database is touched.
#[test]
fn an_admin_token_is_a_line_of_text() {
    let dir = tempfile::tempdir().unwrap();
    let nul = dir.path().join("nul");
    std::fs::write(&nul, [0u8; 64]).unwrap();
    let empty = dir.path().join("empty");
    std::fs::write(&empty, "").unwrap();
    let spaced = dir.path().join("spaced");
    std::fs::write(&spaced, format!("{} {}\n", "a".repeat(20), "b".repeat(20))).unwrap();
    let db = dir.path().join("t.sqlite");
    for (file, says) in [
        (nul.as_path(), "not an admin token"),
        (empty.as_path(), "at least 32 characters"),
        (spaced.as_path(), "not an admin token"),
        (Path::new("/dev/zero"), "longer than one line"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_fairdeck"))
            .args(["table", "serve", "--bind", "127.0.0.1:0", "--db"])
            .arg(&db)
            .arg("--admin-token-file")
            .arg(file)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{file:?}: {err}");
        assert!(err.contains(says) && err.lines().count() == 1, "{err}");
        assert!(!db.exists(), "{file:?}: a database made");
    }
}

/// SQLite's in-memory database and names that read like URLs are refused
/// in one line (exit 2), and no file of that name is made.
#[test]
fn memory_and_url_like_databases_are_refused_without_a_file() {
    let dir = tempfile::tempdir().unwrap();
    for db in [":memory:", "sqlite::memory:", "sqlite:", "file:t.db"] {
        let out = Command::new(env!("CARGO_BIN_EXE_fairdeck"))
            .current_dir(dir.path())
            .args(["table", "serve", "--bind", "127.0.0.1:0", "--db", db])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{db}: {err}");
        assert!(err.contains(db) && err.lines().count() == 1, "{err}");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(names.is_empty(), "{db}: {names:?}");
    }
}

/// `table serve` says at start whether hidden tables have a browser seat:
/// a build without the `wasm32-unknown-unknown` target has no seat module,
/// and the service says so (and why, and how to get it) before anyone opens
/// a seat page; a build with it says nothing. Which one this is: whether
/// `/js/hidden/seat.wasm` is served.
#[test]
fn table_serve_says_at_start_when_browser_seats_are_unavailable() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairdeck"))
        .args(["table", "serve", "--bind", "127.0.0.1:0"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .trim_start_matches("fairdeck table serve: http://")
        .trim_end_matches('/')
        .to_string();
    let mut said = String::new();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    while !said.contains("press Ctrl-C to stop") {
        if err.read_line(&mut said).unwrap() == 0 {
            break;
        }
    }
    let server = Server { child, addr };
    let (status, _) = server.call("HEAD", "/js/hidden/seat.wasm", None, "");
    let note = "browser seats of hidden tables are unavailable";
    match status {
        404 => {
            assert!(said.contains(note), "{said}");
            for words in [
                "rustup target add wasm32-unknown-unknown",
                "fairdeck hidden seat --link",
            ] {
                assert!(said.contains(words), "{said}");
            }
        }
        _ => {
            assert_eq!(status, 200);
            assert!(!said.contains(note), "{said}");
        }
    }
}

/// Tables and seats of the crash run: bounded, so the test stays under a
/// few seconds (24 tables × 20 requests).
const CRASH_TABLES: usize = 24;
const CRASH_SEATS: usize = 4;
/// Requests answered before the SIGKILL (about half the run).
const KILL_AFTER: usize = 200;

#[test]
fn kill_9_under_load_loses_no_answered_request() {
    use fairdeck_client::{Client, hand::Hand};
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path());
    let admin = std::fs::read_to_string(dir.path().join("admin"))
        .unwrap()
        .trim()
        .to_string();
    let hands: Vec<Mutex<Hand>> = (0..CRASH_TABLES)
        .map(|t| Mutex::new(Hand::holdem(&format!("crash-{t}"), CRASH_SEATS)))
        .collect();
    let answered = AtomicUsize::new(0);
    // Four clients, one step at a time round their tables, until the
    // service dies under them.
    std::thread::scope(|scope| {
        for c in 0..4 {
            let (hands, answered, admin, addr) = (&hands, &answered, &admin, &server.addr);
            scope.spawn(move || {
                let mut client = Client::new(addr);
                let mine: Vec<&Mutex<Hand>> = hands.iter().skip(c).step_by(4).collect();
                loop {
                    let mut progressed = false;
                    for hand in &mine {
                        let mut hand = hand.lock().unwrap();
                        if hand.finished() {
                            continue;
                        }
                        match hand.play(&mut client, admin, &mut Vec::new(), false, 1) {
                            Ok(()) => {
                                answered.fetch_add(1, Ordering::SeqCst);
                                progressed = true;
                            }
                            Err(_) => return, // the service is gone
                        }
                    }
                    if !progressed {
                        return;
                    }
                }
            });
        }
        while answered.load(Ordering::SeqCst) < KILL_AFTER {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        server.child.kill().unwrap(); // SIGKILL, with requests in flight
        server.child.wait().unwrap();
    });
    let hands: Vec<Hand> = hands.into_iter().map(|h| h.into_inner().unwrap()).collect();
    let unfinished = hands.iter().filter(|h| !h.finished()).count();
    assert!(unfinished > 0, "the kill came after the run ended");
    drop(server);
    let again = Server::start(dir.path());
    let mut client = Client::new(&again.addr);
    let mut hands = hands;
    for hand in &mut hands {
        // Every answered step survived the kill ...
        let missing = hand.check_acknowledged(&mut client).unwrap();
        assert!(missing.is_empty(), "{missing:?}");
        if hand.acknowledged == 0 {
            continue; // never opened, as far as any client knows
        }
        // ... and every opened table can finish, and its transcript verifies.
        hand.play(&mut client, &admin, &mut Vec::new(), true, usize::MAX)
            .unwrap_or_else(|e| panic!("{}: {e}", hand.manifest.table));
        assert!(
            hand.transcript_valid(&mut client).unwrap(),
            "{}",
            hand.manifest.table
        );
        assert!(hand.check_acknowledged(&mut client).unwrap().is_empty());
    }
}

#[test]
fn wrong_tokens_are_throttled_but_the_right_ones_still_work() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let admin = std::fs::read_to_string(dir.path().join("admin"))
        .unwrap()
        .trim()
        .to_string();
    let (status, body) = server.call("POST", "/api/tables", Some(&admin), TABLE);
    assert_eq!(status, 201, "{body}");
    let inv: serde_json::Value = serde_json::from_str(&body).unwrap();
    let seat0 = inv["seats"][0].as_str().unwrap();
    let wrong = "f".repeat(64);
    let commit = r#"{"commitment": "00"}"#;
    let path = "/api/tables/t1/seats/0/commit";
    for _ in 0..fairdeck_table::limit::MAX_REFUSALS {
        assert_eq!(server.call("POST", path, Some(&wrong), commit).0, 403);
    }
    let (status, body) = server.call("POST", path, Some(&wrong), commit);
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("too many refused tokens"), "{body}");
    // The right tokens from the same address still work: the seat's (its
    // view; its commit reaches the seat's own checks: it is not claimed on
    // a device yet; its claim), and the admin's.
    assert_eq!(
        server
            .call("GET", "/api/tables/t1/seats/0", Some(seat0), "")
            .0,
        200
    );
    let (status, body) = server.call("POST", path, Some(seat0), commit);
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("not claimed"), "{body}");
    let claim = format!(r#"{{"device": "{}"}}"#, "d".repeat(64));
    let (status, body) = server.call("POST", "/api/tables/t1/seats/0/claim", Some(seat0), &claim);
    assert_eq!(status, 200, "{body}");
    let other = TABLE.replace("\"t1\"", "\"t2\"");
    assert_eq!(
        server.call("POST", "/api/tables", Some(&admin), &other).0,
        201
    );
    // Another table is counted apart; the public view is never held back.
    let path2 = "/api/tables/t2/seats/0/commit";
    assert_eq!(server.call("POST", path2, Some(&wrong), commit).0, 403);
    assert_eq!(server.call("GET", "/api/tables/t1", None, "").0, 200);
}

#[test]
fn binds_localhost_and_says_where_the_admin_token_is() {
    use std::io::{BufRead, BufReader, Read};
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairdeck"))
        .args(["table", "serve", "--bind", "localhost:0"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.starts_with("fairdeck table serve: http://127.0.0.1:"),
        "{line:?}"
    );
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    // The defaults of the README: the token file in the directory it was started in,
    // named by its whole path.
    let token = dir
        .path()
        .canonicalize()
        .unwrap()
        .join("tables.admin-token");
    assert!(token.exists() && dir.path().join("tables.sqlite").exists());
    assert!(
        err.contains(&format!("admin token written to {}", token.display())),
        "{err}"
    );
}

/// The book's way from a closed table to `fair verify`: the public view's
/// `.transcript` (what its jq line extracts, a version 2.1 record) verifies
/// as `valid` against `C`, `L`, a seat's own seed and the deal it was shown.
#[test]
fn the_public_transcript_verifies_as_the_book_says() {
    use fairdeck_client::{Client, hand::Hand};
    let book = include_str!("../../../docs/book/src/table-service.md");
    assert!(book.contains("| jq .transcript >"), "the book's jq line");
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let admin = std::fs::read_to_string(dir.path().join("admin")).unwrap();
    let mut client = Client::new(&server.addr);
    let mut hand = Hand::holdem("book", 3);
    hand.play(
        &mut client,
        admin.trim(),
        &mut Vec::new(),
        false,
        usize::MAX,
    )
    .unwrap();
    let (status, body) = server.call("GET", "/api/tables/book", None, "");
    assert_eq!(status, 200);
    let public: serde_json::Value = serde_json::from_str(&body).unwrap();
    let file = dir.path().join("book.json");
    std::fs::write(&file, public["transcript"].to_string()).unwrap();
    // What seat 0 recorded: C, L (the public view's `lock`), its own seed
    // (the load client's, see `Hand::seed`) and the deal it was shown.
    let seat = public["manifest"]["seats"][0].as_str().unwrap().to_string();
    let lock = public["lock"].as_str().unwrap().to_string();
    let verify = |commitment: &str, lock: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_fairdeck"))
            .args(["fair", "verify", "--format", "json"])
            .arg(&file)
            .args(["--commitment", commitment, "--lock", lock])
            .args(["--seat", &seat, "--seed", "load seed of seat 0 at book"])
            .args(["--played", "0"])
            .output()
            .unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (
            out.status.success(),
            doc["verdict"].as_str().unwrap().to_string(),
        )
    };
    let c = public["commitment"].as_str().unwrap();
    assert!(book.contains("fair verify t1.json --commitment C --lock L"));
    assert_eq!(verify(c, &lock), (true, "valid".into()));
    // A commitment or a lock other than the ones published before play fails.
    assert_eq!(verify(&"0".repeat(64), &lock), (false, "invalid".into()));
    assert_eq!(verify(c, &"0".repeat(64)), (false, "invalid".into()));
}

#[test]
fn bench_takes_the_seats_the_service_takes() {
    let bench = |seats: &str| {
        Command::new(env!("CARGO_BIN_EXE_fairdeck"))
            .args([
                "table",
                "bench",
                "--tables",
                "1",
                "--clients",
                "1",
                "--seats",
                seats,
            ])
            .args(["--format", "json"])
            .env("TMPDIR", std::env::temp_dir())
            .output()
            .unwrap()
    };
    let out = bench("14");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["hands_finished"].as_u64(), report["errors"].as_u64()),
        (Some(1), Some(0))
    );
    // The per-kind rows add up to "all" (the claims were left out).
    let rows: u64 = report["by_kind"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["requests"].as_u64().unwrap())
        .sum();
    assert_eq!(Some(rows), report["all"]["requests"].as_u64(), "{report}");
    let claims = report["by_kind"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["kind"] == "claim");
    assert_eq!(claims.and_then(|t| t["requests"].as_u64()), Some(14));
    for bad in ["1", "23", "100000000000"] {
        let out = bench(bad);
        assert_eq!(out.status.code(), Some(2), "--seats {bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--seats") && err.lines().count() == 1, "{err}");
    }
}

#[test]
fn an_interrupted_bench_removes_its_database() {
    for signal in ["INT", "TERM"] {
        let tmp = tempfile::tempdir().unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_fairdeck"))
            .args(["table", "bench", "--tables", "1000000", "--clients", "2"])
            .env("TMPDIR", tmp.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let db = tmp
            .path()
            .join(format!("fairdeck-table-bench-{}.sqlite", child.id()));
        let wal = tmp
            .path()
            .join(format!("{}-wal", db.file_name().unwrap().to_string_lossy()));
        let start = std::time::Instant::now();
        while !wal.exists() && start.elapsed().as_secs() < 60 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(
            db.exists() && wal.exists(),
            "the bench never wrote {}",
            db.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(300)); // mid-run
        let killed = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "SIG{signal}");
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
        assert!(left.is_empty(), "SIG{signal} left {left:?}");
    }
}
