//! One module per subcommand, each with `Args` and `run` (the list of
//! subcommands and the dispatch live in [`crate::cli`], which uses these and
//! is used by none of them).

pub mod algorithms;
pub mod audit;
mod audit_input;
mod audit_verdict;
pub mod bench;
pub mod chaos;
mod chaos_law;
pub mod completions;
pub mod deal;
pub mod exact;
pub mod fair;
pub mod hidden;
pub mod man;
pub mod mix;
pub mod rng;
pub mod sample;
pub mod serve;
pub mod shuf;
pub mod shuffle;
pub mod table;
mod table_bench;
