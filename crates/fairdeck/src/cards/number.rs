//! Deal numbers: an exact bijection between the integers `[0, D)` and the
//! distinct deals of a game.
//!
//! A bridge deal does not need a deck order: only which hand holds which
//! card matters, so there are D = 52!/(13!)⁴ ≈ 5.36·10²⁸ distinct deals
//! (95.44 bits), not 52! (225.6 bits). A [`DealShape`] says what a game can
//! tell apart: deck positions fall into *groups* whose cards are unordered
//! within (a hand, the flop, the skat), while the groups themselves are told
//! apart (North's hand is not East's). Then D is the multinomial
//! n!/(g₁!·g₂!·…), and every deal has one number in `[0, D)`. Big Deal
//! (Hans van Staveren, 2000) also works with such deal numbers.
//!
//! The numbering ranks the sequence "which group each card of the unshuffled
//! deck goes to" among all such sequences (a multiset permutation) in
//! lexicographic order, by the standard counting walk: at each card, skip the
//! blocks of sequences that start with a smaller group. A deck with identical
//! cards (a shoe) is numbered by its distinguishable orders instead:
//! (52k)!/(k!)⁵², ranking the sequence of card faces.
//!
//! ```
//! use fairdeck::cards::{DealShape, DeckKind, Game};
//!
//! let shape = DealShape::for_game(Some(Game::Bridge), &Game::Bridge.plan(None)?, DeckKind::Standard)?;
//! assert_eq!(shape.count().to_string(), "53644737765488792839237440000");
//! assert!((shape.bits() - 95.44).abs() < 0.01);
//! let deck = shape.deck(&12345u32.into())?;          // the deal numbered 12345
//! assert_eq!(shape.number(&deck)?, 12345u32.into()); // and back
//! # Ok::<(), fairdeck::Error>(())
//! ```

use std::collections::HashMap;

use num_bigint::BigUint;

use super::{Card, DealPlan, DeckKind, Game, PileRole};
use crate::Error;
use crate::entropy::log2;

/// What a game tells apart in a deal, and the numbering of its deals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealShape {
    /// The unshuffled deck.
    cards: Vec<Card>,
    /// The group of each deck position (top = 0).
    group_of: Vec<usize>,
    /// How the deal is numbered.
    mode: Mode,
    /// Whether a stock's order is part of the deal (set by `for_game`).
    ordered_stock: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Mode {
    /// Distinct cards: the group of each card (in unshuffled order), among
    /// all sequences with these group sizes.
    Groups { sizes: Vec<u64> },
    /// Identical cards: the face at each position, among all orders of
    /// these face counts.
    Faces { faces: Vec<Card>, counts: Vec<u64> },
}

impl DealShape {
    /// A shape from the unshuffled `cards` and the group of each deck
    /// position. With identical cards among `cards` the groups are ignored
    /// and the deck's distinguishable orders are numbered.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDeal`] if the lengths differ or a group is empty.
    pub fn new(cards: Vec<Card>, group_of: Vec<usize>) -> Result<DealShape, Error> {
        if cards.len() != group_of.len() {
            return Err(Error::InvalidDeal("one group per deck position".into()));
        }
        let groups = group_of.iter().max().map_or(0, |&g| g + 1);
        let mut sizes = vec![0u64; groups];
        group_of.iter().for_each(|&g| sizes[g] += 1);
        if sizes.contains(&0) {
            return Err(Error::InvalidDeal(
                "groups must be numbered 0, 1, … without gaps".into(),
            ));
        }
        let mut faces = cards.clone();
        faces.sort();
        faces.dedup();
        let mode = if faces.len() == cards.len() {
            Mode::Groups { sizes }
        } else {
            let counts = faces
                .iter()
                .map(|f| cards.iter().filter(|c| *c == f).count() as u64)
                .collect();
            Mode::Faces { faces, counts }
        };
        Ok(DealShape {
            cards,
            group_of,
            mode,
            ordered_stock: false,
        })
    }

    /// The shape of a game's deal (or of a plain `plan` when `game` is
    /// `None`): each player's hand and the skat are one unordered group;
    /// each packet of community cards is one (the flop, the turn, the
    /// river); burns and a stock nobody sees (hold'em) are one group; a
    /// stock that players later draw from keeps its order (one group per
    /// card). O(n) time.
    ///
    /// # Errors
    ///
    /// [`Error::NotEnoughCards`] if the deck is shorter than the plan.
    pub fn for_game(game: Option<Game>, plan: &DealPlan, deck: DeckKind) -> Result<Self, Error> {
        let n = deck.len();
        let needed = plan.cards_needed();
        if needed > n {
            return Err(Error::NotEnoughCards {
                needed,
                available: n,
            });
        }
        let roles: Vec<PileRole> = plan.piles().map(|(_, r)| r).collect();
        let drawn = game.is_none_or(Game::stock_is_drawn);
        let mut groups = Groups::default();
        let mut group_of = Vec::with_capacity(n);
        for (pile, range) in plan.packet_positions() {
            let g = match roles[pile] {
                PileRole::Player | PileRole::Kitty => groups.named(pile),
                PileRole::Board => groups.fresh(),
                PileRole::Burn if !drawn => groups.unseen(),
                PileRole::Burn => groups.fresh(),
            };
            group_of.extend(range.map(|_| g));
        }
        for _ in needed..n {
            let g = if drawn {
                groups.fresh()
            } else {
                groups.unseen()
            };
            group_of.push(g);
        }
        let mut shape = DealShape::new(deck.cards(), group_of)?;
        shape.ordered_stock = drawn && n > needed;
        Ok(shape)
    }

    /// D: how many distinct deals there are. O(n²) word operations.
    pub fn count(&self) -> BigUint {
        multinomial(self.counts())
    }

    /// log2 D: the entropy a deal needs, in bits.
    pub fn bits(&self) -> f64 {
        log2(&self.count())
    }

    /// Whether the numbering counts an order beyond the unordered hands:
    /// a shoe's distinguishable orders, or a stock that is dealt later.
    pub fn keeps_order(&self) -> bool {
        self.ordered_stock || matches!(self.mode, Mode::Faces { .. })
    }

    /// D as a formula people can check: `52!/(13!)^4`, `312!/(6!)^52`,
    /// `52!/((2!)^6·3!·35!)` (groups of one card are left out).
    pub fn formula(&self) -> String {
        let mut factors: Vec<(u64, usize)> = Vec::new();
        for &c in self.counts().iter().filter(|&&c| c > 1) {
            match factors.iter_mut().find(|(s, _)| *s == c) {
                Some((_, k)) => *k += 1,
                None => factors.push((c, 1)),
            }
        }
        factors.sort_unstable();
        let parts: Vec<String> = factors
            .iter()
            .map(|&(s, k)| {
                if k > 1 {
                    format!("({s}!)^{k}")
                } else {
                    format!("{s}!")
                }
            })
            .collect();
        let n = self.cards.len();
        match parts.len() {
            0 => format!("{n}!"),
            1 => format!("{n}!/{}", parts[0]),
            _ => format!("{n}!/({})", parts.join("·")),
        }
    }

    fn counts(&self) -> &[u64] {
        match &self.mode {
            Mode::Groups { sizes } => sizes,
            Mode::Faces { counts, .. } => counts,
        }
    }

    /// The number of the deal that a shuffled deck (top first) deals.
    /// O(n) big-number steps (one product and one division per card).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDeal`] if `deck` is not a rearrangement of the
    /// shape's deck.
    pub fn number(&self, deck: &[Card]) -> Result<BigUint, Error> {
        let not_the_deck =
            || Error::InvalidDeal("the cards are not a rearrangement of the deck".into());
        if deck.len() != self.cards.len() {
            return Err(not_the_deck());
        }
        let sequence = match &self.mode {
            Mode::Groups { .. } => {
                let index: HashMap<Card, usize> = self
                    .cards
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| (c, i))
                    .collect();
                let mut labels = vec![usize::MAX; deck.len()];
                for (pos, card) in deck.iter().enumerate() {
                    let i = *index.get(card).ok_or_else(not_the_deck)?;
                    if labels[i] != usize::MAX {
                        return Err(not_the_deck());
                    }
                    labels[i] = self.group_of[pos];
                }
                labels
            }
            Mode::Faces { faces, .. } => deck
                .iter()
                .map(|c| faces.binary_search(c).map_err(|_| not_the_deck()))
                .collect::<Result<_, _>>()?,
        };
        rank(&sequence, self.counts()).ok_or_else(not_the_deck)
    }

    /// The deal numbered `number`, as a deck order (top first) that the
    /// plan deals into it: each group's cards in unshuffled-deck order.
    /// O(n·g) big-number steps.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDeal`] if `number` ≥ [`DealShape::count`].
    pub fn deck(&self, number: &BigUint) -> Result<Vec<Card>, Error> {
        let sequence = unrank(number, self.counts()).ok_or_else(|| {
            Error::InvalidDeal(format!(
                "deal number {number} is not below {}",
                self.count()
            ))
        })?;
        Ok(match &self.mode {
            Mode::Faces { faces, .. } => sequence.iter().map(|&f| faces[f]).collect(),
            Mode::Groups { sizes } => {
                let mut members: Vec<Vec<Card>> = sizes.iter().map(|_| Vec::new()).collect();
                for (card, &g) in self.cards.iter().zip(&sequence) {
                    members[g].push(*card);
                }
                let mut next = vec![0usize; sizes.len()];
                self.group_of
                    .iter()
                    .map(|&g| {
                        next[g] += 1;
                        members[g][next[g] - 1]
                    })
                    .collect()
            }
        })
    }
}

/// Group numbers handed out while walking a plan.
#[derive(Default)]
struct Groups {
    next: usize,
    piles: HashMap<usize, usize>,
    unseen: Option<usize>,
}

impl Groups {
    fn fresh(&mut self) -> usize {
        self.next += 1;
        self.next - 1
    }

    fn named(&mut self, pile: usize) -> usize {
        if let Some(&g) = self.piles.get(&pile) {
            return g;
        }
        let g = self.fresh();
        self.piles.insert(pile, g);
        g
    }

    fn unseen(&mut self) -> usize {
        match self.unseen {
            Some(g) => g,
            None => {
                let g = self.fresh();
                self.unseen = Some(g);
                g
            }
        }
    }
}

/// The multinomial coefficient (Σcᵢ)! / ∏ cᵢ!: the number of sequences
/// with `counts[t]` copies of each symbol t. O(n²) word operations.
///
/// ```
/// use fairdeck::cards::number::multinomial;
///
/// assert_eq!(multinomial(&[2, 2, 2, 2]), 2520u32.into()); // 8!/(2!)⁴
/// ```
pub fn multinomial(counts: &[u64]) -> BigUint {
    let mut result = BigUint::from(1u8);
    let mut total = 0u64;
    for &c in counts {
        for i in 1..=c {
            total += 1;
            // result·total/i stays whole: it is a product of binomials.
            result = result * total / i;
        }
    }
    result
}

/// The lexicographic rank of `sequence` among the sequences with these
/// symbol `counts`; `None` if its symbol counts differ.
fn rank(sequence: &[usize], counts: &[u64]) -> Option<BigUint> {
    let mut left = counts.to_vec();
    let mut block = multinomial(counts);
    let mut number = BigUint::from(0u8);
    for (done, &s) in sequence.iter().enumerate() {
        let remaining = (sequence.len() - done) as u64;
        // Σ block·c/remaining over the smaller symbols, in one product: each
        // term is a whole multinomial, so their sum is block·(Σ c)/remaining
        // exactly — one big-number product per card instead of one per symbol.
        let smaller: u64 = left[..s.min(left.len())].iter().sum();
        if smaller > 0 {
            number += &block * smaller / remaining;
        }
        let c = left.get_mut(s).filter(|c| **c > 0)?;
        block = block * *c / remaining;
        *c -= 1;
    }
    left.iter().all(|&c| c == 0).then_some(number)
}

/// The sequence of rank `number` (the inverse of [`rank`]); `None` if
/// `number` is not below the multinomial.
fn unrank(number: &BigUint, counts: &[u64]) -> Option<Vec<usize>> {
    let mut left = counts.to_vec();
    let mut block = multinomial(counts);
    if *number >= block {
        return None;
    }
    let mut rest = number.clone();
    let n: u64 = counts.iter().sum();
    let mut sequence = Vec::with_capacity(n as usize);
    for remaining in (1..=n).rev() {
        for (s, c) in left.iter_mut().enumerate() {
            let sub = &block * *c / remaining;
            if rest < sub {
                sequence.push(s);
                block = sub;
                *c -= 1;
                break;
            }
            rest -= sub;
        }
    }
    Some(sequence)
}

#[cfg(test)]
mod tests;
