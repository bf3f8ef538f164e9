//! Reading a published document strictly (section 10.1 of
//! `docs/fair-dealing.md`): a version 2 or 2.1 transcript, a void record,
//! or a version 1 deal as `fair deal --format json` prints it.
//!
//! A lenient reader lets a tampered document pass: with duplicate keys the
//! last value wins in most JSON readers, so a file can show a reader one
//! value and a verifier another. Here a document is refused when it has a
//! duplicate key, a field the specification does not name, a missing
//! field, a value of the wrong type, hex digits that are not 64 lowercase
//! ones, a card not written exactly as the specification spells it
//! (`"9D"`, never `" 9D"`, `"9d"` or `"9♦"`), a number that is not an
//! integer from 0 to 2⁶⁴ − 1, or a seed that breaks the text rule
//! ([`check_text`](super::check_text)). Each refusal names the field by its
//! path (`deals[3].piles[1].cards[4]`).

use core::fmt;

use serde_json::{Map, Value};

pub use json::parse_json;

use super::record::Record;
use crate::naming::check_seed;
use fairdeck::cards::Card;

/// A document as read: its version decides how it is verified.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Document {
    /// A version 1 deal (it has a `client_seed`).
    V1(V1Deal),
    /// A version 2 or 2.1 transcript or void record (it has a `manifest`).
    V2(Box<Record>),
}

/// A version 1 deal as `fair deal --format json` prints it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct V1Deal {
    /// The commitment the deal states (never trusted: compared).
    pub commitment: String,
    /// The client seed.
    pub client_seed: String,
    /// The nonce.
    pub nonce: u64,
    /// The game.
    pub game: String,
    /// The deck kind.
    pub deck: String,
    /// The shuffled deck, top first.
    pub cards: Vec<Card>,
    /// The hands (and community piles) in the game's order.
    pub hands: Vec<V1Hand>,
    /// The undealt cards.
    pub stock: Vec<Card>,
}

/// One hand of a version 1 deal.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct V1Hand {
    /// The seat or pile name.
    pub name: String,
    /// Its cards.
    pub cards: Vec<Card>,
}

/// Why a document was refused: the version it declared, if that could be
/// read, and the first broken rule with the field's path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentError {
    /// `"1"`, `"2"` or `"2.1"` when the document said so.
    pub version: Option<&'static str>,
    /// What is wrong, naming the field.
    pub message: String,
}

impl fmt::Display for DocumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DocumentError {}

/// Reads a document strictly (module docs). O(size).
///
/// ```
/// use fairdeck_fair::read_document;
///
/// let twice = r#"{"client_seed": "a", "client_seed": "b"}"#;
/// assert!(read_document(twice).unwrap_err().message.contains("twice"));
/// ```
///
/// # Errors
///
/// A [`DocumentError`] naming the first broken rule.
pub fn read_document(text: &str) -> Result<Document, DocumentError> {
    let fail = |version, message| DocumentError { version, message };
    let value = parse_json(text).map_err(|m| {
        // Which document it claims to be, read leniently, so that a
        // duplicate key in a transcript is the transcript's difference.
        let lenient = serde_json::from_str::<Value>(text).ok();
        fail(lenient.as_ref().and_then(declared), m)
    })?;
    let Value::Object(top) = &value else {
        return Err(fail(None, "the document is not a JSON object".into()));
    };
    let version = declared(&value);
    if top.contains_key("manifest") {
        check_record(&value).map_err(|m| fail(version, m))?;
        let record = serde_json::from_value(value).map_err(|e| fail(version, e.to_string()))?;
        Ok(Document::V2(Box::new(record)))
    } else if top.contains_key("client_seed") {
        check_v1(&value).map_err(|m| fail(Some("1"), m))?;
        let deal = serde_json::from_value(value).map_err(|e| fail(Some("1"), e.to_string()))?;
        Ok(Document::V1(deal))
    } else {
        Err(fail(
            None,
            "neither a version 2 transcript (no \"manifest\") nor a version 1 deal (no \
             \"client_seed\")"
                .into(),
        ))
    }
}

/// The version a JSON object says it is: `"1"` with a `client_seed`,
/// `"2"` or `"2.1"` with a `manifest` (`"2"` when its version is unclear:
/// it is still a transcript, to be refused as one).
fn declared(v: &Value) -> Option<&'static str> {
    if v.get("manifest").is_some() {
        Some(match v.get("version") {
            Some(Value::String(s)) if s == "2.1" => "2.1",
            _ => "2",
        })
    } else if v.get("client_seed").is_some() {
        Some("1")
    } else {
        None
    }
}

type Check = Result<(), String>;

/// The object at `path` with exactly the `required` fields and any of the
/// `optional` ones.
fn object<'a>(
    v: &'a Value,
    path: &str,
    required: &[&str],
    optional: &[&str],
) -> Result<&'a Map<String, Value>, String> {
    let Value::Object(m) = v else {
        return Err(format!(
            "{path}: an object was expected, found {}",
            shape(v)
        ));
    };
    if let Some(k) = m
        .keys()
        .find(|k| !required.contains(&k.as_str()) && !optional.contains(&k.as_str()))
    {
        return Err(format!(
            "{path}: unknown field {k:?} (the fields are {})",
            [required, optional].concat().join(", ")
        ));
    }
    match required.iter().find(|r| !m.contains_key(**r)) {
        Some(r) => Err(format!("{path}: the field {r:?} is missing")),
        None => Ok(m),
    }
}

fn shape(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn string<'a>(v: &'a Value, path: &str) -> Result<&'a str, String> {
    v.as_str()
        .ok_or_else(|| format!("{path}: a string was expected, found {}", shape(v)))
}

fn integer(v: &Value, path: &str) -> Check {
    match v.as_u64() {
        Some(_) => Ok(()),
        None => Err(format!(
            "{path}: an integer from 0 to 18446744073709551615 was expected, found {v}"
        )),
    }
}

fn array<'a>(v: &'a Value, path: &str) -> Result<&'a Vec<Value>, String> {
    v.as_array()
        .ok_or_else(|| format!("{path}: an array was expected, found {}", shape(v)))
}

fn strings(v: &Value, path: &str) -> Check {
    for (i, s) in array(v, path)?.iter().enumerate() {
        string(s, &format!("{path}[{i}]"))?;
    }
    Ok(())
}

/// 64 lowercase hex digits (or `null` when `nullable`).
fn hex(v: &Value, path: &str, nullable: bool) -> Check {
    if nullable && v.is_null() {
        return Ok(());
    }
    let s = string(v, path)?;
    if s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        Ok(())
    } else {
        Err(format!(
            "{path}: {s:?} is not 64 lowercase hex digits (0-9, a-f)"
        ))
    }
}

/// Cards in the specification's spelling only.
fn cards(v: &Value, path: &str) -> Check {
    for (i, c) in array(v, path)?.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let s = string(c, &at)?;
        if s.parse::<Card>().map(|c| c.to_string()).as_deref() != Ok(s) {
            return Err(format!(
                "{at}: {s:?} is not a card as the specification writes it (rank A 2-9 T J Q K, \
                 then suit H D C S; jokers RJ BJ)"
            ));
        }
    }
    Ok(())
}

fn check_record(v: &Value) -> Check {
    let version = match v.get("version") {
        Some(Value::String(s)) if s == "2.1" => "2.1",
        Some(Value::Number(n)) if n.as_u64() == Some(2) => "2",
        Some(other) => return Err(format!("version: {other} is not 2 or \"2.1\"")),
        None => return Err("the field \"version\" is missing".into()),
    };
    const V2: [&str; 6] = [
        "version",
        "manifest",
        "commitment",
        "seats",
        "server_secret",
        "deals",
    ];
    let top = if version == "2" {
        object(v, "the transcript", &V2, &[])?
    } else {
        object(
            v,
            "the transcript",
            &[&V2[..], &["lock", "played"]].concat(),
            &["void"],
        )?
    };
    let m = object(
        &top["manifest"],
        "manifest",
        &["version", "table", "game", "deck", "seats", "first", "last"],
        &[],
    )?;
    integer(&m["version"], "manifest.version")?;
    for f in ["table", "game", "deck"] {
        string(&m[f], &format!("manifest.{f}"))?;
    }
    strings(&m["seats"], "manifest.seats")?;
    integer(&m["first"], "manifest.first")?;
    integer(&m["last"], "manifest.last")?;
    hex(&top["commitment"], "commitment", false)?;
    check_seats(&top["seats"])?;
    hex(&top["server_secret"], "server_secret", true)?;
    if version == "2.1" {
        hex(&top["lock"], "lock", true)?;
        integer(&top["played"], "played")?;
    }
    if let Some(void) = top.get("void") {
        let o = object(void, "void", &["phase", "seats"], &[])?;
        let phase = string(&o["phase"], "void.phase")?;
        if phase != "commit" && phase != "reveal" {
            return Err(format!(
                "void.phase: {phase:?} is not \"commit\" or \"reveal\""
            ));
        }
        strings(&o["seats"], "void.seats")?;
    }
    for (i, d) in array(&top["deals"], "deals")?.iter().enumerate() {
        check_deal(d, &format!("deals[{i}]"))?;
    }
    Ok(())
}

fn check_seats(v: &Value) -> Check {
    for (i, s) in array(v, "seats")?.iter().enumerate() {
        let path = format!("seats[{i}]");
        let o = object(s, &path, &["name", "commitment", "seed"], &[])?;
        string(&o["name"], &format!("{path}.name"))?;
        hex(&o["commitment"], &format!("{path}.commitment"), true)?;
        if !o["seed"].is_null() {
            let seed = string(&o["seed"], &format!("{path}.seed"))?;
            check_seed(seed).map_err(|e| format!("{path}.seed: {e}"))?;
        }
    }
    Ok(())
}

fn check_deal(v: &Value, path: &str) -> Check {
    let o = object(
        v,
        path,
        &["nonce", "piles", "stock"],
        &["dealer", "vulnerable", "deck"],
    )?;
    integer(&o["nonce"], &format!("{path}.nonce"))?;
    for f in ["dealer", "vulnerable"] {
        if let Some(x) = o.get(f) {
            string(x, &format!("{path}.{f}"))?;
        }
    }
    for (i, p) in array(&o["piles"], &format!("{path}.piles"))?
        .iter()
        .enumerate()
    {
        let at = format!("{path}.piles[{i}]");
        let pile = object(p, &at, &["name", "role", "cards"], &[])?;
        string(&pile["name"], &format!("{at}.name"))?;
        string(&pile["role"], &format!("{at}.role"))?;
        cards(&pile["cards"], &format!("{at}.cards"))?;
    }
    cards(&o["stock"], &format!("{path}.stock"))?;
    match o.get("deck") {
        Some(d) => cards(d, &format!("{path}.deck")),
        None => Ok(()),
    }
}

fn check_v1(v: &Value) -> Check {
    let o = object(
        v,
        "the deal",
        &[
            "commitment",
            "client_seed",
            "nonce",
            "game",
            "deck",
            "cards",
            "hands",
            "stock",
        ],
        &["entropy_needed_bits", "entropy_key_bits"],
    )?;
    hex(&o["commitment"], "commitment", false)?;
    for f in ["client_seed", "game", "deck"] {
        string(&o[f], f)?;
    }
    integer(&o["nonce"], "nonce")?;
    for f in ["entropy_needed_bits", "entropy_key_bits"] {
        if let Some(x) = o.get(f).filter(|x| !x.is_number()) {
            return Err(format!("{f}: a number was expected, found {}", shape(x)));
        }
    }
    cards(&o["cards"], "cards")?;
    for (i, h) in array(&o["hands"], "hands")?.iter().enumerate() {
        let at = format!("hands[{i}]");
        let hand = object(h, &at, &["name", "cards"], &[])?;
        string(&hand["name"], &format!("{at}.name"))?;
        cards(&hand["cards"], &format!("{at}.cards"))?;
    }
    cards(&o["stock"], "stock")
}

#[path = "document/json.rs"]
mod json;

#[cfg(test)]
#[path = "document/tests.rs"]
mod tests;
