//! Deal numbers: D against the multinomial formula for every preset, the
//! bijection both ways, and exhaustive enumeration on small analogues.

use std::collections::BTreeMap;

use super::*;
use crate::dice::RngDice;
use crate::rng::{Generator, Seed};
use crate::shuffle::shuffle;
use crate::testing::orders;

/// n! as a big number, written out independently of `multinomial`.
fn fact(n: u64) -> BigUint {
    (1..=n).map(BigUint::from).product()
}

/// n! / ∏ gᵢ! by plain factorials.
fn formula(n: u64, groups: &[u64]) -> BigUint {
    fact(n) / groups.iter().map(|&g| fact(g)).product::<BigUint>()
}

fn shape(game: Game, players: usize) -> DealShape {
    let plan = game.plan(Some(players)).unwrap();
    DealShape::for_game(Some(game), &plan, game.deck()).unwrap()
}

#[test]
fn every_preset_counts_the_multinomial() {
    for game in Game::ALL {
        let (range, _) = game.players();
        for p in range {
            let p64 = p as u64;
            let expected = match game {
                // Four unordered hands of 13.
                Game::Bridge => formula(52, &[13; 4]),
                // Hole cards unordered; flop unordered, turn, river; the 3
                // burns and the rest unseen, one unordered pile.
                Game::Holdem => {
                    let mut g = vec![2; p];
                    g.extend([3, 1, 1, 52 - 2 * p64 - 5]);
                    formula(52, &g)
                }
                // Hands unordered; the stock in order (later draws).
                Game::Draw => formula(52, &vec![5; p]),
                Game::Skat => formula(32, &[10, 10, 10, 2]),
                // Hands, then 4 on the table; the stock in order.
                Game::Scopa => {
                    let mut g = vec![3; p];
                    g.push(4);
                    formula(40, &g)
                }
            };
            assert_eq!(shape(game, p).count(), expected, "{game} × {p}");
        }
    }
    assert!((shape(Game::Bridge, 4).bits() - 95.437).abs() < 0.001);
    assert_eq!(shape(Game::Bridge, 4).formula(), "52!/(13!)^4");
    assert_eq!(shape(Game::Holdem, 6).formula(), "52!/((2!)^6·3!·35!)");
    assert_eq!(shape(Game::Draw, 4).formula(), "52!/(5!)^4");
    assert!((shape(Game::Holdem, 6).bits() - 84.072).abs() < 0.001);
}

#[test]
fn numbers_and_deals_invert_each_other_for_every_preset() {
    let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("deal numbers")));
    for game in Game::ALL {
        let (_, p) = game.players();
        let plan = game.plan(Some(p)).unwrap();
        let shape = shape(game, p);
        let d = shape.count();
        // number → deal → number, at both ends and in between.
        let one = BigUint::from(1u8);
        for n in [BigUint::from(0u8), one.clone(), &d / 3u8, &d - &one] {
            let deck = shape.deck(&n).unwrap();
            assert_eq!(shape.number(&deck).unwrap(), n, "{game} {n}");
        }
        // deal → number → deal: the same hands (as sets) and board packets.
        for _ in 0..200 {
            let mut deck = game.deck().cards();
            shuffle(&mut deck, &mut dice);
            let n = shape.number(&deck).unwrap();
            assert!(n < d);
            let back = shape.deck(&n).unwrap();
            assert_eq!(
                same_groups(&shape, &deck),
                same_groups(&shape, &back),
                "{game}"
            );
            let deal = plan.deal(&back).unwrap();
            assert_eq!(plan.undeal(&deal).unwrap(), back);
        }
    }
}

/// The cards of each group as a sorted list: what a deal number keeps.
fn same_groups(shape: &DealShape, deck: &[Card]) -> BTreeMap<usize, Vec<Card>> {
    let mut groups: BTreeMap<usize, Vec<Card>> = BTreeMap::new();
    for (&g, &c) in shape.group_of.iter().zip(deck) {
        groups.entry(g).or_default().push(c);
    }
    groups.values_mut().for_each(|v| v.sort());
    groups
}

#[test]
fn eight_cards_in_four_hands_of_two_exhaustively() {
    // Every one of the 8! orders of a small deck dealt round the table:
    // each of the 8!/(2!)⁴ = 2520 numbers must come from exactly 2!⁴ = 16
    // orders, and the numbers must be exactly 0..2520.
    let cards = DeckKind::Standard.cards()[..8].to_vec();
    let shape = DealShape::new(cards.clone(), (0..8).map(|p| p % 4).collect()).unwrap();
    assert_eq!(shape.count(), 2520u32.into());
    let mut hits: BTreeMap<BigUint, u64> = BTreeMap::new();
    for (order, paths) in orders(8, shuffle) {
        let deck: Vec<Card> = order.iter().map(|&i| cards[i]).collect();
        *hits.entry(shape.number(&deck).unwrap()).or_default() += paths;
    }
    assert_eq!(hits.len(), 2520);
    assert!(hits.values().all(|&h| h == 16));
    let last = hits.keys().next_back().unwrap();
    assert_eq!(*last, 2519u32.into());
}

#[test]
fn a_small_shoe_counts_identical_cards_once() {
    // Two copies each of three cards: 6!/(2!)³ = 90 distinguishable orders,
    // each reached by exactly 8 of the 720 orders of labelled cards.
    let ah: Card = "AH".parse().unwrap();
    let kh: Card = "KH".parse().unwrap();
    let qs: Card = "QS".parse().unwrap();
    let cards = vec![ah, ah, kh, kh, qs, qs];
    let shape = DealShape::new(cards.clone(), vec![0; 6]).unwrap();
    assert_eq!(shape.count(), 90u32.into());
    let mut hits: BTreeMap<BigUint, u64> = BTreeMap::new();
    for (order, paths) in orders(6, shuffle) {
        let deck: Vec<Card> = order.iter().map(|&i| cards[i]).collect();
        let n = shape.number(&deck).unwrap();
        assert_eq!(shape.deck(&n).unwrap(), deck);
        *hits.entry(n).or_default() += paths;
    }
    assert_eq!(hits.len(), 90);
    assert!(hits.values().all(|&h| h == 8));
}

#[test]
fn a_six_deck_shoe_needs_fewer_bits_than_312_factorial() {
    let plan = DealPlan::round_robin(7, 2).unwrap();
    let shape = DealShape::for_game(None, &plan, DeckKind::Shoe(6)).unwrap();
    let expected = fact(312) / fact(6).pow(52);
    assert_eq!(shape.count(), expected);
    assert!((shape.bits() - DeckKind::Shoe(6).entropy_bits()).abs() < 1e-6);
    assert!(shape.bits() < log2(&fact(312)) - 400.0);
    assert!(shape.keeps_order());
}

#[test]
fn bad_numbers_and_decks_are_errors() {
    let s = shape(Game::Bridge, 4);
    assert!(s.deck(&s.count()).is_err());
    let mut deck = DeckKind::Standard.cards();
    deck[0] = deck[1];
    assert!(s.number(&deck).is_err());
    assert!(s.number(&deck[..51]).is_err());
    assert!(DealShape::new(vec![], vec![1]).is_err());
    assert!(DealShape::new(deck[..2].to_vec(), vec![0, 2]).is_err());
}
