//! # fairdeck-audit
//!
//! Prove or disprove that a shuffle is fair.
//!
//! * [`exact`] — an algorithm's exact output distribution as rationals, by
//!   walking its whole choice tree with a [`walk::Walker`] dice;
//! * [`stats`] — a statistical audit of many shuffles (or of permutations
//!   read from any program, or a machine's log of card names) with p-values
//!   and a family-wise verdict, and which named machine it behaves like
//!   ([`fit`]);
//! * [`chaos`] — the degree of chaos of Florian, “关于如何评价洗牌质量的猜想”: least swaps to sort
//!   ascending or descending, its maximum Ch(N) and its distribution;
//! * [`mix`] — how many hand shuffles (riffle, top-to-random, overhand) make a
//!   deck random, in total variation distance, and the exact law of casino
//!   shelf machines ([`mix::shelf`]);
//! * [`plot`] — SVG pictures (position heatmap, mixing curve);
//! * [`estimates`] — work and memory estimates, checked before a run starts.
//!
//! ## Quick start
//!
//! ```
//! use fairdeck::dice::Dice;
//! use fairdeck_audit::exact::{distribution, Limits};
//!
//! // The naive swap: every position swaps with any of the n positions.
//! let naive = |w: &mut fairdeck_audit::walk::Walker| {
//!     let mut v: Vec<usize> = (0..3).collect();
//!     for i in 0..3 {
//!         let j = w.roll(3) as usize;
//!         v.swap(i, j);
//!     }
//!     v
//! };
//! let d = distribution(3, naive, Limits::default())?;
//! assert_eq!(d.paths, 27);          // 3^3 equally likely paths …
//! assert!(!d.is_uniform());         // … cannot split evenly over 3! = 6 orders
//! # Ok::<(), fairdeck_audit::Error>(())
//! ```
//!
//! The library never reads the clock or the OS entropy: callers bring seeds.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod chaos;
mod error;
pub mod estimates;
pub mod exact;
pub mod fit;
pub mod mix;
pub mod plot;
pub mod stats;
pub mod walk;

pub use error::{Error, check_permutation};
