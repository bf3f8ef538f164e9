use super::*;

#[test]
fn spread_is_the_median_and_range() {
    let s = Spread::of(&[3.0, 1.0, 2.0]).unwrap();
    assert_eq!((s.median, s.min, s.max), (2.0, 1.0, 3.0));
    let even = Spread::of(&[4.0, 1.0, 2.0, 3.0]).unwrap();
    assert_eq!(even.median, 2.5);
    assert!(Spread::of(&[]).is_none());
    assert!(Spread::of(&[f64::NAN]).is_none());
}

#[test]
fn case_arguments_round_trip_and_bad_ones_are_refused() {
    let case = Case {
        op: "shuffle_u64",
        implementation: Implementation::Rand,
        family: RngFamily::ChaCha12,
        n: 1000,
        threads: 1,
    };
    let budget = Duration::from_millis(250);
    assert_eq!(Case::from_args(&case.to_args(budget)), Some((case, budget)));
    let mut bad = case.to_args(budget);
    bad[0] = "sort".into();
    assert_eq!(Case::from_args(&bad), None);
    let mut zero_threads = case.to_args(budget);
    zero_threads[4] = "0".into();
    assert_eq!(Case::from_args(&zero_threads), None);
    assert_eq!(Case::from_args(&case.to_args(budget)[..5]), None);
}

#[test]
fn every_fairdeck_case_has_its_rand_case() {
    let options = Options {
        sizes: vec![52, 1000],
        wide_sizes: vec![1000],
        ..Options::default()
    };
    let pairs = pairs(&options);
    // 3 sizes × 3 families × 2 thread counts, then deals and samples: 3 each.
    assert_eq!(pairs.len(), 3 * 3 * 2 + 3 + 3);
    for (f, r) in &pairs {
        assert_eq!((f.op, f.n, f.family), (r.op, r.n, r.family));
        assert_eq!(r.implementation, Implementation::Rand);
        assert_eq!(r.threads, 1);
    }
    assert_eq!(rounds_for(100_000_000), 5);
    assert_eq!(rounds_for(52), 11);
}

#[test]
fn a_case_times_in_process() {
    for op in ["shuffle", "shuffle_u64", "deal_holdem", "sample"] {
        let case = Case {
            op,
            implementation: Implementation::Fairdeck,
            family: RngFamily::Fast,
            n: 100,
            threads: 2,
        };
        let ns = case.time(Duration::from_millis(2)).unwrap();
        assert!(ns > 0.0 && ns.is_finite(), "{op}: {ns}");
    }
}

#[test]
fn a_baseline_that_disagrees_is_named_once() {
    let spread = |x: f64| Spread {
        median: x,
        min: x,
        max: x,
    };
    let row = |threads: usize, in_process: f64| Row {
        case: Case {
            op: "shuffle",
            implementation: Implementation::Fairdeck,
            family: RngFamily::Crypto,
            n: 1_000_000,
            threads,
        },
        rng: ("chacha20", "stdrng-chacha12"),
        fairdeck: spread(4.0),
        rand_alone: spread(8.0),
        rand_in_process: Some(in_process),
        ratio: spread(2.0),
        rounds: 5,
    };
    let mut comparison = Comparison {
        rows: vec![row(1, 12.0), row(2, 12.0)],
        load_average: (Some(1.0), Some(1.0)),
    };
    let text = comparison.to_text();
    let line = text.lines().find(|l| l.contains("differ")).unwrap();
    assert_eq!(line.matches("stdrng-chacha12").count(), 1, "{line}");
    // Negative control: baselines within 10 % are not named at all.
    comparison.rows = vec![row(1, 8.5), row(2, 7.5)];
    assert!(comparison.to_text().contains("agree within 10 %"));
}
