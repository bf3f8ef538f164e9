//! Versions 3 and 3.1 (hidden hands): a seat's key file, the evidence it
//! kept, the key fingerprints its players pinned, and the verdict of
//! `fairdeck_hidden`.

use std::fmt;
use std::str::FromStr;

use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::ledger::Evidence;
use fairdeck_hidden::record::Record;
use fairdeck_hidden::seat::check_published;
use fairdeck_hidden::verdict::{Difference, Verdict};
use fairdeck_hidden::verify::{Options, verify_json};
use fairdeck_hidden::wire::Hex32;
use serde::{Deserialize, Serialize};

use crate::{Field, RequestError};

/// A seat's secret key file, as `fairdeck hidden key` writes it: which
/// table and seat it is for, and the key. (No `Debug`: it holds a secret.)
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyFile {
    /// The table id.
    pub table: String,
    /// The seat index, from 0.
    pub seat: u64,
    /// The secret key, 64 hex digits.
    pub secret_key: Hex32,
}

fn key_error(why: String) -> RequestError {
    RequestError {
        field: Field::Key,
        message: why.into(),
    }
}

impl KeyFile {
    /// Reads a key file's `text` and checks that it is for a seat of
    /// `record`'s table; returns the seat and its key. O(length of text).
    ///
    /// # Errors
    ///
    /// Not a key file, the key of another table, a seat the table does
    /// not have, or not a valid key (naming `key`).
    pub fn read(text: &str, record: &Record) -> Result<(u64, SecretKey), RequestError> {
        let file: KeyFile = serde_json::from_str(text).map_err(|e| {
            key_error(format!(
                "not a secret key file of `fairdeck hidden key` ({e})"
            ))
        })?;
        if file.table != record.manifest.table {
            return Err(key_error(format!(
                "the key of table {:?}, not {:?}",
                file.table, record.manifest.table
            )));
        }
        let seats = record.manifest.seats.len();
        if file.seat >= seats as u64 {
            return Err(key_error(format!(
                "the key of seat {}, but the table has {seats} seats",
                file.seat
            )));
        }
        let sk = SecretKey::from_bytes(&file.secret_key.0).map_err(|e| key_error(e.to_string()))?;
        Ok((file.seat, sk))
    }
}

/// The reader's key for a verification: a key file of `record`'s table
/// ([`KeyFile::read`]) holding the key its seat published in it.
///
/// # Errors
///
/// As [`KeyFile::read`], and a seat without a key in the transcript or
/// another key than the one it published (naming `key`).
pub fn reader_key(text: &str, record: &Record) -> Result<(u64, SecretKey), RequestError> {
    let (seat, sk) = KeyFile::read(text, record)?;
    if record.keys.len() <= seat as usize {
        return Err(key_error(format!(
            "seat {seat} has no key in the transcript"
        )));
    }
    check_published(record, seat, &sk).map_err(|_| {
        key_error(format!(
            "not the key seat {seat} published in the transcript"
        ))
    })?;
    Ok((seat, sk))
}

/// A seat's evidence: a JSON list of receipts and signed heads.
///
/// # Errors
///
/// Anything else (naming `evidence`).
pub fn evidence_list(text: &str) -> Result<Vec<Evidence>, RequestError> {
    serde_json::from_str(text).map_err(|e| RequestError {
        field: Field::Evidence,
        message: format!("not a list of receipts and signed heads: {e}").into(),
    })
}

/// A seat's key fingerprint as its player gave it outside the room:
/// `SEAT=FINGERPRINT`, a seat index and 20 hex digits (the `-` between
/// groups optional).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct SeatKey {
    /// The seat index.
    pub seat: u64,
    /// The fingerprint as given.
    pub fingerprint: String,
}

impl FromStr for SeatKey {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let (seat, fp) = text
            .split_once('=')
            .ok_or("expected SEAT=FINGERPRINT (seat 2: 2=3f2a-…)")?;
        let seat = (seat.trim().parse()).map_err(|_| format!("{seat:?} is not a seat index"))?;
        let digits: String = fp.chars().filter(|c| *c != '-').collect();
        if digits.len() != 20 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!(
                "{fp:?} is not a key fingerprint (20 hex digits in groups of four)"
            ));
        }
        Ok(SeatKey {
            seat,
            fingerprint: fp.to_string(),
        })
    }
}

impl TryFrom<String> for SeatKey {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        text.parse()
    }
}

impl fmt::Display for SeatKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.seat, self.fingerprint)
    }
}

/// Who a verdict was read as: a seat's index and name.
pub type ReadAs = Option<(u64, String)>;

/// The verdict on a version-3 document, `Err` for bytes that are not
/// text (a refused document). With a `key`, the seat reads its own cards;
/// a document too broken to read is judged without it.
pub(super) fn verdict(
    text: Result<&str, &[u8]>,
    (key, evidence, pins): (Option<&str>, Option<&str>, &[SeatKey]),
) -> Result<(Verdict, ReadAs), RequestError> {
    let text = match text {
        Ok(text) => text,
        Err(bytes) => return Ok((not_text(bytes), None)),
    };
    let evidence = evidence.map(evidence_list).transpose()?.unwrap_or_default();
    let reader = match (key, Record::from_json(text)) {
        (Some(key), Ok(record)) => {
            let (seat, sk) = reader_key(key, &record)?;
            Some((seat, sk, record.manifest.seats[seat as usize].clone()))
        }
        _ => None,
    };
    let pins: Vec<(u64, String)> = (pins.iter())
        .map(|p| (p.seat, p.fingerprint.clone()))
        .collect();
    let opts = Options {
        reader: reader.as_ref().map(|(seat, sk, _)| (*seat, sk)),
        in_progress: false,
        evidence: &evidence,
        pins: &pins,
    };
    let verdict = verify_json(text, &opts).verdict;
    Ok((verdict, reader.map(|(seat, _, name)| (seat, name))))
}

/// Bytes that declare version 3 but are not text: the verdict of a
/// refused document, with the strict reader's reason.
fn not_text(bytes: &[u8]) -> Verdict {
    let why = match Record::from_bytes(bytes) {
        Err(e) => e,
        Ok(_) => fairdeck_hidden::Error::Document("not JSON text".into()),
    };
    let mut verdict = verify_json("", &Options::default()).verdict;
    verdict.differences = vec![Difference::new(None, why)];
    verdict
}
