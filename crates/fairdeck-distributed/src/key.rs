//! Row ids, the shuffle key and the two generators derived from it.
//!
//! Byte-exact (see the crate documentation, "Specification"):
//!
//! * row key `R = HMAC-SHA256(seed, "fairdeck-distributed/v1/row-bucket")`;
//! * bucket key `B(b) = HMAC-SHA256(seed, "fairdeck-distributed/v1/bucket-shuffle" ‖ le64(b))`;
//! * the words of a row are the RFC 8439 ChaCha20 keystream of key `R`,
//!   nonce `le32(file) ‖ le64(position)`, block counter from 0, read as
//!   little-endian `u64`s;
//! * a bucket's words are the same keystream for key `B(b)` and nonce 0.

use core::convert::Infallible;

use chacha20::ChaCha20;
use chacha20::cipher::{KeyIvInit, StreamCipher};
use fairdeck::dice::{Dice, bounded_u64};
use fairdeck::rng::Seed;
use fairdeck_fair::KeyStream;
use hmac::{Hmac, KeyInit, Mac};
use rand_core::TryRng;
use sha2::Sha256;

use crate::Error;

/// The domain of the row key.
pub const ROW_DOMAIN: &[u8] = b"fairdeck-distributed/v1/row-bucket";
/// The domain prefix of a bucket key (followed by the bucket as 8 little-endian bytes).
pub const BUCKET_DOMAIN: &[u8] = b"fairdeck-distributed/v1/bucket-shuffle";

/// The stable id of a row: where it is in the data, never where it was processed.
///
/// `file` is the index of its file in the sorted, normalised listing of the
/// input; `position` is the byte offset of the line's first byte (text) or
/// the row's index in its file (Parquet). Ids order rows canonically:
/// by file, then position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RowId {
    /// Index of the file in the sorted, normalised input listing.
    pub file: u32,
    /// Byte offset of the line (text) or row index in the file (Parquet).
    pub position: u64,
}

impl RowId {
    /// A row id.
    pub fn new(file: u32, position: u64) -> Self {
        Self { file, position }
    }

    /// The 96-bit ChaCha20 nonce of the row: `le32(file) ‖ le64(position)`.
    pub fn nonce(self) -> [u8; 12] {
        let mut nonce = [0u8; 12];
        nonce[..4].copy_from_slice(&self.file.to_le_bytes());
        nonce[4..].copy_from_slice(&self.position.to_le_bytes());
        nonce
    }
}

/// Everything a distributed shuffle derives from its seed: the row key and
/// the bucket keys. Cheap to copy; holds no state, so every task of a job
/// can build its own and draw the same answers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ShuffleKey {
    seed: [u8; 32],
    row_key: [u8; 32],
}

impl core::fmt::Debug for ShuffleKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("ShuffleKey(..)")
    }
}

fn hmac(key: &[u8; 32], parts: &[&[u8]]) -> [u8; 32] {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes any key");
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

impl ShuffleKey {
    /// The keys of a seed.
    ///
    /// ```
    /// use fairdeck::rng::Seed;
    /// use fairdeck_distributed::{RowId, ShuffleKey};
    ///
    /// let key = ShuffleKey::new(&Seed::parse("doc"));
    /// let b = key.bucket_of(RowId::new(0, 42), 8)?;
    /// assert!(b < 8);
    /// assert_eq!(b, ShuffleKey::new(&Seed::parse("doc")).bucket_of(RowId::new(0, 42), 8)?);
    /// # Ok::<(), fairdeck_distributed::Error>(())
    /// ```
    pub fn new(seed: &Seed) -> Self {
        let seed = *seed.as_bytes();
        Self {
            seed,
            row_key: hmac(&seed, &[ROW_DOMAIN]),
        }
    }

    /// The row key `R`.
    pub fn row_key(&self) -> [u8; 32] {
        self.row_key
    }

    /// The key `B(b)` of bucket `b`'s shuffle.
    pub fn bucket_key(&self, bucket: u64) -> [u8; 32] {
        hmac(&self.seed, &[BUCKET_DOMAIN, &bucket.to_le_bytes()])
    }

    /// The dice of one row: its own keystream, a pure function of (seed, row).
    pub fn row_dice(&self, row: RowId) -> RowStream {
        RowStream::new(self.row_key, row)
    }

    /// The dice of bucket `b`'s shuffle.
    pub fn bucket_dice(&self, bucket: u64) -> KeyStream {
        KeyStream::new(self.bucket_key(bucket))
    }

    /// The bucket of a row among `buckets`: an exact uniform draw in
    /// `[0, buckets)` from the row's keystream (Lemire's multiply-and-reject,
    /// rejected words replaced by the next words of the same keystream).
    ///
    /// O(1) expected time (one ChaCha20 block; a second one with probability
    /// below `buckets / 2^64`). Reproducible: the same seed, row and count
    /// give the same bucket on every machine, in every task, on every retry.
    ///
    /// # Errors
    ///
    /// [`Error::NoBuckets`] if `buckets == 0`.
    pub fn bucket_of(&self, row: RowId, buckets: u64) -> Result<u64, Error> {
        if buckets == 0 {
            return Err(Error::NoBuckets);
        }
        Ok(self.row_dice(row).roll(buckets))
    }
}

/// The ChaCha20 keystream of one row, as a generator and as a dice.
///
/// RFC 8439 block function, key `R`, nonce = [`RowId::nonce`], block
/// counter from 0; words are 8 keystream bytes read little-endian. Each
/// block is computed only when its first word is asked for, so a row that
/// needs one word costs one block.
pub struct RowStream {
    cipher: ChaCha20,
}

impl core::fmt::Debug for RowStream {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("RowStream(..)")
    }
}

impl RowStream {
    /// The keystream of `row` under the row key `row_key`.
    pub fn new(row_key: [u8; 32], row: RowId) -> Self {
        Self {
            cipher: ChaCha20::new(&row_key.into(), &row.nonce().into()),
        }
    }
}

impl TryRng for RowStream {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.try_next_u64()? as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut word = [0u8; 8];
        self.cipher.apply_keystream(&mut word);
        Ok(u64::from_le_bytes(word))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        dst.fill(0);
        self.cipher.apply_keystream(dst);
        Ok(())
    }
}

impl Dice for RowStream {
    fn roll(&mut self, n: u64) -> u64 {
        bounded_u64(self, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng;

    #[test]
    fn row_stream_is_rfc_8439_chacha20_with_the_row_as_nonce() {
        // RFC 8439 section 2.4.2's key (00 01 … 1f) and nonce
        // 00 00 00 00 00 00 00 4a 00 00 00 00, i.e. file 0 and position
        // 0x4a << 24. Its keystream at block counter 1 starts
        // 22 4f 51 f3 40 1b d9 e1 (the ciphertext XOR the plaintext of the RFC).
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let mut s = RowStream::new(key, RowId::new(0, 0x4a << 24));
        for _ in 0..8 {
            s.next_u64(); // block 0
        }
        assert_eq!(
            s.next_u64(),
            u64::from_le_bytes(*b"\x22\x4f\x51\xf3\x40\x1b\xd9\xe1")
        );
    }

    #[test]
    fn keys_are_separated_by_domain_and_bucket() {
        let k = ShuffleKey::new(&Seed::parse("x"));
        assert_ne!(k.row_key(), k.bucket_key(0));
        assert_ne!(k.bucket_key(0), k.bucket_key(1));
        assert_ne!(k.row_key(), ShuffleKey::new(&Seed::parse("y")).row_key());
    }

    #[test]
    fn zero_buckets_is_an_error() {
        let k = ShuffleKey::new(&Seed::parse("x"));
        assert_eq!(k.bucket_of(RowId::new(0, 0), 0), Err(Error::NoBuckets));
    }
}
