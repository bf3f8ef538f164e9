//! `fairdeck mix shelf`: the shelf machine's exact distance from uniform
//! per number of shelves, one pass and two (Diaconis, Fulman and Holmes
//! 2013), running the real binary. The values are exact; the library's
//! tests check them against enumeration and a simulation.

mod common;

use common::{fairdeck, json_of, usage_error};

#[test]
fn json_rows_give_shelves_passes_and_the_distance() {
    let v = json_of("mix", &["shelf", "-n", "52", "--max-shelves", "10"]);
    assert_eq!(v["model"], "shelf");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 20);
    let at = |m: u64, passes: u64| {
        rows.iter()
            .find(|r| r["shelves"] == m && r["passes"] == passes)
            .unwrap()["total_variation"]
            .as_f64()
            .unwrap()
    };
    // DFH: one pass through 10 shelves is far from random; two are close.
    assert!(at(10, 1) > 0.999, "{}", at(10, 1));
    assert!((at(10, 2) - 0.0103).abs() < 0.0005, "{}", at(10, 2));
    // More shelves, closer to uniform.
    for m in 1..10 {
        assert!(
            at(m, 1) >= at(m + 1, 1) && at(m, 2) >= at(m + 1, 2),
            "m = {m}"
        );
    }
}

#[test]
fn text_table_and_refusals() {
    let out = fairdeck()
        .args(["mix", "shelf", "-n", "20", "--max-shelves", "3"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("shelves") && text.contains("two passes"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 5, "{text}");
    usage_error(&["mix", "shelf", "-n", "1000"]);
    usage_error(&["mix", "shelf", "--max-shelves", "0"]);
}
