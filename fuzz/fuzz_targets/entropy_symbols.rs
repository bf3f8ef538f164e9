//! Physical randomness read as text (`fairdeck deal --entropy dice|coins|hex`):
//! never a panic; a shuffle either completes with a permutation or reports
//! why the symbols did not suffice.
#![no_main]

use fairdeck::dice::Dice;
use fairdeck::entropy::{SymbolDice, SymbolKind, SymbolReader};
use fairdeck::shuffle::shuffle;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let kind = match which % 3 {
        0 => SymbolKind::D6,
        1 => SymbolKind::Coin,
        _ => SymbolKind::Hex,
    };
    let reader = SymbolReader::new(rest, kind, |_| {});
    let mut dice = SymbolDice::new(kind, reader);
    let mut deck: Vec<u8> = (0..8).collect();
    shuffle(&mut deck, &mut dice);
    if dice.error().is_none() && !dice.exhausted() {
        let mut sorted = deck.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..8).collect::<Vec<u8>>());
    }
});
