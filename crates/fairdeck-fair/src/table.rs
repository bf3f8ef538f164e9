//! Version 2: the table manifest, its canonical bytes, the room's and the
//! seats' commitments, the deal key, and how each game deals the deck
//! (sections 8–10 of `docs/fair-dealing.md`).
//!
//! Every variable-length field is written `lp(x) = u64_be(len(x)) ‖ x`, so
//! no two different manifests, seeds or seat lists give the same bytes.

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

use super::{Commitment, KeyStream, ServerSecret, durstenfeld};
use crate::naming::{BRIDGE_SEATS, PILE_NAMES, check_text};
use fairdeck::Error;
use fairdeck::cards::{Board, Card, Deal, DeckKind, Game, PileRole};

/// The protocol version a manifest of this module carries.
pub const VERSION: u64 = 2;

/// The most deals (or boards) one table covers.
pub const MAX_DEALS: u64 = 10_000;

/// The largest shoe a table deals (real shoes hold up to 8 decks).
pub const MAX_SHOE_DECKS: u16 = 8;

/// What a table plays: one of the game presets, or a shoe that is dealt
/// card by card from the top (blackjack, baccarat).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableGame {
    /// A game preset with its fixed dealing layout ([`Game::plan`]).
    Cards(Game),
    /// A shoe of `shoe:K` decks: nothing is dealt up front; the whole
    /// shuffled shoe is the stock, drawn from the top.
    Shoe,
}

impl TableGame {
    /// The manifest's name: `bridge`, `holdem`, `draw`, `skat`, `scopa`, `shoe`.
    pub fn name(self) -> &'static str {
        match self {
            TableGame::Cards(g) => g.name(),
            TableGame::Shoe => "shoe",
        }
    }

    /// The game of a manifest's `game` field, if it is one.
    pub fn from_name(name: &str) -> Option<TableGame> {
        if name == "shoe" {
            return Some(TableGame::Shoe);
        }
        Game::ALL
            .into_iter()
            .find(|g| g.name() == name)
            .map(TableGame::Cards)
    }

    /// The allowed number of seats.
    pub fn seats(self) -> core::ops::RangeInclusive<usize> {
        match self {
            TableGame::Cards(g) => g.players().0,
            TableGame::Shoe => 1..=22,
        }
    }
}

/// The table manifest: everything fixed before the room commits. Its
/// fields are exactly what [`Manifest::to_bytes`] encodes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct Manifest {
    /// Protocol version: 2.
    pub version: u64,
    /// The table or session id, chosen by the room (never reused).
    pub table: String,
    /// `bridge`, `holdem`, `draw`, `skat`, `scopa` or `shoe`.
    pub game: String,
    /// The deck kind's canonical name: the game's deck, `shoe:K` for a shoe.
    pub deck: String,
    /// The seat names in seat order (bridge: North, East, South, West).
    pub seats: Vec<String>,
    /// The first deal number (nonce; for bridge, the first board).
    pub first: u64,
    /// The last deal number, inclusive.
    pub last: u64,
}

/// A checked manifest: its game and deck as types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The manifest as written.
    pub manifest: Manifest,
    /// Its game.
    pub game: TableGame,
    /// Its deck.
    pub deck: DeckKind,
}

fn bad(why: String) -> Error {
    Error::InvalidTable(why)
}

impl Manifest {
    /// Checks every rule of section 8.1 and returns the typed table.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidTable`] naming the first broken rule: another
    /// version; an unknown game; a deck that is not the game's (or not
    /// `shoe:1`…`shoe:8` for a shoe, in canonical spelling); a seat count
    /// the game is not played by; empty, over-long or repeated names; a
    /// deal range that is reversed, longer than [`MAX_DEALS`], or starts at
    /// board 0 for bridge.
    pub fn check(&self) -> Result<Table, Error> {
        if self.version != VERSION {
            return Err(bad(format!("version {} is not 2", self.version)));
        }
        check_text("the table id", &self.table)?;
        let game = TableGame::from_name(&self.game).ok_or_else(|| {
            bad(format!(
                "game {:?} is not one of bridge, holdem, draw, skat, scopa, shoe",
                self.game
            ))
        })?;
        let deck = self.deck_of(game)?;
        let seats = game.seats();
        if !seats.contains(&self.seats.len()) {
            return Err(bad(format!(
                "{} is played by {} to {} seats, the manifest has {}",
                self.game,
                seats.start(),
                seats.end(),
                self.seats.len()
            )));
        }
        self.check_seat_names(game)?;
        self.check_range(game)?;
        Ok(Table {
            manifest: self.clone(),
            game,
            deck,
        })
    }

    /// Seat names: the text rule, all different (byte equality), none a
    /// pile's name; a bridge table's are North, East, South, West.
    fn check_seat_names(&self, game: TableGame) -> Result<(), Error> {
        if game == TableGame::Cards(Game::Bridge) && self.seats != BRIDGE_SEATS {
            return Err(bad(format!(
                "a bridge table's seats are {BRIDGE_SEATS:?} in this order and spelling, the \
                 manifest has {:?}",
                self.seats
            )));
        }
        for (i, name) in self.seats.iter().enumerate() {
            check_text("the seat name", name)?;
            if self.seats[..i].contains(name) {
                return Err(bad(format!("seat name {name:?} appears twice")));
            }
            if PILE_NAMES.contains(&name.as_str()) {
                return Err(bad(format!(
                    "seat name {name:?} is the name of a pile ({})",
                    PILE_NAMES.join(", ")
                )));
            }
        }
        Ok(())
    }

    fn deck_of(&self, game: TableGame) -> Result<DeckKind, Error> {
        let deck: Option<DeckKind> = self.deck.parse().ok();
        let fits = match (game, deck) {
            (TableGame::Cards(g), Some(d)) => d == g.deck(),
            (TableGame::Shoe, Some(DeckKind::Shoe(k))) => (1..=MAX_SHOE_DECKS).contains(&k),
            _ => false,
        };
        match deck {
            Some(d) if fits && d.to_string() == self.deck => Ok(d),
            _ => Err(bad(format!(
                "deck {:?} is not the deck of {} ({})",
                self.deck,
                self.game,
                match game {
                    TableGame::Cards(g) => g.deck().to_string(),
                    TableGame::Shoe => format!("shoe:1 to shoe:{MAX_SHOE_DECKS}"),
                }
            ))),
        }
    }

    fn check_range(&self, game: TableGame) -> Result<(), Error> {
        if self.first > self.last {
            return Err(bad(format!(
                "the deals {}-{} are reversed",
                self.first, self.last
            )));
        }
        if self.last - self.first >= MAX_DEALS {
            return Err(bad(format!("a table covers at most {MAX_DEALS} deals")));
        }
        if game == TableGame::Cards(Game::Bridge) && self.first == 0 {
            return Err(bad("bridge boards are numbered from 1".into()));
        }
        Ok(())
    }

    /// The canonical bytes (section 8.2): `lp("fairdeck-table")`,
    /// `u64(version)`, `lp(table)`, `lp(game)`, `lp(deck)`, `u64(seats)`,
    /// `lp(name)` per seat, `u64(first)`, `u64(last)`. O(size).
    ///
    /// ```
    /// use fairdeck_fair::Manifest;
    ///
    /// let m = Manifest {
    ///     version: 2, table: "t".into(), game: "bridge".into(), deck: "standard".into(),
    ///     seats: ["North", "East", "South", "West"].map(String::from).to_vec(), first: 1, last: 1,
    /// };
    /// assert_eq!(&m.to_bytes()[..8], &14u64.to_be_bytes());
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        lp(&mut out, b"fairdeck-table");
        out.extend_from_slice(&self.version.to_be_bytes());
        lp(&mut out, self.table.as_bytes());
        lp(&mut out, self.game.as_bytes());
        lp(&mut out, self.deck.as_bytes());
        out.extend_from_slice(&(self.seats.len() as u64).to_be_bytes());
        for s in &self.seats {
            lp(&mut out, s.as_bytes());
        }
        out.extend_from_slice(&self.first.to_be_bytes());
        out.extend_from_slice(&self.last.to_be_bytes());
        out
    }
}

/// Appends `u64_be(len(x)) ‖ x`.
pub(super) fn lp(out: &mut Vec<u8>, x: &[u8]) {
    out.extend_from_slice(&(x.len() as u64).to_be_bytes());
    out.extend_from_slice(x);
}

impl Table {
    /// The domain string of one purpose (`room`, `seat`, `lock` or `deal`):
    /// `fairdeck-fair-v2/GAME/DECK/PURPOSE`, so that no two games or deck
    /// kinds ever share a commitment or a keystream.
    pub fn domain(&self, purpose: &str) -> String {
        format!(
            "fairdeck-fair-v2/{}/{}/{purpose}",
            self.manifest.game, self.manifest.deck
        )
    }

    /// The room's commitment (section 8.3):
    /// `SHA-256(lp(domain room) ‖ S ‖ lp(manifest bytes))`. O(manifest).
    pub fn room_commitment(&self, secret: &ServerSecret) -> Commitment {
        let mut m = Vec::new();
        lp(&mut m, self.domain("room").as_bytes());
        m.extend_from_slice(secret.as_bytes());
        lp(&mut m, &self.manifest.to_bytes());
        Commitment(Sha256::digest(m).into())
    }

    /// Seat `index`'s commitment to its seed:
    /// `SHA-256(lp(domain seat) ‖ lp(manifest bytes) ‖ u64(index) ‖ lp(seed))`.
    pub fn seat_commitment(&self, index: usize, seed: &str) -> Commitment {
        let mut m = Vec::new();
        lp(&mut m, self.domain("seat").as_bytes());
        lp(&mut m, &self.manifest.to_bytes());
        m.extend_from_slice(&(index as u64).to_be_bytes());
        lp(&mut m, seed.as_bytes());
        Commitment(Sha256::digest(m).into())
    }

    /// The HMAC message of deal `nonce`: `lp(domain deal) ‖ lp(manifest
    /// bytes) ‖ u64(seats) ‖ lp(seed) per seat in seat order ‖ u64(nonce)`.
    pub fn deal_message(&self, seeds: &[&str], nonce: u64) -> Vec<u8> {
        let mut m = Vec::new();
        lp(&mut m, self.domain("deal").as_bytes());
        lp(&mut m, &self.manifest.to_bytes());
        m.extend_from_slice(&(seeds.len() as u64).to_be_bytes());
        for s in seeds {
            lp(&mut m, s.as_bytes());
        }
        m.extend_from_slice(&nonce.to_be_bytes());
        m
    }

    /// The deal key: `HMAC-SHA256(S, deal_message)`.
    pub fn deal_key(&self, secret: &ServerSecret, seeds: &[&str], nonce: u64) -> [u8; 32] {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes())
            .expect("HMAC takes keys of any size");
        mac.update(&self.deal_message(seeds, nonce));
        mac.finalize().into_bytes().into()
    }

    /// The shuffled deck of deal `nonce`, top first (the v1 shuffle over
    /// the v2 key). O(n).
    pub fn shuffled_deck(&self, secret: &ServerSecret, seeds: &[&str], nonce: u64) -> Vec<Card> {
        let mut deck = self.deck.cards();
        durstenfeld(
            &mut deck,
            &mut KeyStream::new(self.deal_key(secret, seeds, nonce)),
        );
        deck
    }

    /// Deals a shuffled deck by the game's layout (section 9), the piles
    /// named after the manifest's seats. A shoe deals no piles.
    ///
    /// # Errors
    ///
    /// Only for a table that [`Manifest::check`] would refuse.
    pub fn lay_out(&self, deck: &[Card]) -> Result<Deal, Error> {
        let TableGame::Cards(game) = self.game else {
            return Ok(Deal {
                piles: Vec::new(),
                stock: deck.to_vec(),
            });
        };
        let mut deal = game.plan(Some(self.manifest.seats.len()))?.deal(deck)?;
        let players = deal.piles.iter_mut().filter(|p| p.role == PileRole::Player);
        for (pile, name) in players.zip(&self.manifest.seats) {
            pile.name.clone_from(name);
        }
        Ok(deal)
    }

    /// The bridge board of deal `nonce`, for the dealer and vulnerability.
    pub fn board(&self, nonce: u64) -> Option<Board> {
        (self.game == TableGame::Cards(Game::Bridge))
            .then(|| Board::new(nonce).ok())
            .flatten()
    }
}
