//! Which positions of the dealt deck go where, and the stages of a hand
//! (`docs/hidden-dealing.md` §14; the layouts are `docs/fair-dealing.md` §9).
//!
//! The layout is computed from the game's dealing plan
//! ([`fairdeck::cards::DealPlan::packet_positions`]), so version 3 deals
//! exactly the positions version 2 deals: a seat's hand is private, each
//! packet of the `board` pile is a street, and burns, the skat and the
//! stock are never decrypted.

use fairdeck::cards::PileRole;
use fairdeck_fair::{Manifest, TableGame};

use crate::Error;

/// Where a position of the dealt deck goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A private card of this seat.
    Private(u64),
    /// A community card of the street with this index.
    Street(usize),
    /// A burned card, the skat or the stock: never decrypted.
    Hidden,
}

/// One street: a packet of the board pile, shown at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Street {
    /// `flop`, `turn`, `river` (hold'em), `table` (scopa).
    pub name: String,
    /// Its positions in the dealt deck, in dealing order.
    pub positions: Vec<u64>,
}

/// The stages of a hand, in order (§14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Every seat's shuffle, in seat order.
    Shuffle,
    /// The shares of every private position from every other seat.
    Deal,
    /// Every seat's shares of the street with this index.
    Street(usize),
}

/// The layout of one table's hands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    places: Vec<Place>,
    private: Vec<Vec<u64>>,
    streets: Vec<Street>,
}

impl Layout {
    /// The layout of a (version-3) manifest's game for its seats. O(N).
    ///
    /// # Errors
    ///
    /// [`Error::Manifest`] if the manifest breaks a rule of version 2's §8.2.
    pub fn new(manifest: &Manifest) -> Result<Layout, Error> {
        let as_v2 = Manifest {
            version: fairdeck_fair::VERSION,
            ..manifest.clone()
        };
        let checked = as_v2.check().map_err(|e| Error::Manifest(e.to_string()))?;
        let n = checked.deck.cards().len();
        let seats = manifest.seats.len();
        let mut layout = Layout {
            places: vec![Place::Hidden; n],
            private: vec![Vec::new(); seats],
            streets: Vec::new(),
        };
        let TableGame::Cards(game) = checked.game else {
            return Ok(layout); // a shoe: everything is stock
        };
        let plan = game
            .plan(Some(seats))
            .map_err(|e| Error::Manifest(e.to_string()))?;
        let roles: Vec<PileRole> = plan.piles().map(|(_, role)| role).collect();
        let mut players = 0u64..;
        let seat_of: Vec<Option<u64>> = roles
            .iter()
            .map(|r| (*r == PileRole::Player).then(|| players.next().unwrap_or(0)))
            .collect();
        for (pile, range) in plan.packet_positions() {
            layout.add_packet(seat_of[pile], roles[pile], range, game.name());
        }
        Ok(layout)
    }

    fn add_packet(
        &mut self,
        seat: Option<u64>,
        role: PileRole,
        range: core::ops::Range<usize>,
        game: &str,
    ) {
        let positions: Vec<u64> = range.clone().map(|p| p as u64).collect();
        let place = match (seat, role) {
            (Some(s), _) => {
                self.private[s as usize].extend(&positions);
                Place::Private(s)
            }
            (None, PileRole::Board) => {
                let k = self.streets.len();
                let name = street_name(game, k);
                self.streets.push(Street { name, positions });
                Place::Street(k)
            }
            _ => Place::Hidden,
        };
        for p in range {
            self.places[p] = place;
        }
    }

    /// Where position `p` goes (`Hidden` beyond the deck too).
    pub fn place(&self, p: u64) -> Place {
        usize::try_from(p)
            .ok()
            .and_then(|p| self.places.get(p).copied())
            .unwrap_or(Place::Hidden)
    }

    /// Seat `seat`'s private positions, in dealing order (empty for a seat
    /// outside the table).
    pub fn private(&self, seat: u64) -> &[u64] {
        usize::try_from(seat)
            .ok()
            .and_then(|s| self.private.get(s))
            .map_or(&[], Vec::as_slice)
    }

    /// The streets, in the order they are shown.
    pub fn streets(&self) -> &[Street] {
        &self.streets
    }

    /// The positions never decrypted (burns, skat, stock), in order.
    pub fn hidden(&self) -> Vec<u64> {
        (0..self.places.len() as u64)
            .filter(|&p| self.places[p as usize] == Place::Hidden)
            .collect()
    }

    /// The stages of a hand, in order: shuffle, deal, each street.
    pub fn stages(&self) -> Vec<Stage> {
        let streets = (0..self.streets.len()).map(Stage::Street);
        [Stage::Shuffle, Stage::Deal]
            .into_iter()
            .chain(streets)
            .collect()
    }

    /// A stage's name in transcripts: `shuffle`, `deal`, or the street's.
    pub fn stage_name(&self, stage: Stage) -> &str {
        match stage {
            Stage::Shuffle => "shuffle",
            Stage::Deal => "deal",
            Stage::Street(k) => self.streets.get(k).map_or("street", |s| &s.name),
        }
    }

    /// The stage named `name`, if the game has it.
    pub fn stage_named(&self, name: &str) -> Option<Stage> {
        self.stages()
            .into_iter()
            .find(|&s| self.stage_name(s) == name)
    }

    /// The positions seat `seat` must share in a stage: in the deal, every
    /// other seat's private positions; in a street, the street's. O(N).
    pub fn owed(&self, stage: Stage, seat: u64) -> Vec<u64> {
        match stage {
            Stage::Shuffle => Vec::new(),
            Stage::Deal => (0..self.places.len() as u64)
                .filter(|&p| matches!(self.place(p), Place::Private(i) if i != seat))
                .collect(),
            Stage::Street(k) => self
                .streets
                .get(k)
                .map_or(Vec::new(), |s| s.positions.clone()),
        }
    }
}

fn street_name(game: &str, k: usize) -> String {
    match (game, k) {
        ("holdem", 0) => "flop".into(),
        ("holdem", 1) => "turn".into(),
        ("holdem", 2) => "river".into(),
        ("scopa", 0) => "table".into(),
        _ => format!("street-{}", k + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::manifest;

    #[test]
    fn holdem_deals_two_hole_cards_a_seat_and_three_streets() {
        let l = Layout::new(&manifest("holdem", "standard", 6)).unwrap();
        assert_eq!(l.private(0), [0, 6]);
        assert_eq!(l.private(5), [5, 11]);
        let names: Vec<_> = l.streets().iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["flop", "turn", "river"]);
        assert_eq!(l.streets()[0].positions, [13, 14, 15]);
        assert_eq!(l.streets()[1].positions, [17]);
        assert_eq!(l.streets()[2].positions, [19]);
        assert_eq!(l.place(12), Place::Hidden); // the first burn
        assert_eq!(l.hidden().len(), 52 - 12 - 5);
        assert_eq!(l.owed(Stage::Deal, 0).len(), 10);
        assert_eq!(l.stage_named("turn"), Some(Stage::Street(1)));
    }

    #[test]
    fn other_games_follow_their_plans() {
        let skat = Layout::new(&manifest("skat", "piquet", 3)).unwrap();
        assert_eq!(skat.private(0), [0, 1, 2, 11, 12, 13, 14, 23, 24, 25]);
        assert_eq!(skat.place(9), Place::Hidden); // the skat
        assert!(skat.streets().is_empty());
        let scopa = Layout::new(&manifest("scopa", "italian", 2)).unwrap();
        assert_eq!(scopa.streets()[0].name, "table");
        assert_eq!(scopa.streets()[0].positions, [6, 7, 8, 9]);
        let shoe = Layout::new(&manifest("shoe", "shoe:1", 2)).unwrap();
        assert!(shoe.private(0).is_empty() && shoe.hidden().len() == 52);
    }
}
