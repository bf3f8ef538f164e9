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

/// Issue 26 item 18: a 64-hex-digit seed pasted with a space or newline
/// around it was hashed as text, silently dealing another deal. It is the
/// key, in every subcommand that takes `--seed` (one parser: `Seed::parse`);
/// other text is still hashed exactly as written.
#[test]
fn whitespace_around_a_hex_seed_is_ignored_everywhere() {
    let key = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    let padded = format!(" {key}\n");
    for (sub, args) in [
        ("deal", &[][..]),
        ("sample", &["5", "90"][..]),
        ("shuffle", &["fisher-yates", "-n", "20"][..]),
    ] {
        let plain = json_of(sub, &[args, &["--seed", key]].concat());
        let pasted = json_of(sub, &[args, &["--seed", padded.as_str()]].concat());
        assert_eq!(plain, pasted, "{sub}");
        assert_eq!(pasted["seed"], key, "{sub}");
    }
    let deal = json_of("deal", &["--seed", &padded]);
    assert_eq!(deal["entropy_source"], "hex-key", "{deal}");
    let text = |s: &str| json_of("deal", &["--seed", s])["seed"].clone();
    assert_ne!(text("table 7 "), text("table 7"));
    let bytes = |s: &str| run(&["rng", "-n", "32", "--seed", s]).stdout;
    assert_eq!(bytes(key), bytes(&format!("{key} ")));
}
