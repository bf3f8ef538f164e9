//! `fair verify --pbn` reads a session strictly: every tampered file of
//! issue 20 fails, each with what is wrong named, and the file's own
//! `% commitment:` line is never trusted.

mod common;

use common::fairdeck;

const SECRET: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const COMMITMENT: &str = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";

fn session() -> String {
    let out = fairdeck()
        .args([
            "fair",
            "deal",
            "--server-secret",
            SECRET,
            "--client-seed",
            "alice",
        ])
        .args(["--boards", "1-8", "--format", "pbn"])
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// Verifies `text` as a session of boards 1-8: (exit code, stdout + stderr).
fn verify(text: &str, commitment: Option<&str>) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.pbn");
    std::fs::write(&path, text).unwrap();
    let mut cmd = fairdeck();
    cmd.args([
        "fair",
        "verify",
        "--pbn",
        path.to_str().unwrap(),
        "--boards",
        "1-8",
    ])
    .args(["--server-secret", SECRET, "--client-seed", "alice"]);
    if let Some(c) = commitment {
        cmd.args(["--commitment", c]);
    }
    let out = cmd.output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap(), text)
}

/// The boards of the session as blocks of text (without the header).
fn blocks(text: &str) -> (String, Vec<String>) {
    let start = text.find("[Event").unwrap();
    let boards = text[start..]
        .trim_end()
        .split("\n\n")
        .map(String::from)
        .collect();
    (text[..start].to_string(), boards)
}

fn join(header: &str, boards: &[String]) -> String {
    format!("{header}{}\n", boards.join("\n\n"))
}

#[test]
fn the_untampered_session_is_valid_only_with_the_published_commitment() {
    let text = session();
    let (code, out) = verify(&text, Some(COMMITMENT));
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("valid: all 8 boards match"), "{out}");
    let (code, out) = verify(&text, None);
    assert_eq!(code, 0);
    assert!(out.starts_with("self-consistent only:"), "{out}");
    // The file's own commitment line is never used: a forged one changes nothing.
    let forged = text.replace(COMMITMENT, &"0".repeat(64));
    assert!(verify(&forged, None).1.starts_with("self-consistent only:"));
    assert_eq!(verify(&forged, Some(COMMITMENT)).0, 0);
    assert_eq!(verify(&text, Some(&"1".repeat(64))).0, 1);
}

#[test]
fn every_tampered_session_fails_naming_what_is_wrong() {
    let text = session();
    let (header, boards) = blocks(&text);
    let mut counts = std::collections::BTreeMap::new();
    let mut expect = |class: &'static str, tampered: String, needle: &str| {
        let (code, out) = verify(&tampered, Some(COMMITMENT));
        assert_ne!(code, 0, "{class}: passed\n{out}");
        assert!(out.contains(needle), "{class}: {needle:?} not in\n{out}");
        *counts.entry(class).or_insert(0) += 1;
    };
    for k in 1..boards.len() {
        // A blank line lost: board k runs into board k-1.
        let mut merged = boards.clone();
        let b = merged.remove(k);
        merged[k - 1] = format!("{}\n{b}", merged[k - 1]);
        expect("boards merged", join(&header, &merged), "[Event] again");
        // Board k dropped, duplicated, or swapped with board k-1.
        let mut dropped = boards.clone();
        dropped.remove(k);
        expect("board dropped", join(&header, &dropped), "missing-deal");
        let mut doubled = boards.clone();
        doubled.insert(k, boards[k].clone());
        expect(
            "board duplicated",
            join(&header, &doubled),
            "duplicate-deal",
        );
        let mut swapped = boards.clone();
        swapped.swap(k - 1, k);
        expect("boards reordered", join(&header, &swapped), "deal-order");
    }
    for (k, board) in boards.iter().enumerate() {
        for tag in ["Deal", "Dealer", "Vulnerable", "Board"] {
            let line = board
                .lines()
                .find(|l| l.starts_with(&format!("[{tag} ")))
                .unwrap();
            // A repeated tag: the second value would otherwise be ignored.
            let mut repeated = boards.clone();
            repeated[k] = board.replace(line, &format!("{line}\n{line}"));
            expect(
                "tag repeated",
                join(&header, &repeated),
                &format!("[{tag}] again"),
            );
            // A missing tag.
            let mut missing = boards.clone();
            missing[k] = board.replace(&format!("{line}\n"), "").replace(line, "");
            expect(
                "tag missing",
                join(&header, &missing),
                &format!("no [{tag}] tag"),
            );
        }
    }
    println!("{counts:#?}");
    assert_eq!(counts.values().sum::<i32>(), 4 * 7 + 8 * 8);
}

#[test]
fn importing_for_play_stays_lenient_but_says_what_it_skipped() {
    let text = session().replace("[Deal ", "[Auction \"N\"]\n1S Pass\n[Deal ");
    let header_only = format!("[Event \"notes\"]\n\n{text}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.pbn");
    std::fs::write(&path, header_only).unwrap();
    let out = fairdeck()
        .args(["deal", "--from-pbn", path.to_str().unwrap(), "--ascii"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("skipped line 1: a game without a [Deal] tag"),
        "{err}"
    );
    assert!(err.contains("not a tag (a section's data)"), "{err}");
    assert_eq!(
        err.lines()
            .filter(|l| l.contains(": skipped line "))
            .count(),
        9,
        "{err}"
    );
    // The same file is refused for verification, naming the line: invalid,
    // kind `document` (exit 1; a file that cannot be read is exit 2).
    let (code, out) = verify(&std::fs::read_to_string(&path).unwrap(), Some(COMMITMENT));
    assert_eq!(code, 1);
    assert!(
        out.contains("line 1: the board starting here has no [Board] tag"),
        "{out}"
    );
}

#[test]
fn a_file_whose_own_commitment_contradicts_the_secret_is_flagged() {
    // Issue 35, item 15: the file's `% commitment:` line is never trusted,
    // but when it contradicts the secret the verdict says so.
    let text = session();
    let forged = text.replace(COMMITMENT, &"0".repeat(64));
    let (code, out) = verify(&forged, None);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("self-consistent only:"), "{out}");
    assert!(
        out.contains("warning: the file's own \"% commitment: 0000"),
        "{out}"
    );
    // Negative control: the file as written says nothing of the kind.
    assert!(!verify(&text, None).1.contains("warning"));
}

/// Issue 32 item 6: each loose spelling was read by `fair verify --pbn`;
/// now each is invalid (kind `document`, exit 1) and names its line.
#[test]
fn loose_spellings_are_refused_with_their_line() {
    let text = session();
    assert_eq!(verify(&text, Some(COMMITMENT)).0, 0);
    let deal = text.find("[Deal \"N:").unwrap();
    let space = deal + text[deal..].find(' ').unwrap() + 1;
    let space = space + text[space..].find(' ').unwrap();
    let line_of = |at: usize| text[..at].lines().count();
    let cases = [
        (
            format!("{}\u{a0}{}", &text[..space], &text[space + 1..]),
            line_of(space),
            "U+00A0",
        ),
        (
            text.replacen("[Board \"1\"]", "[Board \"01\"]", 1),
            line_of(text.find("[Board").unwrap() + 1),
            "leading zeros",
        ),
        (
            text.replacen("[Deal ", "[deal ", 1),
            line_of(deal + 1),
            "written [Deal]",
        ),
        (
            text.replacen("\n\n[Event", "\n \n[Event", 1),
            line_of(text.find("\n\n[Event").unwrap()) + 1,
            "only spaces",
        ),
        (
            text.replacen("[Dealer \"N\"]", "[Dealer \"N\u{0}\"]", 1),
            line_of(text.find("[Dealer").unwrap() + 1),
            "U+0000",
        ),
    ];
    for (tampered, line, says) in cases {
        let (code, out) = verify(&tampered, Some(COMMITMENT));
        assert_eq!(code, 1, "{says}: {out}");
        assert!(
            out.contains("document: ") && out.contains(&format!("line {line}: ")),
            "{says} (line {line}): {out}"
        );
        assert!(out.contains(says), "{says}: {out}");
    }
}
