//! Hidden tables over real HTTP: the service on a loopback port (its own
//! thread and runtime, a SQLite file), seats driven by the library
//! (`fairdeck_client::turn::next_post` over `fairdeck_hidden`), and
//! the operator moving hands on.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::Path;

use chacha20::ChaCha20Rng;
use fairdeck_client::Client;
use fairdeck_client::turn::next_post;
use fairdeck_fair::Manifest;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::record::Record;
use fairdeck_hidden::seat::Follower;
use fairdeck_table::hidden::{HiddenInvitation, Post, Status};
use fairdeck_table::service::{Service, serve};
use fairdeck_table::{SqliteStore, Store};
use rand_core::SeedableRng;
use serde_json::{Value, json};

/// The admin token of these tests.
pub const ADMIN: &str = "admin token of the hidden-table tests";

/// A running service; stopped when dropped.
pub struct Server {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Serves `db` (a SQLite file) on a free loopback port.
    pub fn start(db: &Path) -> Server {
        Server::with(SqliteStore::open(db).unwrap())
    }

    /// Serves `store` on a free loopback port.
    pub fn with<S: Store + Send + 'static>(store: S) -> Server {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            let svc = Service::new(store, ADMIN);
            let keep = std::sync::Arc::clone(&svc);
            rt.block_on(async move {
                let bind: SocketAddr = "127.0.0.1:0".parse().unwrap();
                let ready = move |a| ready_tx.send(a).unwrap();
                serve(svc, bind, vec![], ready, async {
                    let _ = rx.await;
                })
                .await
                .unwrap();
            });
            drop(rt);
            drop(keep);
        });
        let addr = ready_rx.recv().unwrap();
        Server {
            addr,
            stop: Some(tx),
            thread: Some(thread),
        }
    }

    pub fn client(&self) -> Client {
        Client::new(&self.addr.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

pub fn manifest(id: &str, seats: usize, hands: u64) -> Manifest {
    Manifest {
        version: 3,
        table: id.into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: (0..seats).map(|i| format!("seat-{i}")).collect(),
        first: 1,
        last: hands,
    }
}

thread_local! {
    static ANSWERS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Every answer this thread received, in order (drained).
pub fn answers() -> Vec<String> {
    ANSWERS.with(|a| std::mem::take(&mut *a.borrow_mut()))
}

/// One request; its answer is recorded for [`answers`].
pub fn call(
    client: &mut Client,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    let (code, answer) = client.call(method, path, token, body).unwrap();
    ANSWERS.with(|a| a.borrow_mut().push(answer.to_string()));
    (code, answer)
}

/// Opens a hidden table through the API.
pub fn open(client: &mut Client, m: &Manifest, step_seconds: u64) -> HiddenInvitation {
    let body = json!({"manifest": m, "step_seconds": step_seconds});
    let (status, answer) = call(client, "POST", "/api/hidden", Some(ADMIN), Some(&body));
    assert_eq!(status, 201, "{answer}");
    serde_json::from_value(answer).unwrap()
}

pub fn status(client: &mut Client, id: &str) -> Status {
    let (code, answer) = call(client, "GET", &format!("/api/hidden/{id}"), None, None);
    assert_eq!(code, 200, "{answer}");
    serde_json::from_value(answer).unwrap()
}

pub fn transcript(client: &mut Client, id: &str) -> Record {
    let (code, answer) = call(
        client,
        "GET",
        &format!("/api/hidden/{id}/transcript"),
        None,
        None,
    );
    assert_eq!(code, 200, "{answer}");
    Record::from_json(&answer.to_string()).unwrap()
}

/// Posts a seat's message; the status code and the answer.
pub fn send(
    client: &mut Client,
    id: &str,
    (seat, token): (u64, &str),
    post: &Post,
) -> (u16, Value) {
    let path = format!("/api/hidden/{id}/seats/{seat}/{}", post.route());
    call(client, "POST", &path, Some(token), Some(&post.to_json()))
}

/// The operator's step.
pub fn advance(client: &mut Client, id: &str, operator: &str, hand: u64, to: &str) -> (u16, Value) {
    let body = json!({"hand": hand, "to": to});
    let path = format!("/api/hidden/{id}/advance");
    call(client, "POST", &path, Some(operator), Some(&body))
}

/// A seat played by the library: its key and generator.
pub struct Seat {
    pub seat: u64,
    pub token: String,
    pub key: SecretKey,
    pub rng: ChaCha20Rng,
    /// What the seat has verified (each proof checked once).
    pub follower: Follower,
}

impl Seat {
    pub fn new(inv: &HiddenInvitation, seat: u64, seed: u64) -> Seat {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        Seat {
            seat,
            token: inv.seats[seat as usize].clone(),
            key: SecretKey::generate(&mut rng),
            rng,
            follower: Follower::new(),
        }
    }

    /// What the seat sends next, if anything (the transcript verified first).
    pub fn next(&mut self, client: &mut Client, id: &str) -> Option<Post> {
        let status = status(client, id);
        if status.owed_by(self.seat).is_none() && !status.showdown {
            return None;
        }
        let record = transcript(client, id);
        next_post(
            &mut self.follower,
            &status,
            record,
            (self.seat, &self.key),
            true,
            &mut self.rng,
        )
        .unwrap()
    }

    /// Sends its next message, if any; whether it sent one.
    pub fn step(&mut self, client: &mut Client, id: &str) -> bool {
        let Some(post) = self.next(client, id) else {
            return false;
        };
        let (code, answer) = send(client, id, (self.seat, &self.token), &post);
        assert_eq!(code, 200, "seat {}: {answer}", self.seat);
        true
    }
}

/// Plays until the table is over or `stop` says so after a round in
/// which nobody sent anything: every seat sends what it owes, and the
/// operator moves the hand on (each street, the showdown, the end).
pub fn play(
    client: &mut Client,
    id: &str,
    operator: &str,
    seats: &mut [Seat],
    mut stop: impl FnMut(&Status) -> bool,
) -> Status {
    loop {
        let mut sent = false;
        for s in seats.iter_mut() {
            sent |= s.step(client, id);
        }
        if sent {
            continue;
        }
        let st = status(client, id);
        if st.state == "finished" || st.state == "void" || stop(&st) {
            return st;
        }
        let (Some(hand), Some(to)) = (st.hand, st.next.first()) else {
            panic!("nobody owes anything and the operator has no step: {st:?}");
        };
        let (code, answer) = advance(client, id, operator, hand, to);
        assert_eq!(code, 200, "{answer}");
    }
}

/// The room's own shuffle for seat `j`'s place of hand 1: a permutation it
/// chose, with a proof that holds (a shuffle proof needs no secret).
pub fn rooms_shuffle(
    client: &mut Client,
    id: &str,
    j: usize,
) -> fairdeck_hidden::shuffle::ShuffleMessage {
    let mut record = transcript(client, id);
    let progress = fairdeck_hidden::verify::Options {
        in_progress: true,
        ..Default::default()
    };
    record.hands[0].shuffles.truncate(j);
    let state = fairdeck_hidden::verify::verify(&record, &progress)
        .state
        .unwrap();
    let input = match j {
        0 => fairdeck_hidden::elgamal::PublishedDeck::from_deck(state.table.starting_deck()),
        _ => state.hands[0].deck.clone(),
    };
    let mut rng = chacha20::ChaCha20Rng::seed_from_u64(666);
    let hand = (1, j as u64);
    fairdeck_hidden::shuffle::shuffle(&state.table, hand.0, hand.1, &state.joint, &input, &mut rng)
        .unwrap()
        .0
}
