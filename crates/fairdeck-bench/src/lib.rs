//! # fairdeck-bench
//!
//! The production comparison harness of fairdeck: its shuffle and sample
//! against the `rand` crate's (`SliceRandom::shuffle`,
//! `rand::seq::index::sample`) in one process and one run, with the same
//! generator family on both sides.
//!
//! Unlike the fairdeck libraries, this crate **reads the clock**: it is a
//! benchmark harness, and timing is its whole job. It never asserts a time;
//! it reports what it measured.
//!
//! ```no_run
//! use fairdeck_bench::production::{Options, run};
//!
//! let report = run(&Options::default());
//! println!("{}", serde_json::to_string_pretty(&report).unwrap());
//! print!("{}", report.to_text());
//! ```
//!
//! Run it from the workspace root with
//! `cargo run --release -p fairdeck-bench --example production -- --format json`;
//! the criterion benches (`cargo bench -p fairdeck-bench`) measure the
//! same cases up to 10⁶ with criterion's statistics.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cases;
pub mod counters;
pub mod own_process;
pub mod passes;
pub mod production;
pub mod report;
