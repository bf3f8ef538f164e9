//! Refused tokens on a hidden table are counted for that table: once one
//! address has sent `MAX_REFUSALS` wrong tokens to `/api/hidden/{id}/…`,
//! further wrong ones there are answered 429, while the right tokens on it
//! and a wrong token on another hidden table, on a version-2 table of the
//! same id and on the admin route are answered as usual, without a pause.

mod common;

use std::time::{Duration, Instant};

use chacha20::ChaCha20Rng;
use fairdeck_client::Client;
use fairdeck_client::turn::next_post;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::seat::Follower;
use fairdeck_table::hidden::{HiddenInvitation, Status};
use fairdeck_table::limit::{MAX_REFUSALS, PAUSE};
use rand_core::SeedableRng;
use serde_json::{Value, json};

fn open_hidden(client: &mut Client, admin: &str, id: &str) -> HiddenInvitation {
    let manifest = json!({"version": 3, "table": id, "game": "holdem", "deck": "standard",
        "seats": ["ann", "bo"], "first": 1, "last": 1});
    let body = json!({"manifest": manifest, "step_seconds": 600});
    let (code, answer) = client
        .call("POST", "/api/hidden", Some(admin), Some(&body))
        .unwrap();
    assert_eq!(code, 201, "{answer}");
    serde_json::from_value(answer).unwrap()
}

/// Seat 0's key message on `inv`'s table: its path and body.
fn key_post(client: &mut Client, inv: &HiddenInvitation) -> (String, Value) {
    let id = &inv.table;
    let (_, st) = client
        .call("GET", &format!("/api/hidden/{id}"), None, None)
        .unwrap();
    let st: Status = serde_json::from_value(st).unwrap();
    let (_, record) = client
        .call("GET", &format!("/api/hidden/{id}/transcript"), None, None)
        .unwrap();
    let record = fairdeck_hidden::record::Record::from_json(&record.to_string()).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let key = SecretKey::generate(&mut rng);
    let post = next_post(
        &mut Follower::new(),
        &st,
        record,
        (0, &key),
        false,
        &mut rng,
    )
    .unwrap()
    .unwrap();
    (format!("/api/hidden/{id}/seats/0/key"), post.to_json())
}

/// Seat 0's key message sent with its right token: accepted, and answered
/// well within a pause.
fn right_key(client: &mut Client, inv: &HiddenInvitation) {
    let (path, body) = key_post(client, inv);
    let (code, answer, took) = timed(client, &path, &inv.seats[0], &body);
    assert_eq!(code, 200, "{answer}");
    assert!(took < PAUSE, "a right token waited {took:?}");
}

fn timed(client: &mut Client, path: &str, token: &str, body: &Value) -> (u16, Value, Duration) {
    let start = Instant::now();
    let (code, answer) = client.call("POST", path, Some(token), Some(body)).unwrap();
    (code, answer, start.elapsed())
}

#[test]
fn wrong_tokens_on_one_hidden_table_slow_no_one_else() {
    let dir = tempfile::tempdir().unwrap();
    let (db, admin_file) = (dir.path().join("t.sqlite"), dir.path().join("admin"));
    let args: Vec<&std::ffi::OsStr> = ["table", "serve", "--bind", "127.0.0.1:0", "--db"]
        .iter()
        .map(std::ffi::OsStr::new)
        .chain([
            db.as_os_str(),
            "--admin-token-file".as_ref(),
            admin_file.as_os_str(),
        ])
        .collect();
    let (mut child, addr) = common::spawn_server(&args, "fairdeck table serve:");
    let admin = std::fs::read_to_string(&admin_file).unwrap();
    let admin = admin.trim();
    let mut client = Client::new(&addr);
    let (h1, h2) = (
        open_hidden(&mut client, admin, "h1"),
        open_hidden(&mut client, admin, "h2"),
    );
    let v2 = json!({"manifest": {"version": 2, "table": "h1", "game": "holdem",
        "deck": "standard", "seats": ["ann", "bob"], "first": 0, "last": 0},
        "commit_seconds": 600, "reveal_seconds": 600});
    let (code, answer) = client
        .call("POST", "/api/tables", Some(admin), Some(&v2))
        .unwrap();
    assert_eq!(code, 201, "{answer}");
    let wrong = "f".repeat(64);
    let (h1_key, body) = key_post(&mut client, &h1);
    let (h2_key, h2_body) = key_post(&mut client, &h2);
    for _ in 0..MAX_REFUSALS {
        let (code, answer, _) = timed(&mut client, &h1_key, &wrong, &body);
        assert_eq!(code, 403, "{answer}");
    }
    let (code, answer, _) = timed(&mut client, &h1_key, &wrong, &body);
    assert_eq!(code, 429, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("too many refused tokens")
    );
    // The right tokens, on that table and another.
    right_key(&mut client, &h1);
    right_key(&mut client, &h2);
    // Wrong tokens elsewhere (seat 0 of h2 has sent its key: its token is
    // checked first, so the wrong one is still a 403) are refused as usual, at once: counted apart.
    let commit = json!({"commitment": "00"});
    let open = json!({"manifest": {"version": 3, "table": "h3", "game": "holdem",
        "deck": "standard", "seats": ["ann", "bo"], "first": 1, "last": 1}, "step_seconds": 60});
    for (path, body, refused) in [
        (h2_key.as_str(), &h2_body, 403),
        ("/api/tables/h1/seats/0/commit", &commit, 403),
        ("/api/hidden", &open, 403),
    ] {
        let (code, answer, took) = timed(&mut client, path, &wrong, body);
        assert_eq!(code, refused, "{path}: {answer}");
        assert!(took < PAUSE, "{path} waited {took:?}");
    }
    let _ = child.kill();
    let _ = child.wait();
}
