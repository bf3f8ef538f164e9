//! Hidden-hand tables played offline through the binary (`fairdeck hidden
//! …` with three seats' key files), shared by the tests of `hidden` and
//! `fair verify --key`. `hidden new` writes version 3.1 (every message
//! signed by its seat, the log of their digests); the `_v3` tables are
//! plain version-3 files (`revision` taken out before the first key), as
//! older transcripts are. A cheating seat's edit is re-signed with
//! [`Table::resign`], so that a test of a proof meets the proof's failure,
//! not the signature's.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;

use chacha20::ChaCha20Rng;
use fairdeck_hidden::dleq::ShareMessage;
use fairdeck_hidden::keys::{KeyMessage, SecretKey};
use fairdeck_hidden::ledger::{key_digest, share_digest, shuffle_digest};
use fairdeck_hidden::shuffle::ShuffleMessage;
use fairdeck_hidden::signature::{Context, sign_seat};
use fairdeck_hidden::wire::Hex32;
use rand_core::SeedableRng;
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

    /// Seat `seat`'s secret key, from its key file.
    pub fn secret(&self, seat: u64) -> SecretKey {
        let file = std::fs::read(self.path(&format!("seat{seat}.key"))).unwrap();
        let file: Value = serde_json::from_slice(&file).unwrap();
        let hex: Hex32 = serde_json::from_value(file["secret_key"].clone()).unwrap();
        SecretKey::from_bytes(&hex.0).unwrap()
    }

    /// What a cheating seat does after editing its own message at `place`
    /// (a JSON pointer, see [`digest`]) of a version-3.1 document: it signs
    /// the edited message with its own key file and puts the new digest in
    /// the log where `good` (the document before the edit) had the old
    /// one. A plain version-3 document is left as it is.
    pub fn resign(&self, good: &Value, doc: &mut Value, place: &str) {
        if doc["revision"] != 1 {
            return;
        }
        let seat = doc.pointer(place).unwrap()["seat"].as_u64().unwrap();
        let signature = sign(doc, place, seat, &self.secret(seat));
        doc.pointer_mut(place).unwrap()["signature"] = signature;
        let (old, new) = (hex(&digest(good, place)), hex(&digest(doc, place)));
        let log = doc["log"].as_array_mut().unwrap();
        let entry = log.iter_mut().find(|d| **d == old).expect("logged");
        *entry = new;
    }
}

fn hex(d: &Hex32) -> Value {
    serde_json::to_value(d).unwrap()
}

/// The signing context of a version-3.1 document (its manifest and room).
pub fn context(doc: &Value) -> Context {
    let manifest = serde_json::from_value(doc["manifest"].clone()).unwrap();
    let table = fairdeck_hidden::Table::new(manifest).unwrap();
    let room: Option<Hex32> = serde_json::from_value(doc["room"].clone()).unwrap();
    Context::new(&table, room.as_ref())
}

/// The digest of the message at `place`: `/keys/K`, `/hands/I/shuffles/J`,
/// `/hands/I/deal/K`, `/hands/I/streets/S/shares/K` or `/hands/I/showdown/K`.
pub fn digest(doc: &Value, place: &str) -> Hex32 {
    let ctx = context(doc);
    let m = doc.pointer(place).unwrap().clone();
    let parts: Vec<&str> = place.split('/').collect();
    match parts[..] {
        ["", "keys", _] => key_digest(&ctx, &serde_json::from_value::<KeyMessage>(m).unwrap()),
        ["", "hands", _, "shuffles", _] => {
            shuffle_digest(&ctx, &serde_json::from_value::<ShuffleMessage>(m).unwrap())
        }
        ["", "hands", i, "streets", s, "shares", _] => {
            let street = doc.pointer(&format!("/hands/{i}/streets/{s}/street"));
            let stage = street.unwrap().as_str().unwrap();
            share_digest(
                &ctx,
                stage,
                &serde_json::from_value::<ShareMessage>(m).unwrap(),
            )
        }
        ["", "hands", _, stage @ ("deal" | "showdown"), _] => share_digest(
            &ctx,
            stage,
            &serde_json::from_value::<ShareMessage>(m).unwrap(),
        ),
        _ => panic!("no message at {place}"),
    }
}

/// `key`'s signature, as seat `seat`, on the message at `place` (the
/// seat's own key makes a valid one; another seat's key a foreign one).
pub fn sign(doc: &Value, place: &str, seat: u64, key: &SecretKey) -> Value {
    let mut rng = ChaCha20Rng::from_seed([7; 32]);
    let d = digest(doc, place);
    serde_json::to_value(sign_seat(&context(doc), seat, key, &d, &mut rng)).unwrap()
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

/// A new table of three seats (`hidden new`: version 3.1), no keys yet.
pub fn started(name: &str) -> Table {
    let t = Table {
        dir: tempfile::tempdir().unwrap(),
    };
    ok(&t.run(&["new", "--table", name, "--seats", "ann,bob,cat"]));
    t
}

/// The same as a plain version-3 transcript, as written before version
/// 3.1: `revision` taken out.
pub fn started_v3(name: &str) -> Table {
    let t = started(name);
    let mut doc = t.transcript();
    assert_eq!(doc["revision"], 1, "hidden new writes version 3.1: {doc}");
    doc.as_object_mut().unwrap().remove("revision");
    t.write("t.json", &doc);
    t
}

/// A new table of three seats with keys, shuffled by all three.
pub fn dealt(name: &str) -> Table {
    keyed_and_shuffled(started(name), name)
}

/// [`dealt`], version 3.
pub fn dealt_v3(name: &str) -> Table {
    keyed_and_shuffled(started_v3(name), name)
}

/// Three keys, then three shuffles of hand 1.
fn keyed_and_shuffled(t: Table, name: &str) -> Table {
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
    play_out(dealt(name))
}

/// [`played`], version 3.
pub fn played_v3(name: &str) -> Table {
    play_out(dealt_v3(name))
}

fn play_out(t: Table) -> Table {
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
