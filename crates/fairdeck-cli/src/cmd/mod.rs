//! One module per subcommand, each with `Args` and `run`.

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
pub mod man;
pub mod mix;
pub mod rng;
pub mod sample;
pub mod serve;
pub mod shuf;
pub mod shuffle_with;
pub mod table;

use std::process::ExitCode;

use crate::cli::Command;
use crate::output::Output;

/// Runs the chosen subcommand.
pub fn run(command: &Command, out: &mut Output) -> anyhow::Result<ExitCode> {
    let writes_pbn = matches!(command, Command::Deal(_))
        || matches!(command, Command::Fair(a) if matches!(a.action, fair::Action::Deal(_)));
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
    match command {
        Command::Deal(args) => deal::run(args, out),
        Command::Sample(args) => sample::run(args, out),
        Command::Algorithms(args) => algorithms::run(args, out),
        Command::Shuffle(args) => shuffle_with::run(args, out),
        Command::Bench(args) => bench::run(args, out),
        Command::Fair(args) => fair::run(args, out),
        Command::Rng(args) => rng::run(args, out),
        Command::Shuf(args) => shuf::run(args, out),
        Command::Exact(args) => exact::run(args, out),
        Command::Audit(args) => audit::run(args, out),
        Command::Chaos(args) => chaos::run(args, out),
        Command::Mix(args) => mix::run(args, out),
        Command::Completions(args) => completions::run(args, out),
        Command::Man(args) => man::run(args, out),
        Command::Serve(args) => serve::run(args, out),
        Command::Table(command) => table::run(command, out),
    }
}
