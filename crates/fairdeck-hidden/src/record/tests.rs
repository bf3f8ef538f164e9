use super::*;
use crate::testing::manifest;

#[test]
fn an_empty_record_round_trips() {
    let r = Record::new(manifest("holdem", "standard", 2));
    assert_eq!(Record::from_json(&r.to_json()), Ok(r));
}

#[test]
fn duplicate_unknown_and_missing_fields_are_refused() {
    let good = Record::new(manifest("holdem", "standard", 2)).to_json();
    let dup = good.replacen("\"keys\": []", "\"keys\": [], \"keys\": []", 1);
    let unknown = good.replacen("\"keys\": []", "\"keys\": [], \"extra\": 1", 1);
    let missing = good.replacen("\"keys\": [],", "", 1);
    for (bad, says) in [
        (dup, "duplicate"),
        (unknown, "unknown"),
        (missing, "missing"),
    ] {
        let err = Record::from_json(&bad).unwrap_err();
        assert_eq!(err.kind(), "document");
        assert!(err.to_string().contains(says), "{err}");
    }
    let void = r#"{"stage":"keys","seat":1,"missing":[{"message":"key","x":1}]}"#;
    assert!(serde_json::from_str::<Void>(void).is_err());
    let void = r#"{"stage":"keys","seat":1,"missing":[{"message":"key","position":4}]}"#;
    assert!(serde_json::from_str::<Void>(void).is_err());
    let void = r#"{"stage":"deal","seat":1,"missing":[{"message":"share","position":4}]}"#;
    let v: Void = serde_json::from_str(void).unwrap();
    assert_eq!(v.missing, [Missing::Share { position: 4 }]);
}

#[test]
fn text_that_is_not_one_json_document_is_refused() {
    let good = Record::new(manifest("holdem", "standard", 2)).to_json();
    let nan = good.replacen("\"hands\": []", "\"hands\": NaN", 1);
    let cases = [
        (format!("\u{feff}{good}"), "byte order mark"),
        (format!("{good} x"), "trailing characters"),
        (format!("{good}\n{good}"), "trailing characters"),
        (nan, "NaN"),
    ];
    for (bad, says) in cases {
        let err = Record::from_json(&bad).unwrap_err();
        assert_eq!(err.kind(), "document");
        assert!(err.to_string().contains(says), "{err}");
        assert_eq!(Record::from_bytes(bad.as_bytes()).unwrap_err(), err);
    }
    let mut bytes = good.clone().into_bytes();
    let at = good.find("holdem").unwrap();
    bytes[at] = 0xff;
    let err = Record::from_bytes(&bytes).unwrap_err();
    assert_eq!(err.kind(), "document");
    assert!(err.to_string().contains(&format!("offset {at}")), "{err}");
    assert!(Record::from_bytes(good.as_bytes()).is_ok());
}

#[test]
fn hands_are_added_in_increasing_order() {
    let mut r = Record::new(manifest("holdem", "standard", 2));
    r.hand_mut(2).unwrap();
    assert_eq!(r.hand_mut(1).unwrap_err(), Error::HandOrder(1));
    assert_eq!(r.hand_mut(2).unwrap().hand, 2);
    r.hand_mut(3).unwrap();
    assert_eq!(r.hands.len(), 2);
}
