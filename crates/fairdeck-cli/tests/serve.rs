//! `fairdeck serve` as a process: it prints its real URL (port 0 picks one),
//! answers on it, refuses a bad `--bind`, drops slow clients, and answers
//! heads too large for it with JSON.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `fairdeck serve` on a free loopback port; killed on drop.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(extra: &[&str]) -> Self {
        let args: Vec<&std::ffi::OsStr> = ["serve", "--bind", "127.0.0.1:0"]
            .iter()
            .chain(extra)
            .map(std::ffi::OsStr::new)
            .collect();
        let (child, addr) = common::spawn_server(&args, "fairdeck serve:");
        Self { child, addr }
    }

    /// A connection that gives up reading after a minute (a test bound, far
    /// above the server's 10 s limits).
    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Everything the server sends until it closes the connection, and how long
/// that took; panics when it keeps the connection open past the test bound.
fn until_closed(stream: &mut TcpStream) -> (String, Duration) {
    let start = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!(
                "the server kept a slow client for {:?}: {e}",
                start.elapsed()
            ),
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), start.elapsed())
}

/// Writes `bytes` one a second from another thread, until the server hangs up.
fn trickle(stream: &TcpStream, bytes: &'static [u8]) {
    let mut writer = stream.try_clone().unwrap();
    std::thread::spawn(move || {
        for b in bytes {
            if writer.write_all(&[*b]).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_secs(1));
        }
    });
}

// The three slow-client tests below wait for the server's 10 s limits
// (limits::HEAD_TIME, BODY_TIME); the clients would go on for 60 s and more.

#[test]
fn a_head_trickled_a_byte_a_second_is_cut_off() {
    let server = Server::start(&[]);
    let mut stream = server.connect();
    trickle(&stream, b"GET /api/chaos?values=2%201 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n");
    let (got, took) = until_closed(&mut stream);
    assert!(!got.contains("200 OK"), "{got}");
    assert!(took < Duration::from_secs(30), "{took:?}");
}

#[test]
fn a_body_trickled_a_byte_a_second_gets_408() {
    let server = Server::start(&[]);
    let mut stream = server.connect();
    write!(
        stream,
        "POST /api/chaos HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: 80\r\n\r\n",
        server.addr
    )
    .unwrap();
    trickle(
        &stream,
        b"{\"values\": \"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25\"}",
    );
    let (got, took) = until_closed(&mut stream);
    assert!(got.starts_with("HTTP/1.1 408"), "{got}");
    assert!(got.contains(r#""parameter":"body""#), "{got}");
    assert!(took < Duration::from_secs(30), "{took:?}");
}

#[test]
fn an_idle_kept_alive_connection_is_closed() {
    let server = Server::start(&[]);
    let mut stream = server.connect();
    write!(
        stream,
        "GET /api/chaos?values=2%201 HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.addr
    )
    .unwrap();
    let (got, took) = until_closed(&mut stream);
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    assert!(took < Duration::from_secs(30), "{took:?}");
}

#[test]
fn heads_too_large_for_the_parser_get_json_errors() {
    let server = Server::start(&[]);
    // Over hyper's own limits: a 70 000-byte target, 120 header lines.
    let long = format!(
        "GET /api/deal?seed={} HTTP/1.1\r\nHost: {}\r\n\r\n",
        "x".repeat(70_000),
        server.addr
    );
    let many = format!(
        "GET / HTTP/1.1\r\nHost: {}\r\n{}\r\n",
        server.addr,
        (0..120)
            .map(|i| format!("X-H{i}: 1\r\n"))
            .collect::<String>()
    );
    for (request, status) in [(long, "414"), (many, "431")] {
        let mut stream = server.connect();
        stream.write_all(request.as_bytes()).unwrap();
        let (got, _) = until_closed(&mut stream);
        assert!(got.starts_with(&format!("HTTP/1.1 {status} ")), "{got}");
        assert!(got.contains("content-type: application/json"), "{got}");
        assert!(got.contains("x-content-type-options: nosniff"), "{got}");
        let body = got.split("\r\n\r\n").nth(1).unwrap();
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(json["error"].as_str().unwrap().contains("too"), "{got}");
    }
}

#[test]
fn allow_host_adds_a_name_and_refuses_bad_ones() {
    let server = Server::start(&["--allow-host", "box.lan"]);
    let port = server.addr.rsplit(':').next().unwrap().to_string();
    for (host, status) in [("box.lan", "200"), ("rebind.example", "421")] {
        let mut stream = server.connect();
        write!(
            stream,
            "GET /api/chaos?values=1 HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let (got, _) = until_closed(&mut stream);
        assert!(
            got.starts_with(&format!("HTTP/1.1 {status}")),
            "{host}: {got}"
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_fairdeck"))
        .args(["serve", "--allow-host", "box.lan:80"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--allow-host wants a host name"));
}

#[test]
fn serve_prints_its_url_and_answers_there() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairdeck"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("fairdeck serve: http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    let mut stream = TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "GET /api/chaos?values=2%201 HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(
        response.ends_with(r#"{"chaos":0,"ascending":1,"descending":0}"#),
        "{response}"
    );
}

#[test]
fn a_bad_bind_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_fairdeck"))
        .args(["serve", "--bind", "localhost"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--bind wants ADDR:PORT"));
}

/// Issue 26: `fairdeck serve > /dev/full` panicked on printing its address.
/// Now the address goes to stderr with the reason, and the server serves.
#[test]
fn a_full_stdout_does_not_stop_the_server() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairdeck"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("fairdeck: cannot write the address to stdout (No space left on device (os error 28)); serving on http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    let server = Server { child, addr };
    let mut stream = server.connect();
    write!(
        stream,
        "GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .unwrap();
    let (reply, _) = until_closed(&mut stream);
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
}
