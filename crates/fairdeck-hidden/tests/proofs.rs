//! Completeness and soundness of the shuffle proof on random instances.

mod fixture;

use fairdeck_hidden::elgamal::{Deck, KeyTable, PublishedDeck};
use fairdeck_hidden::group::random_scalar;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::shuffle::{apply, draw_permutation};
use fairdeck_hidden::shuffle_proof::{self, ShuffleProof, Statement, Witness};
use fairdeck_hidden::wire::Hex32;
use fairdeck_hidden::{Error, Table};
use fixture::{manifest, rng};
use proptest::prelude::*;

/// A random statement of `n` cards: input = re-encrypted first `n` cards.
fn instance(
    table: &Table,
    n: usize,
    seed: u8,
) -> (SecretKey, PublishedDeck, PublishedDeck, Witness) {
    let mut rng = rng(seed);
    let sk = SecretKey::generate(&mut rng);
    let pk = sk.public_key();
    let kt = KeyTable::new(&pk.0);
    let start = table.starting_deck().0;
    let input = Deck(
        start[..n]
            .iter()
            .map(|e| e.reencrypt(&kt, &random_scalar(&mut rng)))
            .collect(),
    );
    let w = Witness {
        permutation: draw_permutation(n, &mut rng),
        rho: (0..n).map(|_| random_scalar(&mut rng)).collect(),
    };
    let output = PublishedDeck::from_deck(apply(&input, &pk, &w));
    (sk, PublishedDeck::from_deck(input), output, w)
}

fn table() -> Table {
    Table::new(manifest("proofs", 2)).unwrap()
}

/// Every 32-byte field of a proof, to tamper with one of them.
fn fields(p: &mut ShuffleProof) -> Vec<&mut Hex32> {
    let mut all: Vec<&mut Hex32> = vec![&mut p.t1, &mut p.t2, &mut p.t3, &mut p.t4a, &mut p.t4b];
    all.extend([&mut p.s1, &mut p.s2, &mut p.s3, &mut p.s4]);
    for list in [
        &mut p.commitments,
        &mut p.chain,
        &mut p.t_hat,
        &mut p.s_hat,
        &mut p.s_prime,
    ] {
        all.extend(list.iter_mut());
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn honest_proofs_verify(n in 1usize..=52, seed in any::<u8>()) {
        let table = table();
        let (sk, input, output, w) = instance(&table, n, seed);
        let key = sk.public_key();
        let st = Statement { table: &table, hand: 1, seat: 0, key: &key, input: &input, output: &output };
        let proof = shuffle_proof::prove(&st, &w, &mut rng(seed ^ 0x55));
        prop_assert_eq!(shuffle_proof::verify(&st, &proof), Ok(()));
    }

    #[test]
    fn any_changed_field_is_refused(n in 1usize..=52, seed in any::<u8>(), pick in any::<usize>(), bit in 0usize..8) {
        let table = table();
        let (sk, input, output, w) = instance(&table, n, seed);
        let key = sk.public_key();
        let st = Statement { table: &table, hand: 1, seat: 0, key: &key, input: &input, output: &output };
        let mut proof = shuffle_proof::prove(&st, &w, &mut rng(seed ^ 0x55));
        let mut all = fields(&mut proof);
        let k = pick % all.len();
        all[k].0[0] ^= 1 << bit;
        let err = shuffle_proof::verify(&st, &proof).unwrap_err();
        prop_assert!(
            matches!(err, Error::ShuffleProof(..) | Error::PointEncoding | Error::ScalarEncoding),
            "{:?}", err
        );
    }
}
