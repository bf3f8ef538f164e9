use super::*;
use chacha20::{ChaCha8Rng, ChaCha12Rng, ChaCha20Rng};
use rand_core::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Both sides of a comparison: a place in the stream that can be read and set.
trait Positioned: Rng {
    fn word_pos(&self) -> u128;
    fn set_pos(&mut self, pos: u128);
}

macro_rules! positioned {
    ($($t:ty)*) => {$(
        impl Positioned for $t {
            fn word_pos(&self) -> u128 {
                self.get_word_pos()
            }
            fn set_pos(&mut self, pos: u128) {
                self.set_word_pos(pos)
            }
        }
    )*};
}
positioned!(ChaCha20Stream ChaCha12Stream ChaCha8Stream ChaCha20Rng ChaCha12Rng ChaCha8Rng);

/// Runs `check` for each round count: this module's stream against the crate's RNG.
fn each_rounds(check: impl Fn(&dyn Fn(u8) -> (Box<dyn Positioned>, Box<dyn Positioned>))) {
    check(&|s| {
        (
            Box::new(ChaCha20Stream::from_seed([s; 32])),
            Box::new(ChaCha20Rng::from_seed([s; 32])),
        )
    });
    check(&|s| {
        (
            Box::new(ChaCha12Stream::from_seed([s; 32])),
            Box::new(ChaCha12Rng::from_seed([s; 32])),
        )
    });
    check(&|s| {
        (
            Box::new(ChaCha8Stream::from_seed([s; 32])),
            Box::new(ChaCha8Rng::from_seed([s; 32])),
        )
    });
}

/// Call number `call` on both sides — `next_u32` (op 0), `next_u64` (op 1) or
/// a fill of `len` bytes (any other op) — gives the same answer and leaves
/// both at the same position.
fn same_call(
    fast: &mut dyn Positioned,
    reference: &mut dyn Positioned,
    op: u32,
    len: usize,
    call: u32,
) {
    let at = reference.word_pos();
    match op {
        0 => assert_eq!(fast.next_u32(), reference.next_u32(), "call {call} at {at}"),
        1 => assert_eq!(fast.next_u64(), reference.next_u64(), "call {call} at {at}"),
        _ => {
            let (mut a, mut b) = (vec![0u8; len], vec![0u8; len]);
            fast.fill_bytes(&mut a);
            reference.fill_bytes(&mut b);
            assert_eq!(a, b, "call {call} at {at}: fill of {len}");
        }
    }
    assert_eq!(fast.word_pos(), reference.word_pos(), "call {call} at {at}");
}

/// The first 32 bytes of ChaCha20 with the all-zero key, nonce and counter
/// (RFC 8439 appendix A.1, test vector 1): a check that does not lean on the
/// crate that both sides of the other tests come from.
#[test]
fn known_answer() {
    let mut s = ChaCha20Stream::from_seed([0; 32]);
    let mut bytes = [0u8; 32];
    s.fill_bytes(&mut bytes);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        hex,
        "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
    );
}

/// Random mixes of `next_u32`, `next_u64` and fills of every size up to
/// three buffers give the reference's bytes and positions after each call.
#[test]
fn mixed_calls_match_the_reference() {
    each_rounds(|pair| {
        let mut ops = Xoshiro256PlusPlus::from_seed([9; 32]);
        for seed in 0..3u8 {
            let (mut fast, mut reference) = pair(seed);
            for call in 0..2000 {
                let (op, len) = (ops.next_u32() % 4, (ops.next_u32() % 3100) as usize);
                same_call(&mut *fast, &mut *reference, op, len, call);
            }
        }
    });
}

/// Every fill length from every word offset within a block.
#[test]
fn every_fill_length_from_every_offset() {
    each_rounds(|pair| {
        for offset in 0..17u128 {
            for len in (0..1100).step_by(3) {
                let (mut fast, mut reference) = pair(3);
                fast.set_pos(offset);
                reference.set_pos(offset);
                let (mut a, mut b) = (vec![0u8; len], vec![0u8; len]);
                fast.fill_bytes(&mut a);
                reference.fill_bytes(&mut b);
                assert_eq!(a, b, "offset {offset}, len {len}");
                assert_eq!(fast.word_pos(), reference.word_pos());
                assert_eq!(fast.next_u64(), reference.next_u64());
            }
        }
    });
}

/// Positions in and across blocks and buffers, across the wrap of the
/// 32-bit low counter word (2^32 blocks, where the stream re-keys its
/// nonce) and at the end of the 2^68-word cycle, where both wrap to the start.
#[test]
fn positions_match_the_reference() {
    let low_wrap = (1u128 << 32) * 16;
    let ends = [
        0,
        1,
        15,
        16,
        17,
        255,
        256,
        257,
        1_000_003,
        low_wrap - 16 * 20 - 3,
        low_wrap - 16 * 16,
        low_wrap - 16 * 7,
        low_wrap - 1,
        low_wrap,
        (1u128 << 64) * 16 - 1,
        (1 << 68) - 300,
        (1 << 68) - 1,
        (1 << 70) + 5,
    ];
    each_rounds(|pair| {
        for &pos in &ends {
            let (mut fast, mut reference) = pair(5);
            fast.set_pos(pos);
            reference.set_pos(pos);
            assert_eq!(fast.word_pos(), reference.word_pos(), "at {pos}");
            for call in 0..600 {
                same_call(&mut *fast, &mut *reference, call % 3, 200, call);
            }
        }
    });
}

/// A fill written straight into the destination across the 2^32-block wrap.
#[test]
fn a_long_fill_across_the_low_counter_wrap() {
    each_rounds(|pair| {
        let (mut fast, mut reference) = pair(6);
        let start = (1u128 << 32) * 16 - 16 * 40 - 5;
        fast.set_pos(start);
        reference.set_pos(start);
        let (mut a, mut b) = (vec![0u8; 64 * 100], vec![0u8; 64 * 100]);
        fast.fill_bytes(&mut a);
        reference.fill_bytes(&mut b);
        assert_eq!(a, b);
        assert_eq!(fast.word_pos(), reference.word_pos());
        assert_eq!(fast.next_u64(), reference.next_u64());
    });
}

/// Its Debug shows the place in the stream, not the key or the words.
#[test]
fn debug_shows_only_the_place() {
    let mut fast = ChaCha8Stream::from_seed([8; 32]);
    fast.next_u32();
    fast.next_u64();
    assert_eq!(format!("{fast:?}"), "ChaChaStream { word_pos: 3 }");
}

/// This repository's builds compile the AVX-512 backend in (.cargo/config.toml);
/// on a CPU that has it, that is the one named.
#[test]
fn backend_is_named() {
    let name = crate::rng::chacha20_backend();
    assert!(["AVX-512", "AVX2", "SSE2", "NEON", "portable"].contains(&name));
    // A test failure, not a compile error, when a RUSTFLAGS override dropped the config's flag.
    #[allow(clippy::assertions_on_constants)]
    {
        assert!(cfg!(chacha20_avx512), "built without --cfg chacha20_avx512");
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
    {
        assert_eq!(name, "AVX-512");
    }
}
