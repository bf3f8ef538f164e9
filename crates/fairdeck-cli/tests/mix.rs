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

/// Runs `fairdeck mix ARGS` with stderr off a terminal and progress lines
/// every `interval` seconds (the hidden `FAIRDECK_PROGRESS_SECONDS`).
fn mix_with_progress(args: &[&str], interval: Option<&str>) -> std::process::Output {
    let mut cmd = common::fairdeck();
    cmd.arg("mix").args(args);
    match interval {
        Some(seconds) => cmd.env("FAIRDECK_PROGRESS_SECONDS", seconds),
        None => cmd.env_remove("FAIRDECK_PROGRESS_SECONDS"),
    };
    cmd.output().unwrap()
}

/// Issue 35, item 16: `mix overhand --step 1 --mean-packet 2` ran 80 s
/// with nothing on stderr off a terminal. Now a line says it is alive, with
/// the estimated work and the budget it was checked against. 2.1·10⁸
/// steps (about a second) against lines every 0.1 s.
#[test]
fn a_long_run_says_it_is_alive_off_a_terminal() {
    let args = [
        "overhand",
        "--max-shuffles",
        "200",
        "--step",
        "50",
        "--seed",
        "alive",
        "--format",
        "json",
    ];
    let out = mix_with_progress(&args, Some("0.1"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // (4000 + 1) trials × (1 + 50 + 100 + 150 + 200) shuffles × 52 cards × 2.
    let line = "; estimated 2.1e8 steps, within the budget of 1.0e10 (about a minute)";
    assert!(
        err.lines().count() >= 1
            && err
                .lines()
                .all(|l| l.starts_with("fairdeck: mix: working for ") && l.ends_with(line)),
        "{err}"
    );
    // stdout holds the whole report, untouched by the progress lines.
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["rows"].as_array().unwrap().len(), 5);
}

/// A run shorter than the interval (default 5 s) says nothing.
#[test]
fn a_short_run_says_nothing() {
    let out = mix_with_progress(&["riffle", "-n", "52"], None);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The budget is kept up front: a run over it (3.6·10¹⁰ steps) is refused
/// at once, before any work or progress line, saying what would fit.
#[test]
fn a_run_over_the_budget_is_refused_before_it_starts() {
    let start = std::time::Instant::now();
    let out = mix_with_progress(
        &[
            "overhand",
            "--step",
            "1",
            "--mean-packet",
            "2",
            "--max-shuffles",
            "416",
        ],
        Some("0.01"),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("fairdeck: the run needs about 3.6e10 steps, over the budget of 1.0e10 (about a minute): ")
            && err.ends_with("or add --allow-long to run it anyway\n")
            && err.lines().count() == 1,
        "{err}"
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}
