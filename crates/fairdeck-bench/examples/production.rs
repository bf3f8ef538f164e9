//! Prints the production benchmark: fairdeck against rand, same generators.
//!
//! `cargo run --release -p fairdeck-bench --example production -- [--format json]
//! [--sizes 52,10000,1000000,100000000] [--max-time SECONDS] [--threads 1,2]`

use std::process::ExitCode;
use std::time::Duration;

use fairdeck_bench::production::{Options, run};

fn main() -> ExitCode {
    match parse(std::env::args().skip(1)) {
        Ok((options, json)) => {
            let report = run(&options);
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&report).expect("report serializes")
                );
            } else {
                print!("{}", report.to_text());
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("production: {message}");
            ExitCode::from(2)
        }
    }
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<(Options, bool), String> {
    let mut options = Options::default();
    let mut json = false;
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--format" => json = value()? == "json",
            "--sizes" => {
                options.sizes = list(&value()?)?;
                let sizes = options.sizes.clone();
                options.wide_sizes.retain(|n| sizes.contains(n));
            }
            "--threads" => options.threads = list(&value()?)?,
            "--max-time" => {
                let secs: f64 = value()?.parse().map_err(|_| "--max-time wants seconds")?;
                options.max_time = Duration::try_from_secs_f64(secs).map_err(|e| e.to_string())?;
            }
            "--no-sample" => options.sample_k = None,
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok((options, json))
}

fn list(text: &str) -> Result<Vec<usize>, String> {
    text.split(',')
        .map(|s| {
            s.trim()
                .parse()
                .map_err(|_| format!("{s:?} is not a number"))
        })
        .collect()
}
