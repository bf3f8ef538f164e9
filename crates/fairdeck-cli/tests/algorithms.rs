//! Integration tests of `fairdeck algorithms`, running the real binary.

mod common;

use common::{parse, run, usage_error};

const NAMES: [&str; 17] = [
    "fisher-yates",
    "knuth-forward",
    "inside-out",
    "fisher-yates-original",
    "fisher-yates-list",
    "rejection",
    "random-insertion",
    "random-insertion-stopping",
    "sort-keys",
    "sort-keys-fast",
    "reverse-insertion",
    "random-transpositions",
    "naive-swap",
    "sattolo",
    "asf-poker",
    "knuth-deal",
    "hash-deal",
];

#[test]
fn json_lists_every_algorithm_with_its_fields() {
    let out = run(&["algorithms", "--format", "json"]);
    assert!(out.status.success());
    let v = parse(&out);
    let list = v.as_array().unwrap();
    let names: Vec<&str> = list.iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(names, NAMES);
    for e in list {
        assert!(!e["sources"].as_array().unwrap().is_empty(), "{e}");
        assert!(e["time"].as_str().unwrap().starts_with("O("));
        assert!(e["space"].as_str().unwrap().starts_with("O("));
        assert!(e["intended_uniform"].is_boolean());
        assert!(e["unbounded"].is_boolean());
    }
    let naive = &list[12];
    assert_eq!(naive["intended_uniform"], false);
    assert_eq!(naive["sources"][0], "Juhász, “Keverjük a kártyát” (n.d.)");
    assert_eq!(
        list[14]["sources"][0],
        "other literature (docs/references.md)"
    );
}

#[test]
fn the_python_snippet_bug_is_documented() {
    let v = parse(&run(&["algorithms", "fisher-yates", "--format", "json"]));
    let note = v[0]["notes"][0].as_str().unwrap();
    assert!(
        note.contains("IndexError") && note.contains("randint"),
        "{note}"
    );
    let text = run(&["algorithms"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("IndexError"));
}

#[test]
fn text_table_has_one_line_per_algorithm() {
    let out = run(&["algorithms"]);
    let text = String::from_utf8(out.stdout).unwrap();
    for name in NAMES {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name}"
        );
    }
}

#[test]
fn one_algorithm_is_described_in_full() {
    let out = run(&["algorithms", "Sattolo"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("sattolo\n"));
    assert!(text.contains("cyclic"));
}

#[test]
fn an_unknown_algorithm_is_a_usage_error_on_one_line() {
    let out = usage_error(&["algorithms", "bogosort"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("unknown algorithm \"bogosort\""), "{err}");
}
