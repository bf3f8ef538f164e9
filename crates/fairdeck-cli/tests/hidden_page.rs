//! `fairdeck hidden seat --link URL --page`: the seat page served on
//! loopback from the player's own binary. Its server is held to the rules
//! of every fairdeck server (its own Host only, JSON posts only, JSON
//! errors, security headers) and passes on nothing but the link's table's
//! seat API; its flags refuse what cannot work with a one-line error. The
//! page played in Chromium is `crates/fairdeck-web/web/e2e/hidden-page.test.mjs`.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use assert_cmd::cargo::cargo_bin;
use common::served::Served;
use fairdeck_table::hidden::HiddenInvitation;
use serde_json::{Value, json};

/// Opens a two-seat hidden hold'em table; its invitation.
fn open(served: &Served, id: &str) -> HiddenInvitation {
    let manifest = json!({"version": 3, "table": id, "game": "holdem", "deck": "standard",
        "seats": ["ann", "bo"], "first": 1, "last": 1});
    let body = json!({"manifest": manifest, "step_seconds": 600});
    let (code, answer) = served
        .client()
        .call("POST", "/api/hidden", Some(&served.admin()), Some(&body))
        .unwrap();
    assert_eq!(code, 201, "{answer}");
    serde_json::from_value(answer).unwrap()
}

/// The page server and the address its first line names.
struct PageSeat {
    child: Child,
    addr: String,
    line: String,
}

impl Drop for PageSeat {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn page_seat(link: &str, dir: &std::path::Path) -> PageSeat {
    let mut child = Command::new(cargo_bin("fairdeck"))
        .args([
            "hidden",
            "seat",
            "--link",
            "-",
            "--page",
            "--page-bind",
            "127.0.0.1:0",
        ])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{link}").unwrap();
    drop(stdin);
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    PageSeat { child, addr, line }
}

/// One raw HTTP/1.1 exchange: the status, the headers (lowercase) and the body.
fn raw(addr: &str, request: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).unwrap();
    let answer = String::from_utf8_lossy(&bytes).to_string();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let code = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap();
    (code, head.to_ascii_lowercase(), body.to_string())
}

fn get(addr: &str, path: &str) -> (u16, String, String) {
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    raw(addr, &req)
}

#[test]
fn the_seat_page_comes_from_the_players_binary_and_only_the_tables_seat_api_is_passed_on() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(dir.path().join("t.sqlite").to_str().unwrap(), dir.path());
    let inv = open(&served, "own-page");
    let seat = page_seat(&inv.links[0], dir.path());
    assert!(
        seat.line.starts_with("seat 0: open http://127.0.0.1:"),
        "{}",
        seat.line
    );
    assert!(
        seat.line.contains("#table=own-page&seat=0&token="),
        "{}",
        seat.line
    );
    let addr = seat.addr.as_str();

    // The page and its module: the binary's own files, under the usual headers.
    let (code, head, body) = get(addr, "/table/hidden.html");
    assert_eq!(code, 200);
    assert!(body.contains("id=\"trust\""));
    assert!(
        head.contains("content-security-policy: default-src 'self'"),
        "{head}"
    );
    let (code, _, body) = get(addr, "/table/served-by.js");
    assert_eq!(code, 200);
    assert!(body.contains("servedBy = 'player'"), "{body}");
    // The room's copy says the room served it.
    let (_, _, room) = get(&served.addr, "/table/served-by.js");
    assert!(room.contains("servedBy = 'room'"), "{room}");
    let (code, head, _) = get(addr, "/js/hidden/seat.wasm");
    assert_eq!(code, 200);
    assert!(head.contains("content-type: application/wasm"), "{head}");

    // The seat API of the link's table, passed on as JSON.
    let (code, _, body) = get(addr, "/api/hidden/own-page");
    assert_eq!(code, 200, "{body}");
    let status: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(status["table"], "own-page");
    let (code, _, body) = get(addr, "/api/hidden/own-page/transcript?hand=1");
    assert_eq!(code, 200, "{body}");
    // A refusal of the room's comes back as the room's JSON error.
    let (code, _, body) = get(addr, "/api/hidden/own-page/seats/0");
    assert_eq!(code, 401, "{body}");
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());

    // Nothing else: another table, the operator's API, odd paths and queries.
    for path in [
        "/api/hidden/other",
        "/api/hidden",
        "/api/tables",
        "/api/hidden/own-page/transcript?hand=1&x=2",
        "/api/hidden/own-page/../other",
        "/api/hidden/own-pagex",
        "/table/nothing.html",
    ] {
        let (code, _, body) = get(addr, path);
        assert_eq!(code, 404, "{path}: {body}");
        assert!(
            serde_json::from_str::<Value>(&body).unwrap()["error"].is_string(),
            "{path}"
        );
    }
    // Another Host (a DNS-rebinding page) is refused; so is a post that is not JSON.
    let req = format!(
        "GET /api/hidden/own-page HTTP/1.1\r\nHost: evil.example:{}\r\nConnection: close\r\n\r\n",
        addr.rsplit(':').next().unwrap()
    );
    assert_eq!(raw(addr, &req).0, 421);
    let req = format!(
        "POST /api/hidden/own-page/seats/0/key HTTP/1.1\r\nHost: {addr}\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
    );
    assert_eq!(raw(addr, &req).0, 415);
    let req = format!(
        "DELETE /api/hidden/own-page HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    );
    let (code, _, body) = raw(addr, &req);
    assert_eq!(code, 405, "{body}");
    // A post that is not JSON at all never reaches the room.
    let req = format!(
        "POST /api/hidden/own-page/seats/0/key HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 3\r\nConnection: close\r\n\r\nnot"
    );
    let (code, _, body) = raw(addr, &req);
    assert_eq!(code, 400, "{body}");
}

/// `fairdeck hidden seat` with these arguments and the link on stdin.
fn seat_run(link: &str, args: &[&str]) -> std::process::Output {
    let mut child = Command::new(cargo_bin("fairdeck"))
        .args(["hidden", "seat", "--link", "-", "--patience", "1"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A refused flag exits before the link is read.
    let _ = writeln!(child.stdin.take().unwrap(), "{link}");
    child.wait_with_output().unwrap()
}

fn one_line(out: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(text.trim_end().lines().count(), 1, "{text}");
    assert!(!text.contains("panicked"), "{text}");
    text
}

#[test]
fn page_flags_that_cannot_work_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(dir.path().join("t.sqlite").to_str().unwrap(), dir.path());
    let inv = open(&served, "own-page-flags");
    let link = &inv.links[0];
    // The page holds the seat's key: never on an address others can reach.
    let out = seat_run(link, &["--page", "--page-bind", "0.0.0.0:0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(one_line(&out).contains("not a loopback address"));
    // The key lives in the browser; the page has no key file, no --muck, no --seed.
    for flags in [
        &["--page", "--key", "k.key"][..],
        &["--page", "--muck"],
        &["--page", "--seed", "1"],
        &["--page-bind", "127.0.0.1:0"],
    ] {
        let out = seat_run(link, flags);
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
    }
    // A link to a table the room does not have.
    let other = link.replace("own-page-flags", "no-such-table");
    let out = seat_run(&other, &["--page", "--page-bind", "127.0.0.1:0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(one_line(&out).contains("404"));
    // A room that does not answer.
    drop(served);
    let out = seat_run(link, &["--page", "--page-bind", "127.0.0.1:0"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(one_line(&out).contains("cannot reach the room"));
}
