//! The seat's dispatcher, natively (the same code the .wasm module runs):
//! a two-seat hold'em hand played by two seats through JSON requests and
//! verified; answers are `{"ok": …}` or one-line `{"error": …}`; no request
//! — random bytes or a valid request cut or mutated anywhere — panics.

use fairdeck_hidden_wasm::Seat;
use proptest::prelude::*;
use serde_json::{Value, json};

fn call(seat: &mut Seat, request: &Value) -> Result<Value, String> {
    let answer: Value = serde_json::from_slice(&seat.call(request.to_string().as_bytes()))
        .expect("every answer is JSON");
    match (answer.get("ok"), answer.get("error")) {
        (Some(ok), None) => Ok(ok.clone()),
        (None, Some(Value::String(e))) => Err(e.clone()),
        _ => panic!("neither ok nor error: {answer}"),
    }
}

fn seat(seed: u8) -> Seat {
    let mut s = Seat::new();
    s.seed([seed; 32]);
    s
}

const TABLE: &str = r#"{"version":3,"manifest":{"version":3,"table":"native","game":"holdem",
  "deck":"standard","seats":["ann","bob"],"first":1,"last":1},"keys":[],"hands":[]}"#;

/// Plays a whole two-seat hand; answers the final transcript and each seat's own cards.
fn play() -> (String, Vec<Vec<String>>) {
    let mut seats = [seat(1), seat(2)];
    let mut t = TABLE.to_string();
    let step = |seat: &mut Seat, req: Value, t: &mut String| {
        let ok = call(seat, &req).unwrap_or_else(|e| panic!("{req}: {e}"));
        *t = ok["transcript"].as_str().unwrap().to_string();
    };
    for (j, s) in seats.iter_mut().enumerate() {
        let key = call(s, &json!({"op": "key_new"})).unwrap()["key"].clone();
        assert_eq!(key, json!(0));
        step(
            s,
            json!({"op": "key_message", "key": 0, "seat": j, "transcript": t}),
            &mut t,
        );
    }
    for s in seats.iter_mut() {
        step(
            s,
            json!({"op": "shuffle", "key": 0, "transcript": t}),
            &mut t,
        );
    }
    for street in ["deal", "flop", "turn", "river"] {
        for s in seats.iter_mut() {
            let req = json!({"op": "share", "key": 0, "transcript": t, "street": street});
            step(s, req, &mut t);
        }
    }
    let own = seats
        .iter_mut()
        .map(|s| {
            let view = call(s, &json!({"op": "cards", "key": 0, "transcript": t})).unwrap();
            let own = view["hand"]["own"].as_array().unwrap();
            own.iter()
                .map(|c| c["card"].as_str().unwrap().to_string())
                .collect()
        })
        .collect();
    (t, own)
}

#[test]
fn two_seats_play_a_hand_that_verifies() {
    let (t, own) = play();
    let mut verifier = Seat::new();
    let v = call(&mut verifier, &json!({"op": "verify", "transcript": t})).unwrap();
    assert_eq!(v["valid"], json!(true), "{}", v["summary"]);
    assert_eq!(
        v["verdict"]["hands"][0]["community"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    assert_eq!(own[0].len(), 2);
    assert_eq!(own[1].len(), 2);
    assert!(own[0].iter().all(|c| !own[1].contains(c)));
    // Negative control: the same transcript with one share changed does not verify.
    let mut doc: Value = serde_json::from_str(&t).unwrap();
    doc["hands"][0]["deal"][0]["share"] = doc["hands"][0]["deal"][1]["share"].clone();
    let v = call(
        &mut verifier,
        &json!({"op": "verify", "transcript": doc.to_string()}),
    )
    .unwrap();
    assert_eq!(v["valid"], json!(false));
    assert_eq!(v["verdict"]["differences"][0]["kind"], json!("share-proof"));
}

#[test]
fn the_same_seed_gives_the_same_hand() {
    assert_eq!(play(), play());
}

#[test]
fn errors_are_one_line_and_a_seat_without_seed_refuses_to_draw() {
    let mut s = Seat::new();
    assert_eq!(
        call(&mut s, &json!({"op": "key_new"})),
        Err("seed: the seat's generator is not keyed yet (call seed first)".into())
    );
    let e = call(
        &mut s,
        &json!({"op": "key_import", "file": "{\n\"table\": 1\n}"}),
    )
    .unwrap_err();
    assert!(!e.contains('\n') && e.starts_with("key file: "), "{e}");
    assert!(format!("{s:?}").contains("keys: 0"));
}

#[test]
fn debug_shows_no_secret() {
    let mut s = seat(3);
    call(&mut s, &json!({"op": "key_new"})).unwrap();
    assert_eq!(format!("{s:?}"), "Seat { seeded: true, keys: 1 }");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn no_bytes_make_it_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let answer = seat(4).call(&bytes);
        let v: Value = serde_json::from_slice(&answer).unwrap();
        prop_assert!(v.get("error").is_some_and(Value::is_string));
    }

    #[test]
    fn no_cut_or_mutated_request_makes_it_panic(cut in 0usize..2000, at in 0usize..2000, byte in any::<u8>()) {
        let mut s = seat(5);
        call(&mut s, &json!({"op": "key_new"})).unwrap();
        let req = json!({"op": "key_message", "key": 0, "seat": 0, "transcript": TABLE}).to_string();
        let mut bytes = req.into_bytes();
        let at = at % bytes.len();
        bytes[at] = byte;
        bytes.truncate(cut.max(1));
        let v: Value = serde_json::from_slice(&s.call(&bytes)).unwrap();
        prop_assert!(v.get("ok").is_some() || v["error"].as_str().is_some_and(|e| !e.contains('\n')));
    }
}

#[test]
fn no_answer_but_the_key_file_holds_the_secret() {
    let mut seats = [seat(6), seat(7)];
    let mut t = TABLE.to_string();
    let mut answers = Vec::new();
    let mut run = |s: &mut Seat, req: Value, t: &mut String| {
        let answer = String::from_utf8(s.call(req.to_string().as_bytes())).unwrap();
        let ok: Value = serde_json::from_str(&answer).unwrap();
        if let Some(next) = ok["ok"]["transcript"].as_str() {
            *t = next.to_string();
        }
        answers.push(answer);
    };
    for (j, s) in seats.iter_mut().enumerate() {
        run(s, json!({"op": "key_new"}), &mut t);
        run(
            s,
            json!({"op": "key_message", "key": 0, "seat": j, "transcript": t}),
            &mut t,
        );
    }
    for op in ["shuffle", "share", "cards", "open"] {
        for s in seats.iter_mut() {
            let req = json!({"op": op, "key": 0, "transcript": t, "street": "deal"});
            let req = match op {
                "share" => req,
                _ => json!({"op": op, "key": 0, "transcript": t}),
            };
            run(s, req, &mut t);
        }
    }
    let secrets: Vec<String> = seats
        .iter_mut()
        .map(|s| {
            let file = call(s, &json!({"op": "key_export", "key": 0})).unwrap();
            file["secret_key"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(answers.len(), 12);
    for answer in &answers {
        assert!(answer.starts_with("{\"ok\":"), "{answer}");
        for secret in &secrets {
            assert!(!answer.contains(secret.as_str()), "a secret in {answer}");
        }
    }
    // Control: the search finds a secret where it is (the key file).
    let file = seats[0].call(br#"{"op":"key_export","key":0}"#);
    assert!(String::from_utf8(file).unwrap().contains(&secrets[0]));
}
