//! Tests of deal plans and deals.

use super::*;
use crate::cards::Game;
use crate::dice::RngDice;
use crate::rng::{Generator, Seed};
use proptest::prelude::*;

fn conserved(deal: &Deal, kind: DeckKind) -> bool {
    let mut all: Vec<Card> = deal.piles.iter().flat_map(|p| p.cards.clone()).collect();
    all.extend(&deal.stock);
    all.sort();
    let mut fresh = kind.cards();
    fresh.sort();
    all == fresh
}

#[test]
fn presets_deal_the_documented_shapes() {
    let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("presets")));
    let shape = |game: Game, dice: &mut RngDice<_>| {
        let deal = game
            .plan(None)
            .unwrap()
            .shuffle_and_deal(game.deck(), dice)
            .unwrap();
        assert!(conserved(&deal, game.deck()), "{game}");
        let sizes: Vec<usize> = deal.piles.iter().map(|p| p.cards.len()).collect();
        (sizes, deal.stock.len())
    };
    assert_eq!(shape(Game::Bridge, &mut dice), (vec![13; 4], 0));
    assert_eq!(
        shape(Game::Holdem, &mut dice),
        (vec![2, 2, 2, 2, 2, 2, 5, 3], 52 - 20)
    );
    assert_eq!(shape(Game::Draw, &mut dice), (vec![5; 4], 32));
    assert_eq!(shape(Game::Skat, &mut dice), (vec![10, 10, 10, 2], 0));
    assert_eq!(shape(Game::Scopa, &mut dice), (vec![3, 3, 4], 30));
}

#[test]
fn dealing_order_follows_the_plan() {
    let deck = DeckKind::Standard.cards();
    let deal = Game::Bridge.plan(None).unwrap().deal(&deck).unwrap();
    assert_eq!(deal.piles[0].cards[..2], [deck[0], deck[4]]);
    assert_eq!(deal.piles[3].cards[0], deck[3]);
    let skat = Game::Skat
        .plan(None)
        .unwrap()
        .deal(&DeckKind::Piquet.cards())
        .unwrap();
    assert_eq!(
        skat.piles[3].cards,
        DeckKind::Piquet.cards()[9..11].to_vec()
    );
}

#[test]
fn bad_deals_are_errors() {
    assert!(DealPlan::round_robin(0, 5).is_err());
    assert!(DealPlan::round_robin(3, 0).is_err());
    assert!(Game::Bridge.plan(Some(3)).is_err());
    assert!(Game::Holdem.plan(Some(23)).is_err());
    let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("x")));
    let err = DealPlan::round_robin(5, 11)
        .unwrap()
        .shuffle_and_deal(DeckKind::Standard, &mut dice);
    assert_eq!(
        err,
        Err(Error::NotEnoughCards {
            needed: 55,
            available: 52
        })
    );
    assert!("tarot".parse::<Game>().is_err());
}

/// Issue 15: huge plans are refused before anything is allocated (the
/// first one used to overflow, the second to ask for 100 GB).
#[test]
fn huge_plans_are_refused_before_allocating() {
    let overflow = DealPlan::round_robin_in(DeckKind::Standard, usize::MAX, 2);
    assert!(matches!(overflow, Err(Error::InvalidDeal(_))));
    assert!(matches!(
        DealPlan::round_robin(usize::MAX, 2),
        Err(Error::InvalidDeal(_))
    ));
    assert_eq!(
        DealPlan::round_robin_in(DeckKind::Standard, 1 << 32, 1 << 31),
        Err(Error::NotEnoughCards {
            needed: 1 << 63,
            available: 52
        })
    );
    assert_eq!(
        DealPlan::round_robin(10_000_000, 1),
        Err(Error::NotEnoughCards {
            needed: 10_000_000,
            available: DeckKind::MAX_LEN
        })
    );
    assert!(DealPlan::round_robin_in(DeckKind::Shoe(1000), 1000, 52).is_ok());
}

proptest! {
    #[test]
    fn a_deal_conserves_the_deck(seed in any::<[u8; 32]>(), players in 1usize..8, each in 1usize..8) {
        let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::from_bytes(seed)));
        let deal = DealPlan::round_robin(players, each).unwrap()
            .shuffle_and_deal(DeckKind::Jokers, &mut dice).unwrap();
        prop_assert!(conserved(&deal, DeckKind::Jokers));
        prop_assert!(deal.piles.iter().all(|p| p.cards.len() == each));
    }
}
