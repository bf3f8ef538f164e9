//! The pure state machine: every phase against every kind of change,
//! illegal transitions refused without changing anything, deadlines, streets.

mod common;

use chacha20::ChaCha20Rng;
use common::*;
use fairdeck_fair::{Commitment, Evidence, Manifest, Verdict, VoidPhase, verify_record};
use fairdeck_table::{Error, Event, Invitation, Phase, Refusal, Street, TableState};
use rand_core::SeedableRng;

fn start(m: &Manifest) -> (TableState, Invitation) {
    let (event, inv) = request(m)
        .open(&mut ChaCha20Rng::seed_from_u64(3), T0)
        .unwrap();
    (TableState::start(&event).unwrap(), inv)
}

/// What a player recorded: `C` and `L` (no own seed, no deal numbers).
fn evidence(commitment: Option<Commitment>, lock: Option<Commitment>) -> Evidence {
    Evidence {
        commitment,
        lock,
        ..Evidence::default()
    }
}

fn commit(i: usize, m: &Manifest) -> Event {
    Event::Committed {
        seat: i,
        commitment: commitment(m, i),
        lock: None,
        at: T0 + 1,
    }
}

fn reveal(i: usize, m: &Manifest) -> Event {
    Event::Revealed {
        seat: i,
        seed: seed(&m.table, i),
        at: T0 + 2,
    }
}

/// The table `m` brought to `phase` by legal events.
fn at_phase(m: &Manifest, phase: Phase) -> TableState {
    let (mut s, _) = start(m);
    let n = m.seats.len();
    let mut script: Vec<Event> = Vec::new();
    match phase {
        Phase::Committing => script.push(commit(0, m)),
        Phase::Void => script.push(Event::Voided {
            late: (1..n).collect(),
            at: T0 + 601,
        }),
        _ => {
            script.extend((0..n).map(|i| commit(i, m)));
            if phase != Phase::Revealing {
                script.extend((0..n).map(|i| reveal(i, m)));
            } else {
                script.push(reveal(0, m));
            }
            if matches!(phase, Phase::Dealt | Phase::Closed) {
                script.push(Event::Dealt { at: T0 + 3 });
            }
            if phase == Phase::Closed {
                script.push(Event::Closed { at: T0 + 4 });
            }
        }
    }
    if phase == Phase::Void {
        s.apply(&commit(0, m)).unwrap();
    }
    for e in &script {
        s.apply(e).unwrap();
    }
    assert_eq!(s.phase, phase);
    s
}

#[test]
fn every_change_in_every_phase() {
    let m = holdem("phases", 3);
    let deal = Event::Dealt { at: T0 + 3 };
    let flop = Event::Released {
        deal: 0,
        street: Street::Flop,
        at: T0 + 4,
    };
    let close = Event::Closed { at: T0 + 5 };
    // Seat 2 has done nothing in any phase reached above; a void at T0 + 5
    // is before the deadline.
    let changes: [(&str, Event); 6] = [
        ("commit", commit(2, &m)),
        ("reveal", reveal(2, &m)),
        ("deal", deal),
        ("release", flop),
        ("close", close),
        (
            "void",
            Event::Voided {
                late: vec![],
                at: T0 + 5,
            },
        ),
    ];
    let allowed = |p: Phase, change: &str| {
        matches!(
            (p, change),
            (Phase::Committing, "commit")
                | (Phase::Revealing, "reveal")
                | (Phase::Ready, "deal")
                | (Phase::Dealt, "release" | "close")
        )
    };
    for phase in [
        Phase::Committing,
        Phase::Revealing,
        Phase::Ready,
        Phase::Dealt,
        Phase::Closed,
        Phase::Void,
    ] {
        let before = at_phase(&m, phase);
        for (name, e) in &changes {
            let mut s = before.clone();
            let result = s.apply(e);
            if allowed(phase, name) {
                assert_eq!(result, Ok(()), "{name} in {phase:?}");
            } else {
                assert!(result.is_err(), "{name} in {phase:?} must be refused");
                assert_eq!(s, before, "a refused {name} in {phase:?} changed the table");
                let r = result.unwrap_err();
                assert!(
                    matches!(r.refusal(), Refusal::Conflict),
                    "{name} in {phase:?}: {r}"
                );
            }
        }
    }
}

#[test]
fn no_reveal_before_every_commitment_and_no_deal_before_every_reveal() {
    let m = holdem("order", 3);
    let (mut s, _) = start(&m);
    s.apply(&commit(0, &m)).unwrap();
    s.apply(&commit(1, &m)).unwrap();
    let early = s.apply(&reveal(0, &m));
    assert_eq!(
        early,
        Err(Error::Phase {
            action: "reveal",
            phase: "committing"
        })
    );
    s.apply(&commit(2, &m)).unwrap();
    s.apply(&reveal(0, &m)).unwrap();
    s.apply(&reveal(1, &m)).unwrap();
    let early = s.apply(&Event::Dealt { at: T0 + 3 });
    assert_eq!(
        early,
        Err(Error::Phase {
            action: "deal",
            phase: "revealing"
        })
    );
    s.apply(&reveal(2, &m)).unwrap();
    s.apply(&Event::Dealt { at: T0 + 3 }).unwrap();
    assert_eq!(
        s.apply(&Event::Dealt { at: T0 + 3 }),
        Err(Error::Phase {
            action: "deal",
            phase: "dealt"
        })
    );
}

#[test]
fn commitments_and_seeds_cannot_change() {
    let m = holdem("fixed", 2);
    let (mut s, _) = start(&m);
    s.apply(&commit(0, &m)).unwrap();
    let again = Event::Committed {
        seat: 0,
        commitment: commitment(&m, 1),
        lock: None,
        at: T0 + 1,
    };
    assert!(matches!(s.apply(&again), Err(Error::Repeated { .. })));
    let bad = Event::Committed {
        seat: 1,
        commitment: "zz".into(),
        lock: None,
        at: T0 + 1,
    };
    assert!(matches!(
        s.apply(&bad),
        Err(Error::Invalid {
            parameter: "commitment",
            ..
        })
    ));
    let nowhere = Event::Committed {
        seat: 2,
        commitment: commitment(&m, 1),
        lock: None,
        at: T0 + 1,
    };
    assert!(matches!(
        s.apply(&nowhere),
        Err(Error::Invalid {
            parameter: "seat",
            ..
        })
    ));
    s.apply(&commit(1, &m)).unwrap();
    let wrong = Event::Revealed {
        seat: 0,
        seed: seed("fixed", 1),
        at: T0 + 2,
    };
    let before = s.clone();
    assert_eq!(
        s.apply(&wrong),
        Err(Error::SeedMismatch {
            seat: "player 0".into()
        })
    );
    assert_eq!(s, before);
    s.apply(&reveal(0, &m)).unwrap();
    assert!(matches!(
        s.apply(&reveal(0, &m)),
        Err(Error::Repeated { .. })
    ));
}

#[test]
fn a_seat_that_never_commits_is_named_after_the_deadline() {
    let m = holdem("slow", 3);
    let (mut s, _) = start(&m);
    s.apply(&commit(1, &m)).unwrap();
    let deadline = T0 + 600;
    let late = Event::Committed {
        seat: 0,
        commitment: commitment(&m, 0),
        lock: None,
        at: deadline + 1,
    };
    assert_eq!(
        s.apply(&late),
        Err(Error::Late {
            action: "commit",
            deadline
        })
    );
    let on_time = Event::Committed {
        seat: 0,
        commitment: commitment(&m, 0),
        lock: None,
        at: deadline,
    };
    s.clone().apply(&on_time).unwrap();
    let early = Event::Voided {
        late: vec![0, 2],
        at: deadline,
    };
    assert_eq!(s.apply(&early), Err(Error::NotLate { deadline }));
    let wrong_names = Event::Voided {
        late: vec![2],
        at: deadline + 1,
    };
    assert!(matches!(s.apply(&wrong_names), Err(Error::Corrupt(_))));
    s.apply(&Event::Voided {
        late: vec![0, 2],
        at: deadline + 1,
    })
    .unwrap();
    assert_eq!(s.public_view().waiting_for, ["player 0", "player 2"]);
    let t = s.transcript().unwrap();
    assert!(t.transcript.deals.is_empty() && t.lock.is_none());
    // The void record names the seats without a commitment (not seat 1,
    // which committed): the commit phase, before any lock.
    let record = t.void.clone().unwrap();
    assert_eq!(record.phase, VoidPhase::Commit);
    assert_eq!(record.seats, ["player 0", "player 2"]);
    let published = Commitment::from_hex(&s.commitment).unwrap();
    let v = verify_record(&t, &evidence(Some(published), None));
    assert_eq!(v.verdict(), Verdict::Void, "{:?}", v.differences);
    let uncommitted: Vec<&str> = t
        .transcript
        .seats
        .iter()
        .filter(|x| x.commitment.is_empty())
        .map(|x| x.name.as_str())
        .collect();
    assert_eq!(uncommitted, ["player 0", "player 2"]);
}

#[test]
fn a_seat_that_never_reveals_voids_the_table_and_nothing_is_dealt() {
    let m = holdem("silent", 3);
    let mut s = at_phase(&m, Phase::Revealing);
    s.apply(&reveal(1, &m)).unwrap();
    let deadline = T0 + 1 + 600;
    assert_eq!(
        s.deadline, deadline,
        "the reveal window runs from the last commitment"
    );
    assert_eq!(s.missing(), [2]);
    s.apply(&Event::Voided {
        late: vec![2],
        at: deadline + 1,
    })
    .unwrap();
    assert!(s.deal_record(0).is_none());
    assert!(s.apply(&Event::Dealt { at: deadline + 2 }).is_err());
    assert!(s.apply(&reveal(2, &m)).is_err());
    // The void record: the reveal phase, the silent seat only, the lock.
    let t = s.transcript().unwrap();
    let record = t.void.clone().unwrap();
    assert_eq!(
        (record.phase, record.seats),
        (VoidPhase::Reveal, vec!["player 2".into()])
    );
    assert_eq!(t.lock, s.lock);
    let published = Commitment::from_hex(&s.commitment).unwrap();
    let lock = Commitment::from_hex(s.lock.as_deref().unwrap()).unwrap();
    let v = verify_record(&t, &evidence(Some(published), Some(lock)));
    assert_eq!(v.verdict(), Verdict::Void, "{:?}", v.differences);
}

#[test]
fn the_last_commitment_sets_the_lock_and_nothing_changes_after_it() {
    let m = holdem("locked", 3);
    let (mut s, _) = start(&m);
    s.apply(&commit(0, &m)).unwrap();
    assert_eq!(s.lock_after(1, &commitment(&m, 1)).unwrap(), None);
    // No reveal before the lock, even from a seat that committed.
    assert!(matches!(s.apply(&reveal(0, &m)), Err(Error::Phase { .. })));
    s.apply(&commit(1, &m)).unwrap();
    assert!(s.lock.is_none() && s.public_view().lock.is_none());
    let lock = s.lock_after(2, &commitment(&m, 2)).unwrap().unwrap();
    // An event carrying another lock (or a lock before the last commitment) is refused.
    let with = |lock: &str, seat| Event::Committed {
        seat,
        commitment: commitment(&m, seat),
        lock: Some(lock.to_string()),
        at: T0 + 1,
    };
    let before = s.clone();
    assert!(matches!(
        s.apply(&with(&"0".repeat(64), 2)),
        Err(Error::Corrupt(_))
    ));
    assert_eq!(s, before);
    s.apply(&with(&lock, 2)).unwrap();
    assert_eq!(
        (s.phase, s.lock.as_deref()),
        (Phase::Revealing, Some(lock.as_str()))
    );
    assert_eq!(s.public_view().lock.as_deref(), Some(lock.as_str()));
    assert_eq!(s.seat_view(0).unwrap().public.lock, s.public_view().lock);
    // F1: once locked, no seat's commitment can be replaced or added.
    let mut other = m.clone();
    other.table = "ground".into();
    let ground = Event::Committed {
        seat: 1,
        commitment: commitment(&other, 1),
        lock: None,
        at: T0 + 1,
    };
    let before = s.clone();
    assert!(matches!(s.apply(&ground), Err(Error::Phase { .. })));
    assert_eq!(s, before);
    s.apply(&reveal(0, &m)).unwrap();
}

#[test]
fn holdem_streets_come_in_order_once() {
    let m = holdem("streets", 2);
    let mut s = at_phase(&m, Phase::Dealt);
    let release = |street| Event::Released {
        deal: 0,
        street,
        at: T0 + 4,
    };
    let before = s.clone();
    assert!(matches!(
        s.apply(&release(Street::Turn)),
        Err(Error::Street(_))
    ));
    assert!(matches!(
        s.apply(&release(Street::River)),
        Err(Error::Street(_))
    ));
    assert!(matches!(
        s.apply(&release(Street::Dummy { seat: 0 })),
        Err(Error::Street(_))
    ));
    let out_of_range = Event::Released {
        deal: 1,
        street: Street::Flop,
        at: T0 + 4,
    };
    assert!(matches!(
        s.apply(&out_of_range),
        Err(Error::Invalid {
            parameter: "deal",
            ..
        })
    ));
    assert_eq!(s, before);
    let board = s.deal_record(0).unwrap().piles[2].cards.clone();
    assert!(s.public_view().community.is_empty());
    for (street, shown) in [(Street::Flop, 3), (Street::Turn, 4), (Street::River, 5)] {
        s.apply(&release(street)).unwrap();
        assert!(matches!(s.apply(&release(street)), Err(Error::Street(_))));
        assert_eq!(s.public_view().community[0].shown[0].cards, board[..shown]);
    }
}

#[test]
fn bridge_shows_one_dummy_per_board() {
    let m = bridge("dummy");
    let mut s = at_phase(&m, Phase::Dealt);
    let dummy = |deal, seat| Event::Released {
        deal,
        street: Street::Dummy { seat },
        at: T0 + 4,
    };
    assert!(matches!(
        s.apply(&Event::Released {
            deal: 1,
            street: Street::Flop,
            at: T0
        }),
        Err(Error::Street(_))
    ));
    assert!(matches!(
        s.apply(&dummy(1, 4)),
        Err(Error::Invalid {
            parameter: "seat",
            ..
        })
    ));
    assert!(matches!(
        s.apply(&dummy(0, 1)),
        Err(Error::Invalid {
            parameter: "deal",
            ..
        })
    ));
    s.apply(&dummy(2, 3)).unwrap();
    assert!(matches!(s.apply(&dummy(2, 1)), Err(Error::Street(_))));
    let community = s.public_view().community;
    assert_eq!((community.len(), community[0].deal), (1, 2));
    assert_eq!(community[0].shown[0].name, "West");
}

#[test]
fn views_show_each_party_only_its_share() {
    let m = holdem("views", 3);
    let mut s = at_phase(&m, Phase::Revealing);
    s.apply(&reveal(1, &m)).unwrap();
    let public = s.public_view();
    assert!(
        public.seats.iter().all(|x| x.seed.is_none()),
        "no seed before every reveal"
    );
    assert!(public.seats[1].revealed && !public.seats[2].revealed);
    assert!(s.seat_view(0).unwrap().hands.is_empty());
    s.apply(&reveal(2, &m)).unwrap();
    assert!(s.public_view().seats.iter().all(|x| x.seed.is_some()));
    s.apply(&Event::Dealt { at: T0 + 3 }).unwrap();
    let deal = s.deal_record(0).unwrap();
    for i in 0..3 {
        let v = s.seat_view(i).unwrap();
        assert_eq!(v.hands[0].cards, deal.piles[i].cards);
        assert!(v.public.transcript.is_none() && v.public.community.is_empty());
    }
    assert!(s.seat_view(3).is_none());
    assert_eq!(s.operator_view().deals, [deal]);
    assert!(s.operator_view().public.transcript.is_none());
    s.apply(&Event::Closed { at: T0 + 4 }).unwrap();
    let t = s.public_view().transcript.unwrap();
    let published = Commitment::from_hex(&s.commitment).unwrap();
    let lock = Commitment::from_hex(s.lock.as_deref().unwrap()).unwrap();
    assert_eq!((t.version.name(), t.played), ("2.1", Some(1)));
    let v = verify_record(&t, &evidence(Some(published), Some(lock)));
    assert!(v.is_valid() && v.lock_checked, "{:?}", v.differences);
}

#[test]
fn scopa_table_cards_are_face_up_once_dealt() {
    let m = manifest("scopa", "scopa", &["a", "b"], 0, 0);
    let s = at_phase(&m, Phase::Dealt);
    let community = s.public_view().community;
    assert_eq!(community[0].shown[0].name, "Table");
    assert_eq!(community[0].shown[0].cards.len(), 4);
}

#[test]
fn a_bad_opening_request_is_refused() {
    let mut m = holdem("bad", 2);
    m.deck = "piquet".into();
    let e = request(&m).validate().unwrap_err();
    assert!(matches!(e, Error::Manifest(_)) && e.refusal() == Refusal::BadRequest);
    let mut r = request(&holdem("bad", 2));
    r.commit_seconds = 0;
    assert!(matches!(
        r.validate(),
        Err(Error::Invalid {
            parameter: "commit_seconds",
            ..
        })
    ));
    r.commit_seconds = fairdeck_table::MAX_WINDOW + 1;
    assert!(r.validate().is_err());
}

#[test]
fn a_log_must_open_with_a_consistent_creation() {
    assert!(matches!(
        TableState::start(&Event::Dealt { at: 0 }),
        Err(Error::Corrupt(_))
    ));
    let (event, _) = request(&holdem("c", 2))
        .open(&mut ChaCha20Rng::seed_from_u64(1), T0)
        .unwrap();
    let Event::Created {
        manifest,
        secret,
        operator,
        seats,
        commit_deadline,
        reveal_seconds,
        at,
        ..
    } = event
    else {
        unreachable!()
    };
    let forged = Event::Created {
        manifest,
        secret,
        operator,
        seats,
        commit_deadline,
        reveal_seconds,
        at,
        commitment: "00".repeat(32),
    };
    assert!(matches!(TableState::start(&forged), Err(Error::Corrupt(_))));
}
