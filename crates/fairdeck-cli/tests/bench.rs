//! Integration tests of `fairdeck bench`: tiny sizes and budgets; they check
//! the structure of the output, never the speed.

mod common;

use common::{assert_success, fairdeck, parse, usage_error, with};

const QUICK: [&str; 6] = [
    "--sizes",
    "10,100,1000",
    "--budget",
    "0.2",
    "--seed",
    "bench",
];

#[test]
fn json_has_results_and_fits_and_writes_an_svg_plot() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("bench.svg");
    let out = fairdeck()
        .args([
            "bench",
            "--algorithms",
            "fisher-yates,reverse-insertion",
            "--format",
            "json",
        ])
        .args(QUICK)
        .arg("--plot")
        .arg(&svg)
        .output()
        .unwrap();
    assert_success(&out);
    assert!(
        out.stderr.is_empty(),
        "no progress bar when stderr is not a terminal"
    );
    let v = parse(&out);
    let results = v["results"].as_array().unwrap();
    assert!(results.len() >= 2);
    for r in results {
        let alg = r["algorithm"].as_str().unwrap();
        assert!(alg == "fisher-yates" || alg == "reverse-insertion");
        assert!([10, 100, 1000].contains(&r["n"].as_u64().unwrap()));
        assert!(r["ns_per_element"].as_f64().unwrap() > 0.0);
    }
    for f in v["fits"].as_array().unwrap() {
        assert!(f["algorithm"].is_string());
        assert!(f["exponent"].as_f64().unwrap().is_finite());
    }
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.contains("<svg") && picture.contains("fisher-yates"));
}

#[test]
fn png_plots_need_no_system_fonts() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("bench.png");
    let out = fairdeck()
        .args(["bench", "--algorithms", "sattolo"])
        .args(QUICK)
        .arg("--plot")
        .arg(&png)
        .output()
        .unwrap();
    assert_success(&out);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn text_is_a_table_with_one_row_per_algorithm() {
    let out = fairdeck()
        .args([
            "bench",
            "--algorithms",
            "fisher-yates,fisher-yates-original,fisher-yates-list",
        ])
        .args(QUICK)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().nth(1).unwrap();
    assert!(
        header.starts_with("algorithm") && header.contains("n=1e3") && header.contains("exponent")
    );
    for name in [
        "fisher-yates ",
        "fisher-yates-original ",
        "fisher-yates-list ",
    ] {
        assert!(text.lines().any(|l| l.starts_with(name)), "{name}: {text}");
    }
    assert!(
        text.contains("“Shuffling a deck of cards” (2014) at n = 1e6"),
        "{text}"
    );
}

#[test]
fn bad_flags_are_usage_errors() {
    let cases: [&[&str]; 10] = [
        &["--algorithms", "nope"],
        &["--budget", "0"],
        &["--budget", "nan"],
        &["--sizes", "0"],
        &["--plot", "chart.pdf"],
        &["--passes", "--rounds", "0"],
        &["--rounds", "3"],
        &["--passes", "--production"],
        &["--passes", "--counters", "cache"],
        &["--counters", "software"],
    ];
    for args in cases {
        let out = usage_error(&with("bench", args));
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
}

/// Issue 25, item 2: `--passes` times each pass of one large shuffle.
#[test]
fn passes_time_every_pass_of_a_scattered_shuffle() {
    // 17·10^6 u32 = 68 MB: past the 64 MiB start, so it scatters.
    let out = fairdeck()
        .args(["bench", "--passes", "--sizes", "17e6", "--rounds", "2"])
        .args(["--generator", "xoshiro256pp", "--format", "json"])
        .output()
        .unwrap();
    assert_success(&out);
    let v = parse(&out);
    assert_eq!(v["n"], 17_000_000);
    assert_eq!(v["generator"], "xoshiro256pp");
    let passes: Vec<&str> = v["passes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["pass"].as_str().unwrap())
        .collect();
    assert_eq!(passes[..2], ["Labels", "Scatter"]);
    assert!(passes.contains(&"FisherYates"), "{passes:?}");
    assert_eq!(v["total_ns_per_element"].as_array().unwrap().len(), 2);
    // Hardware counters by default: read, or their absence explained.
    let unavailable = &v["counters_unavailable"];
    let counters = v["counters"].as_array().unwrap();
    assert!(
        unavailable.is_string() != (counters.len() == 4),
        "{unavailable} {counters:?}"
    );
    let text = fairdeck()
        .args(["bench", "--passes", "--sizes", "17e6", "--rounds", "1"])
        .args(["--counters", "software"])
        .output()
        .unwrap();
    assert_success(&text);
    let table = String::from_utf8_lossy(&text.stdout);
    assert!(
        table.contains("Scatter") && table.contains("page faults"),
        "{table}"
    );
    assert!(table.contains("task-clock-ns"), "{table}");
}

/// Issue 25: every production case also runs in a process of its own, in
/// rounds, fairdeck and rand alternating; the comparison has a median and a
/// range for both sides and for the per-round ratio, and rand's in-process
/// time beside its time alone. (Times are reported, never asserted.)
#[test]
fn production_cases_run_alone_in_rounds() {
    use fairdeck_bench::cases::RngFamily;
    use fairdeck_bench::own_process::compare;
    use fairdeck_bench::production::{Options, run};
    use std::time::Duration;

    let runner = std::path::Path::new(env!("CARGO_BIN_EXE_fairdeck-bench-case"));
    let options = Options {
        sizes: vec![52],
        wide_sizes: vec![],
        threads: vec![1, 2],
        max_time: Duration::from_millis(2),
        rngs: vec![RngFamily::Fast],
        sample_k: None,
        holdem: false,
        ..Options::default()
    };
    let in_process = run(&options);
    let mut ticks = 0;
    let comparison = compare(runner, &options, &in_process, |_| ticks += 1).unwrap();
    assert_eq!((comparison.rows.len(), ticks), (2, 2));
    for row in &comparison.rows {
        assert_eq!(row.rounds, 11);
        for s in [row.fairdeck, row.rand_alone, row.ratio] {
            assert!(
                s.min > 0.0 && s.min <= s.median && s.median <= s.max,
                "{s:?}"
            );
        }
        assert!(row.rand_in_process.is_some());
    }
    let text = comparison.to_text();
    assert!(
        text.contains("load average") && text.contains("(11 rounds)"),
        "{text}"
    );
    // The runner refuses what it cannot read, with a usage line and exit 2.
    let bad = std::process::Command::new(runner)
        .args(["sort", "rand"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).starts_with("usage: fairdeck-bench-case"));
}
