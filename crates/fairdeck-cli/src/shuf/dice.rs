//! The dice `fairdeck shuf` rolls: the seeded production dice, or
//! `--random-source FILE`, whose bytes feed an exact bounded draw.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

use fairdeck::dice::{Dice, RngDice};
use fairdeck::rng::{AnyRng, Generator, Seed};

use super::failure::{IoContext, ShufError};

/// Either the seeded generator or a file of random bytes.
pub enum ShufDice {
    /// ChaCha20 keyed with `--seed` or 32 fresh bytes from the OS.
    Seeded(RngDice<AnyRng>),
    /// `--random-source FILE`.
    Bytes(ByteDice),
}

impl ShufDice {
    /// The seeded production dice.
    pub fn seeded(seed: &Seed) -> Self {
        ShufDice::Seeded(RngDice::new(Generator::ChaCha20.build(seed)))
    }

    /// The failure, if the random source ran out or could not be read.
    ///
    /// Rolls made after a failure answer 0; callers check this before any
    /// output that depended on them is written.
    pub fn failure(&self) -> Option<ShufError> {
        match self {
            ShufDice::Seeded(_) => None,
            ShufDice::Bytes(b) => b.failure(),
        }
    }
}

impl Dice for ShufDice {
    #[inline]
    fn roll(&mut self, n: u64) -> u64 {
        match self {
            ShufDice::Seeded(d) => d.roll(n),
            ShufDice::Bytes(d) => d.roll(n),
        }
    }

    fn exhausted(&self) -> bool {
        match self {
            ShufDice::Seeded(_) => false,
            ShufDice::Bytes(d) => d.failed.is_some(),
        }
    }
}

/// Exact bounded draws from a stream of bytes taken as random bits.
///
/// `roll(n)` takes the `b` bits needed to write `n − 1` and rejects values
/// `≥ n`, drawing `b` fresh bits each time: every accepted value in
/// `[0, n)` has probability `2^−b` per attempt, so the answer is exactly
/// uniform (classic bitmask rejection, at most 2 attempts expected). Bits are
/// taken least significant first from each byte; unused bits carry over to
/// the next roll. `roll(1)` reads nothing, so a one-line input needs no
/// bytes, as in GNU `shuf`.
pub struct ByteDice {
    reader: BufReader<Box<dyn Read>>,
    name: PathBuf,
    pool: u128,
    bits: u32,
    failed: Option<Failure>,
}

enum Failure {
    EndOfFile,
    Read(io::Error),
}

impl ByteDice {
    /// Opens `path` as the source of random bytes.
    ///
    /// # Errors
    ///
    /// GNU's message when the file cannot be opened.
    pub fn open(path: &Path) -> Result<Self, ShufError> {
        let file = File::open(path).on(path.display())?;
        Ok(Self::from_reader(Box::new(file), path))
    }

    fn from_reader(reader: Box<dyn Read>, name: &Path) -> Self {
        Self {
            reader: BufReader::with_capacity(4096, reader),
            name: name.to_path_buf(),
            pool: 0,
            bits: 0,
            failed: None,
        }
    }

    fn failure(&self) -> Option<ShufError> {
        let name = self.name.display();
        match self.failed.as_ref()? {
            Failure::EndOfFile => Some(ShufError::fatal(format!("'{name}': end of file"))),
            Failure::Read(e) => Some(ShufError::io(format!("'{name}'"), e)),
        }
    }

    /// Takes `count ≤ 64` bits, or `None` when the file has run out.
    fn take(&mut self, count: u32) -> Option<u64> {
        while self.bits < count {
            let mut byte = [0u8];
            match self.reader.read_exact(&mut byte) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                    self.failed = Some(Failure::EndOfFile);
                    return None;
                }
                Err(e) => {
                    self.failed = Some(Failure::Read(e));
                    return None;
                }
            }
            self.pool |= u128::from(byte[0]) << self.bits;
            self.bits += 8;
        }
        let mask = if count == 64 {
            u64::MAX
        } else {
            (1u64 << count) - 1
        };
        let value = self.pool as u64 & mask;
        self.pool >>= count;
        self.bits -= count;
        Some(value)
    }

    fn roll(&mut self, n: u64) -> u64 {
        assert!(n > 0, "dice rolled with bound 0");
        if n == 1 || self.failed.is_some() {
            return 0;
        }
        let width = u64::BITS - (n - 1).leading_zeros();
        loop {
            match self.take(width) {
                Some(v) if v < n => return v,
                Some(_) => continue,
                None => return 0,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(bytes: &[u8]) -> ByteDice {
        ByteDice::from_reader(Box::new(io::Cursor::new(bytes.to_vec())), Path::new("t"))
    }

    #[test]
    fn bits_are_used_exactly_and_rejection_redraws() {
        // 0b1110_0101: roll(4) takes 2 bits (01 → 1), roll(4) takes 01 → 1,
        // roll(3) takes 10 → 2, roll(3) takes 11 → rejected, then runs out.
        let mut d = dice(&[0b1110_0101]);
        assert_eq!([d.roll(4), d.roll(4), d.roll(3)], [1, 1, 2]);
        assert!(d.failure().is_none());
        d.roll(3);
        assert_eq!(d.failure().unwrap().to_string(), "'t': end of file");
    }

    #[test]
    fn every_byte_value_maps_uniformly() {
        // Over all 2^16 two-byte inputs, roll(n) for n ≤ 256 must hit each
        // answer equally often among the accepted first attempts.
        for n in [2u64, 3, 5, 6, 7, 200, 256] {
            let mut counts = vec![0u32; n as usize];
            for x in 0u16..=u16::MAX {
                let mut d = dice(&x.to_le_bytes());
                let v = d.roll(n);
                if d.failure().is_none() && d.bits == 16 - (u64::BITS - (n - 1).leading_zeros()) {
                    counts[v as usize] += 1;
                }
            }
            assert!(
                counts.iter().all(|&c| c == counts[0]),
                "n = {n}: {counts:?}"
            );
        }
        assert_eq!(dice(&[]).roll(1), 0);
    }
}
