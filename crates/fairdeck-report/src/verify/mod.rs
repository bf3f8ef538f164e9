//! `verify`: one request that checks a transcript of any version — 1, 2
//! and 2.1 (`fairdeck_fair`), 3 and 3.1 (hidden hands, `fairdeck_hidden`)
//! — against what the player recorded, and one report of the verdict.
//!
//! The version is read from the document. Recorded evidence that the
//! version does not read (a `lock` for a version 3 transcript) is refused
//! rather than ignored ([`fits`]). The report's JSON is what `fairdeck
//! fair verify --format json` prints: the verdict of the version's own
//! library, unchanged.
//!
//! ```
//! use fairdeck_report::verify::{Spelled, VerifyRequest, verify};
//!
//! let request = VerifyRequest {
//!     transcript: "plain text".into(),
//!     ..VerifyRequest::default()
//! };
//! let names = |field: fairdeck_report::Field| Some(field.name().to_string());
//! let refused = verify(&request, &Spelled(&names)).unwrap_err();
//! assert_eq!(refused.refused().unwrap().field, fairdeck_report::Field::Transcript);
//! ```

mod fits;
mod hidden;
mod recorded;
#[cfg(test)]
mod tests;

use fairdeck_fair::detect::{declared_version, is_table_document, is_version_3, not_json};
use fairdeck_fair::{
    Document, DocumentError, Evidence, Given, Record, ServerSecret, Spelling, V1Deal, V1Error,
    VerdictReport, checked_v2, read_document, refused, verify_record, verify_v1,
};
use serde::{Deserialize, Serialize};

pub use fits::{Reader, fits};
pub use hidden::{KeyFile, ReadAs, SeatKey, evidence_list, reader_key};

use crate::{Field, Message, RequestError, message, refuse};

/// A transcript and what the player recorded. Every field but the
/// transcript is optional; a field the transcript's version does not read
/// is refused.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    /// The transcript, as `fair deal --format json` (or `hidden`) wrote it.
    pub transcript: String,
    /// Versions 1 and 2: the commitment published before play, 64 hex
    /// digits (never taken from the document itself).
    pub commitment: Option<String>,
    /// Version 2.1: the seat lock recorded before revealing, 64 hex digits.
    pub lock: Option<String>,
    /// Version 2: the player's seat name (with `seed`).
    pub seat: Option<String>,
    /// Version 2: the player's own seed (with `seat`).
    pub seed: Option<String>,
    /// Version 2: the deal numbers shown as they were played, in that
    /// order: `0,1,2`, `0-2` or a mix (empty: none was played).
    pub played: Option<String>,
    /// Version 1: the server secret, 64 hex digits (a version 1 deal does
    /// not carry it).
    pub server_secret: Option<String>,
    /// Version 3: a seat's secret key file (its text), to read that
    /// seat's own cards.
    pub key: Option<String>,
    /// Version 3.1: the seat's evidence file (its text: a JSON list of
    /// receipts and signed heads).
    pub evidence: Option<String>,
    /// Version 3.1: key fingerprints given outside the room, `SEAT=FINGERPRINT`.
    #[serde(default)]
    pub seat_keys: Vec<SeatKey>,
}

/// A verdict of whichever version the transcript is.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Verdict {
    /// Versions 1, 2 and 2.1.
    Fair(VerdictReport),
    /// Versions 3 and 3.1.
    Hidden(fairdeck_hidden::verdict::Verdict),
}

/// The report of a verification: its JSON is the verdict alone, as
/// `fairdeck fair verify --format json` prints it.
#[derive(Debug, Clone, Serialize)]
#[serde(transparent)]
pub struct VerifyReport {
    /// The verdict.
    pub verdict: Verdict,
    /// Version 3: the seat whose key read its own cards, with its name.
    #[serde(skip)]
    pub read_as: ReadAs,
}

impl VerifyReport {
    /// Whether the transcript passed: no difference at all (exit 0 in the
    /// CLI, 1 otherwise). O(1).
    #[must_use]
    pub fn passed(&self) -> bool {
        match &self.verdict {
            Verdict::Fair(v) => v.passed(),
            Verdict::Hidden(v) => v.is_valid(),
        }
    }
}

/// A transcript as read: its version decides what verifies it.
#[derive(Debug)]
pub struct Transcript<'a>(Kind<'a>);

#[derive(Debug)]
enum Kind<'a> {
    /// Version 3 or 3.1: the text, or bytes that are not text.
    Hidden(Result<&'a str, &'a [u8]>),
    V1(V1Deal),
    V2(Box<Record>),
    /// A document of a declared version that the strict reader refused.
    Refused(DocumentError),
}

/// Not a transcript at all: `why`, and what verify takes.
fn not_a_transcript(why: String) -> RequestError {
    let advice = message![" (fair deal ", Field::Format, " json)"];
    RequestError {
        field: Field::Transcript,
        message: message![why, ": verify takes the JSON transcript", advice],
    }
}

/// Reads `bytes` as a transcript of any version. A document that declares
/// a version but breaks its reading rules is read (its verdict is the one
/// difference `document`). O(length of bytes).
///
/// # Errors
///
/// Bytes that are not a transcript at all — plain text, a JSON document
/// without a version, a table document (naming `transcript`).
pub fn read(bytes: &[u8]) -> Result<Transcript<'_>, RequestError> {
    if let Some(why) = not_json(bytes) {
        return match declared_version(bytes) {
            None => Err(not_a_transcript(why)),
            Some("3") => Ok(Transcript(Kind::Hidden(
                std::str::from_utf8(bytes).map_err(|_| bytes),
            ))),
            Some(version) => Ok(Transcript(Kind::Refused(DocumentError {
                version: Some(version),
                message: why,
            }))),
        };
    }
    let text = std::str::from_utf8(bytes).map_err(|e| not_a_transcript(e.to_string()))?;
    if is_version_3(text) {
        return Ok(Transcript(Kind::Hidden(Ok(text))));
    }
    if is_table_document(text) {
        let advice = message![
            ": verify the transcript that fair deal ",
            Field::Table,
            " … ",
            Field::Format,
            " json writes"
        ];
        return Err(RequestError {
            field: Field::Transcript,
            message: message![
                "a table document (manifest and commitment), not a transcript",
                advice
            ],
        });
    }
    Ok(Transcript(match read_document(text) {
        Err(e) if e.version.is_none() => return Err(not_a_transcript(e.to_string())),
        Err(e) => Kind::Refused(e),
        Ok(Document::V2(t)) => Kind::V2(t),
        Ok(Document::V1(doc)) => Kind::V1(doc),
        Ok(_) => {
            let why = "a document of a version this fairdeck does not know";
            return Err(RequestError {
                field: Field::Transcript,
                message: why.into(),
            });
        }
    }))
}

impl Transcript<'_> {
    /// Which reader verifies it (and so which fields it reads). O(1).
    #[must_use]
    pub fn reader(&self) -> Reader {
        match &self.0 {
            Kind::Hidden(_) => Reader::V3,
            Kind::V1(_) => Reader::V1,
            Kind::Refused(e) if e.version == Some("1") => Reader::V1,
            Kind::V2(_) | Kind::Refused(_) => Reader::V2,
        }
    }

    /// Whether [`Transcript::verify`] reads the request's `key` and
    /// `evidence`: a version-3 document that is text (bytes that are not
    /// are judged without them). O(1).
    #[must_use]
    pub fn reads_key_and_evidence(&self) -> bool {
        matches!(self.0, Kind::Hidden(Ok(_)))
    }

    /// Verifies the transcript against what `request` recorded (read
    /// first with [`VerifyRequest::recorded`]). The request's fields must
    /// [`fits`] the transcript's reader; others are not read. The
    /// verdict's words name the evidence as `spell` does. O(the
    /// transcript's checks).
    ///
    /// # Errors
    ///
    /// Version 1 without a valid `server_secret`, or naming a game or hand
    /// count that does not exist; version 3 with a `key` or `evidence`
    /// that is not one of this table (naming the field).
    pub fn verify(
        &self,
        (request, recorded): (&VerifyRequest, &Evidence),
        spell: &dyn Spelling,
    ) -> crate::Result<VerifyReport> {
        let fair = |version: &str, v, checked| VerifyReport {
            verdict: Verdict::Fair(VerdictReport::new(version, &v, (checked, recorded), spell)),
            read_as: None,
        };
        Ok(match &self.0 {
            Kind::Hidden(text) => {
                let files = (request.key.as_deref(), request.evidence.as_deref());
                let (verdict, read_as) =
                    hidden::verdict(*text, (files.0, files.1, &request.seat_keys))?;
                VerifyReport {
                    verdict: Verdict::Hidden(verdict),
                    read_as,
                }
            }
            Kind::Refused(e) => {
                let (version, v, checked) = refused(e);
                fair(version, v, checked)
            }
            Kind::V2(t) => {
                let v = verify_record(t, recorded);
                let checked = checked_v2(t, &v);
                fair(t.version.name(), v, checked)
            }
            Kind::V1(doc) => {
                let secret = v1_secret(request.server_secret.as_deref())?;
                let (v, checked) =
                    verify_v1(doc, &secret, recorded.commitment.as_ref()).map_err(|e| match e {
                        V1Error::Cards(e) => crate::Error::Core(e),
                        e => refuse(Field::Transcript, e.to_string()),
                    })?;
                fair("1", v, checked)
            }
        })
    }
}

/// The server secret of a version 1 deal.
fn v1_secret(hex: Option<&str>) -> Result<ServerSecret, RequestError> {
    const NOT_CARRIED: &str = " (a version 1 deal does not carry the server secret)";
    let Some(hex) = hex else {
        return Err(RequestError {
            field: Field::ServerSecret,
            message: message![
                "give ",
                Field::ServerSecret,
                " or ",
                Field::SecretFile,
                NOT_CARRIED
            ],
        });
    };
    ServerSecret::from_hex(hex).map_err(|e| RequestError {
        field: Field::ServerSecret,
        message: Message::from(e.to_string() + NOT_CARRIED),
    })
}

/// Verifies `request.transcript`, of any version: reads what the player
/// recorded, reads the transcript, refuses fields its version does not
/// read, and verifies it; the verdict's words name the evidence as
/// `spell` does ([`Spelled`] for a front end's field spelling). O(the
/// transcript's checks).
///
/// # Errors
///
/// As [`VerifyRequest::recorded`], [`read`], [`fits`] and
/// [`Transcript::verify`]: each a refusal naming the field (a game the
/// core does not know is its own error).
pub fn verify(request: &VerifyRequest, spell: &dyn Spelling) -> crate::Result<VerifyReport> {
    let recorded = request.recorded()?;
    let transcript = read(request.transcript.as_bytes())?;
    fits(transcript.reader(), &request.given())?;
    transcript.verify((request, &recorded), spell)
}

/// The request field that takes a piece of evidence.
#[must_use]
pub fn field(given: Given) -> Field {
    match given {
        Given::Commitment => Field::Commitment,
        Given::Lock => Field::Lock,
        Given::Seat => Field::Seat,
        Given::Seed => Field::Seed,
        Given::Played => Field::Played,
        _ => Field::Boards,
    }
}

/// The evidence named by a front end's spelling of request fields (the
/// web page's `commitment`, Python's `commitment=`); a field it does not
/// spell by its name.
pub struct Spelled<'a>(pub &'a dyn Fn(Field) -> Option<String>);

impl Spelling for Spelled<'_> {
    fn name(&self, given: Given) -> String {
        let field = field(given);
        (self.0)(field).unwrap_or_else(|| field.name().to_string())
    }
}
