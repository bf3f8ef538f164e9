//! The end-to-end suite every store runs (SQLite file, PostgreSQL server):
//! real tables driven through [`Room`] from opening to the audit.

#![allow(dead_code)]

use std::sync::{Arc, Barrier};

use chacha20::ChaCha20Rng;
use fairdeck_fair::{Manifest, Verdict, VoidPhase};
use fairdeck_table::{Error, Invitation, NewTable, Phase, Room, SeatPass, Store, Street};
use rand_core::SeedableRng;

pub const T0: u64 = 1_000_000;

pub fn manifest(id: &str, game: &str, seats: &[&str], first: u64, last: u64) -> Manifest {
    let deck = match game {
        "skat" => "piquet",
        "scopa" => "italian",
        _ => "standard",
    };
    Manifest {
        version: 2,
        table: id.into(),
        game: game.into(),
        deck: deck.into(),
        seats: seats.iter().map(|s| s.to_string()).collect(),
        first,
        last,
    }
}

pub fn holdem(id: &str, players: usize) -> Manifest {
    let names: Vec<String> = (0..players).map(|i| format!("player {i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    manifest(id, "holdem", &names, 0, 0)
}

pub fn bridge(id: &str) -> Manifest {
    manifest(id, "bridge", &["North", "East", "South", "West"], 1, 2)
}

pub fn request(m: &Manifest) -> NewTable {
    NewTable {
        manifest: m.clone(),
        commit_seconds: 600,
        reveal_seconds: 600,
    }
}

/// The seed seat `i` of table `id` uses in these tests.
pub fn seed(id: &str, i: usize) -> String {
    format!("seed of seat {i} at {id}")
}

/// Opens a table with tokens drawn from a generator seeded by `key`, so a
/// test (or a crashed child's parent) can recompute them.
pub fn open_seeded<S: Store>(
    room: &mut Room<S>,
    m: &Manifest,
    key: u64,
) -> Result<Invitation, Error> {
    room.open_table_with(&request(m), &mut ChaCha20Rng::seed_from_u64(key), T0)
}

pub fn invitation_of(m: &Manifest, key: u64) -> Invitation {
    request(m)
        .open(&mut ChaCha20Rng::seed_from_u64(key), T0)
        .unwrap()
        .1
}

/// Seat `i`'s device secret in these tests (64 hex digits).
pub fn device(i: usize) -> &'static str {
    static DEVICES: std::sync::LazyLock<Vec<String>> =
        std::sync::LazyLock::new(|| (0..64).map(|i| format!("{:064x}", 0xd0 + i)).collect());
    &DEVICES[i]
}

/// What seat `i` of `inv` shows: its token, from its own device.
pub fn pass(inv: &Invitation, i: usize) -> SeatPass<'_> {
    SeatPass::new(inv.seats[i].as_str(), device(i))
}

/// Every seat claims its seat on its own device (again: no change).
pub fn claim_all<S: Store>(room: &mut Room<S>, m: &Manifest, inv: &Invitation) {
    for i in 0..m.seats.len() {
        room.claim(&m.table, i, pass(inv, i), T0).unwrap();
    }
}

pub fn commitment(m: &Manifest, i: usize) -> String {
    m.check()
        .unwrap()
        .seat_commitment(i, &seed(&m.table, i))
        .to_hex()
}

pub fn commit_all<S: Store>(room: &mut Room<S>, m: &Manifest, inv: &Invitation) {
    claim_all(room, m, inv);
    for i in 0..m.seats.len() {
        let v = room
            .commit(&m.table, i, pass(inv, i), &commitment(m, i), T0 + 1)
            .unwrap();
        assert!(v.hands.is_empty());
    }
}

pub fn reveal_all<S: Store>(room: &mut Room<S>, m: &Manifest, inv: &Invitation) {
    for i in 0..m.seats.len() {
        room.reveal(&m.table, i, pass(inv, i), &seed(&m.table, i), T0 + 2)
            .unwrap();
    }
}

/// A six-seat hold'em hand from opening to the audit, checking at every
/// step what each seat and the public can see.
pub fn holdem_hand<S: Store>(room: &mut Room<S>, id: &str) {
    let m = holdem(id, 6);
    let inv = room.open_table(&request(&m), T0).unwrap();
    assert_eq!(inv.commitment, room.public_view(id).unwrap().commitment);
    commit_all(room, &m, &inv);
    assert_eq!(room.public_view(id).unwrap().phase, "revealing");
    reveal_all(room, &m, &inv);
    let op = Some(inv.operator.as_str());
    let dealt = room.deal(id, op, T0 + 3).unwrap();
    let piles = &dealt.deals[0].piles;
    for i in 0..6 {
        let v = room.seat_view(id, i, pass(&inv, i)).unwrap();
        assert_eq!(v.hands.len(), 1);
        assert_eq!(
            v.hands[0].cards, piles[i].cards,
            "seat {i} sees its own hole cards"
        );
        assert!(v.public.community.is_empty() && v.public.transcript.is_none());
        let text = serde_json::to_string(&v).unwrap();
        for (j, pile) in piles.iter().enumerate().filter(|&(j, _)| j != i) {
            for card in &pile.cards {
                assert!(
                    !text.contains(&format!("\"{card}\"")),
                    "seat {i} sees {card} of pile {j}"
                );
            }
        }
    }
    let board = piles
        .iter()
        .find(|p| p.name == "Board")
        .unwrap()
        .cards
        .clone();
    for (street, shown) in [(Street::Flop, 3), (Street::Turn, 4), (Street::River, 5)] {
        room.release(id, op, 0, street, T0 + 4).unwrap();
        let v = room.seat_view(id, 2, pass(&inv, 2)).unwrap();
        assert_eq!(v.public.community[0].shown[0].cards, board[..shown]);
    }
    let closed = room.close(id, op, T0 + 5).unwrap();
    let transcript = closed.public.transcript.clone().unwrap();
    assert_eq!(room.public_view(id).unwrap().transcript, Some(transcript));
    let audit = room.audit(id).unwrap();
    assert!(audit.verification.unwrap().is_valid());
    // created, 6 claims, 6 commitments, 6 reveals, dealt, 3 streets, closed
    assert_eq!(audit.entries, 1 + 6 + 6 + 6 + 1 + 3 + 1);
}

/// A bridge table of two boards: the dummy of board 1 shown, then closed.
pub fn bridge_boards<S: Store>(room: &mut Room<S>, id: &str) {
    let m = bridge(id);
    let inv = room.open_table(&request(&m), T0).unwrap();
    commit_all(room, &m, &inv);
    reveal_all(room, &m, &inv);
    let op = Some(inv.operator.as_str());
    let dealt = room.deal(id, op, T0 + 3).unwrap();
    let v = room.seat_view(id, 0, pass(&inv, 0)).unwrap();
    assert_eq!(v.hands.iter().map(|h| h.deal).collect::<Vec<_>>(), [1, 2]);
    assert!(v.public.community.is_empty(), "no dummy before the lead");
    room.release(id, op, 1, Street::Dummy { seat: 2 }, T0 + 4)
        .unwrap();
    let v = room.seat_view(id, 1, pass(&inv, 1)).unwrap();
    let shown = &v.public.community[0];
    assert_eq!((shown.deal, shown.shown[0].name.as_str()), (1, "South"));
    assert_eq!(shown.shown[0].cards, dealt.deals[0].piles[2].cards);
    room.close(id, op, T0 + 5).unwrap();
    assert!(room.audit(id).unwrap().verification.unwrap().is_valid());
}

/// A seat that never reveals: after the deadline the operator voids the
/// table, the seat is named, and nothing was dealt.
pub fn silent_seat<S: Store>(room: &mut Room<S>, id: &str) {
    let m = holdem(id, 3);
    let inv = room.open_table(&request(&m), T0).unwrap();
    commit_all(room, &m, &inv);
    for i in [0, 2] {
        room.reveal(id, i, pass(&inv, i), &seed(id, i), T0 + 2)
            .unwrap();
    }
    let op = Some(inv.operator.as_str());
    assert!(matches!(
        room.deal(id, op, T0 + 3),
        Err(Error::Phase { .. })
    ));
    let deadline = T0 + 1 + 600;
    assert_eq!(
        room.void_late(id, op, deadline),
        Err(Error::NotLate { deadline })
    );
    let late = room.reveal(id, 1, pass(&inv, 1), &seed(id, 1), deadline + 1);
    assert!(matches!(late, Err(Error::Late { .. })));
    let void = room.void_late(id, op, deadline + 1).unwrap();
    assert_eq!(void.public.phase, "void");
    assert_eq!(void.public.waiting_for, ["player 1"]);
    assert!(void.deals.is_empty());
    let t = void.public.transcript.unwrap();
    let record = t.void.clone().unwrap();
    assert_eq!(
        (record.phase, record.seats),
        (VoidPhase::Reveal, vec!["player 1".to_string()]),
        "the void record names the seat that did not reveal"
    );
    assert_eq!(
        t.lock, void.public.lock,
        "the lock published before the reveals"
    );
    assert!(t.transcript.deals.is_empty() && t.transcript.seats[1].seed.is_none());
    let audit = room.audit(id).unwrap();
    assert_eq!(audit.state.phase, Phase::Void);
    assert_eq!(audit.verification.unwrap().verdict(), Verdict::Void);
}

/// Brings any table of these tests to its close from wherever it stands.
pub fn finish<S: Store>(room: &mut Room<S>, m: &Manifest, inv: &Invitation, now: u64) {
    let id = m.table.as_str();
    let state = room.store().load(id).unwrap().state;
    if state.phase == Phase::Committing {
        claim_all(room, m, inv);
    }
    for i in 0..m.seats.len() {
        let token = pass(inv, i);
        if state.seats[i].commitment.is_none() {
            room.commit(id, i, token, &commitment(m, i), now).unwrap();
        }
    }
    for i in 0..m.seats.len() {
        if state.seats[i].seed.is_none() {
            room.reveal(id, i, pass(inv, i), &seed(id, i), now).unwrap();
        }
    }
    let op = Some(inv.operator.as_str());
    let state = room.store().load(id).unwrap().state;
    if state.phase == Phase::Ready {
        room.deal(id, op, now).unwrap();
    }
    if state.phase != Phase::Closed {
        let done = state.released.get(&0).map_or(0, |r| r.streets);
        for street in [Street::Flop, Street::Turn, Street::River]
            .into_iter()
            .skip(done.into())
        {
            room.release(id, op, 0, street, now).unwrap();
        }
        room.close(id, op, now).unwrap();
    }
}

/// Two connections (`make()` twice) drive the same tables at once: seats
/// commit and reveal from both, then both try to deal every table. Each
/// table is dealt exactly once; the loser is told it is already dealt.
pub fn concurrent_deal<S: Store + Send + 'static>(
    make: impl Fn() -> S + Send + Sync + 'static,
    prefix: &str,
    tables: usize,
) {
    let ms: Vec<Manifest> = (0..tables)
        .map(|t| holdem(&format!("{prefix}-{t}"), 4))
        .collect();
    let mut room = Room::new(make());
    let invs: Vec<Invitation> = ms
        .iter()
        .enumerate()
        .map(|(t, m)| open_seeded(&mut room, m, t as u64).unwrap())
        .collect();
    let shared = Arc::new((ms.clone(), invs.clone(), make));
    let barrier = Arc::new(Barrier::new(2));
    let workers: Vec<_> = (0..2)
        .map(|w| {
            let (shared, barrier) = (shared.clone(), barrier.clone());
            std::thread::spawn(move || {
                let (ms, invs, make) = &*shared;
                let mut room = Room::new(make());
                barrier.wait();
                for (m, inv) in ms.iter().zip(invs) {
                    for i in (w..4).step_by(2) {
                        room.claim(&m.table, i, pass(inv, i), T0).unwrap();
                        let token = pass(inv, i);
                        room.commit(&m.table, i, token, &commitment(m, i), T0 + 1)
                            .unwrap();
                    }
                }
                barrier.wait();
                for (m, inv) in ms.iter().zip(invs) {
                    for i in (w..4).step_by(2) {
                        let token = pass(inv, i);
                        room.reveal(&m.table, i, token, &seed(&m.table, i), T0 + 2)
                            .unwrap();
                    }
                }
                barrier.wait();
                ms.iter()
                    .zip(invs)
                    .map(|(m, inv)| room.deal(&m.table, Some(inv.operator.as_str()), T0 + 3))
                    .map(|r| match r {
                        Ok(_) => true,
                        Err(Error::Phase {
                            action: "deal",
                            phase: "dealt",
                        }) => false,
                        Err(e) => panic!("unexpected refusal {e}"),
                    })
                    .collect::<Vec<bool>>()
            })
        })
        .collect();
    let won: Vec<Vec<bool>> = workers.into_iter().map(|w| w.join().unwrap()).collect();
    for (t, m) in ms.iter().enumerate() {
        assert!(
            won[0][t] ^ won[1][t],
            "table {t}: exactly one deal succeeds"
        );
        let log = room.store().log(&m.table).unwrap();
        assert_eq!(log.iter().filter(|e| e.kind == "dealt").count(), 1);
        finish(&mut room, m, &invs[t], T0 + 4);
        assert!(
            room.audit(&m.table)
                .unwrap()
                .verification
                .unwrap()
                .is_valid()
        );
    }
}

/// The environment variable that tells a race child its tables' prefix.
pub const RACE: &str = "FAIRDECK_TABLE_RACE";
/// When the race children start dealing (milliseconds since the epoch).
pub const RACE_START: &str = "FAIRDECK_TABLE_RACE_START";
const RACE_TABLES: usize = 30;

fn race_tables(prefix: &str) -> Vec<Manifest> {
    (0..RACE_TABLES)
        .map(|t| holdem(&format!("{prefix}-{t}"), 2))
        .collect()
}

fn millis() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
}

/// A race child: waits for the start time, then tries to deal every table
/// of the prefix and prints `won ID` or `lost ID` for each.
pub fn race_child<S: Store>(mut room: Room<S>) {
    let prefix = std::env::var(RACE).expect("run by a race parent");
    let start: u128 = std::env::var(RACE_START).unwrap().parse().unwrap();
    while millis() < start {
        std::thread::yield_now();
    }
    println!(); // libtest's "test NAME ... " has no newline under --nocapture
    for (t, m) in race_tables(&prefix).iter().enumerate() {
        let inv = invitation_of(m, t as u64);
        match room.deal(&m.table, Some(inv.operator.as_str()), T0 + 3) {
            Ok(_) => println!("won {}", m.table),
            Err(Error::Phase {
                action: "deal",
                phase: "dealt",
            }) => println!("lost {}", m.table),
            Err(e) => panic!("unexpected refusal {e}"),
        }
    }
}

/// Two processes (the test binary's `child` test, run with `envs`) deal
/// the same ready tables at once: every table is dealt by exactly one.
pub fn race_processes<S: Store>(
    room: &mut Room<S>,
    prefix: &str,
    child: &str,
    envs: &[(&str, String)],
) {
    let ms = race_tables(prefix);
    for (t, m) in ms.iter().enumerate() {
        let inv = open_seeded(room, m, t as u64).unwrap();
        commit_all(room, m, &inv);
        reveal_all(room, m, &inv);
    }
    let start = (millis() + 500).to_string();
    let children: Vec<_> = (0..2)
        .map(|_| {
            std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    child,
                    "--exact",
                    "--ignored",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .envs(envs.iter().map(|(k, v)| (*k, v.as_str())))
                .env(RACE, prefix)
                .env(RACE_START, &start)
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect::<Vec<_>>() // both run before either is waited for
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    let mut won = std::collections::BTreeMap::<String, usize>::new();
    for out in &children {
        assert!(out.status.success(), "a race child failed");
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("won ") || l.starts_with("lost "))
            .collect();
        assert_eq!(
            lines.len(),
            RACE_TABLES,
            "every table answered in each child"
        );
        for l in lines.iter().filter_map(|l| l.strip_prefix("won ")) {
            *won.entry(l.to_string()).or_default() += 1;
        }
    }
    for m in &ms {
        assert_eq!(
            won.get(&m.table),
            Some(&1),
            "{} is dealt by exactly one process",
            m.table
        );
        let log = room.store().log(&m.table).unwrap();
        assert_eq!(log.iter().filter(|e| e.kind == "dealt").count(), 1);
    }
}

/// The Host the in-process HTTP tests send (the router's bind address).
pub const HOST: &str = "127.0.0.1:8090";
/// The admin token of the in-process HTTP tests.
pub const ADMIN: &str = "admin token of the test";

/// `fairdeck table serve`'s router over a SQLite file in `dir`, bound (for
/// the Host check) to [`HOST`], in process.
pub fn app(dir: &tempfile::TempDir) -> axum::Router {
    let store = fairdeck_table::SqliteStore::open(&dir.path().join("tables.sqlite")).unwrap();
    let bind: std::net::SocketAddr = HOST.parse().unwrap();
    fairdeck_table::service::router(
        fairdeck_table::service::Service::new(store, ADMIN),
        fairdeck_http::access::Access::new(bind, vec![]),
    )
}
