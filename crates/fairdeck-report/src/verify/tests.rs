use chacha20::ChaCha20Rng;
use fairdeck_fair::Manifest;
use fairdeck_hidden::Table;
use fairdeck_hidden::keys::{self, SecretKey};
use fairdeck_hidden::record::Record;
use fairdeck_hidden::wire::Hex32;
use rand_core::SeedableRng;

use super::*;

fn cli(field: Field) -> Option<String> {
    Some(format!("--{}", field.name().replace('_', "-")))
}

/// The spec's version-2 "hold'em, 2 seats" vector: its transcript and `C`.
fn version_2() -> (String, String) {
    let doc = include_str!("../../../../docs/fair-dealing.md");
    let block = (doc.split("```json\n"))
        .find(|b| b.starts_with("{\"vector\": \"hold'em, 2 seats\""))
        .and_then(|b| b.split("```").next())
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(block).unwrap();
    let c = v["transcript"]["commitment"].as_str().unwrap().to_string();
    (v["transcript"].to_string(), c)
}

/// A version-3 table of two seats whose keys are published, and seat 1's key file.
fn version_3() -> (Record, String) {
    let mut rng = ChaCha20Rng::from_seed([7; 32]);
    let manifest = Manifest {
        version: 3,
        table: "verify".into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: vec!["ann".into(), "bob".into()],
        first: 1,
        last: 1,
    };
    let table = Table::new(manifest.clone()).unwrap();
    let mut record = Record::new(manifest);
    let secrets = [SecretKey::generate(&mut rng), SecretKey::generate(&mut rng)];
    for (seat, sk) in secrets.iter().enumerate() {
        let msg = keys::key_message(&table, seat as u64, sk, &mut rng).unwrap();
        record.keys.push(msg);
    }
    let file = KeyFile {
        table: "verify".into(),
        seat: 1,
        secret_key: Hex32(*secrets[1].to_bytes()),
    };
    (record, serde_json::to_string(&file).unwrap())
}

#[test]
fn a_version_2_transcript_with_its_commitment_passes() {
    let (transcript, commitment) = version_2();
    let request = VerifyRequest {
        transcript,
        commitment: Some(commitment),
        played: Some("0".into()),
        ..VerifyRequest::default()
    };
    let report = verify(&request, &Spelled(&cli)).unwrap();
    assert!(report.passed(), "{report:?}");
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["version"], 2);
    assert_eq!(json["verdict"], "partial"); // no seat, seed or lock recorded
}

#[test]
fn a_field_of_another_version_is_refused_naming_it() {
    let (transcript, _) = version_2();
    let request = VerifyRequest {
        transcript,
        key: Some("{}".into()),
        ..VerifyRequest::default()
    };
    let e = verify(&request, &Spelled(&cli)).unwrap_err();
    let refused = e.refused().unwrap();
    assert_eq!(refused.field, Field::Key);
    assert_eq!(
        refused.message.render(&cli),
        "--key reads a seat's own cards of a version 3 (hidden hands) transcript; \
         this is a version 2 transcript"
    );
    let (record, _) = version_3();
    let request = VerifyRequest {
        transcript: record.to_json(),
        lock: Some("0".repeat(64)),
        ..VerifyRequest::default()
    };
    let e = verify(&request, &Spelled(&cli)).unwrap_err();
    assert_eq!(e.refused().unwrap().field, Field::Lock);
    assert!(
        e.to_string()
            .ends_with("this is a version 3 (hidden hands) transcript")
    );
}

#[test]
fn bad_recorded_evidence_is_refused_naming_the_field() {
    let bad = |request: VerifyRequest| {
        let e = verify(&request, &Spelled(&cli)).unwrap_err();
        e.refused().unwrap().clone()
    };
    let r = bad(VerifyRequest {
        commitment: Some("zz".into()),
        ..VerifyRequest::default()
    });
    assert_eq!(r.field, Field::Commitment);
    assert!(r.message.render(&cli).starts_with("--commitment: "));
    let r = bad(VerifyRequest {
        played: Some("3-1".into()),
        ..VerifyRequest::default()
    });
    assert_eq!(r.field, Field::Played);
    assert!(
        r.message
            .render(&cli)
            .starts_with("--played \"3-1\": at most")
    );
    let r = bad(VerifyRequest {
        seat: Some("ann".into()),
        ..VerifyRequest::default()
    });
    assert_eq!(
        (r.field, r.to_string()),
        (Field::Seat, "seat needs seed".into())
    );
    let r = bad(VerifyRequest {
        transcript: "plain text".into(),
        ..VerifyRequest::default()
    });
    assert_eq!(r.field, Field::Transcript);
    assert!(
        r.message
            .render(&cli)
            .ends_with("(fair deal --format json)")
    );
}

#[test]
fn a_version_3_key_reads_as_its_seat_and_a_wrong_one_is_refused() {
    let (record, key) = version_3();
    let request = VerifyRequest {
        transcript: record.to_json(),
        key: Some(key.clone()),
        seat_keys: vec!["0=0000-0000-0000-0000-0000".parse().unwrap()],
        ..VerifyRequest::default()
    };
    let report = verify(&request, &Spelled(&cli)).unwrap();
    assert_eq!(report.read_as, Some((1, "bob".to_string())));
    assert!(matches!(report.verdict, Verdict::Hidden(_)));
    let other = key.replace("\"verify\"", "\"other\"");
    let other = VerifyRequest {
        key: Some(other),
        ..request.clone()
    };
    let e = verify(&other, &Spelled(&cli)).unwrap_err();
    assert_eq!(e.refused().unwrap().field, Field::Key);
    assert_eq!(e.to_string(), "the key of table \"other\", not \"verify\"");
    let bad_evidence = VerifyRequest {
        evidence: Some("{}".into()),
        ..request
    };
    let e = verify(&bad_evidence, &Spelled(&cli)).unwrap_err();
    assert_eq!(e.refused().unwrap().field, Field::Evidence);
}

#[test]
fn version_3_bytes_that_are_not_text_are_one_document_difference() {
    let mut bytes = br#"{"version": 3, "manifest": "#.to_vec();
    bytes.push(0xff);
    let transcript = read(&bytes).unwrap();
    assert_eq!(transcript.reader(), Reader::V3);
    assert!(!transcript.reads_key_and_evidence());
    let report = transcript
        .verify(
            (&VerifyRequest::default(), &Evidence::default()),
            &Spelled(&cli),
        )
        .unwrap();
    assert!(!report.passed());
}

#[test]
fn seat_keys_are_seat_equals_fingerprint() {
    let pin: SeatKey = "2=3f2a-0000-0000-0000-0000".parse().unwrap();
    assert_eq!(
        (pin.seat, pin.to_string().as_str()),
        (2, "2=3f2a-0000-0000-0000-0000")
    );
    assert!("2".parse::<SeatKey>().is_err());
    assert!("x=3f2a".parse::<SeatKey>().is_err());
    let request: VerifyRequest =
        serde_json::from_str(r#"{"transcript": "", "seat_keys": ["1=0000-0000-0000-0000-0000"]}"#)
            .unwrap();
    assert_eq!(request.seat_keys[0].seat, 1);
}
