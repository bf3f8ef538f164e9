//! `deal`: shuffle a deck and deal it. The request (game, players, cards,
//! deck), the validated [`Plan`], where the randomness came from
//! ([`Entropy`]), and the report `fairdeck deal --format json` prints.

use fairdeck::cards::{Card, Deal, DealPlan, DealShape, DeckKind, Game, high_card_points};
use fairdeck::dice::Dice;
use fairdeck::entropy::BigUint;
use serde::{Deserialize, Serialize};

use crate::random::{KeyEntropy, RandomRequest, Randomness};
pub use crate::shortfall::{Shortfall, bits, check_key};
use crate::{Field, budget, message, refuse};

/// What to deal. The defaults are the CLI's: a bridge deal from a fresh key.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Request {
    /// A game preset (bridge, holdem, draw, skat, scopa): its deck and
    /// dealing order. Default bridge, unless `cards` is given.
    pub game: Option<String>,
    /// Number of players (for `cards`, or to change a game's default).
    pub players: Option<usize>,
    /// Cards to each player, one at a time around the table (needs `players`).
    pub cards: Option<usize>,
    /// The deck kind (default: the game's deck, or standard).
    pub deck: Option<String>,
    /// Refuse when the key holds fewer bits than a deal needs.
    #[serde(default)]
    pub strict: bool,
    /// Report the deal's number (0 ≤ N < D).
    #[serde(default)]
    pub show_number: bool,
    /// Deal the deal with this number (no randomness).
    #[serde(default)]
    pub number: Option<String>,
    /// The deal comes from physical symbols (dice, coins, hex) that the
    /// front end reads: one deal number is unranked, as with `number`.
    #[serde(skip)]
    pub physical: bool,
    /// Run even when numbering the deal is over the work budget.
    #[serde(skip)]
    pub allow_long: bool,
    /// The key and generator.
    #[serde(flatten)]
    pub random: RandomRequest,
}

/// Nanoseconds per card and word (and per card face, when dealing a
/// number) of numbering a deal ([0]) and of dealing a number ([1]),
/// measured (release build, CPU time) on the largest deck, shoe:1000
/// (52 000 cards, 4 628 words): `deal --deck shoe:1000 --show-number` 5.3 s
/// (about 3.7 s of it the number: 15 ns), `--number 12345` 5.8 s (0.45 ns
/// per card, face and word); rounded up. Both are far within the budget,
/// so no deck the tool accepts is refused today; the check keeps it so
/// if the decks grow.
const NUMBER_NANOS: [f64; 2] = [25.0, 0.5];

/// A validated request: what to deal and how.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The game, unless the deal is `cards` round the table.
    pub game: Option<Game>,
    /// The deck dealt from.
    pub deck: DeckKind,
    /// Who gets which cards.
    pub plan: DealPlan,
    /// What the game can tell apart: its count of distinct deals.
    pub shape: DealShape,
}

impl Request {
    /// The one place the deal's defaults and rules live.
    ///
    /// # Errors
    ///
    /// `players` without `cards` or `game`, an unknown game or deck, a plan
    /// the deck cannot fill, numbering over the work budget.
    pub fn validate(&self) -> crate::Result<Plan> {
        let deck_kind = self
            .deck
            .as_deref()
            .map(str::parse::<DeckKind>)
            .transpose()
            .map_err(|e| refuse(Field::Deck, e.to_string()))?;
        let (game, deck, plan) = if let Some(cards) = self.cards {
            if self.game.is_some() {
                return Err(refuse(
                    Field::Cards,
                    message![
                        "give either ",
                        Field::Game,
                        " or ",
                        Field::Cards,
                        " (with ",
                        Field::Players,
                        "), not both",
                    ],
                ));
            }
            let Some(players) = self.players else {
                return Err(refuse(
                    Field::Cards,
                    message![Field::Cards, " needs ", Field::Players],
                ));
            };
            let deck = deck_kind.unwrap_or_default();
            let plan = DealPlan::round_robin_in(deck, players, cards)
                .map_err(|e| refuse(Field::Cards, e.to_string()))?;
            (None, deck, plan)
        } else {
            if self.game.is_none() && self.players.is_some() {
                return Err(refuse(
                    Field::Players,
                    message![Field::Players, " needs ", Field::Cards, " or ", Field::Game],
                ));
            }
            let game: Game = (self.game.as_deref().unwrap_or("bridge").parse())
                .map_err(|e: fairdeck::Error| refuse(Field::Game, e.to_string()))?;
            let deck = deck_kind.unwrap_or(game.deck());
            let plan = game.plan(self.players).map_err(|e| match self.players {
                Some(_) => refuse(Field::Players, e.to_string()),
                None => e.into(),
            })?;
            (Some(game), deck, plan)
        };
        let shape = DealShape::for_game(game, &plan, deck)?;
        self.check_work(&shape, deck.len() as u64)?;
        Ok(Plan {
            game,
            deck,
            plan,
            shape,
        })
    }

    /// Refuses a deal number over the work budget. Numbering a deal
    /// (`show_number`) takes one big-number product per card; dealing a
    /// number (`number`, physical symbols) one per card and card face. A
    /// product of a b-bit number costs about b/64 word steps; the constants
    /// are measured ([`NUMBER_NANOS`]). A deck of distinct cards is cheap; a
    /// large shoe is not: shoe:1000 has 52 000 cards and 2^296104 deals.
    fn check_work(&self, shape: &DealShape, cards: u64) -> crate::Result<()> {
        let unrank = self.number.is_some() || self.physical;
        if !unrank && !self.show_number {
            return Ok(());
        }
        let steps = |cards: u64, bits: f64| {
            let words = bits / 64.0 + 1.0;
            let faces = if unrank { 53.0 } else { 1.0 };
            let nanos = cards as f64 * faces * words * NUMBER_NANOS[usize::from(unrank)];
            (nanos / fairdeck::algorithms::NANOS_PER_STEP as f64) as u64
        };
        let here = steps(cards, shape.bits());
        budget::check(self.allow_long, Field::Deck, here, |budget| {
            // Steps grow as cards² (bits per card barely change with the
            // shoe's size), so this many cards fit the budget.
            let fits = cards as f64 * (budget as f64 / here as f64).sqrt();
            let shoe = (fits / 52.0).floor().max(1.0);
            let mut m = if unrank {
                message![Field::Number, "/", Field::Entropy]
            } else {
                message![Field::ShowNumber]
            };
            m.append(message![format!(" on {cards} cards: "), Field::Deck]);
            m.append(message![format!(" shoe:{shoe} at most")]);
            m
        })
    }
}

/// How much entropy a deal needs and how much its source supplied.
#[derive(Debug, Serialize, Clone)]
pub struct Entropy {
    /// log2 of the number of distinct deals (what the key must cover).
    pub entropy_needed_bits: f64,
    /// Upper bound on the key's entropy (or the bits read from symbols).
    pub entropy_key_bits: f64,
    /// `os`, `hex-key`, `seed-text`, `deal-number`, `pbn`, or the symbol
    /// kind (`d6`, `coin`, `hex`).
    pub entropy_source: &'static str,
    /// The number of distinct deals as a formula, e.g. `52!/(13!)^4`.
    pub entropy_deals: String,
    /// log2 of the deck's distinguishable orders (more than a deal needs
    /// wherever hands are unordered).
    pub entropy_order_bits: f64,
    /// Symbols a physical deal needs up front.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolls_needed: Option<u64>,
    /// Symbols a physical deal used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolls_used: Option<u64>,
}

/// A finished deal and where its randomness came from.
#[derive(Debug, Clone)]
pub struct Shuffled {
    /// The hands and the stock.
    pub deal: Deal,
    /// The deck order (top first) that the plan dealt.
    pub deck: Vec<Card>,
    /// The key, as hex, when a generator dealt.
    pub seed: Option<String>,
    /// The generator's name, when one dealt.
    pub generator: Option<&'static str>,
    /// The entropy figures.
    pub entropy: Entropy,
    /// What one symbol is called, when the deal came from symbols.
    pub noun: Option<&'static str>,
}

/// The key behind a generator's deal: its hex, the generator, and what it holds.
#[derive(Debug, Clone)]
pub struct KeySource {
    /// The 256-bit key in hex.
    pub seed: String,
    /// The generator's name.
    pub generator: &'static str,
    /// Where the key came from and its entropy.
    pub key: KeyEntropy,
}

impl Plan {
    /// "a bridge deal", "a deal from a shoe:6 deck": what the entropy is for.
    pub fn what(&self) -> String {
        match self.game {
            Some(g) => format!("a {g} deal"),
            None => format!("a deal from a {} deck", self.deck),
        }
    }

    /// The entropy figures of this plan, with the source's part filled in.
    pub fn entropy(&self, key_bits: f64, source: &'static str) -> Entropy {
        Entropy {
            entropy_needed_bits: self.shape.bits(),
            entropy_key_bits: key_bits,
            entropy_source: source,
            entropy_deals: self.shape.formula(),
            entropy_order_bits: self.deck.entropy_bits(),
            rolls_needed: None,
            rolls_used: None,
        }
    }

    /// Checks a key against what a deal needs: nothing, a shortfall to
    /// show, or (when `strict`) a refusal.
    ///
    /// # Errors
    ///
    /// A strict request whose key holds too few bits (naming `strict`).
    pub fn check_key(&self, key: KeyEntropy, strict: bool) -> crate::Result<Option<Shortfall>> {
        check_key(key, self.shape.bits(), &self.what(), strict)
    }

    /// Shuffles with `dice` and deals, reporting `source` as the key.
    ///
    /// # Errors
    ///
    /// A plan the deck cannot fill (checked by [`Request::validate`] already).
    pub fn deal_with<D: Dice + ?Sized>(
        &self,
        dice: &mut D,
        source: KeySource,
    ) -> crate::Result<Shuffled> {
        let deal = self.plan.shuffle_and_deal(self.deck, dice)?;
        Ok(Shuffled {
            deck: self.plan.undeal(&deal)?,
            deal,
            seed: Some(source.seed),
            generator: Some(source.generator),
            entropy: self.entropy(source.key.bits, source.key.origin),
            noun: None,
        })
    }

    /// Shuffles with the seeded generator, after checking the key's entropy.
    ///
    /// # Errors
    ///
    /// A strict request with a short key.
    pub fn from_seed(
        &self,
        random: &mut Randomness,
        strict: bool,
    ) -> crate::Result<(Shuffled, Option<Shortfall>)> {
        let shortfall = self.check_key(random.key, strict)?;
        let source = KeySource {
            seed: random.seed.to_hex(),
            generator: random.generator.name(),
            key: random.key,
        };
        Ok((self.deal_with(&mut random.dice, source)?, shortfall))
    }

    /// The deal numbered `text` (decimal, below the game's count of deals).
    ///
    /// # Errors
    ///
    /// Text that is not a whole number, or a number out of range (naming `number`).
    pub fn from_number(&self, text: &str) -> crate::Result<Shuffled> {
        let number: BigUint = text.trim().parse().map_err(|_| {
            refuse(
                Field::Number,
                message![
                    Field::Number,
                    format!(" {text:?}: write a whole number, e.g. 12345")
                ],
            )
        })?;
        let deck = self.shape.deck(&number).map_err(|e| {
            refuse(
                Field::Number,
                message![Field::Number, format!(": {e} ({})", self.shape.formula())],
            )
        })?;
        let deal = self.plan.deal(&deck)?;
        Ok(Shuffled {
            deal,
            deck,
            seed: None,
            generator: None,
            entropy: self.entropy(self.shape.bits(), "deal-number"),
            noun: None,
        })
    }

    /// The report of a finished deal, with its number when asked for.
    pub fn report(&self, shuffled: Shuffled, number: Option<BigUint>) -> Report {
        let bridge = self.game == Some(Game::Bridge);
        Report {
            seed: shuffled.seed,
            generator: shuffled.generator,
            game: self.game.map(Game::name),
            deck: self.deck.to_string(),
            deck_size: self.deck.len(),
            hands: (shuffled.deal.piles.iter())
                .map(|p| Hand::new(&p.name, p.role.name(), &p.cards, bridge))
                .collect(),
            stock: shuffled.deal.stock.iter().map(Card::to_string).collect(),
            deal_number: number.map(|n| n.to_string()),
            entropy: shuffled.entropy,
        }
    }
}

/// Runs a seeded deal request: validates it, deals from `random` and
/// returns the report (with a key's shortfall, for the front end to show).
///
/// # Errors
///
/// What [`Request::validate`] refuses, a strict request with a short key.
pub fn run(
    request: &Request,
    random: &mut Randomness,
) -> crate::Result<(Report, Option<Shortfall>)> {
    let plan = request.validate()?;
    let (shuffled, shortfall) = plan.from_seed(random, request.strict)?;
    let number = request
        .show_number
        .then(|| plan.shape.number(&shuffled.deck))
        .transpose()?;
    Ok((plan.report(shuffled, number), shortfall))
}

/// What `fairdeck deal --format json` prints (one deal).
#[derive(Debug, Serialize)]
pub struct Report {
    /// The key in hex, when a generator dealt.
    pub seed: Option<String>,
    /// The generator, when one dealt.
    pub generator: Option<&'static str>,
    /// The game, unless the deal was `cards` round the table.
    pub game: Option<&'static str>,
    /// The deck kind.
    pub deck: String,
    /// Cards in the deck.
    pub deck_size: usize,
    /// The hands, in seat order.
    pub hands: Vec<Hand>,
    /// The cards nobody was dealt, top first.
    pub stock: Vec<String>,
    /// The deal's number, in decimal (it can exceed 2^64).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deal_number: Option<String>,
    /// How much entropy the deal needed and its source supplied.
    #[serde(flatten)]
    pub entropy: Entropy,
}

/// One pile in JSON.
#[derive(Debug, Serialize)]
pub struct Hand {
    /// The seat or pile name.
    pub name: String,
    /// `hand`, `community`, `burn`, `kitty`, …
    pub role: &'static str,
    /// The cards, as dealt.
    pub cards: Vec<String>,
    /// High-card points (bridge hands only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hcp: Option<u32>,
}

impl Hand {
    /// A pile of `cards`; `bridge` adds its high-card points.
    pub fn new(name: &str, role: &'static str, cards: &[Card], bridge: bool) -> Hand {
        Hand {
            name: name.to_string(),
            role,
            cards: cards.iter().map(Card::to_string).collect(),
            hcp: bridge.then(|| high_card_points(cards)),
        }
    }
}
