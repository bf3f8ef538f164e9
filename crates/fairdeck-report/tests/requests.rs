//! The report layer's requests: defaults as the CLI's, refusals that name
//! the parameter, reports that replay from their seed.

use fairdeck_report::random::RandomRequest;
use fairdeck_report::{Error, audit, deal, exact, mix, shuffle};

/// The parameter a refusal names.
fn refused(e: Error) -> &'static str {
    e.refused()
        .unwrap_or_else(|| panic!("not a RequestError: {e}"))
        .field
        .name()
}

#[test]
fn an_empty_json_object_is_the_cli_default() {
    let d: deal::Request = serde_json::from_str("{}").unwrap();
    let plan = d.validate().unwrap();
    assert_eq!(plan.game, Some(fairdeck::cards::Game::Bridge));
    let a: audit::Request = serde_json::from_str(r#"{"alg": "naive-swap"}"#).unwrap();
    assert_eq!((a.n, a.trials), (audit::DEFAULT_N, audit::DEFAULT_TRIALS));
    let m: mix::Request = serde_json::from_str(r#"{"model": "riffle"}"#).unwrap();
    assert_eq!((m.n, m.trials), (mix::DEFAULT_N, mix::DEFAULT_TRIALS));
    let e: exact::Request = serde_json::from_str(r#"{"alg": "naive-swap", "n": 3}"#).unwrap();
    assert_eq!(e.max_paths, exact::DEFAULT_MAX_PATHS);
}

#[test]
fn refusals_name_their_parameter() {
    let d = |json: &str| serde_json::from_str::<deal::Request>(json).unwrap();
    assert_eq!(
        refused(d(r#"{"players": 3}"#).validate().unwrap_err()),
        "players"
    );
    assert_eq!(
        refused(d(r#"{"game": "chess"}"#).validate().unwrap_err()),
        "game"
    );
    assert_eq!(
        refused(d(r#"{"deck": "tarot"}"#).validate().unwrap_err()),
        "deck"
    );
    let plan = d("{}").validate().unwrap();
    assert_eq!(refused(plan.from_number("-1").unwrap_err()), "number");
    let s = |json: &str| serde_json::from_str::<shuffle::Request>(json).unwrap();
    let bad_rounds = s(r#"{"alg": "fisher-yates", "rounds": 3}"#);
    assert_eq!(refused(bad_rounds.validate().unwrap_err()), "rounds");
    assert_eq!(
        refused(s(r#"{"alg": "bogo"}"#).validate().unwrap_err()),
        "alg"
    );
    let a = |json: &str| serde_json::from_str::<audit::Request>(json).unwrap();
    assert_eq!(
        refused(
            a(r#"{"alg": "naive-swap", "alpha": 2.0}"#)
                .validate()
                .unwrap_err()
        ),
        "alpha"
    );
    assert_eq!(
        refused(
            a(r#"{"alg": "naive-swap", "n": 1}"#)
                .validate()
                .unwrap_err()
        ),
        "n"
    );
    // 10^9 trials of a 1000-card shuffle is over the work budget, unless allowed.
    let big = a(r#"{"alg": "fisher-yates", "n": 1000, "trials": 1000000000}"#);
    assert_eq!(refused(big.validate().unwrap_err()), "trials");
    let e = |json: &str| serde_json::from_str::<exact::Request>(json).unwrap();
    assert_eq!(
        refused(exact::run(&e(r#"{"alg": "naive-swap", "n": 10}"#)).unwrap_err()),
        "n"
    );
}

#[test]
fn a_short_seed_text_is_a_shortfall_and_strict_refuses_it() {
    let mut request = deal::Request {
        random: RandomRequest::seeded("42"),
        ..Default::default()
    };
    let (report, shortfall) =
        deal::run(&request, &mut request.random.randomness().unwrap()).unwrap();
    assert_eq!(report.entropy.entropy_source, "seed-text");
    assert_eq!(shortfall.unwrap().level, "warning");
    request.strict = true;
    let e = deal::run(&request, &mut request.random.randomness().unwrap()).unwrap_err();
    assert_eq!(refused(e), "strict");
}

#[test]
fn a_deal_replays_from_the_key_it_reports() {
    let request = deal::Request {
        game: Some("holdem".into()),
        ..Default::default()
    };
    let (first, _) = deal::run(&request, &mut request.random.randomness().unwrap()).unwrap();
    let again = deal::Request {
        random: RandomRequest::seeded(first.seed.clone().unwrap()),
        ..request
    };
    let (second, _) = deal::run(&again, &mut again.random.randomness().unwrap()).unwrap();
    let cards = |r: &deal::Report| r.hands.iter().map(|h| h.cards.clone()).collect::<Vec<_>>();
    assert_eq!(cards(&first), cards(&second));
    assert_eq!(first.entropy.entropy_source, "os");
    assert_eq!(second.entropy.entropy_source, "hex-key");
}
