//! `fair`: commit–reveal deals (version 1: a server secret, a client seed
//! and a nonce). The derivation is `fairdeck_fair`'s, specified byte for
//! byte in the user guide's fair-dealing chapter.

use fairdeck::cards::{Card, Deal, DealPlan, DeckKind, Game};
use fairdeck_fair::{self as fair, ServerSecret};
use serde::{Deserialize, Serialize};

use crate::random::fresh_seed;
use crate::{Field, message, refuse};

/// What `fairdeck fair commit --format json` prints.
#[derive(Debug, Serialize)]
pub struct Committed {
    /// SHA-256 of the secret, in hex: what the room publishes first.
    pub commitment: String,
    /// The secret in hex, when it is shown rather than saved.
    pub server_secret: Option<String>,
    /// Where the secret was saved, when it was.
    pub secret_file: Option<String>,
}

/// A fresh 256-bit server secret from the operating system.
///
/// # Errors
///
/// When the operating system cannot supply entropy.
pub fn fresh_secret() -> crate::Result<ServerSecret> {
    Ok(ServerSecret::from_bytes(*fresh_seed()?.as_bytes()))
}

/// The commitment to `secret`: the secret shown, unless it was saved to `file`.
pub fn committed(secret: &ServerSecret, file: Option<String>) -> Committed {
    Committed {
        commitment: secret.commitment().to_hex(),
        server_secret: file.is_none().then(|| secret.to_hex()),
        secret_file: file,
    }
}

/// The inputs that fix one version-1 deal.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct DealRequest {
    /// The server secret: 64 hex digits.
    pub server_secret: Option<String>,
    /// The player's seed, any text, chosen after the commitment is published.
    pub client_seed: Option<String>,
    /// The deal number: never reuse one with the same secret and seed.
    pub nonce: Option<u64>,
    /// A game preset (default bridge).
    pub game: Option<String>,
    /// Deck kind (default: the game's deck).
    pub deck: Option<String>,
    /// Number of players (changes the game's default).
    pub players: Option<usize>,
}

/// What `fairdeck fair deal --format json` prints.
#[derive(Debug, Serialize)]
pub struct Dealt {
    /// SHA-256 of the server secret, in hex.
    pub commitment: String,
    /// The player's seed.
    pub client_seed: String,
    /// The deal number.
    pub nonce: u64,
    /// The game.
    pub game: &'static str,
    /// The deck kind.
    pub deck: String,
    /// The whole deck, top first, as the deal key shuffled it.
    pub cards: Vec<String>,
    /// The hands, in seat order.
    pub hands: Vec<FairHand>,
    /// The cards nobody was dealt.
    pub stock: Vec<String>,
    /// log2 of the deck's orders.
    pub entropy_needed_bits: f64,
    /// The deal key's bits.
    pub entropy_key_bits: f64,
}

/// One hand of a fair deal.
#[derive(Debug, Serialize)]
pub struct FairHand {
    /// The seat.
    pub name: String,
    /// Its cards.
    pub cards: Vec<String>,
}

impl DealRequest {
    /// The game and deck, with their defaults.
    ///
    /// # Errors
    ///
    /// An unknown game or deck (naming it).
    pub fn game_and_deck(&self) -> crate::Result<(Game, DeckKind)> {
        let game: Game = (self.game.as_deref().unwrap_or("bridge").parse())
            .map_err(|e: fairdeck::Error| refuse(Field::Game, e.to_string()))?;
        let deck = match &self.deck {
            Some(d) => d
                .parse()
                .map_err(|e: fairdeck::Error| refuse(Field::Deck, e.to_string()))?,
            None => game.deck(),
        };
        Ok((game, deck))
    }

    /// The server secret.
    ///
    /// # Errors
    ///
    /// None given, or not 64 hex digits (naming `server_secret`).
    pub fn secret(&self) -> crate::Result<ServerSecret> {
        let text = (self.server_secret.as_deref()).ok_or_else(|| {
            refuse(
                Field::ServerSecret,
                message!["give ", Field::ServerSecret, " or ", Field::SecretFile],
            )
        })?;
        ServerSecret::from_hex(text).map_err(|e| refuse(Field::ServerSecret, e.to_string()))
    }

    /// The nonce.
    ///
    /// # Errors
    ///
    /// None given (naming `nonce`).
    pub fn nonce(&self) -> crate::Result<u64> {
        self.nonce.ok_or_else(|| {
            refuse(
                Field::Nonce,
                message![
                    Field::Nonce,
                    " N is required (or ",
                    Field::Boards,
                    " A-B for a session of boards)",
                ],
            )
        })
    }
}

/// Deals from the request's inputs: the report, and the deal for a text rendering.
///
/// # Errors
///
/// A missing or bad secret, client seed or nonce; a bad game, deck or player count.
pub fn deal(request: &DealRequest) -> crate::Result<(Dealt, Deal)> {
    let nonce = request.nonce()?;
    let secret = request.secret()?;
    let (game, kind) = request.game_and_deck()?;
    let plan: DealPlan = game.plan(request.players)?;
    let client_seed = request.client_seed.as_deref().ok_or_else(|| {
        refuse(
            Field::ClientSeed,
            message![
                "give ",
                Field::ClientSeed,
                " TEXT (version 1), or ",
                Field::Table,
                " FILE (version 2)",
            ],
        )
    })?;
    let cards = fair::shuffled_deck(&secret, client_seed, nonce, kind);
    let dealt = plan.deal(&cards)?;
    let text = |c: &[Card]| c.iter().map(Card::to_string).collect::<Vec<_>>();
    let report = Dealt {
        commitment: secret.commitment().to_hex(),
        client_seed: client_seed.to_string(),
        nonce,
        game: game.name(),
        deck: kind.to_string(),
        cards: text(&cards),
        hands: (dealt.piles.iter())
            .map(|p| FairHand {
                name: p.name.clone(),
                cards: text(&p.cards),
            })
            .collect(),
        stock: text(&dealt.stock),
        entropy_needed_bits: kind.entropy_bits(),
        entropy_key_bits: 256.0,
    };
    Ok((report, dealt))
}
