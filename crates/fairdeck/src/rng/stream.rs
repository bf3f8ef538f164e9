//! [`ChaChaStream`]: the words of the `chacha20` crate's `ChaCha*Rng`, sixteen blocks at a time.
//!
//! `ChaCha20Rng`, `ChaCha12Rng` and `ChaCha8Rng` (the RustCrypto `chacha20`
//! crate) are ChaCha in Bernstein's original layout — a 64-bit block counter
//! in state words 12–13 and a 64-bit stream number in words 14–15, stream 0
//! here — read as a stream of little-endian 32-bit words. The same crate's
//! IETF cipher core (RFC 8439) has a 32-bit counter in word 12 and a 96-bit
//! nonce in words 13–15, so with the nonce `(h, 0, 0)` and the counter `l`
//! its block is the RNG's block `h·2^32 + l`: the same 64 bytes. This module
//! keys that core, moves `h` on when `l` wraps, and hands out the words the
//! way `rand_core`'s `BlockRng` does (a `u64` is two consecutive words, low
//! first; `fill_bytes` uses whole words, dropping the unused bytes of the
//! last one), so every draw equals the RNG's (tests: mixed calls, every fill
//! length from every offset, positions in and across blocks and across the
//! 2^32-block and 2^64-block wraps, and RFC 8439's test vector).
//!
//! Why: the crate's RNG refills four blocks at a time, with AVX2 at best; its
//! cipher writes sixteen at once with AVX-512 (chosen at run time, compiled in
//! by `--cfg chacha20_avx512`, which this repository's `.cargo/config.toml`
//! sets). On the 2-core AMD EPYC (Zen 5) development machine
//! `fairdeck rng -n 2000000000` took 1.19 s with the RNG and 0.26 s with
//! ChaCha20 through this stream. The first refill after keying or a seek
//! makes four blocks, so a fresh key's first draw costs what the RNG's did
//! (about 170 ns either way here, with AVX-512 and with AVX2 only). No
//! cryptography is written here.

use core::convert::Infallible;
use core::fmt;

use chacha20::cipher::array::Array;
use chacha20::cipher::consts::U64;
use chacha20::cipher::{KeyIvInit, StreamCipherCore};
use chacha20::variants::Ietf;
use chacha20::{ChaChaCore, R8, R12, R20, Rounds};
use rand_core::{SeedableRng, TryCryptoRng, TryRng};

/// Blocks made per refill: what the AVX-512 backend computes in one pass.
const BUF_BLOCKS: usize = 16;
/// Blocks made by the first refill after keying or a seek: a one-off draw
/// (a deal from a fresh key) uses a block or two, and sixteen cost four
/// times as much keystream (over 0.5 µs where only AVX2 is available).
const FIRST_BLOCKS: usize = 4;
/// 32-bit words in a block.
const BLOCK_WORDS: usize = 16;

type Block = Array<u8, U64>;

/// ChaCha with `R` rounds keyed with a 256-bit seed, stream 0: word for word
/// the stream of the `chacha20` crate's RNG with the same rounds and seed,
/// made sixteen blocks at a time.
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
pub struct ChaChaStream<R: Rounds> {
    /// The keyed cipher and its place.
    keyed: Keyed<R>,
    /// Its first `len` words are the ones just before the keyed cipher's place.
    buf: [Block; BUF_BLOCKS],
    /// Words made by the last refill: 0 since keying or a seek, then
    /// `FIRST_BLOCKS` or `BUF_BLOCKS` blocks' worth.
    len: usize,
    /// The next unread word of `buf`; `len` when it holds none.
    index: usize,
}

/// The cipher core and what it takes to move it anywhere in the 64-bit counter.
struct Keyed<R: Rounds> {
    /// The seed, to key the core again when the counter's high word moves on.
    key: [u8; 32],
    /// The high 32 bits of the 64-bit block counter: the first word of `core`'s nonce.
    high: u32,
    /// The cipher; `(high, its counter)` is the next block it writes.
    core: ChaChaCore<R, Ietf>,
}

/// ChaCha20 (the default generator's stream): `chacha20::ChaCha20Rng`'s words.
pub type ChaCha20Stream = ChaChaStream<R20>;
/// ChaCha12: `chacha20::ChaCha12Rng`'s words.
pub type ChaCha12Stream = ChaChaStream<R12>;
/// ChaCha8: `chacha20::ChaCha8Rng`'s words.
pub type ChaCha8Stream = ChaChaStream<R8>;

impl<R: Rounds> Keyed<R> {
    /// The core keyed with `key` at 64-bit block position `block`.
    fn at(key: [u8; 32], block: u64) -> Self {
        let high = (block >> 32) as u32;
        let mut nonce = [0u8; 12];
        nonce[..4].copy_from_slice(&high.to_le_bytes());
        let mut core = ChaChaCore::<R, Ietf>::new(&key.into(), &nonce.into());
        core.set_block_pos(block as u32);
        Keyed { key, high, core }
    }

    /// The 64-bit position of the next block.
    fn next_block(&self) -> u64 {
        u64::from(self.high) << 32 | u64::from(self.core.get_block_pos())
    }

    /// Writes the next `blocks.len()` blocks of the stream into `blocks`,
    /// never letting the core's 32-bit counter wrap inside one call.
    fn write_blocks(&mut self, mut blocks: &mut [Block]) {
        while !blocks.is_empty() {
            let start = self.next_block();
            let room = (1u64 << 32) - u64::from(start as u32);
            let n = blocks
                .len()
                .min(usize::try_from(room).unwrap_or(usize::MAX));
            let (now, rest) = blocks.split_at_mut(n);
            self.core.write_keystream_blocks(now);
            if n as u64 == room {
                // The low word wrapped: the next block's high word is one more.
                *self = Keyed::at(self.key, start.wrapping_add(room));
            }
            blocks = rest;
        }
    }
}

impl<R: Rounds> ChaChaStream<R> {
    /// Refills the buffer with the next sixteen blocks (four if it has
    /// been empty since keying or a seek).
    #[inline(never)]
    fn refill(&mut self) {
        let blocks = if self.len == 0 {
            FIRST_BLOCKS
        } else {
            BUF_BLOCKS
        };
        self.keyed.write_blocks(&mut self.buf[..blocks]);
        self.len = blocks * BLOCK_WORDS;
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
        if self.index >= self.len {
            self.refill();
        }
        let w = self.word(self.index);
        self.index += 1;
        w
    }

    /// The next two words as a `u64` (low word first) when the buffer holds
    /// fewer than two: the rare case of [`TryRng::try_next_u64`].
    #[cold]
    #[inline(never)]
    fn next_u64_across(&mut self) -> u64 {
        let lo = self.next_word();
        let hi = self.next_word();
        u64::from(hi) << 32 | u64::from(lo)
    }

    /// The offset from the start of the stream, in 32-bit words, modulo
    /// 2^68 (as the RNG's `get_word_pos`).
    pub fn get_word_pos(&self) -> u128 {
        let next = u128::from(self.keyed.next_block()) * BLOCK_WORDS as u128;
        // The unread words of the buffer come before the cipher's place.
        let unread = (self.len - self.index) as u128;
        (next + (1 << 68) - unread) & ((1 << 68) - 1)
    }

    /// Moves to `word_offset` words from the start of the stream (modulo
    /// 2^68, as the RNG's `set_word_pos`).
    pub fn set_word_pos(&mut self, word_offset: u128) {
        let block = (word_offset / BLOCK_WORDS as u128) as u64;
        let within = (word_offset % BLOCK_WORDS as u128) as usize;
        self.keyed = Keyed::at(self.keyed.key, block);
        (self.len, self.index) = (0, 0);
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
        if self.index < self.len {
            let held = &Block::slice_as_flattened(&self.buf)[4 * self.index..4 * self.len];
            at = held.len().min(dest.len());
            dest[..at].copy_from_slice(&held[..at]);
            self.index += at.div_ceil(4);
        }
        // Whole blocks, straight into `dest`; the counter moves past them and
        // the buffer stays empty.
        let (blocks, _) = Block::slice_as_chunks_mut(&mut dest[at..]);
        if !blocks.is_empty() {
            self.keyed.write_blocks(blocks);
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

impl<R: Rounds> SeedableRng for ChaChaStream<R> {
    type Seed = [u8; 32];

    fn from_seed(seed: [u8; 32]) -> Self {
        ChaChaStream {
            keyed: Keyed::at(seed, 0),
            buf: [Block::default(); BUF_BLOCKS],
            len: 0,
            index: 0,
        }
    }
}

impl<R: Rounds> TryRng for ChaChaStream<R> {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.next_word())
    }

    /// Inlined whole (its common case is one load): the dice's batched
    /// rolls take a word at a time, and a call per word (two, through
    /// `rand_core`'s `Rng` for `&mut R`) was a fifth of a 52-card shuffle.
    #[inline(always)]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        // Words `index` and `index + 1` are bytes `4·index ..` of the
        // buffer; as one little-endian `u64` the low word comes first.
        let at = 4 * self.index;
        if self.index + 1 < self.len
            && let Some(pair) = Block::slice_as_flattened(&self.buf)
                .get(at..)
                .and_then(<[u8]>::first_chunk::<8>)
        {
            self.index += 2;
            return Ok(u64::from_le_bytes(*pair));
        }
        Ok(self.next_u64_across())
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Infallible> {
        self.fill(dest);
        Ok(())
    }
}

impl<R: Rounds> TryCryptoRng for ChaChaStream<R> {}

impl<R: Rounds> fmt::Debug for ChaChaStream<R> {
    /// Shows the place in the stream, never the key or the buffered words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ChaChaStream {{ word_pos: {} }}", self.get_word_pos())
    }
}

#[cfg(test)]
mod tests;
