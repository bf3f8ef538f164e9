//! Which document a file holds, read before any strict reading: whether
//! its bytes are exactly one JSON document at all, the version a document
//! that is not JSON still declares (to choose the form of its verdict),
//! and the documents that are not transcripts of versions 1 to 2.1 (a
//! version 3 transcript, a table document). O(length) each.

/// Why `bytes` are not exactly one JSON document in UTF-8 without a byte
/// order mark (RFC 8259), if they are not: invalid UTF-8, a byte order
/// mark, `NaN` or `Infinity`, anything after the document (a second one
/// too), or any other syntax error. The wording is that of the version-3
/// reader (`fairdeck_hidden::record::Record::from_bytes`).
pub fn not_json(bytes: &[u8]) -> Option<String> {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            return Some(format!(
                "not UTF-8 text: the byte at offset {} begins no UTF-8 character",
                e.valid_up_to()
            ));
        }
    };
    if text.starts_with('\u{feff}') {
        return Some(
            "a byte order mark (U+FEFF) before the document: a transcript is UTF-8 JSON text \
             without one (RFC 8259 section 8.1)"
                .into(),
        );
    }
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .err()
        .map(|e| {
            format!(
                "not exactly one JSON document (RFC 8259: no NaN or Infinity, nothing after \
                 the document): {e}"
            )
        })
}

/// The version a document that is not JSON text declares, read only to
/// choose the form of its verdict: the value of the first `"version"` key
/// in its bytes (`3`, `2` or `"2.1"`), else `1` when `"client_seed"`
/// appears (a version 1 deal), else none.
pub fn declared_version(bytes: &[u8]) -> Option<&'static str> {
    const KEY: &[u8] = b"\"version\"";
    let skip = |mut i: usize| {
        while bytes.get(i).is_some_and(|b| b" \t\r\n".contains(b)) {
            i += 1;
        }
        i
    };
    let found = bytes.windows(KEY.len()).position(|w| w == KEY);
    if let Some(at) = found {
        let colon = skip(at + KEY.len());
        if bytes.get(colon) == Some(&b':') {
            let value = &bytes[skip(colon + 1)..];
            let ends = |n: usize| {
                !value
                    .get(n)
                    .is_some_and(|b| b.is_ascii_digit() || b".eE".contains(b))
            };
            if value.starts_with(b"3") && ends(1) {
                return Some("3");
            }
            if value.starts_with(b"\"2.1\"") {
                return Some("2.1");
            }
            if value.starts_with(b"2") && ends(1) {
                return Some("2");
            }
        }
    }
    let v1 = bytes.windows(13).any(|w| w == b"\"client_seed\"");
    v1.then_some("1")
}

/// A version-3 (hidden hands) document: read by `fairdeck-hidden`'s
/// strict reader, not by this crate's.
pub fn is_version_3(text: &str) -> bool {
    let value: Option<serde_json::Value> = serde_json::from_str(text).ok();
    value.is_some_and(|v| v.get("version").and_then(|v| v.as_u64()) == Some(3))
}

/// A table document (`fair table new`) has a manifest and no deals: the
/// wrong file, said so as a usage error rather than a malformed transcript.
pub fn is_table_document(text: &str) -> bool {
    let value: Option<serde_json::Value> = serde_json::from_str(text).ok();
    value.is_some_and(|v| {
        v.get("manifest").is_some() && v.get("deals").is_none() && v.get("version").is_none()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_text_and_what_is_not() {
        assert_eq!(not_json(br#"{"version": 2}"#), None);
        assert!(not_json(b"\xff{}").unwrap().starts_with("not UTF-8 text"));
        assert!(
            not_json("\u{feff}{}".as_bytes())
                .unwrap()
                .contains("byte order mark")
        );
        assert!(
            not_json(b"{} {}")
                .unwrap()
                .starts_with("not exactly one JSON document")
        );
    }

    #[test]
    fn the_declared_version_of_bytes_that_are_not_json() {
        assert_eq!(declared_version(br#"{"version" : 3,"#), Some("3"));
        assert_eq!(declared_version(br#"{"version":"2.1", x"#), Some("2.1"));
        assert_eq!(declared_version(br#"{"version":2 x"#), Some("2"));
        assert_eq!(declared_version(br#"{"version":21 x"#), None);
        assert_eq!(declared_version(br#"{"client_seed": x"#), Some("1"));
        assert_eq!(declared_version(b"plain text"), None);
    }

    #[test]
    fn version_3_and_table_documents() {
        assert!(is_version_3(r#"{"version": 3}"#));
        assert!(!is_version_3(r#"{"version": "2.1"}"#));
        assert!(is_table_document(r#"{"manifest": {}, "commitment": "00"}"#));
        assert!(!is_table_document(r#"{"manifest": {}, "deals": []}"#));
        assert!(!is_table_document(r#"{"version": 2, "manifest": {}}"#));
    }
}
