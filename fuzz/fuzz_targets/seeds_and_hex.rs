//! Seeds and fixed-length hex: `--seed`, server secrets and commitments.
//! Never a panic; a key read from hex prints back as the same hex.
#![no_main]

use fairdeck_fair::{Commitment, ServerSecret};
use fairdeck::rng::Seed;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let seed = Seed::parse(text);
    assert!(Seed::from_hex(&seed.to_hex()).is_ok_and(|again| again == seed));
    if let Ok(exact) = Seed::from_hex(text) {
        assert_eq!(exact.to_hex(), text.to_ascii_lowercase());
        assert!(exact == seed);
    }
    if let Ok(secret) = ServerSecret::from_hex(text) {
        let again = ServerSecret::from_hex(&secret.to_hex());
        assert!(again.is_ok_and(|s| s == secret));
        // Surrounding whitespace (a secret file's newline) is ignored.
        assert_eq!(secret.to_hex(), text.trim().to_ascii_lowercase());
    }
    if let Ok(commitment) = Commitment::from_hex(text) {
        let again = Commitment::from_hex(&commitment.to_hex());
        assert!(again.is_ok_and(|c| c == commitment));
    }
});
