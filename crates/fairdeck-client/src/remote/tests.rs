//! A seat's connection against a stand-in service on loopback that
//! answers each request with the next canned answer and records what it
//! was asked.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::Duration;

use super::*;

/// Serves `answers` (status, JSON body), one per connection, and sends
/// each request's first line back on the channel.
fn stand_in(answers: Vec<(u16, &'static str)>) -> (String, mpsc::Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for (code, body) in answers {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream);
            let (mut first, mut line, mut length) = (String::new(), String::new(), 0);
            reader.read_line(&mut first).unwrap();
            while reader.read_line(&mut line).unwrap() > 2 {
                if let Some(n) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = n.trim().parse().unwrap();
                }
                line.clear();
            }
            reader.read_exact(&mut vec![0; length]).unwrap();
            tx.send(first.trim_end().to_string()).unwrap();
            let answer = format!(
                "HTTP/1.1 {code} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            reader.get_mut().write_all(answer.as_bytes()).unwrap();
        }
    });
    (addr, rx)
}

fn remote(addr: &str) -> Remote {
    let link = Link {
        addr: addr.into(),
        table: "t1".into(),
        seat: 2,
        token: "tok".into(),
    };
    Remote::new(link, Duration::ZERO)
}

fn key_post() -> Post {
    let table = fairdeck_hidden::Table::new(fairdeck_fair::Manifest {
        version: fairdeck_hidden::VERSION,
        table: "t1".into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: vec!["a".into(), "b".into(), "c".into()],
        first: 1,
        last: 1,
    })
    .unwrap();
    let mut rng = <chacha20::ChaCha20Rng as rand_core::SeedableRng>::from_seed([3; 32]);
    let key = SecretKey::generate(&mut rng);
    Post::Key(fairdeck_hidden::keys::key_message(&table, 2, &key, &mut rng).unwrap())
}

#[test]
fn posts_are_taken_postponed_or_refused_by_their_status() {
    let refusal = r#"{"error":"key-proof: seat 2"}"#;
    let (addr, asked) = stand_in(vec![(200, "{}"), (409, "{}"), (422, refusal)]);
    let mut r = remote(&addr);
    let post = key_post();
    assert!(r.send(&post).unwrap());
    assert!(r.take_receipts().is_empty());
    assert!(!r.send(&post).unwrap());
    let e = r.send(&post).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the service refused seat 2's key: 422 key-proof: seat 2"
    );
    for _ in 0..3 {
        assert_eq!(
            asked.recv().unwrap(),
            "POST /api/hidden/t1/seats/2/key HTTP/1.1"
        );
    }
}

#[test]
fn reads_name_the_path_and_status_of_a_refusal() {
    let (addr, asked) = stand_in(vec![(404, r#"{"error":"no such table"}"#)]);
    let e = remote(&addr).status().unwrap_err();
    assert_eq!(e.to_string(), "/api/hidden/t1: 404 no such table");
    assert_eq!(asked.recv().unwrap(), "GET /api/hidden/t1 HTTP/1.1");
}

#[test]
fn an_unreachable_service_is_named_with_its_error() {
    // A port nothing listens on: bound, then closed.
    let addr = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let e = remote(&addr.to_string()).record(Some(1)).unwrap_err();
    assert_eq!(e.to_string(), format!("cannot reach {addr}"));
    assert!(std::error::Error::source(&e).is_some());
}

#[test]
fn the_room_is_at_fault_only_for_what_only_it_can_do() {
    use crate::turn::room_at_fault;
    assert!(room_at_fault(&fairdeck_hidden::Error::Room(
        "rewritten".into()
    )));
    assert!(!room_at_fault(&fairdeck_hidden::Error::UnexpectedMessage(
        "x".into()
    )));
}
