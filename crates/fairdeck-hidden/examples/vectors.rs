//! Prints the test vectors of `docs/hidden-dealing.md` §13 and §20, and of
//! `docs/hidden-dealing-v3.2.md` §30; the crate's tests check that the
//! specs hold exactly this text.
//!
//! `cargo run -p fairdeck-hidden --example vectors`

use chacha20::ChaCha20Rng;
use fairdeck_fair::Manifest;
use fairdeck_hidden::elgamal::{Deck, KeyTable, PublishedDeck};
use fairdeck_hidden::group::{chain_generator, encode_point, generator, random_scalar};
use fairdeck_hidden::keys::{self, SecretKey};
use fairdeck_hidden::shuffle::{apply, draw_permutation};
use fairdeck_hidden::shuffle_proof::{self, Statement, Witness};
use fairdeck_hidden::{Table, dleq};
use rand_core::SeedableRng;

#[path = "vectors/v32.rs"]
mod v32;
pub use v32::vectors_32;

fn main() {
    print!("{}", vectors());
    print!("{}", vectors_31());
    print!("{}", vectors_32());
}

/// The manifest of both sets of vectors: hold'em, ann and bob, hand 1.
fn vector_manifest() -> Manifest {
    Manifest {
        version: 3,
        table: "vector-table".into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: vec!["ann".into(), "bob".into()],
        first: 1,
        last: 1,
    }
}

/// The vectors as the spec prints them (a fenced block per vector).
pub fn vectors() -> String {
    let mut rng = ChaCha20Rng::from_seed([7; 32]);
    let manifest = vector_manifest();
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

/// The version-3.1 vectors of §20: the same table with a room, its
/// ChaCha20 generator keyed with 32 bytes of `0x31`, drawn in the order
/// listed (the two seat keys, the room key, then each nonce).
pub fn vectors_31() -> String {
    use fairdeck_hidden::ledger::{
        Attestation, attest, heads, key_digest, receipt, share_digest, sign_log, void_digest,
    };
    use fairdeck_hidden::record::{Missing, Void};
    use fairdeck_hidden::signature::{Context, sign_seat};
    let mut rng = ChaCha20Rng::from_seed([0x31; 32]);
    let manifest = vector_manifest();
    let table = Table::new(manifest).expect("the vector manifest is valid");
    let mut out = String::new();
    let mut block = |title: &str, body: String| {
        out.push_str(&format!("### {title}\n\n```\n{body}\n```\n\n"));
    };
    let sk = [SecretKey::generate(&mut rng), SecretKey::generate(&mut rng)];
    let room = SecretKey::generate(&mut rng);
    let room_pk = encode_point(&room.public_key().0);
    let ctx = Context::new(&table, Some(&room_pk));
    block(
        "Keys: seats, room, context",
        format!(
            "sk_0     {}\nsk_1     {}\nsk_room  {}\nPK_room  {room_pk}\nC        {}",
            hex(&sk[0].to_bytes()[..]),
            hex(&sk[1].to_bytes()[..]),
            hex(&room.to_bytes()[..]),
            ctx.bytes
        ),
    );
    let mut key0 = keys::key_message(&table, 0, &sk[0], &mut rng).unwrap();
    let d_key0 = key_digest(&ctx, &key0);
    key0.signature = Some(sign_seat(&ctx, 0, &sk[0], &d_key0, &mut rng));
    block(
        "Seat 0's signed key message (key proof nonce, then the signature's)",
        pretty(&key0),
    );
    // Seat 1's share of position 0 as a deal share, of the starting deck's
    // first card re-encrypted under the joint key by a drawn factor.
    let joint = sk[0].public_key().0 + sk[1].public_key().0;
    let rho = random_scalar(&mut rng);
    let e = table.starting_deck().0[0].reencrypt(&KeyTable::new(&joint), &rho);
    let share = dleq::share_message(&table, 1, 1, 0, &sk[1], &e, &mut rng).unwrap();
    let d_share = share_digest(&ctx, "deal", &share);
    let void = Void {
        stage: "flop".into(),
        seat: 0,
        missing: vec![
            Missing::Share { position: 5 },
            Missing::Share { position: 6 },
        ],
    };
    let d_void = void_digest(&ctx, Some(1), &void);
    block(
        "Digests: seat 0's key, seat 1's deal share (ρ, then its nonce), a void",
        format!(
            "ciphertext  {}\nshare       {}\nd_key0      {d_key0}\nd_share     {d_share}\nd_void      {d_void}",
            serde_json::to_string(&e.to_wire()).unwrap(),
            serde_json::to_string(&share).unwrap()
        ),
    );
    let log = [d_key0, d_share, d_void];
    let hs = heads(&ctx, &log);
    let lines: Vec<String> = hs
        .iter()
        .enumerate()
        .map(|(i, h)| format!("h_{i}  {h}"))
        .collect();
    block(
        "Heads of the log [d_key0, d_share, d_void]",
        lines.join("\n"),
    );
    block(
        "The room's receipt for d_share (index 1)",
        pretty(&receipt(&ctx, &room, &log[..2], &mut rng)),
    );
    block(
        "The room's signed head of the whole log",
        pretty(&sign_log(&ctx, &room, &log, &mut rng)),
    );
    let a: Attestation = attest(&ctx, 1, &sk[1], &log, &mut rng);
    block("Seat 1's attestation of the whole log", pretty(&a));
    let fp = |k: &SecretKey| keys::fingerprint(&encode_point(&k.public_key().0));
    block(
        "Key fingerprints of PK_0 and PK_1",
        format!("fp_0  {}\nfp_1  {}", fp(&sk[0]), fp(&sk[1])),
    );
    out
}

fn pretty<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
