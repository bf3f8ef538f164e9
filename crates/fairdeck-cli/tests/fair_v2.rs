//! Integration tests of fair dealing version 2: `fair table new`, `fair seed
//! commit|reveal`, `fair deal --table`, `fair verify TRANSCRIPT`, and the
//! tamper classes of issue 20, each caught with its kind named.
//!
//! Over 400 lines: one tamper class per test, all against the same transcript
//! fixtures, kept in one file.

mod common;

use std::path::{Path, PathBuf};

use common::{fairdeck, parse};
use serde_json::Value;

/// A room and its seats in a temporary directory.
struct Table {
    dir: tempfile::TempDir,
    commitment: String,
}

impl Table {
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn arg(&self, name: &str) -> String {
        self.path(name).to_str().unwrap().to_string()
    }
}

/// `fair table new`, every seat commits, every seat in `reveal` reveals.
fn table(game: &[&str], seats: &[&str], reveal: &[&str]) -> Table {
    let dir = tempfile::tempdir().unwrap();
    let t = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let out = fairdeck()
        .args([
            "--format",
            "json",
            "fair",
            "table",
            "new",
            "--id",
            "test table",
        ])
        .args(game)
        .args(["--seats", &seats.join(","), "--secret-out", &t("room.key")])
        .args(["--out", &t("table.json")])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let commitment = parse(&out)["commitment"].as_str().unwrap().to_string();
    for seat in seats {
        for (step, file) in [("commit", "c"), ("reveal", "r")] {
            if step == "reveal" && !reveal.contains(seat) {
                continue;
            }
            let out = fairdeck()
                .args([
                    "--format",
                    "json",
                    "fair",
                    "seed",
                    step,
                    "--table",
                    &t("table.json"),
                ])
                .args(["--seat", seat, "--seed", &format!("{seat}'s seed")])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            std::fs::write(t(&format!("{seat}.{file}.json")), out.stdout).unwrap();
        }
    }
    Table { dir, commitment }
}

/// The seat lock of the commitments of `seats` (`fair table lock`), when
/// every seat of the table is among them.
fn lock(t: &Table, seats: &[&str]) -> Option<String> {
    let out = fairdeck()
        .args(["--format", "json", "fair", "table", "lock", "--table"])
        .arg(t.arg("table.json"))
        .arg("--commitments")
        .args(seats.iter().map(|s| t.arg(&format!("{s}.c.json"))))
        .output()
        .unwrap();
    out.status
        .success()
        .then(|| parse(&out)["lock"].as_str().unwrap().to_string())
}

/// `fair deal --table` with the seat lock (version 2.1) when every seat
/// committed, else unlocked (the refusals are the same).
fn deal(t: &Table, seats: &[&str], reveal: &[&str]) -> std::process::Output {
    let mut cmd = fairdeck();
    cmd.args([
        "--format",
        "json",
        "fair",
        "deal",
        "--table",
        &t.arg("table.json"),
    ])
    .args(["--secret-file", &t.arg("room.key"), "--commitments"]);
    cmd.args(seats.iter().map(|s| t.arg(&format!("{s}.c.json"))));
    cmd.arg("--reveals");
    cmd.args(reveal.iter().map(|s| t.arg(&format!("{s}.r.json"))));
    match lock(t, seats) {
        Some(l) => cmd.args(["--lock", &l]),
        None => cmd.arg("--unlocked"),
    };
    cmd.output().unwrap()
}

/// `fair verify --format json FILE [--commitment C]`: (exit code, verdict, kinds).
fn verify(path: &Path, commitment: Option<&str>) -> (i32, String, Vec<String>) {
    let mut cmd = fairdeck();
    cmd.args(["--format", "json", "fair", "verify", path.to_str().unwrap()]);
    if let Some(c) = commitment {
        cmd.args(["--commitment", c]);
    }
    let out = cmd.output().unwrap();
    let v = parse(&out);
    let kinds = v["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap().to_string())
        .collect();
    (
        out.status.code().unwrap(),
        v["verdict"].as_str().unwrap().into(),
        kinds,
    )
}

const HOLDEM: [&str; 3] = ["ann", "bo", "cy"];

fn holdem_transcript() -> (Table, Value) {
    let t = table(&["--game", "holdem", "--deals", "0-3"], &HOLDEM, &HOLDEM);
    let out = deal(&t, &HOLDEM, &HOLDEM);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(t.path("transcript.json"), &out.stdout).unwrap();
    (t, parse(&out))
}

#[test]
fn table_seeds_deal_verify() {
    let (t, doc) = holdem_transcript();
    assert_eq!(doc["deals"].as_array().unwrap().len(), 4);
    assert_eq!(doc["deals"][0]["piles"][3]["name"], "Board");
    let path = t.path("transcript.json");
    // The commitment alone: partial, the lock, seed and deals not checked.
    assert_eq!(
        verify(&path, Some(&t.commitment)),
        (0, "partial".into(), vec![])
    );
    // Without the published commitment: never "valid".
    let out = fairdeck()
        .args(["fair", "verify", path.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("self-consistent only: compare the commitment"),
        "{text}"
    );
    assert!(!text.contains("\nvalid"), "{text}");
    // From stdin.
    fairdeck()
        .args(["fair", "verify", "-", "--commitment", &t.commitment])
        .write_stdin(std::fs::read(&path).unwrap())
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "partial (version 2.1): everything listed matches",
        ));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(t.path("room.key"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[test]
fn a_seat_that_does_not_reveal_voids_the_table() {
    let t = table(&["--game", "skat"], &["a", "b", "c"], &["a", "c"]);
    let out = deal(&t, &["a", "b", "c"], &["a", "c"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
        "fairdeck: the table is void: seat \"b\" did not reveal its seed"
    );
    // A reveal that is not the committed seed: void, the seat named.
    std::fs::copy(t.path("a.r.json"), t.path("b.r.json")).unwrap();
    let text = std::fs::read_to_string(t.path("b.r.json")).unwrap();
    std::fs::write(t.path("b.r.json"), text.replace("\"a\"", "\"b\"")).unwrap();
    let out = deal(&t, &["a", "b", "c"], &["a", "b", "c"]);
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("seat \"b\" revealed a seed that does not match its commitment")
    );
    // Reveals before every seat has committed are refused.
    let out = deal(&t, &["a", "c"], &["a", "c"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("no commitment from seat(s) \"b\"")
    );
}

/// Applies `edit` to the transcript, verifies it against the published
/// commitment, and checks that `kind` is among the differences.
fn caught(t: &Table, doc: &Value, kind: &str, edit: impl Fn(&mut Value)) -> bool {
    let mut x = doc.clone();
    edit(&mut x);
    let path = t.path("tampered.json");
    std::fs::write(&path, serde_json::to_string(&x).unwrap()).unwrap();
    let (code, verdict, kinds) = verify(&path, Some(&t.commitment));
    assert_eq!(
        (code, verdict.as_str()),
        (1, "invalid"),
        "{kind}: {kinds:?}"
    );
    assert!(
        kinds.iter().any(|k| k == kind),
        "expected {kind}, got {kinds:?}"
    );
    true
}

#[test]
fn every_tamper_class_is_caught_with_its_kind() {
    let (t, doc) = holdem_transcript();
    let mut counts = std::collections::BTreeMap::new();
    let mut count = |class: &'static str, ok: bool| *counts.entry(class).or_insert(0) += ok as u32;
    for d in 0..4 {
        for (a, b) in [(0, 1), (1, 2), (0, 2)] {
            // Hands swapped a card; the deck line left alone.
            count(
                "hand edited, deck line unchanged",
                caught(&t, &doc, "hand", |x| {
                    let piles = &mut x["deals"][d]["piles"];
                    let c = piles[a]["cards"][0].take();
                    piles[a]["cards"][0] = piles[b]["cards"][0].take();
                    piles[b]["cards"][0] = c;
                }),
            );
        }
        count(
            "community card edited",
            caught(&t, &doc, "community", |x| {
                let piles = &mut x["deals"][d]["piles"];
                piles[3]["cards"][0] = piles[0]["cards"][0].clone();
            }),
        );
    }
    count(
        "deal dropped",
        caught(&t, &doc, "missing-deal", |x| {
            x["deals"].as_array_mut().unwrap().remove(2);
        }),
    );
    count(
        "deal duplicated",
        caught(&t, &doc, "duplicate-deal", |x| {
            let first = x["deals"][0].clone();
            x["deals"].as_array_mut().unwrap().push(first);
        }),
    );
    count(
        "deals reordered",
        caught(&t, &doc, "deal-order", |x| {
            x["deals"].as_array_mut().unwrap().swap(1, 2);
        }),
    );
    count(
        "deal outside the range",
        caught(&t, &doc, "extra-deal", |x| {
            let mut extra = x["deals"][3].clone();
            extra["nonce"] = 4.into();
            x["deals"].as_array_mut().unwrap().push(extra);
        }),
    );
    for (field, value) in [
        ("table", Value::from("other")),
        ("last", 2.into()),
        ("first", 1.into()),
    ] {
        count(
            "manifest changed",
            caught(&t, &doc, "published-commitment", |x| {
                x["manifest"][field] = value.clone();
            }),
        );
    }
    for s in 0..3 {
        count(
            "a seat's seed changed",
            caught(&t, &doc, "seat-commitment", |x| {
                x["seats"][s]["seed"] = "another seed".into();
            }),
        );
    }
    // The commitment taken from the file: a forger's own, consistent
    // transcript is at best self-consistent, and fails the published one.
    let forged = holdem_transcript().1;
    let path = t.path("forged.json");
    std::fs::write(&path, serde_json::to_string(&forged).unwrap()).unwrap();
    assert_eq!(verify(&path, None).1, "self-consistent-only");
    count(
        "commitment taken from the file",
        caught(&t, &forged, "published-commitment", |_| {}),
    );
    println!("{counts:#?}");
    assert_eq!(counts.values().sum::<u32>(), 12 + 4 + 4 + 3 + 3 + 1);
}

#[test]
fn a_version_1_deal_is_checked_hand_by_hand() {
    const SECRET: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    let dir = tempfile::tempdir().unwrap();
    let out = fairdeck()
        .args([
            "--format",
            "json",
            "fair",
            "deal",
            "--server-secret",
            SECRET,
        ])
        .args(["--client-seed", "alice", "--nonce", "0"])
        .output()
        .unwrap();
    let mut doc = parse(&out);
    let path = dir.path().join("v1.json");
    let check = |doc: &Value| {
        std::fs::write(&path, serde_json::to_string(doc).unwrap()).unwrap();
        let out = fairdeck()
            .args(["--format", "json", "fair", "verify", path.to_str().unwrap()])
            .args([
                "--server-secret",
                SECRET,
                "--commitment",
                doc["commitment"].as_str().unwrap(),
            ])
            .output()
            .unwrap();
        let v = parse(&out);
        (
            v["version"].as_u64(),
            v["verdict"].as_str().map(String::from),
            v["differences"].clone(),
        )
    };
    assert_eq!(check(&doc).1.as_deref(), Some("valid"));
    // A hand edited with the deck line left alone (v1 `--deal` cannot see it).
    let c = doc["hands"][0]["cards"][0].take();
    doc["hands"][0]["cards"][0] = doc["hands"][1]["cards"][0].take();
    doc["hands"][1]["cards"][0] = c;
    let (version, verdict, diffs) = check(&doc);
    assert_eq!((version, verdict.as_deref()), (Some(1), Some("invalid")));
    assert_eq!(diffs[0]["kind"], "hand");
}

#[test]
fn the_spec_vectors_verify_and_the_python_verifier_agrees() {
    let doc = include_str!("../../../docs/fair-dealing.md");
    let dir = tempfile::tempdir().unwrap();
    let mut n = 0;
    for block in doc.split("```json\n").skip(1) {
        let v: Value = serde_json::from_str(block.split("```").next().unwrap()).unwrap();
        let path = dir.path().join("vector.json");
        std::fs::write(&path, v["transcript"].to_string()).unwrap();
        let c = v["transcript"]["commitment"].as_str().unwrap();
        let expected = if v["transcript"]["void"].is_null() {
            "partial"
        } else {
            "void"
        };
        assert_eq!(
            verify(&path, Some(c)),
            (0, expected.into(), vec![]),
            "{}",
            v["vector"]
        );
        n += 1;
    }
    assert_eq!(n, 12);
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_err()
    {
        return; // scripts/test installs python3 and runs the verifier itself
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/fair_verify.py");
    let (t, mut doc) = holdem_transcript();
    let path = t.path("transcript.json");
    let python = |path: &Path, c: &str| {
        let out = std::process::Command::new("python3")
            .args([script, "--transcript", path.to_str().unwrap(), c])
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    assert_eq!(python(&path, &t.commitment).0, Some(0));
    let c = doc["deals"][1]["piles"][0]["cards"][0].take();
    doc["deals"][1]["piles"][0]["cards"][0] = doc["deals"][1]["piles"][1]["cards"][0].take();
    doc["deals"][1]["piles"][1]["cards"][0] = c;
    std::fs::write(&path, doc.to_string()).unwrap();
    let (code, text) = python(&path, &t.commitment);
    assert_eq!(code, Some(1));
    assert!(text.starts_with("hand: deal 1, ann"), "{text}");
}

#[test]
fn bad_input_is_a_one_line_usage_error() {
    let t = table(
        &["--game", "bridge"],
        &["North", "East", "South", "West"],
        &[],
    );
    let doc = t.arg("table.json");
    let usage = |args: &[&str], needle: &str| {
        let out = fairdeck().args(args).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    };
    let key = t.arg("new.key");
    let new = [
        "fair",
        "table",
        "new",
        "--id",
        "x",
        "--secret-out",
        key.as_str(),
    ];
    usage(&[&new[..], &["--game", "chess"]].concat(), "unknown game");
    usage(
        &[&new[..], &["--game", "skat", "--deck", "standard"]].concat(),
        "not the deck of skat",
    );
    usage(
        &[&new[..], &["--game", "bridge", "--deals", "0-3"]].concat(),
        "numbered from 1",
    );
    usage(
        &[&new[..], &["--game", "holdem", "--seats", "a,a"]].concat(),
        "appears twice",
    );
    usage(&[&new[..], &["--game", "shoe"]].concat(), "shoe:K");
    usage(
        &[&new[..], &["--game", "draw", "--deals", "5-2"]].concat(),
        "reversed",
    );
    assert!(
        !t.path("new.key").exists(),
        "no secret is drawn for a refused table"
    );
    usage(
        &[
            "fair", "seed", "commit", "--table", &doc, "--seat", "Z", "--seed", "s",
        ],
        "not at this table",
    );
    usage(
        &["fair", "seed", "reveal", "--table", &doc, "--seat", "North"],
        "--seed",
    );
    usage(
        &[
            "fair", "seed", "commit", "--table", &doc, "--seat", "North", "--seed", "",
        ],
        "1 to 256 bytes",
    );
    usage(&["fair", "verify"], "give a TRANSCRIPT");
    usage(&["fair", "verify", &doc], "a table document");
    std::fs::write(t.path("other.json"), "{\"x\": 1}").unwrap();
    usage(
        &["fair", "verify", &t.arg("other.json")],
        "neither a version 2 transcript",
    );
    std::fs::write(t.path("text.txt"), "fair dealing transcript, version 2\n").unwrap();
    usage(
        &["fair", "verify", &t.arg("text.txt")],
        "verify takes the JSON transcript",
    );
    usage(
        &["fair", "verify", &doc, "--commitment", "abc"],
        "64 hex digits",
    );
    std::fs::write(
        t.path("bad.json"),
        r#"{"version": 2, "manifest": {"version": 2}, "deals": []}"#,
    )
    .unwrap();
    // A transcript that breaks the reading rules is evidence, not a usage
    // error: invalid, kind `document`, exit 1 (section 10.1).
    let out = fairdeck()
        .args(["--format", "json", "fair", "verify", &t.arg("bad.json")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v = parse(&out);
    assert_eq!(v["verdict"], "invalid");
    assert_eq!(v["differences"][0]["kind"], "document", "{v}");
}
