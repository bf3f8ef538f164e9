//! # fairdeck
//!
//! Exactly uniform shuffles, deals and samples, with real decks of cards.
//!
//! Every random choice in fairdeck goes through one small trait, the
//! [`Dice`](dice::Dice): "a uniform integer in `[0, n)`". The production dice
//! draws it exactly (Lemire's multiply-and-reject, never `%` or floats) from
//! a seeded generator, so every shuffle is uniform over all n! orders and
//! every run can be replayed from its 256-bit seed.
//!
//! ## Quick start
//!
//! ```
//! use fairdeck::cards::{DeckKind, Game};
//! use fairdeck::dice::RngDice;
//! use fairdeck::rng::{Generator, Seed};
//!
//! let seed = Seed::parse("friday night");          // or 64 hex digits
//! let mut dice = RngDice::new(Generator::ChaCha20.build(&seed));
//! let deal = Game::Bridge.plan(None)?.shuffle_and_deal(DeckKind::Standard, &mut dice)?;
//! assert_eq!(deal.piles.len(), 4);
//! assert!(deal.piles.iter().all(|hand| hand.cards.len() == 13));
//! # Ok::<(), fairdeck::Error>(())
//! ```
//!
//! ## Modules
//!
//! * [`dice`] — the randomness seam, the exact production dice, the enumerator;
//! * [`rng`] — seeds and named generators;
//! * [`shuffle`] — Fisher–Yates shuffle and partial shuffle (deal), batched
//!   dice, cache-aware buckets for large slices, `Shuffle::run_parallel` on all cores;
//! * [`sample`] — k distinct values of a range up to 2⁶⁴ − 1, reservoir sampling;
//! * [`cards`] — suits, ranks, cards, deck kinds, deals and game presets;
//!   deal numbers (an exact bijection between `[0, D)` and a game's distinct
//!   deals), bridge boards and Portable Bridge Notation;
//! * [`algorithms`] — the catalogue: every shuffle of the source articles, fair or flawed;
//! * [`entropy`] — shuffles from physical dice, coins or hex digits.
//!
//! Cargo features: `rayon` (default: `Shuffle::run_parallel` on all cores) and `serde`
//! (`Serialize`/`Deserialize` for [`Card`](cards::Card) — as text, `"AS"` —,
//! [`DeckKind`](cards::DeckKind), [`Game`](cards::Game), [`Deal`](cards::Deal)).
//!
//! The library never reads the clock, the operating system's entropy or any
//! global state: the caller brings the seed.

// Audited exceptions, each a small `#[allow(unsafe_code)]` block with its
// invariant stated: the prefetch hint (shuffle/prefetch.rs), the element moves
// of the scatter shuffle (shuffle/moves.rs, shuffle/moves/parallel.rs) and
// the huge-page advice for its scratch buffers (shuffle/pages.rs).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod algorithms;
pub mod cards;
pub mod dice;
pub mod entropy;
mod error;
pub mod rng;
pub mod sample;
pub mod shuffle;
#[cfg(test)]
mod testing;

pub use error::Error;
