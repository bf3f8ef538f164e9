//! Deals: hands (and boards, burns, kitties) dealt from a shuffled deck.

use super::{Card, DeckKind};
use crate::Error;
use crate::dice::Dice;
use crate::shuffle::shuffle;

/// What a pile of dealt cards is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum PileRole {
    /// A player's hand.
    Player,
    /// Face-up community cards (hold'em board, Scopa table).
    Board,
    /// Cards burned face down before community cards.
    Burn,
    /// A set-aside pile that belongs to no one yet (the skat).
    Kitty,
}

impl PileRole {
    /// Lowercase name used in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            PileRole::Player => "player",
            PileRole::Board => "board",
            PileRole::Burn => "burn",
            PileRole::Kitty => "kitty",
        }
    }
}

/// One named pile of a deal.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pile {
    /// Display name ("North", "Player 1", "Board", …).
    pub name: String,
    /// What the pile is for.
    pub role: PileRole,
    /// Its cards in the order they were dealt.
    pub cards: Vec<Card>,
}

/// A finished deal: the piles and the undealt stock (top card first).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Deal {
    /// The piles, in the plan's order.
    pub piles: Vec<Pile>,
    /// The cards left over, top first.
    pub stock: Vec<Card>,
}

/// How to deal: the piles, and the packets dealt to them in order.
///
/// Cards are taken from the top of the shuffled deck (index 0) one packet at
/// a time. For a uniformly shuffled deck any fixed plan gives every pile a
/// uniformly random set of cards; plans follow the real games' order anyway,
/// so a dealer at a table would hand out the same cards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealPlan {
    piles: Vec<(String, PileRole)>,
    /// (pile index, number of cards) in dealing order.
    pub(super) packets: Vec<(usize, usize)>,
}

impl DealPlan {
    /// `players` hands of `cards_each`, dealt one card at a time around the table.
    ///
    /// O(players · cards_each) time and memory, which is at most
    /// [`DeckKind::MAX_LEN`]: larger plans are refused before anything is
    /// allocated.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDeal`] if `players` or `cards_each` is zero or their
    /// product overflows; [`Error::NotEnoughCards`] if it exceeds the largest
    /// deck ([`DealPlan::round_robin_in`] checks against a given deck).
    pub fn round_robin(players: usize, cards_each: usize) -> Result<DealPlan, Error> {
        Self::check_size(players, cards_each, DeckKind::MAX_LEN)?;
        if players == 0 {
            return Err(Error::InvalidDeal(
                "there must be at least one player".into(),
            ));
        }
        if cards_each == 0 {
            return Err(Error::InvalidDeal(
                "each player must get at least one card".into(),
            ));
        }
        let names = (1..=players).map(|i| format!("Player {i}")).collect();
        Ok(DealPlan::rounds(names, cards_each))
    }

    /// [`DealPlan::round_robin`] for a given deck: refuses, before anything
    /// is allocated, a plan that needs more cards than `deck` holds. O(1)
    /// for a refused plan.
    ///
    /// ```
    /// use fairdeck::cards::{DealPlan, DeckKind};
    ///
    /// assert!(DealPlan::round_robin_in(DeckKind::Standard, 4, 13).is_ok());
    /// assert!(DealPlan::round_robin_in(DeckKind::Standard, usize::MAX, 2).is_err());
    /// assert!(DealPlan::round_robin_in(DeckKind::Standard, 10_000_000, 1).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// As [`DealPlan::round_robin`], with `deck`'s size as the limit.
    pub fn round_robin_in(
        deck: DeckKind,
        players: usize,
        cards_each: usize,
    ) -> Result<DealPlan, Error> {
        Self::check_size(players, cards_each, deck.len())?;
        Self::round_robin(players, cards_each)
    }

    /// Checks players × cards (without overflow) against `available` cards.
    fn check_size(players: usize, cards_each: usize, available: usize) -> Result<(), Error> {
        match players.checked_mul(cards_each) {
            None => Err(Error::InvalidDeal(format!(
                "{players} players × {cards_each} cards is more cards than any deck holds"
            ))),
            Some(needed) if needed > available => Err(Error::NotEnoughCards { needed, available }),
            Some(_) => Ok(()),
        }
    }

    pub(super) fn rounds(names: Vec<String>, cards_each: usize) -> DealPlan {
        let players = names.len();
        DealPlan {
            piles: names.into_iter().map(|n| (n, PileRole::Player)).collect(),
            packets: (0..cards_each)
                .flat_map(|_| (0..players).map(|p| (p, 1)))
                .collect(),
        }
    }

    pub(super) fn add_pile(&mut self, name: &str, role: PileRole) -> usize {
        self.piles.push((name.to_string(), role));
        self.piles.len() - 1
    }

    /// Cards the plan deals in all.
    pub fn cards_needed(&self) -> usize {
        self.packets.iter().map(|&(_, c)| c).sum()
    }

    /// The piles' names and roles, in order.
    pub fn piles(&self) -> impl Iterator<Item = (&str, PileRole)> {
        self.piles.iter().map(|(n, r)| (n.as_str(), *r))
    }

    /// For each packet in dealing order: its pile and the deck positions
    /// (top = 0) it takes. O(cards) time.
    pub fn packet_positions(&self) -> Vec<(usize, core::ops::Range<usize>)> {
        let mut top = 0;
        self.packets
            .iter()
            .map(|&(pile, count)| {
                top += count;
                (pile, top - count..top)
            })
            .collect()
    }

    /// The inverse of [`DealPlan::deal`]: the deck order (top first) that
    /// deals into `deal`'s piles and stock. O(cards) time.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDeal`] if the piles do not have the plan's sizes.
    pub fn undeal(&self, deal: &Deal) -> Result<Vec<Card>, Error> {
        let mut next = vec![0usize; self.piles.len()];
        let mut deck = Vec::with_capacity(self.cards_needed() + deal.stock.len());
        for (pile, range) in self.packet_positions() {
            let cards = deal.piles.get(pile).map_or(&[][..], |p| &p.cards[..]);
            let taken = cards.get(next[pile]..next[pile] + range.len());
            deck.extend_from_slice(taken.ok_or_else(|| {
                Error::InvalidDeal(format!("pile {} is too short for the plan", pile + 1))
            })?);
            next[pile] += range.len();
        }
        if deal.piles.len() != self.piles.len()
            || deal
                .piles
                .iter()
                .zip(&next)
                .any(|(p, &n)| p.cards.len() != n)
        {
            return Err(Error::InvalidDeal("the piles do not match the plan".into()));
        }
        deck.extend_from_slice(&deal.stock);
        Ok(deck)
    }

    /// Deals from `deck` (top = index 0) following the plan.
    ///
    /// # Errors
    ///
    /// [`Error::NotEnoughCards`] if the deck is shorter than the plan needs.
    pub fn deal(&self, deck: &[Card]) -> Result<Deal, Error> {
        let needed = self.cards_needed();
        if needed > deck.len() {
            return Err(Error::NotEnoughCards {
                needed,
                available: deck.len(),
            });
        }
        let mut piles: Vec<Pile> = self
            .piles
            .iter()
            .map(|(name, role)| Pile {
                name: name.clone(),
                role: *role,
                cards: Vec::new(),
            })
            .collect();
        let mut top = 0;
        for &(pile, count) in &self.packets {
            piles[pile].cards.extend_from_slice(&deck[top..top + count]);
            top += count;
        }
        Ok(Deal {
            piles,
            stock: deck[top..].to_vec(),
        })
    }

    /// Shuffles a fresh deck of `kind` with the production shuffle and deals it.
    ///
    /// O(n) for a deck of n cards. Reproducible: the same dice answers give
    /// the same deal.
    ///
    /// # Errors
    ///
    /// [`Error::NotEnoughCards`] if the deck is shorter than the plan needs
    /// (checked before any roll).
    pub fn shuffle_and_deal<D: Dice + ?Sized>(
        &self,
        kind: DeckKind,
        dice: &mut D,
    ) -> Result<Deal, Error> {
        let (needed, available) = (self.cards_needed(), kind.len());
        if needed > available {
            return Err(Error::NotEnoughCards { needed, available });
        }
        let mut deck = kind.cards();
        shuffle(&mut deck, dice);
        self.deal(&deck)
    }
}

#[cfg(test)]
mod tests;
