//! The command-line surface: global flags and the list of subcommands.

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use crate::cmd;
use crate::output::{FormatChoice, Output};

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
    Shuffle(cmd::shuffle::Args),
    /// Time the catalogue over growing N, fit growth exponents, plot.
    Bench(cmd::bench::Args),
    /// Commit-reveal deals players can verify: commit, deal, verify.
    Fair(cmd::fair::Args),
    /// Hidden hands (fair dealing v3): keys, encrypted shuffles with proofs, shares.
    #[command(subcommand)]
    Hidden(cmd::hidden::Command),
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

impl Command {
    /// What a reader that hangs up means, decided here for every subcommand
    /// (`crate::failure::Hangup`): GNU's SIGPIPE by default; the normal end
    /// of `rng`'s endless stream; a said failure (exit 1) where the output
    /// cannot be made again — `fair commit`'s fresh secret, the room's
    /// commitment of `fair table new` (its only action), a seat's
    /// commitment or reveal of `fair seed`.
    fn choose_hangup(&self, out: &mut Output) {
        use cmd::fair::Action;
        match self {
            Command::Rng(args) if args.bytes.is_none() => out.endless(),
            Command::Fair(args)
                if matches!(
                    args.action,
                    Action::Commit(_) | Action::Table(_) | Action::Seed(_)
                ) =>
            {
                out.must_deliver();
            }
            _ => {}
        }
    }

    /// Runs the chosen subcommand.
    pub fn run(&self, out: &mut Output) -> anyhow::Result<ExitCode> {
        let command = self;
        let writes_pbn = matches!(command, Command::Deal(_))
            || matches!(command, Command::Fair(a) if matches!(a.action, cmd::fair::Action::Deal(_)));
        if out.pbn() && !writes_pbn {
            return Err(crate::failure::usage(
                "--format pbn (Portable Bridge Notation) is for `deal` and `fair deal` of bridge \
             boards; this command writes text or json",
            ));
        }
        if !matches!(command, Command::Shuf(_)) {
            // shuf reports a closed stdout itself, the GNU way.
            out.check_open()?;
        }
        command.choose_hangup(out);
        match command {
            Command::Deal(args) => cmd::deal::run(args, out),
            Command::Sample(args) => cmd::sample::run(args, out),
            Command::Algorithms(args) => cmd::algorithms::run(args, out),
            Command::Shuffle(args) => cmd::shuffle::run(args, out),
            Command::Bench(args) => cmd::bench::run(args, out),
            Command::Fair(args) => cmd::fair::run(args, out),
            Command::Hidden(command) => cmd::hidden::run(command, out),
            Command::Rng(args) => cmd::rng::run(args, out),
            Command::Shuf(args) => cmd::shuf::run(args, out),
            Command::Exact(args) => cmd::exact::run(args, out),
            Command::Audit(args) => cmd::audit::run(args, out),
            Command::Chaos(args) => cmd::chaos::run(args, out),
            Command::Mix(args) => cmd::mix::run(args, out),
            Command::Completions(args) => cmd::completions::run(args, out, Cli::command()),
            Command::Man(args) => cmd::man::run(args, out, Cli::command()),
            Command::Serve(args) => cmd::serve::run(args),
            Command::Table(command) => cmd::table::run(command, out),
        }
    }
}
