//! Fair dealing version 2.1 through the CLI: the seat lock refuses the F1
//! attack of issue 32 (a seed ground after the other seats' reveals), the
//! deal order and the player's own seed are checked, void records name the
//! seat that failed, and `fair table new --players` checks P first. Each
//! failure kind has its negative control.
//!
//! Over 400 lines (as rustfmt lays out the JSON fixtures): one scenario per
//! test, all sharing the `Room` helper.

mod common;

use std::path::{Path, PathBuf};

use common::{fairdeck, parse};
use serde_json::{Value, json};

const SECRET: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
/// The room commitment of the spec's "hold'em, 2 seats" vector.
const C: &str = "b96fef7f58a3845c1dbf034fc21ffcd1428c4a0d5a6ee6d93497b476ac5cf8e9";
/// The 908th seed bo tries after seeing ann's: it gives bo two aces (the
/// library test `testing::collusion` of fairdeck-fair finds it by grinding).
const GROUND: &str = "b907";

struct Room(tempfile::TempDir);

impl Room {
    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }

    fn arg(&self, name: &str) -> String {
        self.path(name).to_str().unwrap().to_string()
    }

    /// Runs fairdeck with `args` (`@name` is a file of the room), JSON out.
    fn run(&self, args: &[&str]) -> std::process::Output {
        let args: Vec<String> = args
            .iter()
            .map(|a| match a.strip_prefix('@') {
                Some(name) => self.arg(name),
                None => a.to_string(),
            })
            .collect();
        fairdeck()
            .args(["--format", "json"])
            .args(&args)
            .output()
            .unwrap()
    }

    fn ok(&self, args: &[&str]) -> Value {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        parse(&out)
    }

    /// A seat's commitment or reveal document, saved as NAME.
    fn seed(&self, step: &str, seat: &str, seed: &str, name: &str) {
        let doc = self.ok(&[
            "fair",
            "seed",
            step,
            "--table",
            "@table.json",
            "--seat",
            seat,
            "--seed",
            seed,
        ]);
        std::fs::write(self.path(name), doc.to_string()).unwrap();
    }

    fn lock(&self, commitments: &[&str]) -> String {
        let mut args = vec![
            "fair",
            "table",
            "lock",
            "--table",
            "@table.json",
            "--commitments",
        ];
        args.extend(commitments);
        self.ok(&args)["lock"].as_str().unwrap().to_string()
    }

    /// `fair deal` with these commitments, reveals and lock; the transcript saved as NAME.
    fn deal(
        &self,
        commitments: &[&str],
        reveals: &[&str],
        lock: &str,
        name: &str,
    ) -> std::process::Output {
        let mut args = vec![
            "fair",
            "deal",
            "--table",
            "@table.json",
            "--secret-file",
            "@room.key",
            "--lock",
            lock,
            "--commitments",
        ];
        args.extend(commitments);
        args.push("--reveals");
        args.extend(reveals);
        let out = self.run(&args);
        std::fs::write(self.path(name), &out.stdout).unwrap();
        out
    }

    /// `fair verify NAME` with `extra` flags: (exit code, JSON report).
    fn verify(&self, name: &str, extra: &[&str]) -> (i32, Value) {
        let file = format!("@{name}");
        let mut args = vec!["fair", "verify", file.as_str()];
        args.extend(extra);
        let out = self.run(&args);
        (out.status.code().unwrap(), parse(&out))
    }
}

fn kinds(report: &Value) -> Vec<String> {
    report["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap().to_string())
        .collect()
}

/// The spec's "hold'em, 2 seats" table, ann and bo committed honestly.
fn heads_up() -> Room {
    let room = Room(tempfile::tempdir().unwrap());
    let table = json!({"manifest": {"version": 2, "table": "heads-up 7", "game": "holdem", "deck": "standard",
        "seats": ["ann", "bo"], "first": 0, "last": 0}, "commitment": C});
    std::fs::write(room.path("table.json"), table.to_string()).unwrap();
    std::fs::write(room.path("room.key"), format!("{SECRET}\n")).unwrap();
    room.seed("commit", "ann", "a", "ann.c");
    room.seed("commit", "bo", "b", "bo.c");
    room.seed("reveal", "ann", "a", "ann.r");
    room.seed("reveal", "bo", "b", "bo.r");
    room
}

#[test]
fn f1_a_seed_ground_after_the_reveals_is_refused_by_the_lock() {
    let room = heads_up();
    let honest_lock = room.lock(&["@ann.c", "@bo.c"]);
    // The room and bo see ann's reveal, take bo's 908th seed, recompute bo's
    // commitment and the lock, and deal a transcript that agrees with itself.
    room.seed("commit", "bo", GROUND, "bo2.c");
    room.seed("reveal", "bo", GROUND, "bo2.r");
    let ground_lock = room.lock(&["@ann.c", "@bo2.c"]);
    let out = room.deal(
        &["@ann.c", "@bo2.c"],
        &["@ann.r", "@bo2.r"],
        &ground_lock,
        "ground.json",
    );
    assert!(out.status.success());
    let doc = parse(&out);
    let bo = &doc["deals"][0]["piles"][1]["cards"];
    assert!(
        bo.as_array()
            .unwrap()
            .iter()
            .all(|c| c.as_str().unwrap().starts_with('A')),
        "{bo}"
    );
    // With the commitment alone it is not refused, and never called valid.
    let (code, r) = room.verify("ground.json", &["--commitment", C]);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("partial")));
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .contains("the seat lock published before the reveals (--lock L)")
    );
    // ann recorded the lock before revealing: refused, the kind named.
    let ann = [
        "--commitment",
        C,
        "--lock",
        &honest_lock,
        "--seat",
        "ann",
        "--seed",
        "a",
        "--played",
        "0",
    ];
    let (code, r) = room.verify("ground.json", &ann);
    assert_eq!(
        (code, r["verdict"].as_str(), kinds(&r)),
        (1, Some("invalid"), vec!["published-lock".to_string()])
    );
    // The room cannot deal the ground seats under the published lock.
    let out = room.deal(
        &["@ann.c", "@bo2.c"],
        &["@ann.r", "@bo2.r"],
        &honest_lock,
        "refused.json",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not the lock of these commitments"));
    // Negative control: the honest table with the same evidence is valid.
    assert!(
        room.deal(
            &["@ann.c", "@bo.c"],
            &["@ann.r", "@bo.r"],
            &honest_lock,
            "honest.json"
        )
        .status
        .success()
    );
    let (code, r) = room.verify("honest.json", &ann);
    assert_eq!(
        (code, r["verdict"].as_str(), r["version"].as_str()),
        (0, Some("valid"), Some("2.1"))
    );
    // The independent verifier agrees.
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok()
    {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/fair_verify.py");
        let py = |name: &str| {
            std::process::Command::new("python3")
                .args([script, "--transcript", &room.arg(name), C, &honest_lock])
                .output()
                .unwrap()
        };
        assert_eq!(py("honest.json").status.code(), Some(0));
        let out = py("ground.json");
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("published-lock:"));
    }
}

/// Verifies `edit(transcript)` with `flags`: the kinds found.
fn tampered(room: &Room, flags: &[&str], edit: impl Fn(&mut Value)) -> Vec<String> {
    let mut doc: Value =
        serde_json::from_str(&std::fs::read_to_string(room.path("honest.json")).unwrap()).unwrap();
    edit(&mut doc);
    std::fs::write(room.path("edited.json"), doc.to_string()).unwrap();
    kinds(&room.verify("edited.json", flags).1)
}

#[test]
fn the_lock_the_own_seed_and_the_deal_order_are_checked() {
    let room = Room(tempfile::tempdir().unwrap());
    room.ok(&[
        "fair",
        "table",
        "new",
        "--id",
        "three deals",
        "--game",
        "holdem",
        "--seats",
        "ann,bo",
        "--deals",
        "0-2",
        "--secret-out",
        "@room.key",
        "--out",
        "@table.json",
    ]);
    let c = parse_file(&room.path("table.json"))["commitment"]
        .as_str()
        .unwrap()
        .to_string();
    for (seat, seed) in [("ann", "a"), ("bo", "b")] {
        room.seed("commit", seat, seed, &format!("{seat}.c"));
        room.seed("reveal", seat, seed, &format!("{seat}.r"));
    }
    let lock = room.lock(&["@ann.c", "@bo.c"]);
    let mut args = vec![
        "fair",
        "deal",
        "--table",
        "@table.json",
        "--secret-file",
        "@room.key",
        "--lock",
        &lock,
        "--played",
        "2",
    ];
    args.extend([
        "--commitments",
        "@ann.c",
        "@bo.c",
        "--reveals",
        "@ann.r",
        "@bo.r",
    ]);
    let out = room.run(&args);
    std::fs::write(room.path("honest.json"), &out.stdout).unwrap();
    assert_eq!(parse(&out)["played"], 2);
    let all = [
        "--commitment",
        c.as_str(),
        "--lock",
        &lock,
        "--seat",
        "bo",
        "--seed",
        "b",
        "--played",
        "0,1",
    ];
    let (code, r) = room.verify("honest.json", &all);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("valid")));
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .contains("stopped after 2 of its 3 deals")
    );
    let with = |flag: &str, value: &str| -> Vec<String> {
        let mut f: Vec<&str> = all.to_vec();
        let i = f.iter().position(|x| *x == flag).unwrap();
        f[i + 1] = value;
        tampered(&room, &f, |_| {})
    };
    assert_eq!(with("--seed", "not b"), ["own-seed"]);
    assert_eq!(with("--seat", "cy"), ["own-seed"]);
    assert_eq!(with("--played", "0,2"), ["played"]);
    assert_eq!(with("--played", "1,0"), ["played"]);
    assert_eq!(with("--played", "0-2"), ["played"]);
    assert_eq!(with("--lock", &"0".repeat(64)), ["published-lock"]);
    assert_eq!(
        tampered(&room, &all, |d| d["lock"] = "1".repeat(64).into()),
        ["lock"]
    );
    assert_eq!(
        tampered(&room, &all, |d| d["played"] = 4.into()),
        ["played", "played"]
    );
    let found = tampered(&room, &all, |d| d["seats"][1]["seed"] = "c".into());
    assert!(
        found.contains(&"seat-commitment".to_string()) && found.contains(&"own-seed".to_string()),
        "{found:?}"
    );
    // Negative control: the same file, untouched, has no difference.
    assert!(tampered(&room, &all, |_| {}).is_empty());
    // Without --lock a version 2.1 dealer is refused; --unlocked deals version 2.
    args.retain(|a| *a != "--lock" && *a != lock && *a != "--played" && *a != "2");
    let out = room.run(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give --lock L"));
    args.push("--unlocked");
    let out = room.run(&args);
    std::fs::write(room.path("v2.json"), &out.stdout).unwrap();
    let (code, r) = room.verify(
        "v2.json",
        &[
            "--commitment",
            &c,
            "--seat",
            "bo",
            "--seed",
            "b",
            "--played",
            "0,1,2",
        ],
    );
    assert_eq!(
        (code, r["verdict"].as_str(), r["version"].as_u64()),
        (0, Some("partial"), Some(2))
    );
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .contains("not checked: the seat lock")
    );
}

fn parse_file(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_void_record_names_the_seat_that_failed() {
    let room = Room(tempfile::tempdir().unwrap());
    room.ok(&[
        "fair",
        "table",
        "new",
        "--id",
        "void",
        "--game",
        "holdem",
        "--seats",
        "ann,bo,cy",
        "--secret-out",
        "@room.key",
        "--out",
        "@table.json",
    ]);
    let c = parse_file(&room.path("table.json"))["commitment"]
        .as_str()
        .unwrap()
        .to_string();
    room.seed("commit", "ann", "a", "ann.c");
    room.seed("commit", "bo", "b", "bo.c");
    // cy never commits: the record names cy, not the seats that did commit.
    let out = room.run(&[
        "fair",
        "table",
        "void",
        "--table",
        "@table.json",
        "--secret-file",
        "@room.key",
        "--commitments",
        "@ann.c",
        "@bo.c",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(room.path("void.json"), &out.stdout).unwrap();
    assert_eq!(
        parse(&out)["void"],
        json!({"phase": "commit", "seats": ["cy"]})
    );
    let (code, r) = room.verify("void.json", &["--commitment", &c]);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("void")));
    let message = r["message"].as_str().unwrap();
    assert!(
        message.contains("seat(s) \"cy\" did not commit"),
        "{message}"
    );
    assert!(!message.contains("\"ann\""), "{message}");
    // A record that blames a seat that committed is refused.
    let mut doc = parse_file(&room.path("void.json"));
    doc["void"]["seats"] = json!(["ann"]);
    std::fs::write(room.path("blame.json"), doc.to_string()).unwrap();
    let (code, r) = room.verify("blame.json", &["--commitment", &c]);
    assert_eq!((code, kinds(&r)), (1, vec!["void".to_string()]));
    // At the reveal phase: everyone committed, bo did not reveal.
    room.seed("commit", "cy", "c", "cy.c");
    room.seed("reveal", "ann", "a", "ann.r");
    room.seed("reveal", "cy", "c", "cy.r");
    let lock = room.lock(&["@ann.c", "@bo.c", "@cy.c"]);
    let record = room.ok(&[
        "fair",
        "table",
        "void",
        "--table",
        "@table.json",
        "--secret-file",
        "@room.key",
        "--lock",
        &lock,
        "--commitments",
        "@ann.c",
        "@bo.c",
        "@cy.c",
        "--reveals",
        "@ann.r",
        "@cy.r",
    ]);
    assert_eq!(record["void"], json!({"phase": "reveal", "seats": ["bo"]}));
    // Nobody failed: no void record.
    room.seed("reveal", "bo", "b", "bo.r");
    let out = room.run(&[
        "fair",
        "table",
        "void",
        "--table",
        "@table.json",
        "--secret-file",
        "@room.key",
        "--lock",
        &lock,
        "--commitments",
        "@ann.c",
        "@bo.c",
        "@cy.c",
        "--reveals",
        "@ann.r",
        "@bo.r",
        "@cy.r",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the table is not void"));
}

#[test]
fn players_is_checked_before_the_seat_list_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k").to_str().unwrap().to_string();
    for p in [
        "18446744073709551615",
        "4294967296",
        "1000000000",
        "23",
        "0",
    ] {
        let out = fairdeck()
            .args([
                "fair",
                "table",
                "new",
                "--id",
                "x",
                "--game",
                "holdem",
                "--players",
                p,
                "--secret-out",
                &key,
            ])
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{p}: {err}");
        assert_eq!(err.lines().count(), 1, "{p}: {err}");
        assert!(
            err.contains("holdem is played by 2 to 22 seats"),
            "{p}: {err}"
        );
    }
    // Negative control: 22 seats is a table.
    fairdeck()
        .args([
            "fair",
            "table",
            "new",
            "--id",
            "x",
            "--game",
            "holdem",
            "--players",
            "22",
            "--secret-out",
            &key,
        ])
        .assert()
        .success();
}
