//! Exactness of the physical-randomness dice, proven by enumeration.

use std::collections::BTreeMap;

use super::*;
use crate::dice::RngDice;
use crate::rng::{Generator, Seed};
use crate::shuffle::shuffle;

/// Every symbol sequence of length `len` in base `b`, in turn.
fn all_sequences(b: u8, len: usize) -> impl Iterator<Item = Vec<u8>> {
    let total = u64::from(b).pow(len as u32);
    (0..total).map(move |mut code| {
        (0..len)
            .map(|_| {
                let s = (code % u64::from(b)) as u8;
                code /= u64::from(b);
                s
            })
            .collect()
    })
}

/// Runs `f` on every symbol sequence of length `len`. Each sequence has
/// probability b^−len. Returns the outcome counts of the sequences on which
/// `f` finished, and how many sequences ran out of symbols first.
fn enumerate<T: Ord>(
    kind: SymbolKind,
    len: usize,
    mut f: impl FnMut(&mut SymbolDice<std::vec::IntoIter<Result<u8, Error>>>) -> T,
) -> (BTreeMap<T, u64>, u64) {
    let (mut counts, mut unfinished) = (BTreeMap::new(), 0);
    for seq in all_sequences(kind.base() as u8, len) {
        let symbols: Vec<Result<u8, Error>> = seq.into_iter().map(Ok).collect();
        let mut dice = SymbolDice::new(kind, symbols.into_iter());
        let out = f(&mut dice);
        match dice.error() {
            None => *counts.entry(out).or_insert(0) += 1,
            Some(Error::EntropyExhausted { .. }) => unfinished += 1,
            Some(e) => panic!("unexpected {e}"),
        }
    }
    (counts, unfinished)
}

#[test]
fn dice_roll_shuffle_is_exactly_uniform_for_small_decks() {
    // Every sequence of `len` symbols is equally likely. Among those on which
    // the shuffle finished, every one of the n! orders must be produced by
    // exactly the same number of sequences; the rest (the unfinished mass,
    // which asks for more symbols) is counted, and the two add up to b^len.
    for (kind, len) in [
        (SymbolKind::Coin, 14),
        (SymbolKind::D6, 6),
        (SymbolKind::Hex, 4),
    ] {
        for n in 1..=5u64 {
            let (counts, unfinished) = enumerate(kind, len, |dice| {
                let mut deck: Vec<u64> = (0..n).collect();
                if dice.reserve(&factorial(n)).is_ok() {
                    shuffle(&mut deck, dice);
                }
                deck
            });
            let per_order = *counts.values().next().unwrap();
            assert!(
                counts.values().all(|&c| c == per_order),
                "{kind:?} n={n}: {counts:?}"
            );
            assert_eq!(
                counts.len() as u64,
                (1..=n).product::<u64>(),
                "{kind:?} n={n}"
            );
            let total = u64::from(kind.base()).pow(len as u32);
            assert_eq!(per_order * counts.len() as u64 + unfinished, total);
            // The unfinished mass shrinks geometrically with len: here it is
            // at most 1/64 of all sequences for every case above.
            assert!(
                unfinished * 64 <= total,
                "{kind:?} n={n}: {unfinished}/{total}"
            );
        }
    }
}

#[test]
fn dice_roll_shuffle_without_reserve_is_still_exact() {
    // Bounds that do not divide a planned product (3, 5, 7 from coin flips):
    // the per-draw rejection alone keeps the joint answer uniform over 105.
    let (counts, unfinished) = enumerate(SymbolKind::Coin, 15, |dice| {
        (dice.roll(3), dice.roll(5), dice.roll(7))
    });
    assert_eq!(counts.len(), 105);
    let per = *counts.values().next().unwrap();
    assert!(counts.values().all(|&c| c == per));
    assert_eq!(per * 105 + unfinished, 1 << 15);
}

#[test]
fn a_biased_reading_is_caught_by_the_same_enumeration() {
    // Negative control: two d6 rolls read as a number below 36, reduced
    // "mod 24" to pick one of 4! orders without rejection. The harness above
    // must see unequal counts (12 orders twice, 12 once).
    let (counts, unfinished) = enumerate(SymbolKind::D6, 2, |dice| dice.roll(36) % 24);
    assert_eq!((counts.len(), unfinished), (24, 0));
    assert_eq!(counts.values().filter(|&&c| c == 2).count(), 12);
    assert_eq!(counts.values().filter(|&&c| c == 1).count(), 12);
}

#[test]
fn a_52_card_deck_takes_about_log6_52_factorial_rolls() {
    let product = factorial(52);
    assert_eq!(SymbolKind::D6.symbols_needed(&product), 88);
    assert!((SymbolKind::D6.symbols_exact(&product) - 87.27).abs() < 0.01);
    assert_eq!(SymbolKind::Coin.symbols_needed(&product), 226);
    assert_eq!(SymbolKind::Hex.symbols_needed(&product), 57);
    // Rolls from a seeded generator: 2 000 decks.
    let mut source = RngDice::new(Generator::ChaCha20.build(&Seed::parse("d6 rolls")));
    let mut total = 0;
    for _ in 0..2000 {
        let rolls: Vec<Result<u8, Error>> = (0..120).map(|_| Ok(source.roll(6) as u8)).collect();
        let mut dice = SymbolDice::new(SymbolKind::D6, rolls.into_iter());
        dice.reserve(&product).unwrap();
        let mut deck: Vec<u32> = (0..52).collect();
        shuffle(&mut deck, &mut dice);
        assert!(dice.error().is_none());
        assert!(dice.symbols_used() >= 88);
        total += dice.symbols_used();
    }
    // Expected 88 + P(reject)·(1 + …) ≈ 88.2 rolls; the bound 88.4 is
    // about 8 standard errors away (fixed seed: deterministic anyway).
    let mean = total as f64 / 2000.0;
    assert!(mean < 88.4, "mean rolls {mean}");
}

#[test]
fn running_out_and_bad_symbols_are_reported() {
    let short = SymbolKind::D6.parse_text("1 2 3 4 5 6");
    let mut dice = SymbolDice::new(SymbolKind::D6, short.into_iter());
    assert_eq!(
        dice.reserve(&factorial(52)),
        Err(Error::EntropyExhausted { used: 6 })
    );
    assert!(dice.exhausted());
    assert_eq!(dice.roll(10), 0);

    let input = std::io::Cursor::new("123456\n12x4\n");
    let mut prompts = Vec::new();
    let reader = SymbolReader::new(input, SymbolKind::D6, |n| prompts.push(n));
    let mut dice = SymbolDice::new(SymbolKind::D6, reader);
    let err = dice.reserve(&factorial(52)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid symbol: line 2: 'x' is not a d6 roll (write the faces 1-6)"
    );
    drop(dice);
    assert_eq!(prompts, vec![0, 6]);
}

#[test]
fn symbols_parse() {
    let ok = |k: SymbolKind, t: &str| -> Vec<u8> {
        k.parse_text(t).into_iter().map(Result::unwrap).collect()
    };
    assert_eq!(ok(SymbolKind::D6, "1 6,3-4"), vec![0, 5, 2, 3]);
    assert_eq!(ok(SymbolKind::Coin, "HtT1 0h"), vec![1, 0, 0, 1, 0, 1]);
    assert_eq!(ok(SymbolKind::Hex, "0aF9"), vec![0, 10, 15, 9]);
    assert!(SymbolKind::D6.parse_text("0")[0].is_err());
    assert!(SymbolKind::Coin.parse_text("x")[0].is_err());
    assert!(SymbolKind::Hex.parse_text("g")[0].is_err());
}

#[test]
fn a_deal_number_from_d6_rolls_is_exactly_uniform() {
    // The small analogue of a bridge deal: 8 cards in 4 hands of 2, so
    // D = 8!/(2!)⁴ = 2520 deals and ⌈log6 2520⌉ = 5 rolls. Every sequence
    // of 6 rolls is equally likely; among those on which the draw finished,
    // every one of the 2520 deals must come from the same number of
    // sequences (and the deal number must survive the trip to a deck and
    // back); the unfinished ones are counted and the two add up to 6^6.
    use crate::cards::{DealShape, DeckKind};
    let cards = DeckKind::Standard.cards()[..8].to_vec();
    let shape = DealShape::new(cards, (0..8).map(|p| p % 4).collect()).unwrap();
    let d = shape.count();
    assert_eq!(SymbolKind::D6.symbols_needed(&d), 5);
    let (counts, unfinished) = enumerate(SymbolKind::D6, 6, |dice| {
        let n = dice.draw_below(&d).unwrap_or_default();
        let deck = shape.deck(&n).unwrap();
        assert_eq!(shape.number(&deck).unwrap(), n);
        n
    });
    assert_eq!(counts.len(), 2520);
    let per = *counts.values().next().unwrap();
    assert!(counts.values().all(|&c| c == per), "{counts:?}");
    assert_eq!(per * 2520 + unfinished, 6u64.pow(6));
    // 6^5 = 3·2520 + 216: a draw goes on only from the 216 leftover values,
    // and a sixth roll finishes all but 1296 of the 46656 sequences (1/36).
    assert_eq!(unfinished, 1296);
}

#[test]
fn a_deal_number_read_without_rejection_is_caught() {
    // Negative control: read 5 rolls as a number below 6^5 = 7776 and take
    // it "mod 2520" with no rejection. The same enumeration must see two
    // different counts (7776 = 3·2520 + 216: 216 deals four times, the
    // rest three times).
    let d = 2520u64;
    let (counts, unfinished) = enumerate(SymbolKind::D6, 5, |dice| dice.roll(7776) % d);
    assert_eq!((counts.len(), unfinished), (2520, 0));
    assert_eq!(counts.values().filter(|&&c| c == 4).count(), 216);
    assert_eq!(counts.values().filter(|&&c| c == 3).count(), 2520 - 216);
}

#[test]
fn a_bridge_deal_takes_about_37_d6_rolls() {
    use crate::cards::{DealShape, DeckKind, Game};
    let plan = Game::Bridge.plan(None).unwrap();
    let d = DealShape::for_game(Some(Game::Bridge), &plan, DeckKind::Standard)
        .unwrap()
        .count();
    assert_eq!(SymbolKind::D6.symbols_needed(&d), 37);
    assert!((SymbolKind::D6.symbols_exact(&d) - 36.92).abs() < 0.01);
    assert_eq!(SymbolKind::Coin.symbols_needed(&d), 96);
}

/// Issue 15: a line without end (`--entropy dice < /dev/zero`) used to be
/// read into memory whole; lines are capped at MAX_LINE_BYTES.
#[test]
fn an_endless_line_is_refused_after_the_line_limit() {
    let endless = std::io::Read::take(std::io::repeat(b'1'), 1 << 30);
    let reader = SymbolReader::new(std::io::BufReader::new(endless), SymbolKind::D6, |_| {});
    let mut dice = SymbolDice::new(SymbolKind::D6, reader);
    let err = dice.reserve(&factorial(52)).unwrap_err();
    assert!(err.to_string().contains("longer than 64 KiB"), "{err}");
}
