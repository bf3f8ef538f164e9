//! Hidden-hand tables played offline through the binary (`fairdeck hidden
//! …` with three seats' key files), shared by the tests of `hidden` and
//! `fair verify --key`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{fairdeck, parse};

pub struct Table {
    pub dir: tempfile::TempDir,
}

impl Table {
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn arg(&self, name: &str) -> String {
        self.path(name).to_str().unwrap().to_string()
    }

    /// `fairdeck hidden ARGS --transcript t.json`.
    pub fn run(&self, args: &[&str]) -> Output {
        let t = self.arg("t.json");
        fairdeck()
            .arg("hidden")
            .args(args)
            .args(["--transcript", &t])
            .output()
            .unwrap()
    }

    /// A seat's step with its key file, which must succeed.
    pub fn step(&self, args: &[&str], seat: usize) -> Value {
        let key = self.arg(&format!("seat{seat}.key"));
        let seed = format!("test seat {seat} {}", args.join(" "));
        let mut all = args.to_vec();
        all.extend(["--key", &key, "--seed", &seed]);
        let out = self.run(&all);
        ok(&out);
        parse(&out)
    }

    pub fn transcript(&self) -> Value {
        serde_json::from_slice(&std::fs::read(self.path("t.json")).unwrap()).unwrap()
    }

    pub fn write(&self, name: &str, doc: &Value) -> String {
        std::fs::write(self.path(name), serde_json::to_string(doc).unwrap()).unwrap();
        self.arg(name)
    }
}

pub fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A new table of three seats with keys, shuffled by all three.
pub fn dealt(name: &str) -> Table {
    let t = Table {
        dir: tempfile::tempdir().unwrap(),
    };
    ok(&t.run(&["new", "--table", name, "--seats", "ann,bob,cat"]));
    for seat in 0..3 {
        let secret = t.arg(&format!("seat{seat}.key"));
        let s = seat.to_string();
        let out = t.run(&[
            "key",
            "--seat",
            &s,
            "--secret-out",
            &secret,
            "--seed",
            &format!("{name} key {seat}"),
        ]);
        ok(&out);
        let text = String::from_utf8(out.stdout).unwrap();
        let file: Value = serde_json::from_slice(&std::fs::read(&secret).unwrap()).unwrap();
        let hex = file["secret_key"].as_str().unwrap();
        assert!(
            !text.contains(hex) && !stderr_text(&out.stderr).contains(hex),
            "the secret is never printed"
        );
        assert_eq!(private_mode(&t.path(&format!("seat{seat}.key"))), 0o600);
    }
    for seat in 0..3 {
        let msg = t.step(&["shuffle"], seat);
        assert_eq!(
            (msg["hand"].as_u64(), msg["seat"].as_u64()),
            (Some(1), Some(seat as u64))
        );
    }
    t
}

pub fn stderr_text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(unix)]
pub fn private_mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[cfg(not(unix))]
pub fn private_mode(_: &Path) -> u32 {
    0o600
}

/// A whole hand: dealt, every street, seat 0 and seat 2 open.
pub fn played(name: &str) -> Table {
    let t = dealt(name);
    for stage in ["deal", "flop", "turn", "river"] {
        for seat in 0..3 {
            let shares = t.step(&["share", "--street", stage], seat);
            let owed = if stage == "deal" {
                4
            } else if stage == "flop" {
                3
            } else {
                1
            };
            assert_eq!(shares.as_array().unwrap().len(), owed, "{stage}");
        }
    }
    for seat in [0, 2] {
        assert_eq!(t.step(&["open"], seat).as_array().unwrap().len(), 2);
    }
    t
}

pub fn verify(path: &str) -> (Output, Value) {
    let out = fairdeck()
        .args(["--format", "json", "fair", "verify", path])
        .output()
        .unwrap();
    let doc = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out, doc)
}

pub fn kinds(doc: &Value) -> Vec<String> {
    let list = doc["differences"].as_array().cloned().unwrap_or_default();
    list.iter()
        .map(|d| d["kind"].as_str().unwrap().to_string())
        .collect()
}
