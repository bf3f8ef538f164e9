//! Strict reading: every vector of the specification reads; every kind of
//! malformed document (issue 32 item 3) is refused and named.

use serde_json::Value;

use super::{Document, parse_json, read_document};

/// The `transcript` of every version 2 vector of docs/fair-dealing.md.
fn transcripts() -> Vec<Value> {
    let doc = include_str!("../../../../docs/fair-dealing.md");
    doc.split("```json\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .map(|b| serde_json::from_str::<Value>(b).unwrap())
        .filter_map(|v| v.get("transcript").cloned())
        .collect()
}

/// `v` as JSON text, where the object at `target` (a path of keys and
/// indices) repeats its key `key`, the first time with a wrong value.
fn with_duplicate(v: &Value, at: &[String], target: &[String], key: &str) -> String {
    match v {
        Value::Object(m) => {
            let mut parts = Vec::new();
            for (k, x) in m {
                let mut here = at.to_vec();
                here.push(k.clone());
                if at == target && k == key {
                    parts.push(format!(
                        "{}: \"wrong value first\"",
                        Value::from(k.as_str())
                    ));
                }
                let inner = with_duplicate(x, &here, target, key);
                parts.push(format!("{}: {inner}", Value::from(k.as_str())));
            }
            format!("{{{}}}", parts.join(", "))
        }
        Value::Array(a) => {
            let items: Vec<String> = a
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    let mut here = at.to_vec();
                    here.push(i.to_string());
                    with_duplicate(x, &here, target, key)
                })
                .collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// Every (object path, key) of `v`.
fn keys(v: &Value, at: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push((at.clone(), k.clone()));
                at.push(k.clone());
                keys(x, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(i.to_string());
                keys(x, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

#[test]
fn every_vector_reads() {
    let all = transcripts();
    assert!(all.len() >= 10, "{}", all.len());
    for t in &all {
        let text = t.to_string();
        assert!(
            matches!(read_document(&text), Ok(Document::V2(_))),
            "{:?}",
            read_document(&text)
        );
    }
}

#[test]
fn a_duplicate_key_anywhere_is_refused() {
    // Issue 32: with the wrong value first and the right one last, 35 of 35
    // such files verified `valid`.
    let t = &transcripts()[1];
    let mut all = Vec::new();
    keys(t, &mut Vec::new(), &mut all);
    assert!(all.len() >= 35, "{}", all.len());
    for (path, key) in &all {
        let text = with_duplicate(t, &[], path, key);
        let e = read_document(&text).unwrap_err();
        assert!(e.message.contains("twice"), "{path:?}.{key}: {e}");
    }
}

fn edited(from: &str, to: &str) -> String {
    let t = transcripts()[1].to_string();
    assert!(t.contains(from), "{from}");
    t.replacen(from, to, 1)
}

#[test]
fn unknown_and_missing_fields_are_refused() {
    for (from, to, says) in [
        (
            "\"deals\":",
            "\"note\":1,\"deals\":",
            "unknown field \"note\"",
        ),
        (
            "\"stock\":",
            "\"extra\":[],\"stock\":",
            "unknown field \"extra\"",
        ),
        (",\"role\":\"player\"", "", "\"role\" is missing"),
        ("\"first\":0,", "", "\"first\" is missing"),
        (
            "\"seed\":\"a\"",
            "\"seed\":\"a\",\"Seed\":\"a\"",
            "unknown field \"Seed\"",
        ),
    ] {
        let e = read_document(&edited(from, to)).unwrap_err().message;
        assert!(e.contains(says), "{to}: {e}");
    }
}

#[test]
fn hex_is_lowercase_and_cards_are_spelled_as_the_spec_does() {
    let t = transcripts()[1].to_string();
    let c = t.split("\"commitment\":\"").nth(1).unwrap()[..64].to_string();
    let e = read_document(&t.replacen(&c, &c.to_uppercase(), 1)).unwrap_err();
    assert!(e.message.contains("lowercase"), "{e}");
    for bad in [" 9D", "3d ", "9♦", "9d", "10D", "9D\u{0}", ""] {
        let card = t.split("\"deck\":[\"").nth(1).unwrap()[..2].to_string();
        let text = t.replacen(
            &format!("[\"{card}\""),
            &format!("[{}", Value::from(bad)),
            1,
        );
        let e = read_document(&text).unwrap_err();
        assert!(e.message.contains("not a card"), "{bad:?}: {e}");
        assert!(e.message.contains("deals[0].deck[0]"), "{e}");
    }
}

#[test]
fn numbers_are_integers_up_to_2_to_the_64_minus_1() {
    let t = transcripts()[1].to_string();
    for bad in ["0.0", "-1", "18446744073709551616", "1e3"] {
        let e = read_document(&t.replacen("\"first\":0", &format!("\"first\":{bad}"), 1));
        assert!(e.unwrap_err().message.contains("integer"), "{bad}");
    }
    let big = parse_json("{\"n\": 18446744073709551615}").unwrap();
    assert_eq!(big["n"].as_u64(), Some(u64::MAX));
}

#[test]
fn a_seed_breaking_the_text_rule_is_refused() {
    let e = read_document(&edited("\"seed\":\"a\"", "\"seed\":\"a\\u200b\"")).unwrap_err();
    assert!(
        e.message.contains("seats[0].seed") && e.message.contains("U+200B"),
        "{e}"
    );
    assert_eq!(e.version, Some("2"));
}

#[test]
fn a_version_1_deal_is_read_strictly_too() {
    let deal = r#"{"commitment": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        "client_seed": "alice", "nonce": 0, "game": "draw", "deck": "standard",
        "cards": ["5D"], "hands": [{"name": "P1", "cards": ["5D"]}], "stock": [],
        "entropy_needed_bits": 225.5, "entropy_key_bits": 256.0}"#;
    assert!(matches!(read_document(deal), Ok(Document::V1(_))));
    let twice = deal.replacen("\"nonce\": 0", "\"nonce\": 1, \"nonce\": 0", 1);
    assert!(read_document(&twice).unwrap_err().message.contains("twice"));
    let upper = deal.replacen("630dcd", "630DCD", 1);
    assert_eq!(read_document(&upper).unwrap_err().version, Some("1"));
    let extra = deal.replacen("\"stock\"", "\"server_secret\": \"00\", \"stock\"", 1);
    assert!(
        read_document(&extra)
            .unwrap_err()
            .message
            .contains("unknown field")
    );
}
