//! The audit request and report: one set of refusals for every front end
//! (the CLI, the web page, Python), and a report that says how each p-value
//! was computed, on which law, and what confidence holds.

use fairdeck_audit::stats::Tally;
use fairdeck_audit::stats::gof::orders;
use fairdeck_report::audit::{self, Request};
use fairdeck_report::random::RandomRequest;

fn request(json: &str) -> Request {
    serde_json::from_str(json).unwrap()
}

/// The parameter and message of a refusal.
fn refused(e: fairdeck_report::Error) -> (&'static str, String) {
    let r = e
        .refused()
        .unwrap_or_else(|| panic!("not a RequestError: {e}"));
    (r.field.name(), r.message.to_string())
}

/// `rounds` shuffles of each order of `n` cards: as even as counts can be.
fn even_tally(n: usize, rounds: u64) -> Tally {
    let mut t = Tally::new(n);
    for p in orders(n) {
        for _ in 0..rounds {
            t.add(&p).unwrap();
        }
    }
    t
}

/// Issue 34, items 2 and 5, for every front end: an alpha whose per-test
/// share underflows and a tolerance every shuffle meets are refused by the
/// request itself, for simulated and for read permutations.
#[test]
fn the_request_refuses_what_the_statistics_cannot_carry() {
    let simulated = |json: &str| request(json).validate().map(|_| ());
    let (p, m) = refused(simulated(r#"{"alg": "sattolo", "alpha": 5e-324}"#).unwrap_err());
    assert_eq!(p, "alpha");
    assert!(m.contains("too small"), "{m}");
    let (p, m) = refused(simulated(r#"{"alg": "fisher-yates", "tolerance": 0.999}"#).unwrap_err());
    assert_eq!(p, "tolerance");
    assert!(m.contains("every shuffle of 52 cards"), "{m}");
    // Negative controls: a small but representable alpha, a tolerance
    // just below 1 − 1/n.
    simulated(r#"{"alg": "sattolo", "alpha": 1e-200}"#).unwrap();
    simulated(r#"{"alg": "fisher-yates", "tolerance": 0.98}"#).unwrap();

    // Read permutations: the tolerance is judged against their n (4 here:
    // 1 − 1/n = 0.75), which only the tally knows.
    let tally = even_tally(4, 5);
    let judged = |json: &str| audit::judge(&request(json), "t".into(), None, &tally).map(|_| ());
    assert_eq!(
        refused(judged(r#"{"tolerance": 0.8}"#).unwrap_err()).0,
        "tolerance"
    );
    assert_eq!(
        refused(judged(r#"{"alpha": 1e-320}"#).unwrap_err()).0,
        "alpha"
    );
    judged(r#"{"tolerance": 0.7}"#).unwrap();
    let until = r#"{"tolerance": 0.1, "until_decided": true}"#;
    assert_eq!(refused(judged(until).unwrap_err()).0, "until_decided");
    let empty = Tally::new(4);
    let e = audit::judge(&request("{}"), "t".into(), None, &empty).map(|_| ());
    assert_eq!(refused(e.unwrap_err()).0, "input");
}

/// Issue 34, item 4: each test's row says how its p-value was computed and
/// on which law; a run spent over rounds reports the confidence that holds
/// over all of them (the requested one), each round its own.
#[test]
fn the_report_says_how_each_test_was_read() {
    // 3 cards, 30 shuffles: every test is exact.
    let tally = even_tally(3, 5);
    let report = audit::judge(&request("{}"), "t".into(), None, &tally).unwrap();
    assert!(
        report.tests.iter().all(|t| t.method == "exact"),
        "{:?}",
        report.tests
    );
    let fixed = report
        .tests
        .iter()
        .find(|t| t.name == "fixed-points")
        .unwrap();
    assert_eq!(fixed.law, "fixed points in bins 0 | 1 | 2+");
    // 52 cards, 20 000 shuffles: chi-square where the cells expect enough,
    // Poisson for duplicate decks.
    let r = request(r#"{"alg": "fisher-yates", "trials": 20000, "seed": "methods"}"#);
    let (report, _) = audit::run(&r, &r.random.randomness().unwrap(), &|_| {}).unwrap();
    let method = |name: &str| report.tests.iter().find(|t| t.name == name).unwrap().method;
    assert_eq!(method("positions"), "chi-square doubled");
    assert_eq!(method("birthday"), "poisson");
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["tests"][0]["law"], "card x position counts", "{json}");
}

#[test]
fn until_decided_reports_the_confidence_that_holds() {
    let r = Request {
        random: RandomRequest::seeded("u"),
        ..request(
            r#"{"alg": "fisher-yates", "n": 4, "trials": 3200, "tolerance": 0.05,
                "confidence": 0.999, "until_decided": true}"#,
        )
    };
    let (report, _) = audit::run(&r, &r.random.randomness().unwrap(), &|_| {}).unwrap();
    assert_eq!(report.verdict.verdict, "uniform within tolerance");
    assert_eq!(
        report.verdict.equivalence.as_ref().unwrap().confidence,
        0.999
    );
    assert_eq!(report.alpha, r.alpha);
    let first = report.rounds[0].confidence.unwrap();
    assert!(first > 0.999, "round 1 runs at {first}");
}

/// Issue 34, item 7: what the tool's own plan says cannot be decided in
/// the budget, and a bias too small to plan for, are refused before any
/// shuffle (the first ran 103 s to UNDECIDED; the second printed 2^64 − 1).
#[test]
fn hopeless_requests_are_refused_up_front() {
    let simulated = |json: &str| request(json).validate().map(|_| ());
    let hopeless =
        r#"{"alg": "fisher-yates", "n": 1000, "tolerance": 0.0001, "until_decided": true}"#;
    let (p, m) = refused(simulated(hopeless).unwrap_err());
    assert_eq!(p, "tolerance");
    assert!(m.contains("by the plan"), "{m}");
    let (p, m) = refused(simulated(r#"{"alg": "fisher-yates", "detect": 1e-300}"#).unwrap_err());
    assert_eq!(p, "detect");
    assert!(m.contains("1e18"), "{m}");
    // Negative controls: the book's run until decided, a plannable bias.
    simulated(r#"{"alg": "fisher-yates", "n": 8, "tolerance": 0.01, "until_decided": true}"#)
        .unwrap();
    simulated(r#"{"alg": "naive-swap", "n": 8, "detect": 0.0335}"#).unwrap();
}
