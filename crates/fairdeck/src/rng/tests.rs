use super::*;
use rand_core::Rng;

#[test]
fn hex_and_text_seeds() {
    let hex = "00112233445566778899aabbccddeeff00112233445566778899AABBCCDDEEFF";
    let s = Seed::parse(hex);
    assert_eq!(s.to_hex(), hex.to_ascii_lowercase());
    // SHA-256("abc"), FIPS 180-2 test vector.
    assert_eq!(
        Seed::parse("abc").to_hex(),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    // 63 or 65 hex digits are text, not keys.
    assert_eq!(Seed::parse(&hex[1..]), Seed::from_text(&hex[1..]));
    assert!(Seed::from_hex(&hex[1..]).is_err());
    assert!(Seed::from_hex(&format!("{}g", &hex[1..])).is_err());
}

/// Issue 26 item 18: a key pasted with whitespace around it was hashed
/// as text (another deal); it is the key. Other text stays as written.
#[test]
fn whitespace_around_a_hex_key_is_ignored() {
    let hex = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    for padded in [
        format!("{hex} "),
        format!(" {hex}"),
        format!("\t{hex}\n"),
        format!("{hex}\r\n"),
    ] {
        assert_eq!(Seed::parse(&padded).to_hex(), hex, "{padded:?}");
        assert_eq!(seed_text_bits(&padded), 256.0);
    }
    assert_eq!(Seed::parse("abc "), Seed::from_text("abc "));
    assert_ne!(Seed::parse("abc "), Seed::parse("abc"));
    let inner = format!("{} {}", &hex[..32], &hex[32..]);
    assert_eq!(Seed::parse(&inner), Seed::from_text(&inner));
    assert!(Seed::from_hex(&format!("{hex} ")).is_err());
}

#[test]
fn seed_text_estimates() {
    assert!((seed_text_bits("42") - 2.0 * 10f64.log2()).abs() < 1e-9);
    assert!((seed_text_bits("friday") - 6.0 * 26f64.log2()).abs() < 1e-9);
    assert!((seed_text_bits("Friday night!") - 13.0 * 95f64.log2()).abs() < 1e-9);
    assert_eq!(seed_text_bits(&"a".repeat(64)), 256.0);
    assert_eq!(seed_text_bits(&"z".repeat(200)), 256.0);
    assert_eq!(seed_text_bits(""), 0.0);
}

#[test]
fn generator_names_round_trip() {
    for g in Generator::ALL {
        assert_eq!(g.name().parse::<Generator>().unwrap(), g);
    }
    assert!("mt19937".parse::<Generator>().is_err());
    assert_eq!(
        "ChaCha12".parse::<Generator>().unwrap(),
        Generator::ChaCha12
    );
    assert_eq!(Generator::ChaCha8.to_string(), "chacha8");
    let crypto: Vec<_> = Generator::ALL
        .iter()
        .map(|g| g.is_cryptographic())
        .collect();
    assert_eq!(crypto, [true, true, true, false]);
    let err = "chacha9".parse::<Generator>().unwrap_err().to_string();
    assert!(err.contains("chacha12") && err.contains("chacha8"), "{err}");
}

#[test]
fn value_stability_of_generators() {
    // Pinned outputs: a change here breaks every replayed deal.
    let seed = Seed::parse("fairdeck");
    let mut c = Generator::ChaCha20.build(&seed);
    let mut x = Generator::Xoshiro256PlusPlus.build(&seed);
    let got = [c.next_u64(), c.next_u64(), x.next_u64(), x.next_u64()];
    assert_eq!(got, PINNED, "generator output changed: {got:#x?}");
}

#[test]
fn value_stability_of_reduced_round_chacha() {
    // Pinned outputs of ChaCha12 and ChaCha8: the first two words and
    // a shuffle of 1..=10. A change here breaks every replayed deal.
    // The words agree with an independent implementation (rand_chacha
    // 0.3.1's ChaCha12Rng / ChaCha8Rng from the same key).
    let seed = Seed::parse("fairdeck");
    let mut got = Vec::new();
    for g in [Generator::ChaCha12, Generator::ChaCha8] {
        let mut rng = g.build(&seed);
        let words = [rng.next_u64(), rng.next_u64()];
        let mut deck: Vec<u32> = (1..=10).collect();
        crate::shuffle::shuffle(&mut deck, &mut crate::dice::RngDice::new(g.build(&seed)));
        got.push((words, deck));
    }
    assert_eq!(got[0], (PINNED_12, DECK_12.to_vec()), "chacha12: {got:?}");
    assert_eq!(got[1], (PINNED_8, DECK_8.to_vec()), "chacha8: {got:?}");
}

const PINNED_12: [u64; 2] = [13249660820777759810, 13727667597207758230];
const DECK_12: [u32; 10] = [3, 5, 10, 4, 7, 1, 9, 6, 2, 8];
const PINNED_8: [u64; 2] = [12322327785465577074, 4230521008724283648];
const DECK_8: [u32; 10] = [2, 3, 6, 4, 8, 5, 9, 1, 10, 7];

const PINNED: [u64; 4] = [
    13091314683511344285,
    18038335373170785588,
    7173472643406868814,
    14576643996982307027,
];
