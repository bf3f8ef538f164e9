//! `POST /api/fair/verify`: its JSON is the report layer's (and so the
//! CLI's `fair verify --format json`) for a version-2 and a version-3
//! transcript, and bad bodies are refused naming the page's field.

use axum::http::{Method, StatusCode};
use fairdeck_report::Field;
use fairdeck_report::verify::{Spelled, VerifyRequest, verify};
use serde_json::{Value, json};

use super::call;
use crate::page::words::page_spelling;

fn post(body: &Value) -> (StatusCode, Value) {
    call(Method::POST, "/api/fair/verify", Some(body.to_string()))
}

/// The spec's version-2 "hold'em, 2 seats" transcript.
fn version_2() -> Value {
    let doc = include_str!("../../../../../docs/fair-dealing.md");
    let block = (doc.split("```json\n"))
        .find(|b| b.starts_with("{\"vector\": \"hold'em, 2 seats\""))
        .and_then(|b| b.split("```").next())
        .unwrap();
    let v: Value = serde_json::from_str(block).unwrap();
    v["transcript"].clone()
}

/// A version-3 table that has just been opened (no keys yet).
fn version_3() -> String {
    let manifest = fairdeck_fair::Manifest {
        version: 3,
        table: "page".into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: vec!["ann".into(), "bob".into()],
        first: 1,
        last: 1,
    };
    fairdeck_hidden::record::Record::new(manifest).to_json()
}

/// The CLI's spelling of a field (`failure::flag`'s rule).
fn flag(field: Field) -> Option<String> {
    Some(format!("--{}", field.name().replace('_', "-")))
}

/// The report layer's verdict on `body` as JSON, its words spelled by `spell`.
fn library(body: &Value, spell: &dyn Fn(Field) -> Option<String>) -> Value {
    let request: VerifyRequest = serde_json::from_value(body.clone()).unwrap();
    serde_json::to_value(verify(&request, &Spelled(spell)).unwrap()).unwrap()
}

#[test]
fn a_version_2_verdict_is_the_cli_librarys() {
    let t = version_2();
    // Nothing recorded: the verdict's advice in the page's words.
    let bare = json!({ "transcript": t.to_string() });
    let (status, page) = post(&bare);
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page, library(&bare, &page_spelling));
    assert_eq!(page["verdict"], "self-consistent-only");
    assert!(!page.to_string().contains("--"), "{page}");
    assert!(
        page["message"]
            .as_str()
            .unwrap()
            .contains("give it with commitment")
    );
    // Everything recorded (the lock as the room computed it): the words
    // name no field, so the CLI's JSON is the page's.
    let full = json!({
        "transcript": t.to_string(),
        "commitment": t["commitment"],
        "lock": page["lock"],
        "seat": "ann",
        "seed": "a",
        "played": "0",
    });
    let (status, page) = post(&full);
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["verdict"], "valid", "{page}");
    assert_eq!(page, library(&full, &flag));
}

#[test]
fn a_version_3_verdict_is_the_cli_librarys() {
    let body = json!({ "transcript": version_3() });
    let (status, page) = post(&body);
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page, library(&body, &flag));
    assert!(
        page["checked"].is_array() && page["differences"].is_array(),
        "{page}"
    );
}

#[test]
fn bad_bodies_are_refused_naming_the_pages_field() {
    let refused = |status: StatusCode, body: &Value, field: &str| {
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["parameter"], field, "{body}");
        body["error"].as_str().unwrap().to_string()
    };
    let (status, body) = call(Method::POST, "/api/fair/verify", Some("{not json".into()));
    refused(status, &body, "body");
    let (status, body) = post(&json!(["a list"]));
    refused(status, &body, "body");
    let (status, body) = post(&json!({ "transcript": version_3(), "lok": "00" }));
    assert!(refused(status, &body, "lok").contains("unknown field"));
    let (status, body) = post(&json!({ "commitment": "00" }));
    refused(status, &body, "transcript");
    let zeros = "0".repeat(64);
    let (status, body) = post(&json!({ "transcript": version_3(), "lock": zeros }));
    let error = refused(status, &body, "lock");
    assert_eq!(
        error,
        "lock checks version 2 transcripts; this is a version 3 (hidden hands) transcript"
    );
    let (status, body) = post(&json!({ "transcript": version_2().to_string(), "key": "{}" }));
    assert!(refused(status, &body, "key").starts_with("key reads a seat's own cards"));
    let (status, body) = post(&json!({ "transcript": "plain text" }));
    let error = refused(status, &body, "transcript");
    assert!(!error.contains("--"), "{error}");
    let (status, body) = post(&json!({ "transcript": version_2().to_string(), "played": "x" }));
    assert!(refused(status, &body, "played").starts_with("played \"x\": write deal numbers"));
}

#[test]
fn the_transcript_goes_in_the_body_only_and_a_get_is_refused() {
    let uri = "/api/fair/verify?transcript=x";
    let (status, body) = call(Method::POST, uri, Some(json!({}).to_string()));
    assert_eq!(
        (status, &body["parameter"]),
        (StatusCode::BAD_REQUEST, &json!("query"))
    );
    let (status, _) = call(Method::GET, "/api/fair/verify", None);
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}
