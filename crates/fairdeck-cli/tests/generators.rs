//! Integration tests of `--generator`: every named generator is accepted,
//! replays from its seed, and an unknown name is a usage error that lists
//! the valid ones.

mod common;

use common::{json_of, run, usage_error};

#[test]
fn reduced_round_chacha_is_accepted_and_replays() {
    let deal = |generator: &str| {
        let v = json_of("deal", &["--seed", "replay", "--generator", generator]);
        assert_eq!(v["generator"], generator, "{v}");
        v
    };
    for generator in ["chacha8", "chacha12"] {
        let (a, b) = (deal(generator), deal(generator));
        assert_eq!(a, b, "{generator}: same seed, same deal");
        assert_ne!(a, deal("chacha20"), "{generator} is not ChaCha20");
        let bytes = |g: &str| run(&["rng", "-n", "64", "--seed", "lab", "--generator", g]).stdout;
        assert_eq!(bytes(generator), bytes(generator));
        assert_eq!(bytes(generator).len(), 64);
    }
}

#[test]
fn an_unknown_generator_is_a_usage_error_listing_the_names() {
    for cmd in ["deal", "rng", "sample"] {
        let out = usage_error(&[cmd, "--generator", "chacha9"]);
        let err = String::from_utf8_lossy(&out.stderr);
        for name in ["chacha20", "chacha12", "chacha8", "xoshiro256pp"] {
            assert!(err.contains(name), "{cmd}: {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
    }
}
