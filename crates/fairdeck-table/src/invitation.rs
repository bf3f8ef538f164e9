//! Opening a table: the request, and the tokens handed out once.

use fairdeck_fair::{Manifest, ServerSecret};
use rand_core::TryCryptoRng;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::event::{Event, Secret};
use crate::hex;
use crate::token::Token;

/// The longest deadline a table may set, in seconds (seven days).
pub const MAX_WINDOW: u64 = 7 * 24 * 3600;

pub use fairdeck_client::wire::{TABLE_ID_PATTERN, table_id_ok};

/// The operator's request to open a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    /// The table manifest (spec section 8.2); its id must be new.
    pub manifest: Manifest,
    /// Seconds every seat has to commit, from now (1 to [`MAX_WINDOW`]).
    pub commit_seconds: u64,
    /// Seconds every seat has to reveal, from the last commitment (1 to [`MAX_WINDOW`]).
    pub reveal_seconds: u64,
}

/// What opening a table hands out: the public commitment, and the tokens,
/// which the service never shows again (it keeps only their hashes). Its
/// JSON is the operator's answer to opening a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Invitation {
    /// The table's id.
    pub table: String,
    /// The room's v2 commitment `C`, to publish before anyone commits.
    pub commitment: String,
    /// The operator's token.
    pub operator: Token,
    /// One token per seat, in seat order.
    pub seats: Vec<Token>,
}

impl NewTable {
    /// Checks the manifest (every rule of spec section 8.2) and the windows.
    ///
    /// # Errors
    ///
    /// [`Error::Manifest`] naming the broken rule; [`Error::Invalid`] for a
    /// window of 0 or longer than [`MAX_WINDOW`], or a table id the service
    /// does not take ([`TABLE_ID_PATTERN`]).
    pub fn validate(&self) -> Result<(), Error> {
        self.manifest
            .check()
            .map_err(|e| Error::Manifest(e.to_string()))?;
        if !table_id_ok(&self.manifest.table) {
            let why = format!(
                "{:?}: 1 to 64 letters, digits, '_', '.' or '-', not starting with '.' or '-'",
                self.manifest.table
            );
            return Err(Error::invalid("table", why));
        }
        for (parameter, value) in [
            ("commit_seconds", self.commit_seconds),
            ("reveal_seconds", self.reveal_seconds),
        ] {
            if !(1..=MAX_WINDOW).contains(&value) {
                let why = format!("must be 1 to {MAX_WINDOW} seconds, got {value}");
                return Err(Error::invalid(parameter, why));
            }
        }
        Ok(())
    }

    /// Draws the room's secret and every token from `rng` and returns the
    /// table's first event with the invitation. The service passes the
    /// operating system's source ([`getrandom::SysRng`]). O(seats).
    ///
    /// # Errors
    ///
    /// Those of [`NewTable::validate`]; [`Error::Entropy`] if `rng` fails.
    pub fn open<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        now: u64,
    ) -> Result<(Event, Invitation), Error> {
        self.validate()?;
        let table = self
            .manifest
            .check()
            .map_err(|e| Error::Manifest(e.to_string()))?;
        let secret = hex::draw(rng)?;
        let commitment = table
            .room_commitment(&ServerSecret::from_bytes(secret))
            .to_hex();
        let operator = Token::draw(rng)?;
        let seats = (0..self.manifest.seats.len())
            .map(|_| Token::draw(rng))
            .collect::<Result<Vec<_>, _>>()?;
        let event = Event::Created {
            manifest: self.manifest.clone(),
            secret: Secret(secret),
            commitment: commitment.clone(),
            operator: operator.hash(),
            seats: seats.iter().map(Token::hash).collect(),
            commit_deadline: now.saturating_add(self.commit_seconds),
            reveal_seconds: self.reveal_seconds,
            at: now,
        };
        let invitation = Invitation {
            table: self.manifest.table.clone(),
            commitment,
            operator,
            seats,
        };
        Ok((event, invitation))
    }
}
