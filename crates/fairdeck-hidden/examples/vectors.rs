//! Prints the test vectors of `docs/hidden-dealing.md` §13; the crate's
//! tests check that the spec holds exactly this text.
//!
//! `cargo run -p fairdeck-hidden --example vectors`

use chacha20::ChaCha20Rng;
use fairdeck::fair::Manifest;
use fairdeck_hidden::elgamal::{Deck, PublishedDeck};
use fairdeck_hidden::group::{chain_generator, encode_point, generator, random_scalar};
use fairdeck_hidden::keys::{self, SecretKey};
use fairdeck_hidden::shuffle::{apply, draw_permutation};
use fairdeck_hidden::shuffle_proof::{self, Statement, Witness};
use fairdeck_hidden::{Table, dleq};
use rand_core::SeedableRng;

fn main() {
    print!("{}", vectors());
}

/// The vectors as the spec prints them (a fenced block per vector).
pub fn vectors() -> String {
    let mut rng = ChaCha20Rng::from_seed([7; 32]);
    let manifest = Manifest {
        version: 3,
        table: "vector-table".into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: vec!["ann".into(), "bob".into()],
        first: 1,
        last: 1,
    };
    let table = Table::new(manifest.clone()).expect("the vector manifest is valid");
    let mut out = String::new();
    let mut block = |title: &str, body: String| {
        out.push_str(&format!("### {title}\n\n```\n{body}\n```\n\n"));
    };
    block("Manifest", serde_json::to_string(&manifest).unwrap());
    block("M (hex)", hex(table.manifest_bytes()));
    let points = [
        (
            "P_AS",
            encode_point(&fairdeck_hidden::group::card_point("AS")),
        ),
        (
            "P_TH",
            encode_point(&fairdeck_hidden::group::card_point("TH")),
        ),
        ("h_0", encode_point(&generator(0))),
        ("h_51", encode_point(&generator(51))),
        ("H", encode_point(&chain_generator())),
    ];
    let lines: Vec<String> = points.iter().map(|(n, p)| format!("{n:<5} {p}")).collect();
    block("Card points and generators", lines.join("\n"));
    let sk = [SecretKey::generate(&mut rng), SecretKey::generate(&mut rng)];
    let msgs = [
        keys::key_message(&table, 0, &sk[0], &mut rng).unwrap(),
        keys::key_message(&table, 1, &sk[1], &mut rng).unwrap(),
    ];
    let (seat_keys, joint) = keys::joint_key(&table, &msgs).unwrap();
    let secret_lines = format!(
        "sk_0  {}\nsk_1  {}\nPK    {}",
        hex(&sk[0].to_bytes()[..]),
        hex(&sk[1].to_bytes()[..]),
        encode_point(&joint.0)
    );
    block(
        "Seat keys (sk drawn first, then the two key proofs)",
        secret_lines,
    );
    block("Key message of seat 0", pretty(&msgs[0]));
    block("Key message of seat 1", pretty(&msgs[1]));
    // A 4-card shuffle by seat 0 of hand 1: the first four cards of the starting deck.
    let input = PublishedDeck::from_deck(Deck(table.starting_deck().0[..4].to_vec()));
    let w = Witness {
        permutation: draw_permutation(4, &mut rng),
        rho: (0..4).map(|_| random_scalar(&mut rng)).collect(),
    };
    let output = PublishedDeck::from_deck(apply(&input.deck, &joint, &w));
    let st = Statement {
        table: &table,
        hand: 1,
        seat: 0,
        key: &joint,
        input: &input,
        output: &output,
    };
    let proof = shuffle_proof::prove(&st, &w, &mut rng);
    assert_eq!(shuffle_proof::verify(&st, &proof), Ok(()));
    let perm: Vec<String> = w.permutation.iter().map(usize::to_string).collect();
    block(
        "4-card shuffle: π (output i holds input π(i))",
        perm.join(" "),
    );
    block("4-card shuffle: output deck", pretty(&output.wire));
    block("4-card shuffle: proof", pretty(&proof));
    let share = dleq::share_message(&table, 1, 1, 0, &sk[1], &output.deck.0[0], &mut rng).unwrap();
    assert!(dleq::verify_share(&table, &seat_keys[1], &output.deck.0[0], &share).is_ok());
    block(
        "Seat 1's share of position 0 of the shuffled 4 cards",
        pretty(&share),
    );
    out
}

fn pretty<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
