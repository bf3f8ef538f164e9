//! Tests of the catalogue as a whole: names, entries, permutations, steps.

use super::*;
use crate::dice::RngDice;
use crate::rng::{Generator, Seed};
use proptest::prelude::*;

#[test]
fn names_round_trip_and_unknown_names_fail() {
    for alg in Algorithm::ALL {
        assert_eq!(alg.name().parse::<Algorithm>(), Ok(alg));
        assert_eq!(ENTRIES[alg as usize].name, alg.to_string());
    }
    assert_eq!(
        "Fisher_Yates".parse::<Algorithm>(),
        Ok(Algorithm::FisherYates)
    );
    assert_eq!(
        "bogo".parse::<Algorithm>(),
        Err(Error::UnknownAlgorithm("bogo".into()))
    );
}

#[test]
fn every_entry_is_filled_in() {
    for alg in Algorithm::ALL {
        assert!(!alg.sources().is_empty(), "{alg}");
        assert!(alg.description().len() > 80, "{alg}");
        assert!(alg.time().starts_with("O(") && alg.space().starts_with("O("));
    }
    let unbounded: Vec<_> = Algorithm::ALL
        .into_iter()
        .filter(|a| a.is_unbounded())
        .collect();
    assert_eq!(
        unbounded,
        [
            Algorithm::Rejection,
            Algorithm::RandomInsertionStopping,
            Algorithm::RandomTranspositions
        ]
    );
}

#[test]
fn tiny_decks_work_for_every_algorithm() {
    let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("tiny")));
    for alg in Algorithm::ALL {
        assert_eq!(alg.permute(0, &mut dice), Vec::<usize>::new(), "{alg}");
        assert_eq!(alg.permute(1, &mut dice), [0], "{alg}");
        let mut two = alg.permute(2, &mut dice);
        two.sort_unstable();
        assert_eq!(two, [0, 1], "{alg}");
    }
}

#[test]
fn steps_end_in_the_result_of_the_same_run() {
    for alg in Algorithm::ALL {
        let seed = Seed::parse("steps");
        let mut a = RngDice::new(Generator::ChaCha20.build(&seed));
        let mut b = RngDice::new(Generator::ChaCha20.build(&seed));
        let (order, steps) = alg.permute_with_steps(7, &Params::default(), &mut a);
        assert_eq!(
            order,
            alg.permute(7, &mut b),
            "{alg}: recording changed the run"
        );
        assert!(!steps.is_empty(), "{alg}");
    }
}

#[test]
fn deals_of_fewer_cards_return_just_the_hand() {
    let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("deal")));
    let params = Params {
        deal: Some(3),
        ..Params::default()
    };
    for alg in [Algorithm::KnuthDeal, Algorithm::HashDeal] {
        let hand = alg.permute_with(10, &params, &mut dice);
        assert_eq!(hand.len(), 3);
    }
}

/// A public generic function, instantiated for the property test.
type Generic = fn(&mut [char], &mut RngDice<crate::rng::AnyRng>);

proptest! {
    #[test]
    fn every_algorithm_returns_a_permutation(seed in any::<[u8; 32]>(), n in 0usize..60) {
        let mut dice = RngDice::new(Generator::Xoshiro256PlusPlus.build(&Seed::from_bytes(seed)));
        for alg in Algorithm::ALL {
            let mut order = alg.permute(n, &mut dice);
            order.sort_unstable();
            prop_assert_eq!(order, (0..n).collect::<Vec<_>>(), "{}", alg);
        }
    }

    #[test]
    fn generic_functions_agree_with_permute(seed in any::<[u8; 32]>(), n in 0usize..40) {
        // The public generic functions move items exactly as permute orders them.
        let fns: [(Algorithm, Generic); 5] = [
            (Algorithm::FisherYatesOriginal, |v, d| fisher_yates_original(v, d)),
            (Algorithm::FisherYatesList, |v, d| fisher_yates_list(v, d)),
            (Algorithm::Rejection, |v, d| rejection(v, d)),
            (Algorithm::SortKeysFast, |v, d| sort_keys_fast(v, d)),
            (Algorithm::NaiveSwap, |v, d| naive_swap(v, d)),
        ];
        let seed = Seed::from_bytes(seed);
        for (alg, f) in fns {
            let mut a = RngDice::new(Generator::ChaCha20.build(&seed));
            let mut b = RngDice::new(Generator::ChaCha20.build(&seed));
            let letters: Vec<char> = (0..n).map(|i| char::from_u32(0x4e00 + i as u32).unwrap()).collect();
            let mut moved = letters.clone();
            f(&mut moved, &mut a);
            let expected: Vec<char> = alg.permute(n, &mut b).into_iter().map(|i| letters[i]).collect();
            prop_assert_eq!(moved, expected, "{}", alg);
        }
    }
}
