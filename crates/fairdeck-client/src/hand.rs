//! Whole version-2 hands played against a running table service over
//! HTTP: the load benchmark (`fairdeck table bench`) and the crash test
//! drive the service with them.
//!
//! Each [`Hand`] is a hold'em table played to the end — open, every seat
//! claims its seat on its device, commits, every seat reveals, deal, every seat reads its own cards, flop,
//! turn, river, close — one request per [`Step`]. A step counts as done
//! (acknowledged) only when the service answered it with success; a hand
//! interrupted by a dead service resumes from its first unacknowledged
//! step ([`Hand::play`] again), and [`Hand::check_acknowledged`] says
//! whether every acknowledged step is still in the service's state.

mod many_deals;

pub use many_deals::dealt_table;

use std::io;
use std::time::{Duration, Instant};

use fairdeck_fair::Manifest;
use serde_json::{Value, json};

use crate::Client;

/// One request of a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The operator opens the table.
    Open,
    /// Seat i claims its seat on its device.
    Claim(usize),
    /// Seat i commits to its seed.
    Commit(usize),
    /// Seat i reveals its seed.
    Reveal(usize),
    /// The operator deals.
    Deal,
    /// Seat i reads its own cards.
    View(usize),
    /// The operator releases a street: 0 flop, 1 turn, 2 river.
    Release(usize),
    /// The operator closes the table.
    Close,
}

impl Step {
    /// Every [`Step::kind`], in the order of a hand: a per-kind table that
    /// lists these has a row for every request.
    pub const KINDS: [&'static str; 8] = [
        "open", "claim", "commit", "reveal", "deal", "view", "release", "close",
    ];

    /// The step's kind, for per-kind timings (one of [`Step::KINDS`]).
    pub fn kind(self) -> &'static str {
        match self {
            Step::Open => "open",
            Step::Claim(_) => "claim",
            Step::Commit(_) => "commit",
            Step::Reveal(_) => "reveal",
            Step::Deal => "deal",
            Step::View(_) => "view",
            Step::Release(_) => "release",
            Step::Close => "close",
        }
    }

    /// Whether the step changes the table (a read changes nothing).
    pub fn changes_state(self) -> bool {
        !matches!(self, Step::View(_))
    }
}

const STREETS: [&str; 3] = ["flop", "turn", "river"];

/// A hold'em hand played through the API, and how far it got.
pub struct Hand {
    /// The table's manifest.
    pub manifest: Manifest,
    steps: Vec<Step>,
    /// Steps the service answered with success, in order.
    pub acknowledged: usize,
    operator: Option<String>,
    seats: Vec<String>,
}

/// How one request went: its step, its time, and whether it failed.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// The request's step.
    pub step: Step,
    /// From writing the request to reading the whole answer.
    pub time: Duration,
    /// Whether the service refused it or the connection failed.
    pub failed: bool,
}

/// Why a hand stopped.
#[derive(Debug)]
pub enum Stop {
    /// The connection failed (the service is down).
    Connection(io::Error),
    /// The service refused a step (status and answer).
    Refused(Step, u16, Value),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Connection(e) => write!(f, "connection: {e}"),
            Stop::Refused(step, status, answer) => write!(f, "{step:?}: {status} {answer}"),
        }
    }
}

impl Hand {
    /// A hold'em table `id` of `players` seats, not yet opened.
    pub fn holdem(id: &str, players: usize) -> Self {
        let manifest = Manifest {
            version: 2,
            table: id.into(),
            game: "holdem".into(),
            deck: "standard".into(),
            seats: (0..players).map(|i| format!("player {i}")).collect(),
            first: 0,
            last: 0,
        };
        let mut steps = vec![Step::Open];
        steps.extend((0..players).map(Step::Claim));
        steps.extend((0..players).map(Step::Commit));
        steps.extend((0..players).map(Step::Reveal));
        steps.push(Step::Deal);
        steps.extend((0..players).map(Step::View));
        steps.extend((0..3).map(Step::Release));
        steps.push(Step::Close);
        Hand {
            manifest,
            steps,
            acknowledged: 0,
            operator: None,
            seats: Vec::new(),
        }
    }

    /// Whether every step was acknowledged.
    pub fn finished(&self) -> bool {
        self.acknowledged == self.steps.len()
    }

    /// The requests of the whole hand.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    fn seed(&self, seat: usize) -> String {
        format!("load seed of seat {seat} at {}", self.manifest.table)
    }

    /// Seat `seat`'s device secret: 64 hex digits made from its name.
    fn device(&self, seat: usize) -> String {
        use sha2::{Digest, Sha256};
        let text = format!("load device of seat {seat} at {}", self.manifest.table);
        (Sha256::digest(text.as_bytes()).iter())
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Plays the hand from its first unacknowledged step, at most
    /// `max_steps` steps (`usize::MAX`: to the end), recording each
    /// request's time in `timings`; `resumed` says the service may have
    /// died since the last step. A step the service
    /// refuses with 409 right after a failed connection is taken as done:
    /// its request landed but the answer was lost.
    ///
    /// # Errors
    ///
    /// The first connection failure or refusal.
    pub fn play(
        &mut self,
        client: &mut Client,
        admin: &str,
        timings: &mut Vec<Timing>,
        resumed: bool,
        max_steps: usize,
    ) -> Result<(), Stop> {
        let mut after_failure = resumed;
        let stop_at = self.acknowledged.saturating_add(max_steps);
        while let Some(&step) = self
            .steps
            .get(self.acknowledged)
            .filter(|_| self.acknowledged < stop_at)
        {
            let start = Instant::now();
            let answer = self.send(client, admin, step);
            let time = start.elapsed();
            let ok = matches!(&answer, Ok((s, _)) if (200..300).contains(s));
            // An open whose answer was lost cannot go on: its tokens were in it.
            let landed = after_failure && step != Step::Open && matches!(&answer, Ok((409, _)));
            timings.push(Timing {
                step,
                time,
                failed: !ok,
            });
            match answer {
                Err(e) => return Err(Stop::Connection(e)),
                Ok((status, body)) if !ok && !landed => {
                    return Err(Stop::Refused(step, status, body));
                }
                Ok((_, body)) => {
                    if step == Step::Open && ok {
                        self.operator = body["operator"].as_str().map(str::to_string);
                        self.seats = (body["seats"].as_array().into_iter().flatten())
                            .filter_map(|t| t.as_str().map(str::to_string))
                            .collect();
                    }
                }
            }
            after_failure = false;
            self.acknowledged += 1;
        }
        Ok(())
    }

    fn send(&self, client: &mut Client, admin: &str, step: Step) -> io::Result<(u16, Value)> {
        let id = &self.manifest.table;
        let op = self.operator.as_deref();
        let seat = |i: usize| self.seats.get(i).map(String::as_str);
        match step {
            Step::Open => {
                let body = json!({
                    "manifest": self.manifest,
                    "commit_seconds": 3600,
                    "reveal_seconds": 3600,
                });
                client.call("POST", "/api/tables", Some(admin), Some(&body))
            }
            Step::Claim(i) => {
                let path = format!("/api/tables/{id}/seats/{i}/claim");
                let body = json!({ "device": self.device(i) });
                client.call("POST", &path, seat(i), Some(&body))
            }
            Step::Commit(i) => {
                let table = (self.manifest.check())
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
                let c = table.seat_commitment(i, &self.seed(i)).to_hex();
                let path = format!("/api/tables/{id}/seats/{i}/commit");
                let body = json!({ "commitment": c });
                client.call_from("POST", &path, seat(i), Some(&self.device(i)), Some(&body))
            }
            Step::Reveal(i) => {
                let path = format!("/api/tables/{id}/seats/{i}/reveal");
                let body = json!({ "seed": self.seed(i) });
                client.call_from("POST", &path, seat(i), Some(&self.device(i)), Some(&body))
            }
            Step::Deal => client.call(
                "POST",
                &format!("/api/tables/{id}/deal"),
                op,
                Some(&json!({})),
            ),
            Step::View(i) => {
                let path = format!("/api/tables/{id}/seats/{i}");
                client.call_from("GET", &path, seat(i), Some(&self.device(i)), None)
            }
            Step::Release(s) => {
                let body = json!({ "deal": 0, "street": STREETS[s] });
                client.call(
                    "POST",
                    &format!("/api/tables/{id}/release"),
                    op,
                    Some(&body),
                )
            }
            Step::Close => client.call(
                "POST",
                &format!("/api/tables/{id}/close"),
                op,
                Some(&json!({})),
            ),
        }
    }

    /// Checks the service's public view against every acknowledged step:
    /// each acknowledged commitment is there (the same one), each
    /// acknowledged reveal, the deal, the released streets, the close.
    /// Returns what is missing (empty: nothing was lost).
    ///
    /// # Errors
    ///
    /// The connection failed.
    pub fn check_acknowledged(&self, client: &mut Client) -> io::Result<Vec<String>> {
        let mut missing = Vec::new();
        if self.acknowledged == 0 {
            return Ok(missing);
        }
        let id = &self.manifest.table;
        let (status, view) = client.call("GET", &format!("/api/tables/{id}"), None, None)?;
        if status != 200 {
            missing.push(format!("{id}: opened, but GET answers {status} {view}"));
            return Ok(missing);
        }
        let phase = view["phase"].as_str().unwrap_or("");
        let table = self.manifest.check().ok();
        let released: usize = (view["community"][0]["shown"].as_array()).map_or(0, |piles| {
            piles
                .iter()
                .filter(|p| !p["cards"].as_array().is_none_or(Vec::is_empty))
                .count()
        });
        for &step in &self.steps[..self.acknowledged] {
            let kept = match step {
                Step::Open | Step::View(_) => true,
                Step::Commit(i) => {
                    let want = table
                        .as_ref()
                        .map(|t| t.seat_commitment(i, &self.seed(i)).to_hex());
                    view["seats"][i]["commitment"].as_str() == want.as_deref()
                }
                Step::Claim(i) => view["seats"][i]["claimed"] == json!(true),
                Step::Reveal(i) => view["seats"][i]["revealed"] == json!(true),
                Step::Deal => matches!(phase, "dealt" | "closed"),
                Step::Release(s) => released > s || phase == "closed",
                Step::Close => phase == "closed",
            };
            if !kept {
                missing.push(format!(
                    "{id}: acknowledged {step:?} is not in the service's state"
                ));
            }
        }
        Ok(missing)
    }

    /// The audit of a closed table: whether its transcript verifies.
    ///
    /// # Errors
    ///
    /// The connection failed.
    pub fn transcript_valid(&self, client: &mut Client) -> io::Result<bool> {
        let id = &self.manifest.table;
        let path = format!("/api/tables/{id}/audit");
        let (status, audit) = client.call("GET", &path, self.operator.as_deref(), None)?;
        Ok(status == 200 && audit["transcript_valid"] == json!(true))
    }
}
