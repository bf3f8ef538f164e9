//! Integration tests of `fairdeck mix`, running the real binary.

mod common;

use common::{json_of, run, usage_error};
use serde_json::Value;

fn mix(args: &[&str]) -> Value {
    json_of("mix", args)
}

#[test]
fn seven_riffles_for_52_cards() {
    let v = mix(&["riffle", "-n", "52"]);
    let tv: Vec<f64> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["total_variation"].as_f64().unwrap())
        .collect();
    assert_eq!(tv.len(), 12);
    assert!((tv[6] - 0.334).abs() < 0.001, "k = 7: {}", tv[6]);
    assert!(
        tv[5] > 0.5 && tv[6] < 0.5,
        "the distance first drops below 1/2 at k = 7"
    );
}

#[test]
fn small_decks_are_exact_for_every_model() {
    for model in ["riffle", "top-to-random", "overhand"] {
        let v = mix(&[model, "-n", "5", "--max-shuffles", "8"]);
        assert!(v["method"].as_str().unwrap().starts_with("exact"));
        let rows = v["rows"].as_array().unwrap();
        assert!(
            rows.iter()
                .all(|r| r["total_variation"].as_f64().unwrap() <= 1.0)
        );
    }
}

#[test]
fn top_to_random_bounds_at_52() {
    let v = mix(&[
        "top-to-random",
        "-n",
        "52",
        "--max-shuffles",
        "400",
        "--step",
        "100",
        "--trials",
        "1000",
        "--seed",
        "mix",
    ]);
    for r in v["rows"].as_array().unwrap() {
        let (lo, err, hi) = (
            r["lower_bound"].as_f64().unwrap(),
            r["error"].as_f64().unwrap(),
            r["upper_bound"].as_f64().unwrap(),
        );
        assert!(lo - 4.0 * err <= hi, "{r}");
    }
    assert!(
        v["rows"][1]["lower_bound"].as_f64().unwrap() > 0.9,
        "100 moves are far too few"
    );
}

#[test]
fn plot_and_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("mix.svg");
    mix(&["riffle", "-n", "52", "--plot", svg.to_str().unwrap()]);
    assert!(
        std::fs::read_to_string(&svg).unwrap().contains("<line")
            || std::fs::read_to_string(&svg).unwrap().contains("<polyline")
    );
    for args in [
        vec!["mix", "shake"],
        vec!["mix", "riffle", "-n", "1"],
        vec!["mix", "riffle", "--plot", "x.png"],
    ] {
        usage_error(&args);
    }
}

/// Issue 22, item 4: a simulated point inside its own noise is marked as
/// such (its 95 % band reaches 0) in JSON and text, with the noise floor,
/// and never read as mixed; an unmixed deck's point is resolved.
#[test]
fn simulated_points_carry_their_band_and_noise_floor() {
    let args = [
        "overhand",
        "-n",
        "52",
        "--max-shuffles",
        "33",
        "--step",
        "33",
        "--trials",
        "408",
        "--seed",
        "tester",
    ];
    let doc = mix(&args);
    let rows = doc["rows"].as_array().unwrap();
    let (first, last) = (&rows[0], rows.last().unwrap());
    assert_eq!(
        (first["shuffles"].as_u64(), last["shuffles"].as_u64()),
        (Some(1), Some(33))
    );
    assert_eq!(first["resolved"], true);
    assert!(first["band_low"].as_f64().unwrap() > 0.5);
    assert_eq!(last["resolved"], false);
    assert_eq!(last["band_low"].as_f64(), Some(0.0));
    for row in rows {
        let (low, value, high) = (
            row["band_low"].as_f64().unwrap(),
            row["lower_bound"].as_f64().unwrap(),
            row["band_high"].as_f64().unwrap(),
        );
        assert!(low <= value && value <= high, "{row}");
        assert!(row["noise_floor"].as_f64().unwrap() > 0.0);
    }
    let text = String::from_utf8(run(&common::with("mix", &args)).stdout).unwrap();
    assert!(
        text.contains(" noise") && text.contains("noise floor: "),
        "{text}"
    );
    assert!(text.contains("does not say it is mixed"), "{text}");
    // The --plot SVG draws the band's edges and the noise floor too.
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("mix.svg");
    let mut with_plot: Vec<&str> = common::with("mix", &args);
    let svg_arg = svg.to_str().unwrap();
    with_plot.extend(["--plot", svg_arg]);
    assert!(run(&with_plot).status.success());
    let drawn = std::fs::read_to_string(&svg).unwrap();
    for series in ["95% band, low", "95% band, high", "noise floor"] {
        assert!(drawn.contains(series), "{series}");
    }
}
