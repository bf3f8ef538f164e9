//! A seat's connection to its hidden table on the service: the table's
//! [`Status`], its transcript, and the seat's [`Post`]s, over one
//! [`Client`]. A read retries an unreachable service until the seat's
//! patience runs out; a post is never sent twice blindly (if its answer is
//! lost, the status read next says whether it was taken).

use std::fmt;
use std::io;
use std::time::{Duration, Instant};

use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::ledger::Receipt;
use fairdeck_hidden::record::{MAX_BYTES, Record};
use fairdeck_hidden::signature::Context;
use rand_core::CryptoRng;
use serde_json::Value;

use crate::Client;
use crate::link::Link;
use crate::wire::{Post, Status, receipts_in};

/// Why a seat's call to the service failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The service could not be reached for the seat's whole patience.
    Unreachable {
        /// The service's `HOST:PORT`.
        addr: String,
        /// The last connection error.
        source: io::Error,
    },
    /// A read was answered with a status other than 200.
    Status {
        /// The path read.
        path: String,
        /// The HTTP status.
        code: u16,
        /// The answer's `error` text (empty if none).
        error: String,
    },
    /// An answer is not the JSON document the API promises.
    Json(serde_json::Error),
    /// The served transcript does not read as a transcript.
    Transcript(fairdeck_hidden::Error),
    /// The service refused one of the seat's messages (other than "not now").
    Refused {
        /// The seat.
        seat: u64,
        /// The message's route (`key`, `shuffle`, `shares`, `attestation`).
        route: &'static str,
        /// The HTTP status.
        code: u16,
        /// The answer's `error` text (empty if none).
        error: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Unreachable { addr, .. } => write!(f, "cannot reach {addr}"),
            Error::Status { path, code, error } => write!(f, "{path}: {code} {error}"),
            Error::Json(e) => write!(f, "{e}"),
            Error::Transcript(e) => write!(f, "the served transcript: {e}"),
            Error::Refused {
                seat,
                route,
                code,
                error,
            } => write!(
                f,
                "the service refused seat {seat}'s {route}: {code} {error}"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Unreachable { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// One seat's connection to its table: its link, its client, how patient
/// it is, and the receipts of its last accepted post.
pub struct Remote {
    link: Link,
    client: Client,
    patience: Duration,
    notice: Box<dyn FnMut(&str)>,
    receipts: Vec<Receipt>,
}

impl Remote {
    /// The seat of `link`, retrying an unreachable service for `patience`.
    /// It reads answers as large as a transcript can be.
    pub fn new(link: Link, patience: Duration) -> Self {
        Remote {
            // The whole transcript at the end may be as large as a transcript can be.
            client: Client::new(&link.addr).with_max_answer(MAX_BYTES + 4096),
            link,
            patience,
            notice: Box::new(|_| {}),
            receipts: Vec::new(),
        }
    }

    /// The same seat telling `notice` (one line) when it retries a read or
    /// lost the answer to a post.
    pub fn with_notice(mut self, notice: impl FnMut(&str) + 'static) -> Self {
        self.notice = Box::new(notice);
        self
    }

    /// The seat's link.
    pub fn link(&self) -> &Link {
        &self.link
    }

    /// A `GET`; an unreachable service is retried (once a second) until
    /// the patience runs out.
    fn call(&mut self, path: &str) -> Result<(u16, Value), Error> {
        let start = Instant::now();
        let mut told = false;
        loop {
            match self.client.call("GET", path, None, None) {
                Ok(answer) => return Ok(answer),
                Err(e) if start.elapsed() < self.patience => {
                    if !std::mem::replace(&mut told, true) {
                        (self.notice)(&format!("{}: {e}; trying again", self.link.addr));
                    }
                    std::thread::sleep(Duration::from_secs(1));
                }
                Err(source) => {
                    let addr = self.link.addr.clone();
                    return Err(Error::Unreachable { addr, source });
                }
            }
        }
    }

    /// `GET /api/hidden/{id}{what}` as a `T`.
    fn get<T: serde::de::DeserializeOwned>(&mut self, what: &str) -> Result<T, Error> {
        let path = format!("/api/hidden/{}{what}", self.link.table);
        let (code, answer) = self.call(&path)?;
        if code != 200 {
            let error = answer["error"].as_str().unwrap_or("").to_string();
            return Err(Error::Status { path, code, error });
        }
        serde_json::from_value(answer).map_err(Error::Json)
    }

    /// The table's status.
    ///
    /// # Errors
    ///
    /// [`Error::Unreachable`], [`Error::Status`], [`Error::Json`].
    pub fn status(&mut self) -> Result<Status, Error> {
        self.get("")
    }

    /// The served transcript: of hand `hand` only (with the keys), or whole.
    ///
    /// # Errors
    ///
    /// As [`Remote::status`]; [`Error::Transcript`].
    pub fn record(&mut self, hand: Option<u64>) -> Result<Record, Error> {
        let what = hand.map_or("/transcript".into(), |n| format!("/transcript?hand={n}"));
        let value: Value = self.get(&what)?;
        Record::from_json(&value.to_string()).map_err(Error::Transcript)
    }

    /// Sends a message; `false` when the service says "not now" (409) or
    /// its answer was lost (the status read next says whether it was
    /// taken). The receipts of an accepted message wait in
    /// [`Remote::take_receipts`].
    ///
    /// # Errors
    ///
    /// [`Error::Refused`]: any other refusal.
    pub fn send(&mut self, post: &Post) -> Result<bool, Error> {
        let (seat, route) = (self.link.seat, post.route());
        let path = format!("/api/hidden/{}/seats/{seat}/{route}", self.link.table);
        let token = Some(self.link.token.as_str());
        let (code, answer) = match self
            .client
            .call("POST", &path, token, Some(&post.to_json()))
        {
            Ok(answer) => answer,
            Err(e) => {
                (self.notice)(&format!("{}: {e}; reading the table again", self.link.addr));
                return Ok(false);
            }
        };
        match code {
            200 => {
                self.receipts = receipts_in(&answer);
                Ok(true)
            }
            409 => Ok(false),
            _ => {
                let error = answer["error"].as_str().unwrap_or("").to_string();
                Err(Error::Refused {
                    seat,
                    route,
                    code,
                    error,
                })
            }
        }
    }

    /// The room's receipts for the last accepted message (version 3.1,
    /// §18), which the seat keeps; empty after this call.
    pub fn take_receipts(&mut self) -> Vec<Receipt> {
        std::mem::take(&mut self.receipts)
    }

    /// Version 3.1: signs the whole log of `record` (which the seat
    /// verified) and posts the attestation. Nothing for a version-3
    /// table. O(log) hashing.
    ///
    /// # Errors
    ///
    /// As [`Remote::send`] (an attested table refuses a second one).
    pub fn attest<R: CryptoRng + ?Sized>(
        &mut self,
        (record, key): (&Record, &SecretKey),
        rng: &mut R,
    ) -> Result<(), Error> {
        if !record.is_signed() {
            return Ok(());
        }
        let Ok(table) = fairdeck_hidden::Table::new(record.manifest.clone()) else {
            return Ok(());
        };
        let ctx = Context::new(&table, record.room.as_ref());
        let a = fairdeck_hidden::ledger::attest(&ctx, self.link.seat, key, &record.log, rng);
        self.send(&Post::Attestation(a)).map(|_| ())
    }
}

#[cfg(test)]
mod tests;
