//! `fairdeck audit --input` on shuffling-machine logs: card names mapped
//! through `--order`, refusals naming the line and the card, and the model
//! tests and card-guessing sentence on a machine's decks.
//!
//! The machine's decks here come from a generator written in this file (a
//! one-pass 10-shelf machine as Diaconis, Fulman and Holmes describe it),
//! seeded, so the runs give the same answer every time; the audit runs at
//! the default family-wise α = 10⁻⁶.

mod common;

use common::{fairdeck, json_of};
use fairdeck::cards::DeckKind;
use fairdeck::dice::{Dice, RngDice};
use fairdeck::rng::{Generator, Seed};

/// One pass of a 10-shelf machine over 0..52 (top first), dealt from the
/// bottom, each card on top of its shelf or below with probability ½.
fn shelf_pass(d: &mut impl Dice) -> Vec<usize> {
    let mut shelves = vec![std::collections::VecDeque::new(); 10];
    for card in (0..52).rev() {
        let shelf: &mut std::collections::VecDeque<usize> = &mut shelves[d.roll(10) as usize];
        if d.roll(2) == 0 {
            shelf.push_front(card);
        } else {
            shelf.push_back(card);
        }
    }
    shelves.into_iter().flatten().collect()
}

/// `decks` as lines of card names (the standard order), spelled by `name`.
fn log(decks: &[Vec<usize>], name: impl Fn(fairdeck::cards::Card) -> String) -> String {
    let order = DeckKind::Standard.cards();
    decks
        .iter()
        .map(|d| {
            d.iter()
                .map(|&i| name(order[i]))
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect()
}

fn machine_decks(count: usize, seed: &str) -> Vec<Vec<usize>> {
    let mut d = RngDice::new(Generator::ChaCha20.build(&Seed::from_text(seed)));
    (0..count).map(|_| shelf_pass(&mut d)).collect()
}

fn audit_file(text: &str, extra: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("machine.log");
    std::fs::write(&path, text).unwrap();
    let mut args = vec!["--input", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    json_of("audit", &args)
}

/// Card names in every spelling audit exactly like their numbers: the same
/// tests, statistics and p-values.
#[test]
fn card_names_audit_like_their_numbers() {
    let decks = machine_decks(20, "cards-like-numbers");
    let numbers: String = decks
        .iter()
        .map(|d| {
            d.iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    let by_number = audit_file(&numbers, &["--base", "0"]);
    for name in [
        |c: fairdeck::cards::Card| c.to_string(),
        |c: fairdeck::cards::Card| c.symbol(),
        |c: fairdeck::cards::Card| c.to_string().to_lowercase().replace('t', "10"),
    ] {
        let by_name = audit_file(&log(&decks, name), &["--order", "standard"]);
        assert_eq!(by_name["tests"], by_number["tests"]);
        assert_eq!(by_name["verdict"], by_number["verdict"]);
    }
}

/// Issue 49: a one-pass 10-shelf machine is caught at 3 decks, named by
/// its cards, and the guessing sentence is in the text and the JSON.
#[test]
fn a_shelf_machine_log_is_caught_with_the_guessing_sentence() {
    let text = log(&machine_decks(20, "cards-machine"), |c| c.to_string());
    let v = audit_file(&text, &[]);
    assert_eq!(v["verdict"], "biased");
    let failed: Vec<&str> = v["failed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(
        failed.contains(&"valleys-low") && failed.contains(&"guessing"),
        "{failed:?}"
    );
    // The estimate lands within two shelves of the truth.
    assert_eq!(v["estimate"]["family"], "shelf", "{}", v["estimate"]);
    let shelves = v["estimate"]["value"].as_f64().unwrap();
    assert!((shelves - 10.0).abs() <= 2.0, "{}", v["estimate"]);
    let right = v["guessing"]["right"].as_f64().unwrap();
    assert!(right > 7.0 && (v["guessing"]["fair"].as_f64().unwrap() - 4.538).abs() < 0.001);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("machine.log");
    std::fs::write(&path, &text).unwrap();
    let out = fairdeck()
        .args(["audit", "--input", path.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("a player who knows this machine would guess")
            && stdout.contains("of 52 cards right (a fair deck: 4.54)")
            && stdout.contains("model estimate: behaves like one pass of a"),
        "{stdout}"
    );
}

/// A bad log is refused with one line naming the line and the card; exit
/// 2 and nothing on stdout.
#[test]
fn bad_card_logs_name_the_line_and_the_card() {
    let good = log(&machine_decks(1, "cards-bad"), |c| c.to_string());
    let good = good.trim_end();
    let cases = [
        (
            good.replacen("QS", "QH", 1),
            vec![],
            "line 2: QH appears twice",
        ),
        (good.replacen(" QS", "", 1), vec![], "line 2: QS is missing"),
        (
            good.replacen("QS", "ZS", 1),
            vec![],
            "line 2: \"ZS\" is not a card name",
        ),
        (
            good.to_string() + " RJ",
            vec![],
            "line 2: RJ is not in the order",
        ),
        (
            "AH 7H".to_string(),
            vec!["--order", "piquet"],
            "line 2: 8H is missing",
        ),
        (
            good.to_string(),
            vec!["--order", "shoe:2"],
            "names AH twice",
        ),
        (good.to_string(), vec!["--order", "AS,XX"], "--order:"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.log");
    for (bad, extra, want) in cases {
        let first = if extra.contains(&"piquet") {
            let p: Vec<String> = DeckKind::Piquet
                .cards()
                .iter()
                .map(|c| c.to_string())
                .collect();
            p.join(" ")
        } else {
            good.to_string()
        };
        std::fs::write(&path, format!("{first}\n{bad}\n")).unwrap();
        let mut args = vec!["audit", "--input", path.to_str().unwrap()];
        args.extend(extra);
        let out = fairdeck().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{want}: {err}");
        assert!(
            err.contains(want) && err.lines().count() == 1,
            "{want}: {err}"
        );
        assert!(out.stdout.is_empty(), "{want}");
    }
}

/// Issue 49 item 7: `--plot` draws, below the position heatmap, the
/// histograms of rising sequences and valleys against the uniform law, with
/// the estimated shelf machine's curve named.
#[test]
fn the_plot_shows_the_histograms_with_the_fitted_machine() {
    let dir = tempfile::tempdir().unwrap();
    let (path, svg) = (dir.path().join("machine.log"), dir.path().join("m.svg"));
    let text = log(&machine_decks(20, "cards-machine"), |c| c.to_string());
    std::fs::write(&path, &text).unwrap();
    let out = fairdeck()
        .args(["audit", "--input", path.to_str().unwrap()])
        .args(["--plot", svg.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let picture = std::fs::read_to_string(&svg).unwrap();
    for needle in [
        "where each card lands",
        "Rising sequences per deck",
        "Valleys per deck",
        "uniform shuffle (expected)",
        "fitted: one pass of a",
    ] {
        assert!(picture.contains(needle), "{needle}");
    }
    assert_eq!(picture.matches("<svg").count(), 3);
}
