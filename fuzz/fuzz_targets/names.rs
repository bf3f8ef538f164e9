//! Names users type: decks (`shoe:6`), games, algorithms, generators.
//! Never a panic; a parsed name prints back to one that parses the same.
#![no_main]

use fairdeck::algorithms::Algorithm;
use fairdeck::cards::{DealPlan, DeckKind, Game};
use fairdeck::rng::Generator;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(deck) = text.parse::<DeckKind>() {
        assert_eq!(deck.to_string().parse::<DeckKind>().ok(), Some(deck));
        assert!(deck.len() <= DeckKind::MAX_LEN);
    }
    if let Ok(game) = text.parse::<Game>() {
        assert_eq!(game.name().parse::<Game>().ok(), Some(game));
        let (range, default) = game.players();
        assert!(range.contains(&default));
        assert!(game.plan(None).is_ok());
    }
    if let Ok(alg) = text.parse::<Algorithm>() {
        assert_eq!(alg.name().parse::<Algorithm>().ok(), Some(alg));
    }
    if let Ok(generator) = text.parse::<Generator>() {
        assert_eq!(generator.name().parse::<Generator>().ok(), Some(generator));
    }
    // Two numbers from the input as --players and --cards: refused or
    // planned, never a huge allocation.
    if data.len() >= 16 {
        let word = |b: &[u8]| usize::from_le_bytes(b[..8].try_into().unwrap_or([0; 8]));
        let (players, cards) = (word(&data[..8]), word(&data[8..16]));
        if let Ok(plan) = DealPlan::round_robin_in(DeckKind::Standard, players, cards) {
            assert!(plan.cards_needed() <= 52);
        }
    }
});
