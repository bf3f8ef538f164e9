//! `fairdeck-bench-case OP IMPL FAMILY N THREADS SECONDS`: times one case of
//! the production benchmark in a process of its own and prints its
//! nanoseconds per element. `fairdeck bench --production` runs it, in
//! rounds, for every case (see `fairdeck_bench::own_process`); it is built with
//! the same profile as `fairdeck` and installed beside it.

use std::io::Write;
use std::process::ExitCode;

use fairdeck_bench::own_process::Case;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((case, budget)) = Case::from_args(&args) else {
        let _ = writeln!(
            std::io::stderr(),
            "usage: fairdeck-bench-case shuffle|shuffle_u64|deal_holdem|sample fairdeck|rand \
             fast|crypto|chacha12 N THREADS SECONDS"
        );
        return ExitCode::from(2);
    };
    match case.time(budget) {
        Some(ns) if writeln!(std::io::stdout(), "{ns}").is_ok() => ExitCode::SUCCESS,
        Some(_) => ExitCode::FAILURE,
        None => {
            let _ = writeln!(
                std::io::stderr(),
                "fairdeck-bench-case: cannot build a pool of {} threads",
                case.threads
            );
            ExitCode::FAILURE
        }
    }
}
