//! `fairdeck deal`: shuffle a deck and deal it.

use std::io::Write;
use std::process::ExitCode;

use fairdeck::cards::{Card, Deal, DealPlan, DeckKind, Game};
use serde::Serialize;

use crate::failure::usage;
use crate::output::{Format, Output};
use crate::random::RandomArgs;

/// Flags of `fairdeck deal`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Games: bridge (default), holdem, draw, skat, scopa.\n\
Decks: standard, jokers, piquet (32), italian (40), shoe:K.")]
pub struct Args {
    /// A game preset: its deck and dealing order.
    #[arg(long, short, value_name = "GAME", conflicts_with = "cards")]
    pub game: Option<String>,

    /// Number of players (for --cards, or to change a game's default).
    #[arg(long, short, value_name = "P")]
    pub players: Option<usize>,

    /// Cards to each player, one at a time around the table (needs --players).
    #[arg(long, short, value_name = "C", requires = "players")]
    pub cards: Option<usize>,

    /// Deck kind (default: the game's deck, or standard).
    #[arg(long, short, value_name = "KIND")]
    pub deck: Option<String>,

    /// Print cards as ASCII text (AS, TH) instead of suit symbols.
    #[arg(long)]
    pub ascii: bool,

    #[command(flatten)]
    pub random: RandomArgs,
}

/// The validated plan: what to deal and how.
struct Config {
    game: Option<Game>,
    deck: DeckKind,
    plan: DealPlan,
}

impl Args {
    fn config(&self) -> anyhow::Result<Config> {
        let deck_flag = self
            .deck
            .as_deref()
            .map(str::parse::<DeckKind>)
            .transpose()?;
        if let Some(cards) = self.cards {
            let players = self.players.unwrap_or(0);
            let plan = DealPlan::round_robin(players, cards)?;
            return Ok(Config {
                game: None,
                deck: deck_flag.unwrap_or_default(),
                plan,
            });
        }
        if self.game.is_none() && self.players.is_some() {
            return Err(usage("--players needs --cards or --game"));
        }
        let game: Game = self.game.as_deref().unwrap_or("bridge").parse()?;
        Ok(Config {
            game: Some(game),
            deck: deck_flag.unwrap_or(game.deck()),
            plan: game.plan(self.players)?,
        })
    }
}

#[derive(Serialize)]
struct Report<'a> {
    seed: String,
    generator: &'a str,
    game: Option<&'a str>,
    deck: String,
    deck_size: usize,
    hands: Vec<Hand>,
    stock: Vec<String>,
}

#[derive(Serialize)]
struct Hand {
    name: String,
    role: &'static str,
    cards: Vec<String>,
}

/// Runs `fairdeck deal`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let config = args.config()?;
    let mut random = args.random.randomness()?;
    let deal = config
        .plan
        .shuffle_and_deal(config.deck, &mut random.dice)?;
    let text = |cards: &[Card]| cards.iter().map(Card::to_string).collect::<Vec<_>>();
    match out.format() {
        Format::Json => out.json(&Report {
            seed: random.seed.to_hex(),
            generator: random.generator.name(),
            game: config.game.map(Game::name),
            deck: config.deck.to_string(),
            deck_size: config.deck.len(),
            hands: deal
                .piles
                .iter()
                .map(|p| Hand {
                    name: p.name.clone(),
                    role: p.role.name(),
                    cards: text(&p.cards),
                })
                .collect(),
            stock: text(&deal.stock),
        })?,
        Format::Text => {
            let title = match config.game {
                Some(g) => format!("{g}, {} deck", config.deck),
                None => format!("{} deck", config.deck),
            };
            let style = CardStyle {
                ascii: args.ascii,
                color: out.color(),
            };
            print_text(out.stdout(), &title, &deal, style)?;
            writeln!(out.stdout(), "seed: {}", random.seed)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// How cards are drawn in text output.
#[derive(Clone, Copy)]
pub struct CardStyle {
    /// ASCII letters instead of suit symbols.
    pub ascii: bool,
    /// Red suits in red (ANSI).
    pub color: bool,
}

impl CardStyle {
    /// One card in this style.
    pub fn render(self, card: Card) -> String {
        let s = if self.ascii {
            card.to_string()
        } else {
            card.symbol()
        };
        if self.color && card.is_red() {
            format!("\x1b[31m{s}\x1b[0m")
        } else {
            s
        }
    }
}

fn print_text(
    w: &mut impl Write,
    title: &str,
    deal: &Deal,
    style: CardStyle,
) -> std::io::Result<()> {
    writeln!(w, "{title}")?;
    let width = deal
        .piles
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        .max(5);
    let line = |cards: &[Card]| {
        cards
            .iter()
            .map(|&c| style.render(c))
            .collect::<Vec<_>>()
            .join(" ")
    };
    for pile in &deal.piles {
        writeln!(w, "{:width$}  {}", pile.name, line(&pile.cards))?;
    }
    if !deal.stock.is_empty() {
        writeln!(
            w,
            "{:width$}  {} cards: {}",
            "Stock",
            deal.stock.len(),
            line(&deal.stock)
        )?;
    }
    Ok(())
}
