//! The command-line surface: global flags and the list of subcommands.

use clap::{Parser, Subcommand};

use crate::cmd;
use crate::output::FormatChoice;

/// Shuffle, deal and sample with exactly uniform randomness, and prove it.
#[derive(Debug, Parser)]
#[command(name = "fairdeck", version, about, propagate_version = true)]
pub struct Cli {
    /// Output format: human-readable text, one JSON document on stdout, or
    /// PBN (Portable Bridge Notation, for `deal` and `fair deal` of bridge).
    #[arg(long, global = true, value_enum, default_value_t = FormatChoice::Text)]
    pub format: FormatChoice,

    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands, one file each under `cmd/`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Shuffle a deck and deal it (bridge by default).
    Deal(cmd::deal::Args),
    /// Pick K distinct numbers from 1..N (a lottery draw), N up to 2^64-1.
    Sample(cmd::sample::Args),
    /// The catalogue of shuffles from the articles: sources, complexity, uniformity.
    Algorithms(cmd::algorithms::Args),
    /// Run one catalogue algorithm on 1..N, optionally printing every step.
    #[command(visible_alias = "shuffle-with")]
    Shuffle(cmd::shuffle_with::Args),
    /// Time the catalogue over growing N, fit growth exponents, plot.
    Bench(cmd::bench::Args),
    /// Commit-reveal deals players can verify: commit, deal, verify.
    Fair(cmd::fair::Args),
    /// Raw generator bytes to stdout, for dieharder, ent, PractRand, TestU01.
    Rng(cmd::rng::Args),
    /// Shuffle lines like GNU shuf, exactly uniform, beyond RAM (see `fairdeck shuf --help`).
    Shuf(cmd::shuf::Args),
    /// Exact output distribution of an algorithm (rationals, every path walked).
    Exact(cmd::exact::Args),
    /// Statistical audit with p-values and a verdict (an algorithm, or --input).
    Audit(cmd::audit::Args),
    /// Degree of chaos: least swaps to sort ascending or descending; Ch(N).
    Chaos(cmd::chaos::Args),
    /// How many hand shuffles (riffle, top-to-random, overhand) make a deck random.
    Mix(cmd::mix::Args),
    /// Print a shell completion script: bash, zsh or fish.
    Completions(cmd::completions::Args),
    /// Print the manual page (roff), e.g. `fairdeck man > fairdeck.1`.
    Man(cmd::man::Args),
    /// The local web page: deals as card pictures, algorithms step by step, exact bias.
    Serve(cmd::serve::Args),
    /// The fair-dealing table service: hidden hands, every seat's seed, nothing lost.
    #[command(subcommand)]
    Table(cmd::table::Command),
}
