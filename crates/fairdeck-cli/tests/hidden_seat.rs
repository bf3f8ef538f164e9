//! Hidden tables served by `fairdeck table serve`, played by real seats:
//! two `fairdeck hidden seat --link` processes and one seat driven by the
//! library, over HTTP. Every seat prints its own cards and verifies the end;
//! `fairdeck fair verify` of the served transcript says valid; the service's
//! output and its database never held a hole card. A seat that never comes
//! voids the table, and the CLI seats say which seat and what it missed.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use chacha20::ChaCha20Rng;
use fairdeck_client::Client;
use fairdeck_client::turn::next_post;
use fairdeck_hidden::group::{card_point, encode_point};
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::record::Record;
use fairdeck_hidden::seat::Follower;
use fairdeck_table::hidden::{HiddenInvitation, Status};
use rand_core::SeedableRng;
use serde_json::json;

/// The service as a process; its whole output (stdout and stderr) is kept.
struct Service {
    child: Child,
    addr: String,
    output: std::sync::mpsc::Receiver<String>,
}

impl Service {
    fn start(dir: &Path) -> Service {
        let mut child = Command::new(cargo_bin("fairdeck"))
            .args(["table", "serve", "--bind", "127.0.0.1:0", "--db"])
            .arg(dir.join("t.sqlite"))
            .arg("--admin-token-file")
            .arg(dir.join("admin"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .trim_start_matches("fairdeck table serve: http://");
        let addr = addr.trim_end_matches('/').to_string();
        let (tx, output) = std::sync::mpsc::channel();
        let mut err = child.stderr.take().unwrap();
        let first = line.clone();
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = out.read_to_string(&mut rest);
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            let _ = tx.send(format!("{first}{rest}{text}"));
        });
        Service {
            child,
            addr,
            output,
        }
    }

    /// Stops the service; everything it printed.
    fn stop(mut self) -> String {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        self.output.recv_timeout(Duration::from_secs(10)).unwrap()
    }
}

fn admin(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("admin"))
        .unwrap()
        .trim()
        .to_string()
}

fn open(
    client: &mut Client,
    dir: &Path,
    (id, hands): (&str, u64),
    step_seconds: u64,
) -> HiddenInvitation {
    let manifest = json!({"version": 3, "table": id, "game": "holdem", "deck": "standard",
        "seats": ["ann", "bo", "cy"], "first": 1, "last": hands});
    let body = json!({"manifest": manifest, "step_seconds": step_seconds});
    let (code, answer) = client
        .call("POST", "/api/hidden", Some(&admin(dir)), Some(&body))
        .unwrap();
    assert_eq!(code, 201, "{answer}");
    serde_json::from_value(answer).unwrap()
}

fn status(client: &mut Client, id: &str) -> Status {
    let (_, answer) = client
        .call("GET", &format!("/api/hidden/{id}"), None, None)
        .unwrap();
    serde_json::from_value(answer).unwrap()
}

fn transcript(client: &mut Client, id: &str) -> Record {
    let (_, answer) = client
        .call("GET", &format!("/api/hidden/{id}/transcript"), None, None)
        .unwrap();
    Record::from_json(&answer.to_string()).unwrap()
}

/// A CLI seat: `fairdeck hidden seat --link …`, its key in `dir`; with
/// `stdin`, the link is written to its stdin (`--link -`).
fn cli_seat_with(dir: &Path, link: &str, seat: usize, stdin: bool) -> Child {
    let mut child = Command::new(cargo_bin("fairdeck"))
        .args(["hidden", "seat", "--poll-ms", "100", "--link"])
        .arg(if stdin { "-" } else { link })
        .arg("--key")
        .arg(dir.join(format!("seat{seat}.key")))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if stdin {
        std::io::Write::write_all(&mut input, format!("{link}\n").as_bytes()).unwrap();
    }
    drop(input);
    child
}

fn cli_seat(dir: &Path, link: &str, seat: usize) -> Child {
    cli_seat_with(dir, link, seat, false)
}

fn output_of(child: Child) -> (bool, String) {
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// Seat 2 played by the library; the operator moves the hand on; until the
/// table is over (or `limit` passes).
fn drive(client: &mut Client, inv: &HiddenInvitation, key: &SecretKey, library_seat: bool) {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let mut follower = Follower::new();
    let id = inv.table.as_str();
    let start = Instant::now();
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the table did not finish"
        );
        let st = status(client, id);
        if st.state == "finished" || st.state == "void" {
            return;
        }
        if library_seat && (st.owed_by(2).is_some() || st.showdown) {
            let record = transcript(client, id);
            if let Some(post) =
                next_post(&mut follower, &st, record, (2, key), true, &mut rng).unwrap()
            {
                let path = format!("/api/hidden/{id}/seats/2/{}", post.route());
                let (code, answer) = client
                    .call("POST", &path, Some(&inv.seats[2]), Some(&post.to_json()))
                    .unwrap();
                assert!(code == 200 || code == 409, "{answer}");
                continue;
            }
        }
        if st.owed.is_empty() && !st.next.is_empty() {
            let to = st.next[0].clone();
            // Give the seats a moment to open their cards before the hand ends.
            if to == "end" && !showdown_done(client, id, st.hand) {
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
            let body = json!({"hand": st.hand, "to": to});
            let path = format!("/api/hidden/{id}/advance");
            client
                .call("POST", &path, Some(&inv.operator), Some(&body))
                .unwrap();
            continue;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn showdown_done(client: &mut Client, id: &str, hand: Option<u64>) -> bool {
    let record = transcript(client, id);
    let rec = hand.and_then(|n| record.hand(n));
    rec.is_some_and(|h| h.showdown.len() == 6)
}

#[test]
fn cli_and_library_seats_play_a_hand_that_fair_verify_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let service = Service::start(dir.path());
    let mut client = Client::new(&service.addr);
    let inv = open(&mut client, dir.path(), ("cli", 2), 600);
    let seats: Vec<Child> = (0..2)
        .map(|i| cli_seat(dir.path(), &inv.links[i], i))
        .collect();
    let key = SecretKey::generate(&mut ChaCha20Rng::seed_from_u64(99));
    drive(&mut client, &inv, &key, true);
    let record = transcript(&mut client, "cli");
    assert_eq!(record.hands.len(), 2);
    let opts = fairdeck_hidden::verify::Options::default();
    let verdict = fairdeck_hidden::verify::verify(&record, &opts).verdict;
    let opened = |hand: usize, seat: u64| -> Vec<String> {
        let list = verdict.hands[hand]
            .opened
            .iter()
            .filter(|c| c.seat == Some(seat));
        list.map(|c| c.card.clone()).collect()
    };
    let mut holes = Vec::new();
    for (i, child) in seats.into_iter().enumerate() {
        let (ok, text) = output_of(child);
        assert!(ok, "seat {i}: {text}");
        for hand in 1..=2 {
            let prefix = format!("hand {hand}: seat {i}'s cards: ");
            let line = text.lines().find_map(|l| l.strip_prefix(&prefix));
            let cards: Vec<String> = line
                .unwrap_or_else(|| panic!("{text}"))
                .split(' ')
                .map(str::to_string)
                .collect();
            let mut shown = opened(hand - 1, i as u64);
            let mut printed = cards.clone();
            shown.sort();
            printed.sort();
            assert_eq!(
                printed, shown,
                "seat {i} printed the cards it opened at the showdown"
            );
            holes.extend(cards);
        }
        assert!(text.contains("\nvalid: every message"), "{text}");
        assert!(
            text.contains("opened by seat 2"),
            "the library seat's cards, opened: {text}"
        );
        let mode = std::fs::metadata(dir.path().join(format!("seat{i}.key")))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "seat {i}'s key file is private");
    }
    holes.extend((0..2).flat_map(|h| opened(h, 2)));
    assert_eq!(holes.len(), 12);
    // Version 3.1: each CLI seat attested the whole log when the table was
    // over, and kept its receipts and the heads it was served.
    let record = transcript(&mut client, "cli");
    let opts = fairdeck_hidden::verify::Options::default();
    let verdict = fairdeck_hidden::verify::verify(&record, &opts).verdict;
    assert!(
        verdict.is_valid() && verdict.signed,
        "{:?}",
        verdict.differences
    );
    assert_eq!(verdict.attested_by, [0, 1]);
    let path = dir.path().join("cli.json");
    std::fs::write(&path, record.to_json()).unwrap();
    let evidence = dir.path().join("seat0.evidence.json");
    let verified = Command::new(cargo_bin("fairdeck"))
        .args(["fair", "verify"])
        .arg(&path)
        .arg("--evidence")
        .arg(&evidence)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&verified.stdout);
    assert!(verified.status.success(), "{said}");
    assert!(said.contains("\nvalid: every message"), "{said}");
    assert!(
        said.contains("seat(s) 0, 1 attested the whole log"),
        "{said}"
    );
    let kept: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&evidence).unwrap()).unwrap();
    assert!(kept.as_array().is_some_and(|a| a.len() > 5), "{kept}");
    let log = service.stop();
    let mut db = std::fs::read(dir.path().join("t.sqlite")).unwrap();
    db.extend(std::fs::read(dir.path().join("t.sqlite-wal")).unwrap_or_default());
    let db = String::from_utf8_lossy(&db);
    assert!(log.contains("fairdeck table serve: http://"), "{log}");
    for card in &holes {
        let point = encode_point(&card_point(card)).to_string();
        for (what, text) in [
            ("the service's output", &log),
            ("the database", &db.to_string()),
        ] {
            assert!(
                !text.contains(&format!("\"{card}\"")) && !text.contains(&point),
                "{what} holds {card}"
            );
        }
    }
}

#[test]
fn a_seat_that_never_comes_voids_the_table_and_the_cli_seats_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let service = Service::start(dir.path());
    let mut client = Client::new(&service.addr);
    let inv = open(&mut client, dir.path(), ("gone", 1), 2);
    let seats: Vec<Child> = (0..2)
        .map(|i| cli_seat_with(dir.path(), &inv.links[i], i, i == 1))
        .collect();
    let key = SecretKey::generate(&mut ChaCha20Rng::seed_from_u64(98));
    drive(&mut client, &inv, &key, false);
    for (i, child) in seats.into_iter().enumerate() {
        let (ok, text) = output_of(child);
        assert!(ok, "seat {i}: {text}");
        assert!(text.contains("\nvalid: every message"), "{text}");
        assert!(
            text.contains("the table is void: at the keys stage, seat 2 (cy) did not send its key"),
            "{text}"
        );
    }
    let record = transcript(&mut client, "gone");
    assert_eq!(record.void.unwrap().seat, 2);
    // Seat 1's key file given for seat 0: refused before anything is sent.
    let out = Command::new(cargo_bin("fairdeck"))
        .args(["hidden", "seat", "--link", &inv.links[0], "--key"])
        .arg(dir.path().join("seat1.key"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("the key of seat 1, not seat 0"), "{err}");
    drop(service.stop());
}

#[test]
fn bad_links_and_an_unreachable_service_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let run = |link: &str| {
        Command::new(cargo_bin("fairdeck"))
            .args(["hidden", "seat", "--patience", "0", "--link", link, "--key"])
            .arg(dir.path().join("k.key"))
            .output()
            .unwrap()
    };
    for (link, code, says) in [
        (
            "https://127.0.0.1:1/x#table=t&seat=0&token=a",
            2,
            "not an http:// link",
        ),
        ("http://127.0.0.1:1/x", 2, "no #table="),
        (
            "http://127.0.0.1:1/x#table=t&seat=x&token=a",
            2,
            "not a number",
        ),
        (
            "http://127.0.0.1:1/x#table=t&seat=0&token=a",
            1,
            "cannot reach 127.0.0.1:1",
        ),
    ] {
        let out = run(link);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{link}: {err}");
        assert!(err.contains(says), "{link}: {err}");
        assert_eq!(
            err.lines().filter(|l| !l.contains("trying again")).count(),
            1,
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    assert!(
        !dir.path().join("k.key").exists(),
        "no key is made before the table is read"
    );
}

/// A room writes the link: every part of it is checked before anything is
/// done with it (no key file is named from a table id like `../x`, no port
/// out of range is retried for minutes), with the default key file name.
#[test]
fn a_link_is_checked_whole_before_it_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    for (fragment, says) in [
        ("table=../x&seat=0&token=a", "the table id \"../x\""),
        ("table=a/b&seat=0&token=a", "the table id \"a/b\""),
        ("table=&seat=0&token=a", "an empty table="),
        ("table=t&seat=0&token=", "an empty token="),
        ("table=t&seat=0&seat=1&token=a", "seat= given twice"),
        ("table=t&seat=0&token=a&token=b", "token= given twice"),
    ] {
        let link = format!("http://127.0.0.1:1/x#{fragment}");
        let out = Command::new(cargo_bin("fairdeck"))
            .args(["hidden", "seat", "--patience", "0", "--link", &link])
            .current_dir(&work)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{link}: {err}");
        assert!(err.contains(says), "{link}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let start = Instant::now();
    let out = Command::new(cargo_bin("fairdeck"))
        .args(["hidden", "seat", "--link"])
        .arg("http://127.0.0.1:99999/x#table=t&seat=0&token=a")
        .current_dir(&work)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("the port \"99999\""), "{err}");
    assert!(start.elapsed() < Duration::from_secs(30), "retried: {err}");
    for d in [dir.path(), work.as_path()] {
        let names: Vec<_> = std::fs::read_dir(d).unwrap().collect();
        assert_eq!(names.len(), usize::from(d == dir.path()), "{names:?}");
    }
}

#[test]
fn table_serve_help_points_at_hidden_tables() {
    let out = Command::new(cargo_bin("fairdeck"))
        .args(["table", "serve", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    // clap wraps the text at the terminal's width.
    let help = String::from_utf8_lossy(&out.stdout);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for says in ["POST /api/hidden ", "`fairdeck hidden seat --link LINK`"] {
        assert!(help.contains(says), "{help}");
    }
}
