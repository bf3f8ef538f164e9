//! Nobody but its owner sees a hole card before the showdown: during a
//! whole hand over HTTP, neither the database file (with its write-ahead
//! log) nor any answer of the service holds a hole card's name or its
//! point's encoding, and the shares the service stores never suffice to
//! decrypt a hole card (the owner's share is never posted). At the
//! showdown (the negative control) the stored shares do open the cards,
//! and they are the cards each seat saw. Also: the service restarted in
//! the middle of the shuffles carries on with the same hand.

mod bulletin;

use std::path::Path;

use bulletin::*;
use fairdeck_hidden::deal::{Reader, open as open_card};
use fairdeck_hidden::group::{card_point, decode_point, encode_point};
use fairdeck_hidden::verify::{Options, verify};
use fairdeck_table::SqliteStore;
use fairdeck_table::hidden::store::{BoardCache, load};

/// Each seat's hole cards (position, name), as the seat itself reads them.
fn hole_cards(record: &fairdeck_hidden::record::Record, seats: &[Seat]) -> Vec<(u64, u64, String)> {
    let mut cards = Vec::new();
    for s in seats {
        let opts = Options {
            reader: Some((s.seat, &s.key)),
            in_progress: true,
            evidence: &[],
            pins: &[],
        };
        let v = verify(record, &opts).verdict;
        assert!(v.is_valid(), "{:?}", v.differences);
        for c in &v.hands[0].own {
            cards.push((s.seat, c.position, c.card.clone()));
        }
    }
    cards
}

/// Every byte of the SQLite database: the file and its write-ahead log.
fn database_bytes(db: &Path) -> Vec<u8> {
    let mut bytes = std::fs::read(db).unwrap();
    let wal = db.with_extension("sqlite-wal");
    bytes.extend(std::fs::read(wal).unwrap_or_default());
    bytes
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// The hole cards that the stored shares open, with nobody's secret key.
fn opened_from_store(db: &Path, id: &str) -> Vec<(u64, String)> {
    let cache = BoardCache::default(); // a fresh replay of everything stored
    let board = load(&mut SqliteStore::open(db).unwrap(), &cache, id).unwrap();
    let opts = Options {
        in_progress: true,
        ..Options::default()
    };
    let state = verify(&board.record, &opts).state.unwrap();
    let rec = &board.record.hands[0];
    let shares: Vec<_> = rec.all_shares().cloned().collect();
    let mut opened = Vec::new();
    for seat in 0..board.table.seats() as u64 {
        for &p in board.table.layout().private(seat) {
            let here: Vec<_> = shares.iter().filter(|m| m.position == p).cloned().collect();
            let deck = &state.hands[0].deck.deck;
            let card = open_card(
                &board.table,
                &state.keys,
                deck,
                (rec.hand, p),
                &here,
                Reader::Everyone,
            );
            // Every share stored for p taken off: a card only with the owner's.
            let mut x = deck.0[p as usize].a;
            for m in &here {
                x -= decode_point(&m.share).unwrap();
            }
            assert_eq!(
                board.table.card_of(&x).is_some(),
                card.is_ok(),
                "position {p}"
            );
            match &card {
                Ok(c) => opened.push((p, c.to_string())),
                Err(e) => assert_eq!(*e, fairdeck_hidden::Error::MissingShare(seat)),
            }
            let owner = shares.iter().any(|m| m.position == p && m.seat == seat);
            let others = shares
                .iter()
                .filter(|m| m.position == p && m.seat != seat)
                .count();
            assert_eq!(
                others,
                board.table.seats() - 1,
                "every other seat shared {p}"
            );
            assert_eq!(owner, card.is_ok(), "only the owner's share opens {p}");
        }
    }
    opened
}

#[test]
fn no_hole_card_is_stored_or_answered_before_the_showdown() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let server = Server::start(&db);
    let mut c = server.client();
    let inv = open(&mut c, &manifest("secret", 4, 1), 600);
    let mut seats: Vec<Seat> = (0..4).map(|i| Seat::new(&inv, i, 60 + i)).collect();
    let at_showdown =
        |st: &fairdeck_table::hidden::Status| st.next.first().is_some_and(|n| n == "showdown");
    let st = play(&mut c, "secret", &inv.operator, &mut seats, at_showdown);
    assert_eq!(st.streets_open, 3, "the flop, turn and river are shown");
    let record = transcript(&mut c, "secret");
    let holes = hole_cards(&record, &seats);
    assert_eq!(holes.len(), 8);
    let bytes = database_bytes(&db);
    let said = answers().join("\n");
    assert!(
        said.contains("\"shares\"") || said.contains("\"share\""),
        "answers were recorded"
    );
    for (seat, p, card) in &holes {
        let point = encode_point(&card_point(card)).to_string();
        for (what, text) in [
            ("the database", bytes.as_slice()),
            ("an answer", said.as_bytes()),
        ] {
            assert!(
                !contains(text, &format!("\"{card}\"")),
                "{what} names seat {seat}'s {card}"
            );
            assert!(
                !contains(text, &point),
                "{what} holds the point of {card} (position {p})"
            );
        }
    }
    assert!(
        opened_from_store(&db, "secret").is_empty(),
        "no hole card opens from the store"
    );
    // The showdown: every seat opens its cards; now the store opens them, and
    // they are what each seat saw.
    let (code, _) = advance(&mut c, "secret", &inv.operator, 1, "showdown");
    assert_eq!(code, 200);
    for s in &mut seats {
        assert!(s.step(&mut c, "secret"));
    }
    let mut opened = opened_from_store(&db, "secret");
    opened.sort();
    let mut seen: Vec<(u64, String)> = holes.into_iter().map(|(_, p, c)| (p, c)).collect();
    seen.sort();
    assert_eq!(opened, seen);
}

#[test]
fn a_restart_in_the_middle_of_the_shuffles_continues_the_hand() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let server = Server::start(&db);
    let mut c = server.client();
    let inv = open(&mut c, &manifest("restart", 3, 1), 600);
    let mut seats: Vec<Seat> = (0..3).map(|i| Seat::new(&inv, i, 70 + i)).collect();
    for s in &mut seats {
        assert!(s.step(&mut c, "restart"));
    }
    assert!(seats[0].step(&mut c, "restart"));
    let before = status(&mut c, "restart");
    drop(server);
    let server = Server::start(&db);
    let mut c = server.client();
    let after = status(&mut c, "restart");
    assert_eq!(after, before, "the restarted service is where it stopped");
    assert_eq!(
        after.owed_by(1),
        Some(&[fairdeck_hidden::record::Missing::Shuffle][..])
    );
    let end = play(&mut c, "restart", &inv.operator, &mut seats, |_| false);
    assert_eq!(end.state, "finished");
    let record = transcript(&mut c, "restart");
    assert_eq!(record.hands[0].shuffles.len(), 3);
    let v = verify(&record, &Options::default()).verdict;
    assert!(v.is_valid(), "{:?}", v.differences);
}
