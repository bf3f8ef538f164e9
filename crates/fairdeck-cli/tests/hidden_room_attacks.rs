//! Issue #47 item 7: the threat model (`docs/hidden-dealing.md` §11) as
//! attacks on real seats — the room and the seats' keys. The room runs
//! `fairdeck table serve` and a proxy in front of it (`room_attacks`),
//! holds its own signing key (read from its database) and the seats'
//! tokens (it relays their requests); the seats are `fairdeck hidden seat
//! --link` processes. Each attack is what §11 says the room can try,
//! played as the room would; each test says which honest parties catch
//! it and who `fair verify` names. The honest control, histories and
//! replays are in `hidden_room_attacks_history.rs`.

mod common;
mod room_attacks;

use std::sync::Arc;

use chacha20::ChaCha20Rng;
use fairdeck_client::Client;
use fairdeck_client::turn::next_post;
use fairdeck_hidden::keys::{KeyMessage, SecretKey};
use fairdeck_hidden::ledger::{key_digest, receipt};
use fairdeck_hidden::record::{Missing, Record};
use fairdeck_hidden::seat::Follower;
use fairdeck_hidden::signature::Context;
use fairdeck_hidden::verify::{Options, verify};
use rand_core::SeedableRng;
use room_attacks::*;
use serde_json::{Value, json};

/// §11 "replace a seat's key": the room cannot sign as seat 2. It tries to
/// post a key it knows for seat 2 (the service refuses it), then serves
/// every seat a transcript with that key in seat 2's place and its own
/// signed head: seats 0 and 1 refuse it, seat 2's receipt proves it.
#[test]
fn a_key_the_room_signs_for_seat_2_is_refused_and_the_room_named() {
    let room = Room::open("takeover", 1, 4);
    let (id, key) = (room.id().to_string(), room.key.clone());
    let x = SecretKey::generate(&mut ChaCha20Rng::seed_from_u64(13));
    let tried: Seen = Arc::default();
    let hook: Arc<Hook> = {
        let tried = tried.clone();
        Arc::new(move |req: &Req, up: &mut Client| {
            if req.seat == 2 && req.posts("key") {
                let before = upstream(up, &id);
                if before.keys.len() != 2 {
                    return Some(not_now());
                }
                let signed = rooms_key(&before, &x, Some(&key));
                let unsigned = KeyMessage {
                    signature: None,
                    ..signed.clone()
                };
                for forged in [signed, unsigned] {
                    let body = serde_json::to_value(&forged).unwrap();
                    let (code, answer) = up
                        .call("POST", &req.path, req.token.as_deref(), Some(&body))
                        .unwrap();
                    tried
                        .lock()
                        .unwrap()
                        .push(format!("{code} {}", answer["kind"]));
                }
                return None; // seat 2's own key goes through
            }
            if !req.transcript() {
                return None;
            }
            Some(edited(&key, relay(req, up), |r, ctx| {
                let real = r.keys.get(2)?.clone();
                let forged = rooms_key(r, &x, Some(&key));
                r.keys[2] = forged.clone();
                Some(vec![(key_digest(ctx, &real), key_digest(ctx, &forged))])
            }))
        })
    };
    let seats = room.seats(&hook);
    room.operate(|_, _| {});
    let out = results(seats);
    assert_eq!(
        *tried.lock().unwrap(),
        ["422 \"signature\"", "422 \"signature\""],
        "the service refuses a key for seat 2 not signed under it"
    );
    for (i, (ok, text)) in out.iter().enumerate() {
        assert!(!ok, "seat {i} caught it: {text}");
        assert!(
            text.contains("the key message in seat 2's place is not signed by seat 2"),
            "seat {i}: {text}"
        );
        assert!(text.contains("the room"), "seat {i}: {text}");
    }
    assert!(
        last_line(&out[0].1).contains("the served transcript does not verify"),
        "{}",
        out[0].1
    );
    let served = room.served(0, &hook);
    let plain = room.fair(&served, "served.json", None);
    assert!(kinds(&plain).contains(&"signature".to_string()), "{plain}");
    assert!(names_the_room(&plain), "{plain}");
    let with = room.fair(&served, "served.json", Some(2));
    assert!(kinds(&with).contains(&"room".to_string()), "{with}");
    assert!(names_the_room(&with), "{with}");
}

/// The room plays seat 2 itself from `also` (the operator's loop): its
/// shuffle of hand 1 under key `x`, posted with seat 2's token.
fn room_plays_seat_2(
    room: &Room,
    x: &SecretKey,
) -> impl FnMut(&fairdeck_table::hidden::Status, &mut Client) {
    let (token, id) = (room.inv.seats[2].clone(), room.id().to_string());
    let (x, mut follower) = (x.clone(), Follower::new());
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    move |st, c| {
        let owed = st.owed_by(2).unwrap_or(&[]);
        if !owed.contains(&Missing::Shuffle) {
            return;
        }
        let record = upstream(c, &id);
        let post = next_post(&mut follower, st, record, (2, &x), false, &mut rng).unwrap();
        if let Some(post) = post {
            let path = format!("/api/hidden/{id}/seats/2/{}", post.route());
            let (code, answer) = c
                .call("POST", &path, Some(&token), Some(&post.to_json()))
                .unwrap();
            assert_eq!(code, 200, "{answer}");
        }
    }
}

/// The room posts its own key `x` for seat 2 with seat 2's token (a whole
/// key message, signed by `x`: the service takes it) and answers seat 2
/// with `answer(before, real key)`.
fn swap_key_hook(
    room: &Room,
    x: &SecretKey,
    answer: impl Fn(&Record, &KeyMessage, Value) -> (u16, Value) + Send + Sync + 'static,
) -> Arc<Hook> {
    let (id, x) = (room.id().to_string(), x.clone());
    Arc::new(move |req: &Req, up: &mut Client| {
        if !(req.seat == 2 && req.posts("key")) {
            return None;
        }
        let before = upstream(up, &id);
        if before.keys.len() != 2 {
            return Some(not_now());
        }
        let real: KeyMessage = serde_json::from_value(req.body.clone()?).unwrap();
        let mine = serde_json::to_value(rooms_key(&before, &x, None)).unwrap();
        let (code, taken) = up
            .call("POST", &req.path, req.token.as_deref(), Some(&mine))
            .unwrap();
        assert_eq!(code, 200, "{taken}");
        Some(answer(&before, &real, taken))
    })
}

/// §11 "replace a seat's key" with a whole key message the room owns,
/// through the service (it holds seat 2's token): seats 0 and 1 cannot
/// tell, but seat 2 holds the room's receipt for its real key — the room
/// must give one or refuse — and that receipt names the room.
#[test]
fn a_key_the_room_swaps_in_through_the_service_is_proved_by_seat_2s_receipt() {
    let room = Room::open("swapped", 1, 4);
    let x = SecretKey::generate(&mut ChaCha20Rng::seed_from_u64(14));
    let key = room.key.clone();
    let hook = swap_key_hook(&room, &x, move |before, real, _| {
        let mut log = before.log.clone();
        log.push(key_digest(&context(before), real));
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let r = receipt(&context(before), &key, &log, &mut rng);
        (200, json!({"receipts": [r]}))
    });
    let seats = (0..3)
        .map(|i| room.seat(i, if i == 2 { hook.clone() } else { honest() }))
        .collect();
    room.operate(room_plays_seat_2(&room, &x));
    let out = results(seats);
    let (ok, text) = &out[2];
    assert!(!ok, "{text}");
    assert!(text.contains("room: "), "{text}");
    assert!(text.contains("the room"), "{text}");
    let record = room.transcript();
    assert_eq!(void_of(&record), Some((2, "deal".into())));
    // Seats 0 and 1 saw a valid table: the room's key is signed by itself.
    for (ok, text) in &out[..2] {
        assert!(ok, "{text}");
        assert!(text.contains("seat 2 (cy) did not send"), "{text}");
    }
    // The room even attests as "seat 2" with its key: an attestation is
    // under the key in seat 2's place, which is the room's.
    let table = fairdeck_hidden::Table::new(record.manifest.clone()).unwrap();
    let ctx = Context::new(&table, record.room.as_ref());
    let a = fairdeck_hidden::ledger::attest(
        &ctx,
        2,
        &x,
        &record.log,
        &mut ChaCha20Rng::seed_from_u64(8),
    );
    let path = format!("/api/hidden/{}/seats/2/attestation", room.id());
    let body = serde_json::to_value(a).unwrap();
    let (code, answer) = room
        .client()
        .call("POST", &path, Some(&room.inv.seats[2]), Some(&body))
        .unwrap();
    assert_eq!(code, 200, "{answer}");
    let record = room.transcript();
    let verdict = verify(&record, &Options::default()).verdict;
    assert!(verdict.is_valid(), "{:?}", verdict.differences);
    assert!(
        verdict.attested_by.contains(&2),
        "the room attested as seat 2"
    );
    // Seat 2's evidence proves the swap and makes the void no proof.
    let with = room.fair(&record, "swapped.json", Some(2));
    assert!(kinds(&with).contains(&"room".to_string()), "{with}");
    assert!(names_the_room(&with), "{with}");
    assert!(says_the_void_is_not_proof(&with), "{with}");
}

/// The same swap where the room refuses seat 2's key (it need not give a
/// receipt): no receipt proves it. Seat 2 stops, saying its key was
/// refused; seats 0 and 1 and `fair verify` see a valid table that the
/// room (as seat 2) voided. What tells is §17's key fingerprints: seat 2's
/// own differs from the one every other seat lists for seat 2, and pinned
/// it makes `fair verify` name the room.
#[test]
fn a_room_that_refuses_seat_2s_key_and_sends_its_own_is_told_by_the_key_fingerprints() {
    let room = Room::open("refused", 1, 4);
    let x = SecretKey::generate(&mut ChaCha20Rng::seed_from_u64(15));
    let hook = swap_key_hook(&room, &x, |_, _, _| {
        (
            422,
            json!({"error": "key-proof: seat 2's key proof fails", "kind": "key-proof"}),
        )
    });
    let seats = (0..3)
        .map(|i| room.seat(i, if i == 2 { hook.clone() } else { honest() }))
        .collect();
    room.operate(room_plays_seat_2(&room, &x));
    let out = results(seats);
    let (ok, text) = &out[2];
    assert!(!ok, "{text}");
    assert!(text.contains("the service refused seat 2's key"), "{text}");
    assert!(!room.evidence(2).exists(), "seat 2 holds nothing");
    let record = room.transcript();
    assert_eq!(void_of(&record), Some((2, "deal".into())));
    let plain = room.fair(&record, "refused.json", None);
    assert!(
        valid(&plain),
        "nothing in the transcript shows the swap: {plain}"
    );
    for (ok, text) in &out[..2] {
        assert!(ok, "{text}");
    }
    fingerprints_tell(&room, &record, &out, "refused");
}

/// §17 key fingerprints: what tells a key the room sent in seat 2's place.
/// Seat 2 printed its own key's fingerprint; every other seat's verdict
/// lists another one for seat 2; pinned, `fair verify` says `room` and
/// names the room. The control: the honest seats' pins hold.
fn fingerprints_tell(room: &Room, record: &Record, out: &[(bool, String)], name: &str) {
    let own = own_fingerprint(&out[2].1);
    let listed = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("key fingerprints"))
            .unwrap_or_else(|| panic!("no fingerprints in the verdict: {text}"))
            .to_string()
    };
    for (_, text) in &out[..2] {
        let line = listed(text);
        assert!(!line.contains(&format!("seat 2 {own}")), "{line}");
        assert!(
            line.contains(&format!("seat 0 {}", own_fingerprint(&out[0].1))),
            "{line}"
        );
    }
    let file = format!("{name}-pinned.json");
    let pinned = room.fair_pinned(record, &file, &[(2, own.as_str())]);
    assert!(!valid(&pinned), "{pinned}");
    assert!(names_the_room(&pinned), "{pinned}");
    assert_eq!(pinned["differences"][0]["kind"], "room", "{pinned}");
    let f0 = own_fingerprint(&out[0].1);
    let f1 = own_fingerprint(&out[1].1);
    let control = room.fair_pinned(record, &file, &[(0, f0.as_str()), (1, f1.as_str())]);
    assert!(valid(&control), "{control}");
}

/// A rogue key for seat 2: `X·G − PK0 − PK1`, so that the joint key would
/// be `X·G` and the room could open every card. It cannot prove knowledge
/// of that key's secret, nor sign under it: copied from seat 2's real key
/// message, its proof and signature fail.
fn rogue(record: &Record, real: &KeyMessage, x: &SecretKey) -> KeyMessage {
    use fairdeck_hidden::group::{decode_point, encode_point};
    let p0 = decode_point(&record.keys[0].public_key).unwrap();
    let p1 = decode_point(&record.keys[1].public_key).unwrap();
    KeyMessage {
        public_key: encode_point(&(x.public_key().0 - p0 - p1)),
        ..real.clone()
    }
}

/// §11 rogue key, served: every seat is shown the rogue key in seat 2's
/// place under the room's signed head. It is caught, and named as the
/// room's (its signature fails), never as seat 2's.
#[test]
fn a_rogue_key_served_in_seat_2s_place_is_caught_and_the_room_named() {
    let room = Room::open("served-rogue", 1, 4);
    let key = room.key.clone();
    let x = SecretKey::generate(&mut ChaCha20Rng::seed_from_u64(17));
    let hook: Arc<Hook> = Arc::new(move |req: &Req, up: &mut Client| {
        if !req.transcript() {
            return None;
        }
        Some(edited(&key, relay(req, up), |r, ctx| {
            let real = r.keys.get(2)?.clone();
            let forged = rogue(r, &real, &x);
            r.keys[2] = forged.clone();
            Some(vec![(key_digest(ctx, &real), key_digest(ctx, &forged))])
        }))
    });
    let seats = room.seats(&hook);
    room.operate(|_, _| {});
    for (i, (ok, text)) in results(seats).iter().enumerate() {
        assert!(!ok, "seat {i}: {text}");
        assert!(
            text.contains("seat 2's place is not signed by seat 2"),
            "seat {i}: {text}"
        );
        assert!(!text.contains("at fault: seat 2"), "seat {i}: {text}");
    }
    let served = room.served(1, &hook);
    let plain = room.fair(&served, "served.json", None);
    assert!(kinds(&plain).contains(&"signature".to_string()), "{plain}");
    assert!(names_the_room(&plain), "{plain}");
}

/// §11 rogue key, posted: the service refuses it (`key-proof`); the room
/// then drops seat 2's real key after receipting it and voids the table
/// against seat 2 at the keys stage. Seat 2's receipt refutes the void.
#[test]
fn a_rogue_key_is_refused_and_a_dropped_receipted_key_cannot_void_against_seat_2() {
    let room = Room::open("rogue", 1, 3);
    let (id, key) = (room.id().to_string(), room.key.clone());
    let x = SecretKey::generate(&mut ChaCha20Rng::seed_from_u64(16));
    let tried: Seen = Arc::default();
    let hook: Arc<Hook> = {
        let tried = tried.clone();
        Arc::new(move |req: &Req, up: &mut Client| {
            if !(req.seat == 2 && req.posts("key")) {
                return None;
            }
            let before = upstream(up, &id);
            if before.keys.len() != 2 {
                return Some(not_now());
            }
            let real: KeyMessage = serde_json::from_value(req.body.clone()?).unwrap();
            let body = serde_json::to_value(rogue(&before, &real, &x)).unwrap();
            let (code, answer) = up
                .call("POST", &req.path, req.token.as_deref(), Some(&body))
                .unwrap();
            tried
                .lock()
                .unwrap()
                .push(format!("{code} {}", answer["kind"]));
            let mut log = before.log.clone();
            log.push(key_digest(&context(&before), &real));
            let mut rng = ChaCha20Rng::seed_from_u64(6);
            let r = receipt(&context(&before), &key, &log, &mut rng);
            Some((200, json!({"receipts": [r]})))
        })
    };
    let seats = (0..3)
        .map(|i| room.seat(i, if i == 2 { hook.clone() } else { honest() }))
        .collect();
    room.operate(|_, _| {});
    let out = results(seats);
    // (each time seat 2 sends its key; a seat that sees the table change
    // and its key still owed sends it again)
    let tried = tried.lock().unwrap().clone();
    assert!(
        !tried.is_empty() && tried.iter().all(|t| t == "422 \"key-proof\""),
        "{tried:?}"
    );
    let record = room.transcript();
    assert_eq!(void_of(&record), Some((2, "keys".into())));
    let (ok, text) = &out[2];
    assert!(!ok, "seat 2 says the void is false: {text}");
    assert!(text.contains("the room"), "{text}");
    let with = room.fair(&record, "rogue.json", Some(2));
    assert!(names_the_room(&with), "{with}");
    assert!(says_the_void_is_not_proof(&with), "{with}");
    // The control: seat 0's evidence agrees with the log.
    assert!(valid(&room.fair(&record, "rogue.json", Some(0))));
}

/// The same swap where the room hands seat 2 the service's own answer: a
/// receipt for the room's key, not for the key seat 2 sent. The seat does
/// not compare a receipt's digest with its message, so it keeps it; at
/// its turn it stops with `wrong-key` (as if its own key file were
/// wrong), and its evidence agrees with the published log: nothing names
/// the room. The key fingerprints tell, as in the refused-key test.
#[test]
fn a_room_that_hands_seat_2_the_receipt_of_its_own_key_is_told_by_the_key_fingerprints() {
    let room = Room::open("lazy", 1, 4);
    let x = SecretKey::generate(&mut ChaCha20Rng::seed_from_u64(18));
    let hook = swap_key_hook(&room, &x, |_, _, taken| (200, taken));
    let seats = (0..3)
        .map(|i| room.seat(i, if i == 2 { hook.clone() } else { honest() }))
        .collect();
    room.operate(room_plays_seat_2(&room, &x));
    let out = results(seats);
    let (ok, text) = &out[2];
    assert!(!ok, "{text}");
    assert!(
        text.contains("wrong-key: the secret key is not seat 2's"),
        "{text}"
    );
    let record = room.transcript();
    assert_eq!(void_of(&record), Some((2, "deal".into())));
    let with = room.fair(&record, "lazy.json", Some(2));
    assert!(valid(&with), "seat 2's evidence proves nothing: {with}");
    fingerprints_tell(&room, &record, &out, "lazy");
}
