//! What the player recorded, read from the request strictly: versions 1
//! and 2's commitment, lock, own seed and played deals.

use fairdeck_fair::{Commitment, Evidence, MAX_DEALS, OwnSeed};

use super::VerifyRequest;
use crate::{Field, RequestError, message};

impl VerifyRequest {
    /// The fields given, by name (what [`super::fits`] checks). O(1).
    #[must_use]
    pub fn given(&self) -> Vec<Field> {
        let set = [
            (Field::Commitment, self.commitment.is_some()),
            (Field::Lock, self.lock.is_some()),
            (Field::Seat, self.seat.is_some()),
            (Field::Seed, self.seed.is_some()),
            (Field::Played, self.played.is_some()),
            (Field::Key, self.key.is_some()),
            (Field::Evidence, self.evidence.is_some()),
            (Field::SeatKeys, !self.seat_keys.is_empty()),
            (Field::ServerSecret, self.server_secret.is_some()),
        ];
        set.iter().filter(|(_, on)| *on).map(|(f, _)| *f).collect()
    }

    /// What the player recorded for versions 1 and 2, read strictly.
    /// O(length of `played`).
    ///
    /// # Errors
    ///
    /// A commitment or lock that is not 64 hex digits, a seed that breaks
    /// the naming rules, a seat without a seed (or the reverse), or a
    /// `played` list that is not deal numbers (naming the field).
    pub fn recorded(&self) -> Result<Evidence, RequestError> {
        let hex = |field: Field, text: &Option<String>| {
            (text.as_deref())
                .map(|h| Commitment::from_hex(h).map_err(|e| wrong(field, e.to_string())))
                .transpose()
        };
        let commitment = hex(Field::Commitment, &self.commitment)?;
        let lock = hex(Field::Lock, &self.lock)?;
        let seat = match (&self.seat, &self.seed) {
            (Some(seat), Some(seed)) => {
                fairdeck_fair::check_seed(seed).map_err(|e| wrong(Field::Seed, e.to_string()))?;
                Some(OwnSeed {
                    seat: seat.clone(),
                    seed: seed.clone(),
                })
            }
            (Some(_), None) => return Err(needs(Field::Seat, Field::Seed)),
            (None, Some(_)) => return Err(needs(Field::Seed, Field::Seat)),
            (None, None) => None,
        };
        Ok(Evidence {
            commitment,
            lock,
            seat,
            played: self.played.as_deref().map(parse_played).transpose()?,
        })
    }
}

/// `FIELD: why`.
fn wrong(field: Field, why: String) -> RequestError {
    RequestError {
        field,
        message: message![field, ": ", why],
    }
}

/// `FIELD needs OTHER`.
fn needs(field: Field, other: Field) -> RequestError {
    RequestError {
        field,
        message: message![field, " needs ", other],
    }
}

/// Deal numbers: `0,1,2`, `0-2` or a mix, at most `MAX_DEALS` of them.
fn parse_played(text: &str) -> Result<Vec<u64>, RequestError> {
    let refuse = |why: String| RequestError {
        field: Field::Played,
        message: message![Field::Played, format!(" {text:?}: "), why],
    };
    let bad = || refuse("write deal numbers as 0,1,2 or 0-2".into());
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let num = |s: &str| s.trim().parse::<u64>().map_err(|_| bad());
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (num(a)?, num(b)?),
            None => (num(part)?, num(part)?),
        };
        if a > b || b - a >= MAX_DEALS || out.len() as u64 + (b - a + 1) > MAX_DEALS {
            return Err(refuse(format!(
                "at most {MAX_DEALS} deal numbers, ranges as A-B with A <= B"
            )));
        }
        out.extend(a..=b);
    }
    Ok(out)
}
