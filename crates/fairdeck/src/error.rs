//! The library's one error type.

use core::fmt;

/// Everything that can go wrong in `fairdeck` when given bad input.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A seed was required to be 64 hex digits and was not.
    InvalidSeed(String),
    /// A generator name that fairdeck does not know.
    UnknownGenerator(String),
    /// More distinct values were asked for than the range holds.
    SampleTooLarge {
        /// How many were asked for.
        k: u64,
        /// How many the range holds.
        n: u64,
    },
    /// A card in text or byte notation that could not be read.
    InvalidCard(String),
    /// A deck kind that fairdeck does not know.
    UnknownDeck(String),
    /// A game preset that fairdeck does not know.
    UnknownGame(String),
    /// A deal that needs more cards than the deck holds.
    NotEnoughCards {
        /// Cards the deal needs.
        needed: usize,
        /// Cards in the deck.
        available: usize,
    },
    /// A deal description that makes no sense (no players, no cards, …).
    InvalidDeal(String),
    /// An algorithm name that is not in the catalogue.
    UnknownAlgorithm(String),
    /// A value that had to be hex digits of a fixed length (a server
    /// secret, a commitment) and was not.
    InvalidHex(String),
    /// A symbol of physical randomness (a die face, a coin side, a hex
    /// digit) that could not be read.
    InvalidSymbol(String),
    /// A Portable Bridge Notation file that could not be read.
    InvalidPbn {
        /// The 1-based line the problem is on.
        line: usize,
        /// What is wrong there.
        why: String,
    },
    /// A fair-dealing table manifest (or transcript) that breaks a rule of
    /// the specification.
    InvalidTable(String),
    /// A fair-dealing table that cannot be dealt: a seat did not reveal its
    /// seed, or revealed one that does not match its commitment.
    VoidTable(String),
    /// The physical randomness ran out before the shuffle was done.
    EntropyExhausted {
        /// Symbols read before the input ended.
        used: u64,
    },
    /// A buffer could not be allocated (the machine, or a limit such as
    /// `ulimit -v`, has no room for it).
    MemoryExhausted {
        /// Bytes the failed allocation asked for.
        bytes: u64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidSeed(why) => write!(f, "invalid seed: {why}"),
            Error::UnknownGenerator(name) => write!(
                f,
                "unknown generator {name:?} (known: chacha20, chacha12, chacha8, xoshiro256pp)"
            ),
            Error::SampleTooLarge { k, n } => {
                write!(f, "cannot pick {k} distinct values from a range of {n}")
            }
            Error::InvalidCard(why) => write!(f, "invalid card: {why}"),
            Error::UnknownDeck(name) => write!(
                f,
                "unknown deck {name:?} (known: standard, jokers, piquet, italian, shoe:K)"
            ),
            Error::UnknownGame(name) => write!(
                f,
                "unknown game {name:?} (known: bridge, holdem, draw, skat, scopa)"
            ),
            Error::NotEnoughCards { needed, available } => write!(
                f,
                "the deal needs {needed} cards but the deck holds only {available}"
            ),
            Error::InvalidDeal(why) => write!(f, "invalid deal: {why}"),
            Error::UnknownAlgorithm(name) => write!(
                f,
                "unknown algorithm {name:?} (`fairdeck algorithms` lists them)"
            ),
            Error::InvalidHex(why) => write!(f, "invalid hex: {why}"),
            Error::InvalidSymbol(why) => write!(f, "invalid symbol: {why}"),
            Error::InvalidPbn { line, why } => write!(f, "line {line}: {why}"),
            Error::InvalidTable(why) => write!(f, "invalid table: {why}"),
            Error::VoidTable(why) => write!(f, "the table is void: {why}"),
            Error::EntropyExhausted { used } => {
                write!(f, "the input ended after {used} symbols")
            }
            Error::MemoryExhausted { bytes } => {
                write!(f, "memory exhausted (could not allocate {bytes} bytes)")
            }
        }
    }
}

impl std::error::Error for Error {}
