//! Authorization: every operation is refused with no token, with every
//! other seat's token, with the operator's token on a seat's operation and
//! with every seat's token on the operator's, and nothing changes; then the
//! right token succeeds (so the refusal was the token's, not the phase's).

mod common;

use common::*;
use fairdeck_table::{Error, Invitation, Refusal, Room, SeatPass, SqliteStore, Street};

type R = Room<SqliteStore>;

/// `token` from seat `i`'s own device: only the token can be wrong.
fn as_seat(token: Option<&str>, i: usize) -> SeatPass<'_> {
    SeatPass {
        token,
        device: Some(device(i)),
    }
}

/// Every token but the right one: none, the other seats', the operator's
/// (unless `who` is the operator), and some that are nobody's.
fn wrong_tokens(inv: &Invitation, who: Option<usize>) -> Vec<(String, Option<String>)> {
    let mut out = vec![("no token".to_string(), None)];
    for (i, t) in inv
        .seats
        .iter()
        .enumerate()
        .filter(|&(i, _)| Some(i) != who)
    {
        out.push((format!("seat {i}'s token"), Some(t.as_str().to_string())));
    }
    let right = match who {
        Some(i) => {
            out.push((
                "the operator's token".into(),
                Some(inv.operator.as_str().into()),
            ));
            inv.seats[i].as_str()
        }
        None => inv.operator.as_str(),
    };
    out.push(("its token in capitals".into(), Some(right.to_uppercase())));
    out.push(("its token less a digit".into(), Some(right[1..].into())));
    out.push(("an empty token".into(), Some(String::new())));
    out
}

/// Runs `op` with every wrong token: each is refused (401 without a token,
/// 403 otherwise) and the table's log does not grow.
fn refused_for_all<T: std::fmt::Debug>(
    room: &mut R,
    inv: &Invitation,
    who: Option<usize>,
    what: &str,
    mut op: impl FnMut(&mut R, Option<&str>) -> Result<T, Error>,
) {
    let before = room.audit(&inv.table).unwrap().entries;
    for (label, token) in wrong_tokens(inv, who) {
        let r = op(room, token.as_deref());
        let expected = if token.is_none() {
            Error::Unauthenticated
        } else {
            Error::Forbidden
        };
        match r {
            Err(e) => {
                assert_eq!(e, expected, "{what} with {label}");
                let refusal = if token.is_none() {
                    Refusal::Unauthenticated
                } else {
                    Refusal::Forbidden
                };
                assert_eq!(e.refusal(), refusal);
            }
            Ok(v) => panic!("{what} with {label} was allowed: {v:?}"),
        }
    }
    assert_eq!(
        room.audit(&inv.table).unwrap().entries,
        before,
        "{what}: a refusal wrote"
    );
}

#[test]
fn every_operation_refuses_every_other_token() {
    let dir = tempfile::tempdir().unwrap();
    let mut room = Room::new(SqliteStore::open(&dir.path().join("t.sqlite")).unwrap());
    let m = holdem("auth", 3);
    let inv = room.open_table(&request(&m), T0).unwrap();
    let id = "auth";
    for i in 0..3 {
        refused_for_all(&mut room, &inv, Some(i), "claim", |r, t| {
            r.claim(id, i, as_seat(t, i), T0)
        });
    }
    claim_all(&mut room, &m, &inv);
    for i in 0..3 {
        let c = commitment(&m, i);
        refused_for_all(&mut room, &inv, Some(i), "commit", |r, t| {
            r.commit(id, i, as_seat(t, i), &c, T0 + 1)
        });
        refused_for_all(&mut room, &inv, Some(i), "seat view", |r, t| {
            r.seat_view(id, i, as_seat(t, i))
        });
        room.commit(id, i, pass(&inv, i), &c, T0 + 1).unwrap();
    }
    let op = Some(inv.operator.as_str());
    refused_for_all(&mut room, &inv, None, "void", |r, t| {
        r.void_late(id, t, T0 + 5000)
    });
    for i in 0..3 {
        let s = seed(id, i);
        refused_for_all(&mut room, &inv, Some(i), "reveal", |r, t| {
            r.reveal(id, i, as_seat(t, i), &s, T0 + 2)
        });
        room.reveal(id, i, pass(&inv, i), &s, T0 + 2).unwrap();
    }
    refused_for_all(&mut room, &inv, None, "deal", |r, t| r.deal(id, t, T0 + 3));
    room.deal(id, op, T0 + 3).unwrap();
    refused_for_all(&mut room, &inv, None, "operator view", |r, t| {
        r.operator_view(id, t)
    });
    room.operator_view(id, op).unwrap();
    refused_for_all(&mut room, &inv, None, "release", |r, t| {
        r.release(id, t, 0, Street::Flop, T0 + 4)
    });
    room.release(id, op, 0, Street::Flop, T0 + 4).unwrap();
    refused_for_all(&mut room, &inv, None, "close", |r, t| {
        r.close(id, t, T0 + 5)
    });
    room.close(id, op, T0 + 5).unwrap();
    for i in 0..3 {
        refused_for_all(&mut room, &inv, Some(i), "seat view", |r, t| {
            r.seat_view(id, i, as_seat(t, i))
        });
        room.seat_view(id, i, pass(&inv, i)).unwrap();
    }
}

#[test]
fn voiding_needs_the_operator() {
    let dir = tempfile::tempdir().unwrap();
    let mut room = Room::new(SqliteStore::open(&dir.path().join("t.sqlite")).unwrap());
    let m = holdem("late", 2);
    let inv = room.open_table(&request(&m), T0).unwrap();
    refused_for_all(&mut room, &inv, None, "void", |r, t| {
        r.void_late("late", t, T0 + 601)
    });
    room.void_late("late", Some(inv.operator.as_str()), T0 + 601)
        .unwrap();
}

#[test]
fn a_seat_token_opens_no_other_seat_number() {
    let dir = tempfile::tempdir().unwrap();
    let mut room = Room::new(SqliteStore::open(&dir.path().join("t.sqlite")).unwrap());
    let m = holdem("range", 2);
    let inv = room.open_table(&request(&m), T0).unwrap();
    let token = pass(&inv, 1);
    assert_eq!(room.seat_view("range", 2, token), Err(Error::Forbidden));
    assert_eq!(
        room.seat_view("range", usize::MAX, token),
        Err(Error::Forbidden)
    );
    let c = commitment(&m, 1);
    assert_eq!(
        room.commit("range", 7, token, &c, T0 + 1).unwrap_err(),
        Error::Forbidden
    );
    // Another table's tokens open nothing here.
    let other = room.open_table(&request(&holdem("other", 2)), T0).unwrap();
    assert_eq!(
        room.seat_view("range", 1, pass(&other, 1)),
        Err(Error::Forbidden)
    );
    assert_eq!(
        room.deal("range", Some(other.operator.as_str()), T0),
        Err(Error::Forbidden)
    );
}
