//! [`ChaCha20Stream`]: the words of `chacha20::ChaCha20Rng`, sixteen blocks at a time.
//!
//! `ChaCha20Rng` (the RustCrypto `chacha20` crate) is ChaCha20 in Bernstein's
//! original layout — a 64-bit block counter in state words 12–13 and a 64-bit
//! stream number in words 14–15 — read as a stream of little-endian 32-bit
//! words. The same crate's `ChaCha20Legacy` cipher has exactly that layout,
//! so its keystream *is* that word stream (byte `4w..4w+4` is word `w`). The
//! crate's RNG refills four blocks at a time with AVX2 at best; its cipher
//! can write sixteen at once with AVX-512 (runtime-detected; compiled in by
//! `--cfg chacha20_avx512`, which this repository's `.cargo/config.toml`
//! sets). On the 2-core AMD EPYC (Zen 5) development machine that is 0.14
//! against 0.61 ns per byte. No cryptography is written here: this module
//! only keeps the place in the stream and hands out its words the way
//! `rand_core`'s `BlockRng` does (a `u64` is two consecutive words, low
//! first; `fill_bytes` uses whole words, dropping the unused bytes of the
//! last one), so every draw equals `ChaCha20Rng`'s (tests: mixed calls,
//! every fill length, positions in and across blocks).

use core::convert::Infallible;
use core::fmt;

use chacha20::ChaCha20LegacyCore;
use chacha20::cipher::array::Array;
use chacha20::cipher::{KeyIvInit, StreamCipherCore};
use rand_core::{SeedableRng, TryCryptoRng, TryRng};

/// Blocks made per refill: what the AVX-512 backend computes in one pass.
const BUF_BLOCKS: usize = 16;
/// 32-bit words in a block.
const BLOCK_WORDS: usize = 16;
/// Words in the buffer.
const BUF_WORDS: usize = BUF_BLOCKS * BLOCK_WORDS;

type Block = Array<u8, chacha20::cipher::consts::U64>;

/// ChaCha20 keyed with a 256-bit seed, stream 0: word for word the stream of
/// `chacha20::ChaCha20Rng::from_seed(seed)`, made sixteen blocks at a time.
///
/// ```
/// use fairdeck::rng::ChaCha20Stream;
/// use rand_core::{Rng, SeedableRng};
///
/// let mut fast = ChaCha20Stream::from_seed([7; 32]);
/// let mut reference = chacha20::ChaCha20Rng::from_seed([7; 32]);
/// assert_eq!(fast.next_u64(), reference.next_u64());
/// assert_eq!(fast.get_word_pos(), reference.get_word_pos());
/// ```
pub struct ChaCha20Stream {
    /// The cipher; its block counter is the first block not yet in `buf`.
    core: ChaCha20LegacyCore,
    /// Blocks `counter − 16 .. counter` of the keystream while `index < BUF_WORDS`.
    buf: [Block; BUF_BLOCKS],
    /// The next unread word of `buf`; `BUF_WORDS` when it holds none.
    index: usize,
}

impl ChaCha20Stream {
    /// Refills the buffer with the next sixteen blocks.
    #[inline(never)]
    fn refill(&mut self) {
        self.core.write_keystream_blocks(&mut self.buf);
        self.index = 0;
    }

    /// Word `i` of the buffer.
    #[inline(always)]
    fn word(&self, i: usize) -> u32 {
        let block = &self.buf[i / BLOCK_WORDS];
        let at = (i % BLOCK_WORDS) * 4;
        u32::from_le_bytes([block[at], block[at + 1], block[at + 2], block[at + 3]])
    }

    /// The next word of the stream.
    #[inline]
    fn next_word(&mut self) -> u32 {
        if self.index >= BUF_WORDS {
            self.refill();
        }
        let w = self.word(self.index);
        self.index += 1;
        w
    }

    /// The offset from the start of the stream, in 32-bit words, modulo
    /// 2^68 (as `ChaCha20Rng::get_word_pos`).
    pub fn get_word_pos(&self) -> u128 {
        let counter = u128::from(self.core.get_block_pos());
        let word = if self.index < BUF_WORDS {
            (counter + (1 << 64) - BUF_BLOCKS as u128) * BLOCK_WORDS as u128 + self.index as u128
        } else {
            counter * BLOCK_WORDS as u128
        };
        word & ((1 << 68) - 1)
    }

    /// Moves to `word_offset` words from the start of the stream (modulo
    /// 2^68, as `ChaCha20Rng::set_word_pos`).
    pub fn set_word_pos(&mut self, word_offset: u128) {
        let block = (word_offset / BLOCK_WORDS as u128) as u64;
        let within = (word_offset % BLOCK_WORDS as u128) as usize;
        self.core.set_block_pos(block);
        self.index = BUF_WORDS;
        if within != 0 {
            self.refill();
            self.index = within;
        }
    }

    /// Fills `dest` with the next `⌈len / 4⌉` words, little-endian (the
    /// unused bytes of a last partial word are dropped). Whole blocks past
    /// the buffer are written straight into `dest`.
    fn fill(&mut self, dest: &mut [u8]) {
        // What the buffer still holds (a last partial word uses the whole word).
        let mut at = 0;
        if self.index < BUF_WORDS {
            let held = &Block::slice_as_flattened(&self.buf)[4 * self.index..];
            at = held.len().min(dest.len());
            dest[..at].copy_from_slice(&held[..at]);
            self.index += at.div_ceil(4);
        }
        // Whole blocks, straight into `dest`; the counter moves past them and
        // the buffer stays empty.
        let (blocks, _) = Block::slice_as_chunks_mut(&mut dest[at..]);
        if !blocks.is_empty() {
            self.core.write_keystream_blocks(blocks);
            at += blocks.len() * 64;
        }
        // The tail, from a fresh buffer.
        while at < dest.len() {
            let bytes = self.next_word().to_le_bytes();
            let n = (dest.len() - at).min(4);
            dest[at..at + n].copy_from_slice(&bytes[..n]);
            at += n;
        }
    }
}

impl SeedableRng for ChaCha20Stream {
    type Seed = [u8; 32];

    fn from_seed(seed: [u8; 32]) -> Self {
        ChaCha20Stream {
            core: ChaCha20LegacyCore::new(&seed.into(), &[0u8; 8].into()),
            buf: [Block::default(); BUF_BLOCKS],
            index: BUF_WORDS,
        }
    }
}

impl TryRng for ChaCha20Stream {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.next_word())
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let (lo, hi) = if self.index + 1 < BUF_WORDS {
            let pair = (self.word(self.index), self.word(self.index + 1));
            self.index += 2;
            pair
        } else {
            (self.next_word(), self.next_word())
        };
        Ok(u64::from(hi) << 32 | u64::from(lo))
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Infallible> {
        self.fill(dest);
        Ok(())
    }
}

impl TryCryptoRng for ChaCha20Stream {}

impl fmt::Debug for ChaCha20Stream {
    /// Shows the place in the stream, never the key or the buffered words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ChaCha20Stream {{ word_pos: {} }}", self.get_word_pos())
    }
}

#[cfg(test)]
mod tests;
