//! Deadlines of hidden tables, on the operations with a chosen clock: a
//! seat that lets the window pass voids the table at the stage it stalled —
//! keys, shuffle, deal or a street — naming the lowest stalled seat and
//! exactly what it did not send (§14), which the verifier accepts; nothing
//! is voided before the deadline, nor while the table waits for the operator.

use chacha20::ChaCha20Rng;
use fairdeck_client::turn::next_post;
use fairdeck_fair::Manifest;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::record::{Missing, Void};
use fairdeck_hidden::seat::Follower;
use fairdeck_hidden::verify::{Options, verify};
use fairdeck_table::SqliteStore;
use fairdeck_table::hidden::desk::{self, board, post};
use fairdeck_table::hidden::store::BoardCache;
use fairdeck_table::hidden::{Advance, BoardStatus, HiddenInvitation, NewHiddenTable, Status};
use rand_core::SeedableRng;

const T0: u64 = 1_000_000;
const STEP: u64 = 30;

struct Table {
    store: SqliteStore,
    cache: BoardCache,
    inv: HiddenInvitation,
    keys: Vec<SecretKey>,
    rng: ChaCha20Rng,
    _dir: tempfile::TempDir,
}

impl Table {
    fn new(id: &str) -> Table {
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
        let manifest = Manifest {
            version: 3,
            table: id.into(),
            game: "holdem".into(),
            deck: "standard".into(),
            seats: vec!["ann".into(), "bo".into(), "cy".into()],
            first: 1,
            last: 1,
        };
        let request = NewHiddenTable {
            manifest,
            step_seconds: STEP,
        };
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let inv = desk::open(&mut store, &request, &mut rng, "http://h", T0).unwrap();
        let keys = (0..3).map(|_| SecretKey::generate(&mut rng)).collect();
        Table {
            store,
            cache: BoardCache::default(),
            inv,
            keys,
            rng,
            _dir: dir,
        }
    }

    /// Seat `seat` sends what it owes at `now`; whether it sent anything.
    fn step(&mut self, seat: u64, now: u64) -> bool {
        let id = self.inv.table.clone();
        let b = board((&mut self.store, &self.cache), &id, now).unwrap();
        let status = Status::of(&b);
        let key = &self.keys[seat as usize];
        let Some(p) = next_post(
            &mut Follower::new(),
            &status,
            b.served(&mut self.rng),
            (seat, key),
            true,
            &mut self.rng,
        )
        .unwrap() else {
            return false;
        };
        let token = self.inv.seats[seat as usize].clone();
        post(
            (&mut self.store, &self.cache),
            &id,
            (seat, Some(&token)),
            p,
            now,
        )
        .unwrap();
        true
    }

    fn advance(&mut self, to: &str, now: u64) {
        let (id, op) = (self.inv.table.clone(), self.inv.operator.clone());
        let step = Advance {
            hand: 1,
            to: to.into(),
        };
        desk::advance((&mut self.store, &self.cache), &id, Some(&op), &step, now).unwrap();
    }

    /// The status at `now` (a passed deadline voids first) and the verified void.
    fn at(&mut self, now: u64) -> (Status, Option<Void>) {
        let id = self.inv.table.clone();
        let b = board((&mut self.store, &self.cache), &id, now).unwrap();
        let v = verify(&b.served(&mut self.rng), &Options::default()).verdict;
        let void = b
            .record
            .void
            .clone()
            .or(b.record.hands.first().and_then(|h| h.void.clone()));
        if void.is_some() {
            assert!(v.is_valid(), "{:?}", v.differences);
        }
        (Status::of(&b), void)
    }
}

fn shares(positions: &[u64]) -> Vec<Missing> {
    positions
        .iter()
        .map(|&position| Missing::Share { position })
        .collect()
}

#[test]
fn a_missing_key_voids_the_whole_table() {
    let mut t = Table::new("keys");
    assert!(t.step(0, T0 + 1));
    let (st, void) = t.at(T0 + 1 + STEP);
    assert_eq!(
        (st.state.as_str(), void),
        ("keys", None),
        "not before the deadline"
    );
    let (st, void) = t.at(T0 + 2 + STEP);
    assert_eq!(st.state, "void");
    let void = void.unwrap();
    assert_eq!(
        (void.stage.as_str(), void.seat, void.missing),
        ("keys", 1, vec![Missing::Key])
    );
    assert!(!t.step(1, T0 + 3 + STEP), "a void table owes nothing");
}

#[test]
fn a_missing_deal_share_voids_naming_the_seat_and_its_positions() {
    let mut t = Table::new("deal");
    for seat in [0, 1, 2, 0, 1, 2, 0, 2] {
        assert!(t.step(seat, T0 + 1)); // keys, shuffles, then seats 0 and 2 share
    }
    let (_, void) = t.at(T0 + 40);
    let void = void.unwrap();
    assert_eq!((void.stage.as_str(), void.seat), ("deal", 1));
    assert_eq!(
        void.missing,
        shares(&[0, 2, 3, 5]),
        "the hole cards of seats 0 and 2"
    );
}

#[test]
fn an_open_street_nobody_shared_voids_naming_seat_0() {
    let mut t = Table::new("flop");
    for seat in [0, 1, 2, 0, 1, 2, 0, 1, 2] {
        assert!(t.step(seat, T0 + 1));
    }
    let (st, void) = t.at(T0 + 1000);
    assert_eq!(
        (st.state.as_str(), void),
        ("playing", None),
        "waiting for the operator voids nothing"
    );
    assert_eq!(st.next, ["flop", "showdown", "end"]);
    t.advance("flop", T0 + 1000);
    let (_, void) = t.at(T0 + 1000 + STEP + 1);
    let void = void.unwrap();
    assert_eq!((void.stage.as_str(), void.seat), ("flop", 0));
    assert_eq!(void.missing, shares(&[7, 8, 9]));
}

#[test]
fn the_hidden_log_is_append_only() {
    let mut t = Table::new("log");
    assert!(t.step(0, T0 + 1));
    let path = t._dir.path().join("t.sqlite");
    let raw = rusqlite::Connection::open(&path).unwrap();
    for sql in [
        "UPDATE hidden_log SET entry = '{}' WHERE seq = 1",
        "DELETE FROM hidden_log WHERE seq = 1",
    ] {
        let e = raw.execute(sql, []).unwrap_err().to_string();
        assert!(e.contains("append-only"), "{sql}: {e}");
    }
    let (st, _) = t.at(T0 + 2);
    assert_eq!(st.entries, 2, "the opening and seat 0's key, unchanged");
}

/// Two service processes on one database, each with its own cache of
/// boards: each sees what the other appended, and a cached board is always
/// what a fresh replay of the log gives.
#[test]
fn cached_boards_follow_changes_made_by_another_process() {
    let mut t = Table::new("two");
    let path = t._dir.path().join("t.sqlite");
    let (mut other, other_cache) = (SqliteStore::open(&path).unwrap(), BoardCache::default());
    for seat in [0, 1, 2, 0] {
        assert!(t.step(seat, T0 + 1)); // keys and seat 0's shuffle, through the first store
    }
    let theirs = board((&mut other, &other_cache), "two", T0 + 1).unwrap();
    assert_eq!(
        Status::of(&theirs).owed_by(1),
        Some(&[Missing::Shuffle][..])
    );
    // Seat 1 shuffles through the other process.
    let key = t.keys[1].clone();
    let st = Status::of(&theirs);
    let p = next_post(
        &mut Follower::new(),
        &st,
        theirs.served(&mut t.rng),
        (1, &key),
        true,
        &mut t.rng,
    )
    .unwrap()
    .unwrap();
    let token = t.inv.seats[1].clone();
    post(
        (&mut other, &other_cache),
        "two",
        (1, Some(&token)),
        p,
        T0 + 2,
    )
    .unwrap();
    let ours = board((&mut t.store, &t.cache), "two", T0 + 3).unwrap();
    let fresh = board((&mut t.store, &BoardCache::default()), "two", T0 + 3).unwrap();
    assert_eq!(ours.record, fresh.record);
    assert_eq!(Status::of(&ours), Status::of(&fresh));
    assert_eq!(Status::of(&ours).owed_by(2), Some(&[Missing::Shuffle][..]));
}

/// The operator moves a hand on only in the game's order, only once nothing
/// is owed, and only with its own token.
#[test]
fn the_operator_moves_on_in_order() {
    use fairdeck_table::hidden::Refused;
    let mut t = Table::new("order");
    let (id, op) = (t.inv.table.clone(), t.inv.operator.clone());
    let step = |t: &mut Table, token: &str, to: &str| {
        let s = Advance {
            hand: 1,
            to: to.into(),
        };
        desk::advance((&mut t.store, &t.cache), &id, Some(token), &s, T0 + 5)
    };
    assert!(
        matches!(step(&mut t, &op, "end"), Err(Refused::NotNow(_))),
        "keys owed"
    );
    for seat in [0, 1, 2, 0, 1, 2, 0, 1, 2] {
        assert!(t.step(seat, T0 + 1));
    }
    let seat_token = t.inv.seats[0].clone();
    assert!(matches!(
        step(&mut t, &seat_token, "flop"),
        Err(Refused::Table(fairdeck_table::Error::Forbidden))
    ));
    assert!(
        matches!(step(&mut t, &op, "turn"), Err(Refused::Table(_))),
        "the flop comes first"
    );
    step(&mut t, &op, "flop").unwrap();
    assert!(
        matches!(step(&mut t, &op, "turn"), Err(Refused::NotNow(_))),
        "the flop's shares are owed"
    );
    for seat in 0..3 {
        assert!(t.step(seat, T0 + 6));
    }
    step(&mut t, &op, "showdown").unwrap();
    assert!(
        matches!(step(&mut t, &op, "turn"), Err(Refused::Table(_))),
        "no street after the showdown"
    );
    for seat in 0..3 {
        assert!(t.step(seat, T0 + 7)); // every seat opens its cards
    }
    let b = step(&mut t, &op, "end").unwrap();
    assert!(b.finished() && !b.void());
    let v = verify(&b.served(&mut t.rng), &Options::default()).verdict;
    assert!(v.is_valid(), "{:?}", v.differences);
    assert_eq!(
        v.hands[0].community.len(),
        3,
        "the flop only: the hand ended early"
    );
    assert_eq!(v.hands[0].opened.len(), 6);
}

/// A service that was down longer than the window does not void the table
/// on its first request after it starts: the seat it waits for gets the
/// whole window from the start (the cache of a process that started at
/// `up`). Control: the same board read by a cache of a process that was up
/// all along voids it at once.
#[test]
fn downtime_of_the_service_is_not_counted_against_a_seat() {
    let mut t = Table::new("downtime");
    t.step(0, T0 + 1);
    let id = t.inv.table.clone();
    let up = T0 + 10 * STEP;
    let after_restart = BoardCache::awake_since(up);
    let b = board((&mut t.store, &after_restart), &id, up + 1).unwrap();
    assert!(b.record.void.is_none(), "voided for the service's downtime");
    assert_eq!(Status::of(&b).deadline, Some(up + STEP));
    let b = board((&mut t.store, &after_restart), &id, up + STEP + 1).unwrap();
    let void = b
        .record
        .void
        .clone()
        .expect("void after the window from the start");
    assert_eq!(void.seat, 1);
    // Control: a cache that never restarted voids on the same read.
    let mut fresh = Table::new("downtime-control");
    fresh.step(0, T0 + 1);
    let id = fresh.inv.table.clone();
    let b = board((&mut fresh.store, &fresh.cache), &id, up + 1).unwrap();
    assert!(b.record.void.is_some());
}
