//! `fairdeck hidden seat` processes ride out SIGKILLs of the service: two
//! CLI seats and one library seat play a hidden hand while the service is
//! killed mid-shuffle and mid-deal (the CLI seats may have a request in
//! flight) and started again on the same database and address. The CLI
//! seats wait for it, go on from what the status says, print their cards
//! and verify the whole hand; `fair verify` says valid.

mod common;

use std::collections::HashSet;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use chacha20::ChaCha20Rng;
use common::served::Served;
use fairdeck_client::Client;
use fairdeck_client::turn::next_post;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::record::Record;
use fairdeck_hidden::seat::Follower;
use fairdeck_table::hidden::{HiddenInvitation, Status};
use rand_core::SeedableRng;
use serde_json::json;

fn get<T: serde::de::DeserializeOwned>(client: &mut Client, path: &str) -> T {
    let (code, answer) = client.call("GET", path, None, None).unwrap();
    assert_eq!(code, 200, "{path}: {answer}");
    serde_json::from_value(answer).unwrap()
}

fn transcript(client: &mut Client) -> Record {
    let value: serde_json::Value = get(client, "/api/hidden/ride/transcript");
    Record::from_json(&value.to_string()).unwrap()
}

fn cli_seat(dir: &std::path::Path, link: &str, seat: usize) -> Child {
    Command::new(cargo_bin("fairdeck"))
        .args(["hidden", "seat", "--poll-ms", "100", "--patience", "60"])
        .args(["--link", link, "--key"])
        .arg(dir.join(format!("seat{seat}.key")))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Where the next kill comes: while seat 2 (the library's) has not sent its
/// shuffle and another seat has; then while it holds back its deal shares
/// and another seat has sent its own.
fn kill_now(kills: usize, st: &Status, record: &Record) -> bool {
    let hand = record.hands.first();
    match kills {
        0 => hand.is_some_and(|h| !h.shuffles.is_empty()) && st.stage.as_deref() == Some("shuffle"),
        1 => hand.is_some_and(|h| !h.deal.is_empty()) && st.stage.as_deref() == Some("deal"),
        _ => false,
    }
}

/// Seat 2 and the operator, with the two kills, until the table is over.
fn drive(served: &mut Served, client: &mut Client, inv: &HiddenInvitation) -> Status {
    let key = SecretKey::generate(&mut ChaCha20Rng::seed_from_u64(5));
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    let mut follower = Follower::new();
    let (mut kills, start) = (0, Instant::now());
    loop {
        assert!(start.elapsed() < Duration::from_secs(240), "stalled");
        let st: Status = get(client, "/api/hidden/ride");
        if st.state == "finished" || st.state == "void" {
            assert_eq!(kills, 2, "the table ended before both kills");
            return st;
        }
        let record = transcript(client);
        if kill_now(kills, &st, &record) {
            served.kill_and_restart(client);
            kills += 1;
            continue;
        }
        let held = kills < 2 && st.stage.as_deref() == Some("deal");
        if let Some(post) = next_post(
            &mut follower,
            &st,
            record.clone(),
            (2, &key),
            true,
            &mut rng,
        )
        .unwrap()
        .filter(|_| !held)
        {
            let path = format!("/api/hidden/ride/seats/2/{}", post.route());
            let (code, answer) = client
                .call("POST", &path, Some(&inv.seats[2]), Some(&post.to_json()))
                .unwrap();
            // 409: keys come in seat order; the CLI seats' are not all in.
            assert!(code == 200 || code == 409, "{answer}");
            if code == 200 {
                continue;
            }
        }
        let opened = record.hands.first().map_or(0, |h| h.showdown.len());
        let to = st.next.first().filter(|to| *to != "end" || opened == 6);
        if let Some(to) = to.filter(|_| st.owed.is_empty()) {
            let body = json!({"hand": st.hand, "to": to});
            let (code, answer) = client
                .call(
                    "POST",
                    "/api/hidden/ride/advance",
                    Some(&inv.operator),
                    Some(&body),
                )
                .unwrap();
            assert_eq!(code, 200, "{answer}");
            continue;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn cli_seats_ride_out_kills_mid_shuffle_and_mid_deal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let mut served = Served::start(db.to_str().unwrap(), dir.path());
    let mut client = served.client();
    let manifest = json!({"version": 3, "table": "ride", "game": "holdem", "deck": "standard",
        "seats": ["ann", "bo", "cy"], "first": 1, "last": 1});
    let body = json!({"manifest": manifest, "step_seconds": 600});
    let (code, answer) = client
        .call("POST", "/api/hidden", Some(&served.admin()), Some(&body))
        .unwrap();
    assert_eq!(code, 201, "{answer}");
    let inv: HiddenInvitation = serde_json::from_value(answer).unwrap();
    let seats: Vec<Child> = (0..2)
        .map(|i| cli_seat(dir.path(), &inv.links[i], i))
        .collect();
    let end = drive(&mut served, &mut client, &inv);
    assert_eq!(end.state, "finished");
    let mut waited = false;
    for (i, child) in seats.into_iter().enumerate() {
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "seat {i}: {text}");
        assert!(
            text.contains(&format!("hand 1: seat {i}'s cards: ")),
            "{text}"
        );
        assert!(text.contains("\nvalid: every message"), "{text}");
        waited |= text.contains("trying again") || text.contains("reading the table again");
    }
    assert!(waited, "no CLI seat saw the service gone");
    let record = transcript(&mut client);
    assert_eq!(record.hands[0].shuffles.len(), 3);
    let shares = record.hands[0].deal.iter().map(|m| (m.seat, m.position));
    let distinct: HashSet<(u64, u64)> = shares.clone().collect();
    assert_eq!(
        distinct.len(),
        shares.count(),
        "a deal share is there twice"
    );
    let said = common::fair_verify_written(&dir.path().join("ride.json"), &record.to_json());
    assert!(said.contains("\nvalid: every message"), "{said}");
}
