//! The dice `shuf` rolls: the seeded production dice, or `--random-source
//! FILE`, whose bytes become draws exactly as GNU coreutils' `randint`
//! turns them into draws (so the same file gives GNU's output).

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use fairdeck::dice::{Dice, RngDice};
use fairdeck::rng::{AnyRng, Generator, Seed};
use sha2::{Digest, Sha256};

use crate::error::{Error, IoContext};
use crate::quote::Quotes;

/// The dice of one stream of the seed: ChaCha20 keyed with
/// `SHA-256("fairdeck-shuf/v2/" ‖ phase ‖ seed ‖ index)`, so that every part
/// of a parallel or bucketed shuffle draws from its own stream.
pub(crate) fn stream(seed: &Seed, phase: &[u8], index: u64) -> RngDice<AnyRng> {
    let key = Sha256::new()
        .chain_update(b"fairdeck-shuf/v2/")
        .chain_update(phase)
        .chain_update(seed.as_bytes())
        .chain_update(index.to_le_bytes())
        .finalize();
    RngDice::new(Generator::ChaCha20.build(&Seed::from_bytes(key.into())))
}

/// Either the seeded generator or a file of random bytes.
pub enum ShufDice {
    /// ChaCha20 keyed with the seed (kept: the in-memory shuffle derives
    /// its streams from it).
    Seeded(RngDice<AnyRng>, Seed),
    /// `--random-source FILE`.
    Bytes(ByteDice),
}

impl ShufDice {
    /// The seeded production dice.
    pub fn seeded(seed: &Seed) -> Self {
        ShufDice::Seeded(RngDice::new(Generator::ChaCha20.build(seed)), *seed)
    }

    /// Whether the draws follow GNU's `randint` (a `--random-source` file):
    /// then the permutations follow GNU's `randperm` too.
    pub fn is_gnu(&self) -> bool {
        matches!(self, ShufDice::Bytes(_))
    }

    /// The seed, for seeded dice.
    pub fn seed(&self) -> Option<&Seed> {
        match self {
            ShufDice::Seeded(_, seed) => Some(seed),
            ShufDice::Bytes(_) => None,
        }
    }

    /// A new seed drawn from seeded dice (32 bytes of exact rolls), for a
    /// part of the work that gets its own streams; `None` for a random source.
    pub fn draw_seed(&mut self) -> Option<Seed> {
        let ShufDice::Seeded(dice, _) = self else {
            return None;
        };
        let mut key = [0u8; 32];
        for word in key.chunks_exact_mut(4) {
            word.copy_from_slice(&(dice.roll(1 << 32) as u32).to_le_bytes());
        }
        Some(Seed::from_bytes(key))
    }

    /// The failure, if the random source ran out or could not be read.
    ///
    /// Rolls made after a failure answer 0; callers check this before any
    /// output that depended on them is written.
    pub fn failure(&self) -> Option<Error> {
        match self {
            ShufDice::Seeded(..) => None,
            ShufDice::Bytes(b) => b.failure(),
        }
    }
}

impl Dice for ShufDice {
    #[inline]
    fn roll(&mut self, n: u64) -> u64 {
        match self {
            ShufDice::Seeded(d, _) => d.roll(n),
            ShufDice::Bytes(d) => d.roll(n),
        }
    }

    fn exhausted(&self) -> bool {
        match self {
            ShufDice::Seeded(..) => false,
            ShufDice::Bytes(d) => d.failed.is_some(),
        }
    }
}

/// Exact bounded draws from a stream of bytes, by GNU's rule (coreutils
/// `gl/lib/randint.c`, `randint_genmax`).
///
/// The dice keeps a number `r` known to be uniform on `[0, m]` (initially
/// `m = 0`). To draw below `n`:
///
/// 1. while `m < n − 1`: read one byte `b`, `r ← 256·r + b`, `m ← 256·m + 255`
///    (64-bit arithmetic that wraps, as in C; it only wraps for bounds above 2^56);
/// 2. if `m = n − 1`, answer `r` and reset `r = m = 0`;
/// 3. otherwise let `u = (m − (n−1)) mod n` (values that would bias the
///    answer): if `r ≤ m − u`, answer `r mod n` and keep the unused part,
///    `r ← r div n`, `m ← (m − (n−1)) div n`; else keep `r ← r mod n`,
///    `m ← u − 1` and go back to 1.
///
/// Every accepted answer is exactly uniform: `r ≤ m − u` leaves a range of
/// `m − u + 1` values, a multiple of `n`, whose residues are equally
/// frequent; the leftovers are uniform on their new ranges, so no entropy is
/// wasted. A bound of 1 reads nothing, so a one-line input needs no bytes.
pub struct ByteDice {
    reader: BufReader<Box<dyn Read>>,
    name: String,
    number: u64,
    max: u64,
    failed: Option<Failure>,
}

enum Failure {
    EndOfFile,
    Read(io::ErrorKind, Option<i32>),
}

impl ByteDice {
    /// Opens `path` as the source of random bytes; `quotes` quote its name in messages.
    ///
    /// # Errors
    ///
    /// GNU's message when the file cannot be opened.
    pub fn open(path: &Path, quotes: Quotes) -> Result<Self, Error> {
        let bytes = path.as_os_str().as_encoded_bytes();
        let file = File::open(path).on(quotes.name(bytes))?;
        // GNU quotes the name with quote() here, with quotef() above.
        let name = quotes.quote(bytes);
        Ok(Self::from_reader(Box::new(file), name))
    }

    /// Draws from the bytes of `reader`; `name` (already quoted) names it in messages.
    pub fn from_reader(reader: Box<dyn Read>, name: String) -> Self {
        Self {
            reader: BufReader::with_capacity(4096, reader),
            name,
            number: 0,
            max: 0,
            failed: None,
        }
    }

    fn failure(&self) -> Option<Error> {
        match self.failed.as_ref()? {
            Failure::EndOfFile => Some(Error::RandomSourceEnd(self.name.clone())),
            Failure::Read(kind, raw) => {
                let e = raw.map_or_else(|| io::Error::from(*kind), io::Error::from_raw_os_error);
                Some(Error::io(format!("{}: read error", self.name), e))
            }
        }
    }

    /// One byte, or `None` (and the failure recorded) when the file ends.
    fn byte(&mut self) -> Option<u8> {
        let mut byte = [0u8];
        match self.reader.read_exact(&mut byte) {
            Ok(()) => Some(byte[0]),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                self.failed = Some(Failure::EndOfFile);
                None
            }
            Err(e) => {
                self.failed = Some(Failure::Read(e.kind(), e.raw_os_error()));
                None
            }
        }
    }

    fn roll(&mut self, n: u64) -> u64 {
        assert!(n > 0, "dice rolled with bound 0");
        let top = n - 1;
        loop {
            while self.max < top {
                if self.failed.is_some() {
                    return 0;
                }
                let b = self.byte().unwrap_or(0);
                self.number = (self.number << 8).wrapping_add(u64::from(b));
                self.max = (self.max << 8).wrapping_add(255);
            }
            if self.failed.is_some() {
                return 0;
            }
            if self.max == top {
                let answer = self.number;
                (self.number, self.max) = (0, 0);
                return answer;
            }
            let excess = self.max - top;
            let unusable = excess % n;
            if self.number <= self.max - unusable {
                let answer = self.number % n;
                (self.number, self.max) = (self.number / n, excess / n);
                return answer;
            }
            (self.number, self.max) = (self.number % n, unusable - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(bytes: &[u8]) -> ByteDice {
        ByteDice::from_reader(Box::new(io::Cursor::new(bytes.to_vec())), "'t'".into())
    }

    #[test]
    fn draws_follow_gnu_randint() {
        // n = 10: byte 0x61 = 97 ≤ 249 − 9 → 97 mod 10 = 7, leftover 9 on [0, 24].
        // n = 9: 9 ≤ 24 − 7 → 0, leftover 1 on [0, 1].
        // n = 8: needs more: 1·256 + 0x62 = 354 on [0, 511]; 511 − 7 = 504, u = 0 → 354 mod 8 = 2.
        let mut d = dice(b"ab");
        assert_eq!([d.roll(10), d.roll(9), d.roll(8)], [7, 0, 2]);
        assert!(d.failure().is_none());
        assert_eq!(d.roll(1), 0, "a bound of 1 reads nothing");
        d.roll(1 << 40);
        assert_eq!(d.failure().unwrap().to_string(), "'t': end of file");
    }

    #[test]
    fn every_byte_value_maps_uniformly() {
        // Over all 2^16 two-byte inputs, the first roll(n) that needs at
        // most these bytes hits each answer equally often.
        for n in [2u64, 3, 5, 6, 7, 200, 256, 300, 65535] {
            let mut counts = vec![0u32; n as usize];
            for x in 0u16..=u16::MAX {
                let mut d = dice(&x.to_be_bytes());
                let v = d.roll(n);
                if d.failure().is_none() {
                    counts[v as usize] += 1;
                }
            }
            let nonzero: Vec<u32> = counts.iter().copied().filter(|&c| c > 0).collect();
            assert_eq!(nonzero.len(), n as usize, "n = {n}");
            assert!(nonzero.iter().all(|&c| c == nonzero[0]), "n = {n}");
        }
    }
}
