//! The measured operations, one function per (implementation, generator) pair.
//!
//! Each case is built once with a fixed seed and then run repeatedly; the
//! harness and the criterion benches share them so both measure the same code.

use chacha20::ChaCha12Rng;
use fairdeck::dice::RngDice;
use fairdeck::rng::{ChaCha20Stream, Generator, Seed};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

/// The fixed key every case is seeded with.
pub const SEED: [u8; 32] = *b"fairdeck-bench-production-seed!!";

/// Which library does the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Implementation {
    /// fairdeck: `shuffle` on one thread, `Shuffle::run_parallel_from_dice` on more; `sample`.
    Fairdeck,
    /// rand 0.10: `SliceRandom::shuffle`, `SliceRandom::partial_shuffle`,
    /// `rand::seq::index::sample` (one thread).
    Rand,
}

/// Which generator family feeds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RngFamily {
    /// Xoshiro256++ (`rand_xoshiro`) on both sides.
    Fast,
    /// ChaCha: fairdeck's ChaCha20 (its default, `ChaCha20Stream`); rand's `StdRng` (ChaCha12 in rand 0.10).
    Crypto,
    /// ChaCha12 on both sides, the same generator code (`chacha20::ChaCha12Rng`,
    /// which is rand's `StdRng`), so the ratio is the shuffles' alone; fairdeck's
    /// `chacha12` itself makes the same words faster (`ChaCha12Stream`).
    ChaCha12,
}

impl Implementation {
    /// The name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Implementation::Fairdeck => "fairdeck",
            Implementation::Rand => "rand",
        }
    }
}

impl RngFamily {
    /// The name in reports: the generator actually used. rand's rows of
    /// [`RngFamily::Crypto`] and [`RngFamily::ChaCha12`] are the same
    /// generator (`stdrng-chacha12`), so the harness measures them once.
    pub fn name(self, implementation: Implementation) -> &'static str {
        match (self, implementation) {
            (RngFamily::Fast, _) => "xoshiro256pp",
            (RngFamily::Crypto, Implementation::Fairdeck) => "chacha20",
            (RngFamily::ChaCha12, Implementation::Fairdeck) => "chacha12",
            (_, Implementation::Rand) => "stdrng-chacha12",
        }
    }

    /// The fairdeck generator of this family (for `Shuffle::run_parallel_from_dice`).
    pub fn generator(self) -> Generator {
        match self {
            RngFamily::Fast => Generator::Xoshiro256PlusPlus,
            RngFamily::Crypto => Generator::ChaCha20,
            RngFamily::ChaCha12 => Generator::ChaCha12,
        }
    }
}

/// A boxed operation on a buffer of `T` (`u32` unless said), run once per call.
pub type Shuffler<T = u32> = Box<dyn FnMut(&mut [T]) + Send>;

/// The single-threaded shuffle of `implementation` with `family`, seeded with [`SEED`].
pub fn shuffler<T: Send + 'static>(
    implementation: Implementation,
    family: RngFamily,
) -> Shuffler<T> {
    match (implementation, family) {
        (Implementation::Fairdeck, RngFamily::Fast) => {
            fairdeck_shuffle(Xoshiro256PlusPlus::from_seed(SEED))
        }
        (Implementation::Fairdeck, RngFamily::Crypto) => {
            fairdeck_shuffle(ChaCha20Stream::from_seed(SEED))
        }
        (Implementation::Fairdeck, RngFamily::ChaCha12) => {
            fairdeck_shuffle(ChaCha12Rng::from_seed(SEED))
        }
        (Implementation::Rand, RngFamily::Fast) => {
            rand_shuffle(Xoshiro256PlusPlus::from_seed(SEED))
        }
        (Implementation::Rand, _) => rand_shuffle(StdRng::from_seed(SEED)),
    }
}

fn fairdeck_shuffle<T, R: Rng + Send + 'static>(rng: R) -> Shuffler<T> {
    let mut dice = RngDice::new(rng);
    Box::new(move |v| fairdeck::shuffle::shuffle(v, &mut dice))
}

fn rand_shuffle<T, R: Rng + Send + 'static>(mut rng: R) -> Shuffler<T> {
    Box::new(move |v| v.shuffle(&mut rng))
}

/// fairdeck's parallel shuffle with `family`, driven by one running
/// generator ([`fairdeck::shuffle::Shuffle::run_parallel_from_dice`]): a slice below the
/// parallel threshold is shuffled with it as on one thread, a larger one
/// runs `Shuffle::run_parallel` keyed from it, so repeated calls never repeat an order
/// and no generator is built per call.
pub fn par_shuffler<T: Send + 'static>(family: RngFamily) -> Shuffler<T> {
    let generator = family.generator();
    let mut dice = RngDice::new(generator.build(&Seed::from_bytes(SEED)));
    Box::new(move |v| {
        fairdeck::shuffle::Shuffle::new().run_parallel_from_dice(v, &mut dice, generator)
    })
}

/// Cards in a hold'em deal: 2 hole cards and 5 board cards.
pub const HOLDEM_CARDS: usize = 9;

/// A boxed dealer: deals [`HOLDEM_CARDS`] cards of the 52-card deck it is
/// given by a partial shuffle (the deck stays shuffled between calls, which
/// keeps every deal uniform) and returns a checksum of the hand.
pub type Dealer = Box<dyn FnMut(&mut [u8; 52]) -> u8 + Send>;

/// One hold'em deal per call: fairdeck's `partial_shuffle` or rand's.
pub fn dealer(implementation: Implementation, family: RngFamily) -> Dealer {
    match (implementation, family) {
        (Implementation::Fairdeck, RngFamily::Fast) => {
            fairdeck_deal(Xoshiro256PlusPlus::from_seed(SEED))
        }
        (Implementation::Fairdeck, RngFamily::Crypto) => {
            fairdeck_deal(ChaCha20Stream::from_seed(SEED))
        }
        (Implementation::Fairdeck, RngFamily::ChaCha12) => {
            fairdeck_deal(ChaCha12Rng::from_seed(SEED))
        }
        (Implementation::Rand, RngFamily::Fast) => rand_deal(Xoshiro256PlusPlus::from_seed(SEED)),
        (Implementation::Rand, _) => rand_deal(StdRng::from_seed(SEED)),
    }
}

fn fairdeck_deal<R: Rng + Send + 'static>(rng: R) -> Dealer {
    let mut dice = RngDice::new(rng);
    Box::new(move |deck| {
        let (hand, _) = fairdeck::shuffle::partial_shuffle(deck, HOLDEM_CARDS, &mut dice);
        hand.iter().fold(0, |a, &c| a ^ c)
    })
}

fn rand_deal<R: Rng + Send + 'static>(mut rng: R) -> Dealer {
    Box::new(move |deck| {
        let (hand, _) = deck.partial_shuffle(&mut rng, HOLDEM_CARDS);
        hand.iter().fold(0, |a, &c| a ^ c)
    })
}

/// A boxed sampler: `k` distinct values below `u64::MAX`, returns a checksum.
pub type Sampler = Box<dyn FnMut(usize) -> u64 + Send>;

/// `sample(k, 2^64 − 1)` of `implementation` with `family`.
pub fn sampler(implementation: Implementation, family: RngFamily) -> Sampler {
    match (implementation, family) {
        (Implementation::Fairdeck, RngFamily::Fast) => {
            fairdeck_sample(Xoshiro256PlusPlus::from_seed(SEED))
        }
        (Implementation::Fairdeck, RngFamily::Crypto) => {
            fairdeck_sample(ChaCha20Stream::from_seed(SEED))
        }
        (Implementation::Fairdeck, RngFamily::ChaCha12) => {
            fairdeck_sample(ChaCha12Rng::from_seed(SEED))
        }
        (Implementation::Rand, RngFamily::Fast) => rand_sample(Xoshiro256PlusPlus::from_seed(SEED)),
        (Implementation::Rand, _) => rand_sample(StdRng::from_seed(SEED)),
    }
}

fn fairdeck_sample<R: Rng + Send + 'static>(rng: R) -> Sampler {
    let mut dice = RngDice::new(rng);
    Box::new(move |k| checksum(fairdeck::sample::sample(k as u64, u64::MAX, &mut dice)))
}

fn rand_sample<R: Rng + Send + 'static>(mut rng: R) -> Sampler {
    Box::new(move |k| {
        let picks = rand::seq::index::sample(&mut rng, u64::MAX as usize, k);
        picks.iter().fold(0, |a, x| a ^ x as u64)
    })
}

fn checksum(sample: Result<Vec<u64>, fairdeck::Error>) -> u64 {
    sample.map_or(0, |v| v.iter().fold(0, |a, &x| a ^ x))
}
