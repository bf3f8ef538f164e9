//! Every front end reports the same verdict for the same decks: the CLI's
//! `audit --input --format json` against the report layer's
//! [`fairdeck_report::audit::judge`], which the web API and Python return
//! as they are (`/api/audit` and `fairdeck.audit` serialise its report).
//! Compared: the verdict, every test row (with the family tests'
//! likelihood ratios), the skipped tests, the guessing game and the model
//! estimate. Seeded decks, so nothing can flake.

mod common;

use common::json_of;
use fairdeck::dice::RngDice;
use fairdeck::rng::{Generator, Seed};
use fairdeck_audit::mix::shelf::shelf_pass;
use fairdeck_audit::stats::Tally;
use fairdeck_report::audit;

fn same_report_from_the_cli_and_the_library(decks: &[Vec<usize>]) -> serde_json::Value {
    let text: String = decks
        .iter()
        .map(|d| d.iter().map(usize::to_string).collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("decks.log");
    std::fs::write(&path, text).unwrap();
    let cli = json_of("audit", &["--input", path.to_str().unwrap(), "--base", "0"]);
    let mut tally = Tally::new(decks[0].len());
    for d in decks {
        tally.add(d).unwrap();
    }
    let request: audit::Request = serde_json::from_str("{}").unwrap();
    let report = audit::judge(&request, "library".into(), None, &tally).unwrap();
    let library = serde_json::to_value(&report).unwrap();
    for field in ["verdict", "failed", "skipped", "estimate", "alpha"] {
        assert_eq!(cli[field], library[field], "{field}");
    }
    // Every row the same; numbers to the last few bits (the binary and
    // this test may sum in another order).
    let rows = |v: &serde_json::Value| v["tests"].as_array().unwrap().clone();
    let (a, b) = (rows(&cli), rows(&library));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        for key in ["name", "method", "law", "passed", "dof"] {
            assert_eq!(x[key], y[key], "{key} of {}", x["name"]);
        }
        for key in ["p_value", "statistic"] {
            // (An infinite statistic is JSON null in both.)
            let close = match (x[key].as_f64(), y[key].as_f64()) {
                (Some(p), Some(q)) => (p - q).abs() <= 1e-9 * p.abs().max(1.0),
                _ => x[key] == y[key],
            };
            assert!(close, "{key} of {}: {} vs {}", x["name"], x[key], y[key]);
        }
    }
    let share = |v: &serde_json::Value| v["per_test_alpha"].as_f64().unwrap();
    assert!((share(&cli) - share(&library)).abs() <= 1e-20);
    let guess = |v: &serde_json::Value| v["guessing"]["right"].as_f64();
    assert_eq!(guess(&cli), guess(&library));
    cli
}

/// A one-pass 10-shelf machine (caught, estimated) and uniform decks
/// (no bias detected, no machine fits).
#[test]
fn the_cli_and_the_report_layer_give_one_verdict_and_estimate() {
    let mut d = RngDice::new(Generator::ChaCha20.build(&Seed::from_text("frontends")));
    let machine: Vec<Vec<usize>> = (0..20)
        .map(|_| {
            let mut deck: Vec<usize> = (0..52).collect();
            shelf_pass(&mut deck, 10, &mut d);
            deck
        })
        .collect();
    let caught = same_report_from_the_cli_and_the_library(&machine);
    assert_eq!(caught["verdict"], "biased");
    let failed = caught["failed"].as_array().unwrap();
    assert!(failed.iter().any(|f| f == "shelf-lr"), "{failed:?}");
    assert_eq!(caught["estimate"]["family"], "shelf");
    let uniform: Vec<Vec<usize>> = (0..200)
        .map(|_| {
            let mut deck: Vec<usize> = (0..52).collect();
            fairdeck::shuffle::shuffle(&mut deck, &mut d);
            deck
        })
        .collect();
    let fair = same_report_from_the_cli_and_the_library(&uniform);
    assert_eq!(fair["verdict"], "no bias detected");
    assert!(fair["estimate"]["family"].is_null(), "{}", fair["estimate"]);
}
