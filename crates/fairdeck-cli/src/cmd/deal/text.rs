//! Text output of deals: one line per pile, or the bridge compass diagram.

use std::io::{self, Write};

use fairdeck::cards::{Card, Deal, Game, PileRole, Seat, Suit, high_card_points};

/// How cards are drawn in text output.
#[derive(Clone, Copy, Default)]
pub struct CardStyle {
    /// ASCII letters instead of suit symbols.
    pub ascii: bool,
    /// The Unicode playing-card glyphs (🂡) instead of rank and suit.
    pub glyphs: bool,
    /// Red suits in red (ANSI).
    pub color: bool,
}

impl CardStyle {
    /// One card in this style.
    pub fn render(self, card: Card) -> String {
        let s = if self.glyphs {
            card.glyph().to_string()
        } else if self.ascii {
            card.to_string()
        } else {
            card.symbol()
        };
        self.paint(s, card.is_red())
    }

    fn paint(self, s: String, red: bool) -> String {
        if self.color && red {
            format!("\x1b[31m{s}\x1b[0m")
        } else {
            s
        }
    }
}

/// The deal with its hands and kitty sorted as the game's players hold
/// them (`--sort`); community cards and the stock keep their order.
pub fn sorted(deal: &Deal, game: Option<Game>) -> Deal {
    let mut deal = deal.clone();
    for pile in &mut deal.piles {
        if matches!(pile.role, PileRole::Player | PileRole::Kitty) {
            Game::sort_hand(game, &mut pile.cards);
        }
    }
    deal
}

/// One line per pile, then the stock.
pub fn print_text(
    w: &mut impl Write,
    title: &str,
    deal: &Deal,
    style: CardStyle,
) -> io::Result<()> {
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

/// The four lines of one hand in a diagram: its title, then ♠ ♥ ♦ ♣.
fn hand_lines(seat: Seat, cards: &[Card], style: CardStyle) -> Vec<(String, usize)> {
    let mut sorted = cards.to_vec();
    Game::sort_hand(Some(Game::Bridge), &mut sorted);
    let title = format!("{} {} HCP", seat.name(), high_card_points(cards));
    let mut lines = vec![(title.clone(), title.chars().count())];
    for suit in [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs] {
        let in_suit: Vec<Card> = sorted
            .iter()
            .copied()
            .filter(|c| c.suit() == Some(suit))
            .collect();
        let (plain, painted) = suit_line(suit, &in_suit, style);
        lines.push((painted, plain.chars().count()));
    }
    lines
}

/// A suit line, plain (for widths) and as printed: `♠ A K 10 3`, `S AKT3`.
fn suit_line(suit: Suit, cards: &[Card], style: CardStyle) -> (String, String) {
    let void = if style.ascii { "-" } else { "—" };
    let ranks: Vec<String> = cards
        .iter()
        .map(|&c| match c {
            _ if style.glyphs => c.glyph().to_string(),
            Card::Suited(r, _) if style.ascii => r.letter().to_string(),
            Card::Suited(..) => c.symbol().trim_end_matches(suit.symbol()).to_string(),
            _ => c.to_string(),
        })
        .collect();
    let body = match (ranks.is_empty(), style.ascii && !style.glyphs) {
        (true, _) => void.to_string(),
        (false, true) => ranks.concat(),
        (false, false) => ranks.join(" "),
    };
    let mark = if style.ascii {
        suit.letter()
    } else {
        suit.symbol()
    };
    let plain = format!("{mark} {body}");
    let painted = format!("{} {body}", style.paint(mark.to_string(), suit.is_red()));
    (plain, painted)
}

/// The compass diagram of a bridge deal (hands North, East, South, West):
/// North on top, West and East side by side, South below, with HCP.
pub fn print_diagram(
    w: &mut impl Write,
    heading: &str,
    hands: &[Vec<Card>; 4],
    style: CardStyle,
) -> io::Result<()> {
    let [north, east, south, west] = Seat::ALL.map(|s| hand_lines(s, &hands[s as usize], style));
    let indent = west.iter().map(|(_, n)| *n).max().unwrap_or(0).max(16) + 4;
    writeln!(w, "{heading}")?;
    for (line, _) in &north {
        writeln!(w, "{:indent$}{line}", "")?;
    }
    for ((wl, wn), (el, _)) in west.iter().zip(&east) {
        writeln!(w, "{wl}{:pad$}{el}", "", pad = 2 * indent - wn)?;
    }
    for (line, _) in &south {
        writeln!(w, "{:indent$}{line}", "")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdeck::cards::DeckKind;

    #[test]
    fn diagram_layout() {
        let deck = DeckKind::Standard.cards();
        // North all hearts, East all diamonds, South all clubs, West all spades.
        let hands: [Vec<Card>; 4] = core::array::from_fn(|h| deck[13 * h..13 * h + 13].to_vec());
        let mut out = Vec::new();
        let style = CardStyle {
            ascii: true,
            ..CardStyle::default()
        };
        print_diagram(&mut out, "Board 1", &hands, style).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 5 * 3);
        assert_eq!(lines[1].trim(), "North 10 HCP");
        assert_eq!(lines[3].trim(), "H AKQJT98765432");
        assert!(lines[6].starts_with("West 10 HCP") && lines[6].ends_with("East 10 HCP"));
        assert!(lines[7].starts_with("S AKQJT98765432") && lines[7].ends_with("S -"));
        assert_eq!(lines[15].trim(), "C AKQJT98765432");
    }
}
