//! Integration tests of bridge board sets, PBN, deal numbers, `--sort`,
//! `--glyphs`, and the completions and man subcommands.

mod common;

use common::{assert_success, fairdeck, parse, run};
use predicates::prelude::*;
use serde_json::Value;

const KEY: &str = "5eed00000000000000000000000000000000000000000000000000000000cafe";

fn boards_json(range: &str) -> Value {
    let out = run(&["deal", "--boards", range, "--seed", KEY, "--format", "json"]);
    assert_success(&out);
    parse(&out)
}

#[test]
fn a_board_depends_only_on_the_seed_and_its_number() {
    let all = boards_json("1-32");
    let some = boards_json("17-20");
    let deal = |v: &Value, board: u64| {
        v["boards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["board"] == board)
            .unwrap()["deal"]
            .clone()
    };
    for b in 17..=20 {
        assert_eq!(deal(&all, b), deal(&some, b), "board {b}");
    }
    assert_ne!(deal(&all, 1), deal(&all, 2));
    let boards = all["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 32);
    let b7 = &boards[6];
    assert_eq!(
        (b7["dealer"].as_str(), b7["vulnerable"].as_str()),
        (Some("South"), Some("All"))
    );
    let b16 = &boards[15];
    assert_eq!(
        (b16["dealer"].as_str(), b16["vulnerable"].as_str()),
        (Some("West"), Some("EW"))
    );
    let hcp: u64 = b7["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["hcp"].as_u64().unwrap())
        .sum();
    assert_eq!(hcp, 40);
    assert!((all["entropy_needed_bits"].as_f64().unwrap() - 95.44).abs() < 0.01);
}

#[test]
fn pbn_round_trips_through_from_pbn() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.pbn");
    let out = run(&[
        "deal", "--boards", "1-8", "--seed", KEY, "--format", "pbn", "--event", "Club",
    ]);
    assert_success(&out);
    std::fs::write(&path, &out.stdout).unwrap();
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(text.starts_with("% PBN 2.1\n"));
    assert!(text.contains("[Event \"Club\"]\n"));
    assert!(text.contains("[Board \"4\"]\n[Dealer \"W\"]\n[Vulnerable \"All\"]\n[Deal \"N:"));
    let file = path.to_str().unwrap();
    let back = run(&["deal", "--from-pbn", file, "--format", "pbn"]);
    assert_success(&back);
    assert_eq!(String::from_utf8(back.stdout).unwrap(), text);
    // The same boards as JSON and as diagrams.
    let v = parse(&run(&["deal", "--from-pbn", file, "--format", "json"]));
    assert_eq!(v["boards"], boards_json("1-8")["boards"]);
    fairdeck()
        .args(["deal", "--from-pbn", file])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Board 8 · dealer West · vulnerable None",
        ))
        .stdout(predicate::str::contains("8 boards read from"));
}

#[test]
fn bad_pbn_gives_one_line_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.pbn");
    std::fs::write(&path, "[Board \"1\"]\n[Deal \"N:AKQ.xyz... - - -\"]\n").unwrap();
    let out = run(&["deal", "--from-pbn", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("bad.pbn: line 2: North's hand"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let missing = run(&["deal", "--from-pbn", "/nonexistent/x.pbn"]);
    assert_eq!(missing.status.code(), Some(1));
    std::fs::write(&path, "% nothing here\n").unwrap();
    assert_eq!(
        run(&["deal", "--from-pbn", path.to_str().unwrap()])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn deal_numbers_replay_a_deal() {
    let first = parse(&run(&[
        "deal",
        "--seed",
        KEY,
        "--show-number",
        "--format",
        "json",
    ]));
    let number = first["deal_number"].as_str().unwrap().to_string();
    let again = parse(&run(&["deal", "--number", &number, "--format", "json"]));
    let sorted_hands = |v: &Value| -> Vec<Vec<String>> {
        v["hands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                let mut c: Vec<String> = h["cards"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.to_string())
                    .collect();
                c.sort();
                c
            })
            .collect()
    };
    assert_eq!(sorted_hands(&first), sorted_hands(&again));
    assert_eq!(again["deal_number"].as_str(), Some(number.as_str()));
    // The last number is D − 1; D itself is out of range.
    let d_minus_1 = "53644737765488792839237439999";
    assert_success(&run(&["deal", "--number", d_minus_1]));
    for bad in ["53644737765488792839237440000", "-1", "x"] {
        let out = run(&["deal", "--number", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
    fairdeck()
        .args(["deal", "--game", "holdem", "--number", "0", "--show-number"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "deal number: 0 (of 52!/((2!)^6·3!·35!))",
        ))
        .stdout(predicate::str::contains("needs 84.1 bits"));
}

#[test]
fn a_bridge_deal_from_37_d6_rolls() {
    let rolls = "3615244213".repeat(10);
    let out = fairdeck()
        .args([
            "deal",
            "--entropy",
            "dice",
            "--boards",
            "1-2",
            "--format",
            "json",
        ])
        .write_stdin(rolls)
        .output()
        .unwrap();
    assert_success(&out);
    let v = parse(&out);
    assert_eq!(v["rolls_needed"], 74);
    assert_eq!(v["boards"].as_array().unwrap().len(), 2);
}

#[test]
fn pbn_is_only_for_bridge_deals() {
    for args in [
        &["deal", "--game", "holdem", "--format", "pbn"][..],
        &["sample", "5", "90", "--format", "pbn"],
        &["deal", "--game", "skat", "--boards", "1-4"],
        &["deal", "--boards", "0-3"],
        &["deal", "--boards", "1-20000"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).lines().count(),
            1,
            "{args:?}"
        );
    }
    fairdeck()
        .args(["deal", "--seed", KEY, "--format", "pbn"])
        .assert()
        .success()
        .stdout(predicate::str::contains("[Board \"1\"]"));
}

#[test]
fn sort_and_glyphs_for_every_game() {
    fairdeck()
        .args(["deal", "--game", "skat", "--seed", KEY, "--sort", "--ascii"])
        .assert()
        .success();
    let out = run(&["deal", "--seed", KEY, "--sort", "--ascii"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let north: Vec<&str> = text
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .skip(1)
        .collect();
    assert_eq!(north[..3], ["KS", "QS", "JS"], "{text}");
    for game in ["bridge", "holdem", "draw", "skat", "scopa"] {
        let out = run(&["deal", "--game", game, "--seed", KEY, "--glyphs", "--sort"]);
        assert_success(&out);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.lines()
                .nth(1)
                .unwrap()
                .chars()
                .any(|c| ('\u{1F0A0}'..='\u{1F0FF}').contains(&c)),
            "{game}"
        );
    }
}

#[test]
fn completions_and_man_pages() {
    for shell in ["bash", "zsh", "fish"] {
        let out = run(&["completions", shell]);
        assert_success(&out);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("fairdeck") && text.contains("boards"),
            "{shell}"
        );
    }
    assert_eq!(run(&["completions", "powershell-9"]).status.code(), Some(2));
    let man = String::from_utf8(run(&["man"]).stdout).unwrap();
    assert!(
        man.starts_with(".ie \\n(.g .ds Aq") || man.contains(".TH fairdeck"),
        "{man}"
    );
    assert!(man.contains("deal"));
    let deal = String::from_utf8(run(&["man", "deal"]).stdout).unwrap();
    assert!(
        deal.contains(".TH fairdeck-deal") && deal.contains("from\\-pbn"),
        "{deal}"
    );
    assert_eq!(run(&["man", "nonesuch"]).status.code(), Some(2));
}
