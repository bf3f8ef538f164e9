//! Generators and seeds: how a run becomes replayable.
//!
//! A [`Seed`] is a 256-bit key. Users write it either as exactly 64 hex
//! digits (the key itself; whitespace around them, as a paste may add, is
//! ignored) or as any other text, which is hashed with SHA-256, exactly as
//! written, into the key. [`Generator`] names the generators a seed can key:
//! ChaCha20 (the default), ChaCha12 and ChaCha8 (cryptographic, fewer rounds,
//! faster) and Xoshiro256++ (fast, for simulations only).
//!
//! The library never reads the operating system's entropy: a caller that wants
//! a fresh seed draws 32 bytes itself and calls [`Seed::from_bytes`].
//!
//! ```
//! use fairdeck::rng::{Generator, Seed};
//! use rand_core::Rng;
//!
//! let seed = Seed::parse("my game 42");
//! assert_eq!(seed.to_hex().len(), 64);
//! let mut a = Generator::ChaCha20.build(&seed);
//! let mut b = Generator::ChaCha20.build(&Seed::parse(&seed.to_hex()));
//! assert_eq!(a.next_u64(), b.next_u64()); // the hex form replays the text form
//! ```

use core::convert::Infallible;
use core::fmt;
use core::str::FromStr;

use rand_core::{SeedableRng, TryRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sha2::{Digest, Sha256};

use crate::Error;

mod stream;
pub use stream::{ChaCha8Stream, ChaCha12Stream, ChaCha20Stream, ChaChaStream};

/// A 256-bit key that fixes every random choice of a run.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed {
    key: [u8; 32],
}

impl Seed {
    /// Parses a user's seed: 64 hex digits are the key itself (either case,
    /// surrounding whitespace ignored: [`Seed::hex_key`]); any other text is
    /// hashed with SHA-256, exactly as written (whitespace included), into
    /// the key. O(length of `text`).
    ///
    /// Never fails: every text is a seed. Use [`Seed::from_hex`] to insist on hex.
    ///
    /// ```
    /// use fairdeck::rng::Seed;
    ///
    /// let key = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    /// assert_eq!(Seed::parse(&format!("{key} \n")).to_hex(), key); // pasted with a space
    /// assert_ne!(Seed::parse(" table 7"), Seed::parse("table 7")); // text: as written
    /// ```
    pub fn parse(text: &str) -> Self {
        Self::hex_key(text).unwrap_or_else(|| Self::from_text(text))
    }

    /// The key when `text` is 64 hex digits once surrounding whitespace is
    /// removed (a printed seed copied with a trailing space or newline
    /// replays its run); `None` for any other text. O(length of `text`).
    pub fn hex_key(text: &str) -> Option<Self> {
        Self::from_hex(text.trim()).ok()
    }

    /// The key spelled as exactly 64 hex digits.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidSeed`] unless `hex` is exactly 64 hex digits.
    pub fn from_hex(hex: &str) -> Result<Self, Error> {
        let bytes = hex.as_bytes();
        if bytes.len() != 64 {
            return Err(Error::InvalidSeed(format!(
                "expected 64 hex digits, got {} characters",
                bytes.len()
            )));
        }
        let mut key = [0u8; 32];
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            let digit = |c: u8| {
                (c as char).to_digit(16).ok_or_else(|| {
                    Error::InvalidSeed(format!("{:?} is not a hex digit", c as char))
                })
            };
            key[i] = (digit(pair[0])? << 4 | digit(pair[1])?) as u8;
        }
        Ok(Self { key })
    }

    /// The SHA-256 hash of `text` as the key.
    pub fn from_text(text: &str) -> Self {
        Self {
            key: Sha256::digest(text.as_bytes()).into(),
        }
    }

    /// A key from raw bytes (e.g. 32 bytes from the operating system).
    pub fn from_bytes(key: [u8; 32]) -> Self {
        Self { key }
    }

    /// The raw key.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.key
    }

    /// The key as 64 lowercase hex digits: the form that replays a run.
    pub fn to_hex(&self) -> String {
        self.key.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({})", self.to_hex())
    }
}

/// Which of the `chacha20` crate's cipher backends makes the keystream of
/// the three ChaCha generators ([`ChaChaStream`]) on this CPU: `"AVX-512"`,
/// `"AVX2"`, `"SSE2"`, `"NEON"` or `"portable"`. It follows the crate's own
/// run-time choice: AVX-512 needs the CPU's AVX-512F and AVX-512VL and a
/// build with `--cfg chacha20_avx512` (this repository's
/// `.cargo/config.toml`); a build that forces `chacha20_backend` is not
/// reflected. The words are the same on every backend; only the speed
/// differs (benchmarks print this next to their numbers).
pub fn chacha20_backend() -> &'static str {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        if cfg!(chacha20_avx512)
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
        {
            "AVX-512"
        } else if std::arch::is_x86_feature_detected!("avx2") {
            "AVX2"
        } else {
            "SSE2"
        }
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    {
        "NEON"
    }
    #[cfg(not(any(
        target_arch = "x86",
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon")
    )))]
    {
        "portable"
    }
}

/// An upper bound on the entropy of a seed text (`--seed`, `Generator(seed=…)`), in bits.
///
/// 64 hex digits are a full 256-bit key. Any other text is hashed, so it
/// holds at most what the text does: its length times log2 of the size of
/// the smallest alphabet it fits in (10 digits, 16 hex digits, 26 lower-case
/// letters, 62 letters and digits, 95 printable ASCII, else 2^20 Unicode
/// scalar values), capped at 256 (the key size). This is only a rough
/// *upper* bound: text chosen by a person ("42", "friday night") holds far
/// less, because an attacker guesses likely texts first.
pub fn seed_text_bits(text: &str) -> f64 {
    if Seed::hex_key(text).is_some() {
        return 256.0;
    }
    let fits = |ok: fn(char) -> bool| text.chars().all(ok);
    let alphabet: f64 = if fits(|c| c.is_ascii_digit()) {
        10.0
    } else if fits(|c| c.is_ascii_hexdigit()) {
        16.0
    } else if fits(|c| c.is_ascii_lowercase()) {
        26.0
    } else if fits(|c| c.is_ascii_alphanumeric()) {
        62.0
    } else if fits(|c| c.is_ascii_graphic() || c == ' ') {
        95.0
    } else {
        1_048_576.0
    };
    (text.chars().count() as f64 * alphabet.log2()).min(256.0)
}

/// The named generators a [`Seed`] can key.
///
/// The three ChaCha variants are cryptographic: each is the ChaCha stream
/// cipher (Bernstein 2008, "ChaCha, a variant of Salsa20") keyed with the
/// 256-bit seed, stream 0, nonce 0, and they differ only in the number of
/// rounds. Fewer rounds are faster; the security question is the margin
/// over the best known attack, which reaches 7 rounds. ChaCha12 is what the
/// `rand` crate's `StdRng` uses; Aumasson's "Too Much Crypto" (2019) argues
/// that 8 rounds still keep a large margin. ChaCha20 stays the default: the
/// conservative choice, and the one every pinned deal was made with.
/// Xoshiro256++ is not cryptographic.
///
/// Every generator here is keyed with all 256 bits of the seed
/// ([`Generator::key_bits`]) and its output is pinned by value-stability
/// tests: a given seed and name give the same stream in every release.
///
/// ```
/// use fairdeck::rng::{Generator, Seed};
/// use rand_core::Rng;
///
/// let g: Generator = "chacha12".parse()?;
/// assert_eq!(g, Generator::ChaCha12);
/// assert!(g.is_cryptographic() && g.key_bits() == 256);
/// let seed = Seed::parse("table 7");
/// assert_eq!(g.build(&seed).next_u64(), g.build(&seed).next_u64());
/// assert_ne!(g.build(&seed).next_u64(), Generator::ChaCha20.build(&seed).next_u64());
/// # Ok::<(), fairdeck::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Generator {
    /// ChaCha20 (20 rounds) keyed with the 256-bit seed, stream 0, nonce 0.
    /// Cryptographically strong; the default. Built as a [`ChaCha20Stream`]:
    /// the words of `chacha20::ChaCha20Rng`, made sixteen blocks at a time by
    /// the same crate's cipher, with AVX-512 where the CPU has it
    /// ([`chacha20_backend`]); ChaCha12 and ChaCha8 are built the same way.
    #[default]
    ChaCha20,
    /// ChaCha12 (12 rounds), keyed like [`Generator::ChaCha20`].
    /// Cryptographic; the generator behind `rand`'s `StdRng`.
    ChaCha12,
    /// ChaCha8 (8 rounds), keyed like [`Generator::ChaCha20`].
    /// Cryptographic, with the margin Aumasson's "Too Much Crypto" argues
    /// is ample; the fastest of the three.
    ChaCha8,
    /// Xoshiro256++ with the 256-bit seed as its state (Blackman & Vigna 2019).
    /// Fast, statistically good, *predictable*: for simulations, never for
    /// games with money on them.
    Xoshiro256PlusPlus,
}

impl Generator {
    /// Every generator, in the order the CLI lists them.
    pub const ALL: [Generator; 4] = [
        Generator::ChaCha20,
        Generator::ChaCha12,
        Generator::ChaCha8,
        Generator::Xoshiro256PlusPlus,
    ];

    /// The name users type (`chacha20`, `chacha12`, `chacha8`, `xoshiro256pp`).
    pub fn name(self) -> &'static str {
        match self {
            Generator::ChaCha20 => "chacha20",
            Generator::ChaCha12 => "chacha12",
            Generator::ChaCha8 => "chacha8",
            Generator::Xoshiro256PlusPlus => "xoshiro256pp",
        }
    }

    /// Whether the generator is cryptographically secure: true for the
    /// three ChaCha variants, false for Xoshiro256++.
    pub fn is_cryptographic(self) -> bool {
        matches!(
            self,
            Generator::ChaCha20 | Generator::ChaCha12 | Generator::ChaCha8
        )
    }

    /// Bits of state the seed can set: the most decks it can tell apart is 2^this.
    pub fn key_bits(self) -> u32 {
        256
    }

    /// Builds the generator keyed with `seed`.
    pub fn build(self, seed: &Seed) -> AnyRng {
        match self {
            Generator::ChaCha20 => AnyRng::ChaCha20(Box::new(ChaCha20Stream::from_seed(seed.key))),
            Generator::ChaCha12 => AnyRng::ChaCha12(Box::new(ChaCha12Stream::from_seed(seed.key))),
            Generator::ChaCha8 => AnyRng::ChaCha8(Box::new(ChaCha8Stream::from_seed(seed.key))),
            Generator::Xoshiro256PlusPlus => {
                AnyRng::Xoshiro256PlusPlus(Xoshiro256PlusPlus::from_seed(seed.key))
            }
        }
    }
}

impl fmt::Display for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Generator {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.to_ascii_lowercase();
        match lower.as_str() {
            "chacha20" | "chacha" => Ok(Generator::ChaCha20),
            "chacha12" => Ok(Generator::ChaCha12),
            "chacha8" => Ok(Generator::ChaCha8),
            "xoshiro256pp" | "xoshiro256++" | "xoshiro" => Ok(Generator::Xoshiro256PlusPlus),
            _ => Err(Error::UnknownGenerator(s.to_string())),
        }
    }
}

/// One of the named generators, chosen at run time.
#[derive(Debug)]
pub enum AnyRng {
    /// See [`Generator::ChaCha20`].
    ChaCha20(Box<ChaCha20Stream>),
    /// See [`Generator::ChaCha12`].
    ChaCha12(Box<ChaCha12Stream>),
    /// See [`Generator::ChaCha8`].
    ChaCha8(Box<ChaCha8Stream>),
    /// See [`Generator::Xoshiro256PlusPlus`].
    Xoshiro256PlusPlus(Xoshiro256PlusPlus),
}

impl TryRng for AnyRng {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        match self {
            AnyRng::ChaCha20(r) => r.try_next_u32(),
            AnyRng::ChaCha12(r) => r.try_next_u32(),
            AnyRng::ChaCha8(r) => r.try_next_u32(),
            AnyRng::Xoshiro256PlusPlus(r) => r.try_next_u32(),
        }
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        match self {
            AnyRng::ChaCha20(r) => r.try_next_u64(),
            AnyRng::ChaCha12(r) => r.try_next_u64(),
            AnyRng::ChaCha8(r) => r.try_next_u64(),
            AnyRng::Xoshiro256PlusPlus(r) => r.try_next_u64(),
        }
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        match self {
            AnyRng::ChaCha20(r) => r.try_fill_bytes(dst),
            AnyRng::ChaCha12(r) => r.try_fill_bytes(dst),
            AnyRng::ChaCha8(r) => r.try_fill_bytes(dst),
            AnyRng::Xoshiro256PlusPlus(r) => r.try_fill_bytes(dst),
        }
    }
}

#[cfg(test)]
mod tests;
