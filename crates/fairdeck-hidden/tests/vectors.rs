//! The spec's test vectors are exactly what the crate computes.

#[path = "../examples/vectors.rs"]
#[allow(dead_code)]
mod example;

#[test]
fn the_spec_holds_the_vectors_byte_for_byte() {
    let spec = include_str!("../../../docs/hidden-dealing.md");
    let text = example::vectors();
    assert!(
        text.contains("P_AS"),
        "the generator printed nothing useful"
    );
    assert!(
        spec.contains(text.trim_end()),
        "docs/hidden-dealing.md §13 differs from `cargo run -p fairdeck-hidden --example vectors`"
    );
}

#[test]
fn the_spec_holds_the_version_3_1_vectors_byte_for_byte() {
    let spec = include_str!("../../../docs/hidden-dealing.md");
    let text = example::vectors_31();
    assert!(
        text.contains("PK_room"),
        "the generator printed nothing useful"
    );
    assert!(
        spec.contains(text.trim_end()),
        "docs/hidden-dealing.md §20 differs from `cargo run -p fairdeck-hidden --example vectors`"
    );
}

#[test]
fn a_secret_key_round_trips_and_zero_is_refused() {
    use fairdeck_hidden::keys::SecretKey;
    let sk = SecretKey::from_bytes(&[9; 32]).unwrap();
    assert_eq!(*sk.to_bytes(), [9; 32]);
    assert!(SecretKey::from_bytes(&[0; 32]).is_err());
    assert!(SecretKey::from_bytes(&[0xff; 32]).is_err());
}

#[test]
fn the_version_3_2_spec_holds_its_vectors_byte_for_byte() {
    let spec = include_str!("../../../docs/hidden-dealing-v3.2.md");
    let text = example::vectors_32();
    assert!(
        text.contains("PK_room"),
        "the generator printed nothing useful"
    );
    assert!(
        spec.contains(text.trim_end()),
        "docs/hidden-dealing-v3.2.md §30 differs from `cargo run -p fairdeck-hidden --example vectors`"
    );
}

/// The value printed after `label` in the first line of `text` that starts
/// with it.
fn value<'a>(text: &'a str, label: &str) -> &'a str {
    let line = text
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no line {label}"));
    line[label.len()..].trim()
}

#[test]
fn the_version_3_2_vectors_keep_their_values() {
    let spec = include_str!("../../../docs/hidden-dealing-v3.2.md");
    let text = example::vectors_32();
    // M of revision 2, as §30 computed it by hand from §21.1.
    let m = text
        .lines()
        .find(|l| l.starts_with("0000"))
        .expect("M is printed");
    assert_eq!(value(spec, "M (hex)"), m);
    // Value stability: the joint key and seat 0's verifying share.
    assert_eq!(
        value(&text, "PK  "),
        "8896fcb688194b2b3351f56485deb12cb4e290976d927d1f8621d067df649f3e"
    );
    assert_eq!(
        value(&text, "Y_0  "),
        "8e3ea931c36a42c2d60a59e8ce5f483d5b2719e64c43b4bd0e916368fe66dd5c"
    );
    assert_eq!(
        value(&text, "K_01  "),
        "842c69051c3e27326fcb6b7b64f15fbbb200b42c724f46a42d44a8af6423f807"
    );
    let verdicts: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("verdict    "))
        .collect();
    assert_eq!(
        verdicts,
        [
            "dealing-share: seat 0 dealt a share that does not match its commitments",
            "complaint: seat 3's complaint is false",
        ]
    );
}
