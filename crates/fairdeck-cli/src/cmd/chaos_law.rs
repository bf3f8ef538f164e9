//! `fairdeck chaos --distribution N`: what a well-shuffled deck's chaos looks like.

use std::io::Write;
use std::process::ExitCode;

use fairdeck_audit::chaos;
use fairdeck_audit::estimates;
use fairdeck_audit::stats::MAX_TRIALS;
use fairdeck_report::{Field, message};
use num_traits::ToPrimitive;
use serde::Serialize;

use crate::failure::usage;
use crate::limits::LongArgs;
use crate::output::{Format, Output};
use crate::random::RandomArgs;

#[derive(Serialize)]
struct Law {
    n: usize,
    /// "exact" (all n! orders visited) or "simulated".
    method: &'static str,
    /// P(chaos = k), k = 0..n (exact counts / n!, or simulated frequencies).
    chaos: Vec<f64>,
    chaos_mean: f64,
    chaos_variance: f64,
    /// Standard error of the simulated mean (0 when exact).
    chaos_mean_error: f64,
    /// P(ascending swaps = k) = |s(n, n-k)| / n!, exact for any n.
    ascending: Vec<f64>,
    ascending_mean: f64,
    ascending_variance: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<String>,
}

/// Runs the distribution report.
pub fn run(
    n: usize,
    trials: u64,
    random: &RandomArgs,
    long: &LongArgs,
    out: &mut Output,
) -> anyhow::Result<ExitCode> {
    if n == 0 || n > 1000 {
        return Err(usage("--distribution needs 1 <= N <= 1000"));
    }
    if trials > MAX_TRIALS {
        return Err(usage(format!("--trials is at most {MAX_TRIALS}")));
    }
    let steps = estimates::chaos_law_steps(n, trials);
    long.check(Field::Trials, steps, |steps| {
        let most = estimates::largest(trials, steps, |t| estimates::chaos_law_steps(n, t));
        message![
            Field::Trials,
            format!(" at most {most} at "),
            Field::Distribution,
            format!(" {n}")
        ]
    })?;
    let stirling = chaos::ascending_swap_counts(n);
    let total = fairdeck_audit::exact::factorial(n);
    let ascending: Vec<f64> = stirling
        .iter()
        .map(|c| ratio(&num_bigint::BigInt::from(c.clone()), &total))
        .collect();
    let (ascending_mean, ascending_variance) = chaos::ascending_swap_moments(n);
    let (method, law, error, seed) = if n <= chaos::MAX_DISTRIBUTION_N {
        exact_law(n)?
    } else {
        simulated_law(n, trials, random)?
    };
    let (chaos_mean, chaos_variance) = moments(&law);
    let report = Law {
        n,
        method,
        chaos: law,
        chaos_mean,
        chaos_variance,
        chaos_mean_error: error,
        ascending,
        ascending_mean,
        ascending_variance,
        seed,
    };
    print(&report, out)
}

/// (method, law, standard error of the mean, seed).
type LawParts = (&'static str, Vec<f64>, f64, Option<String>);

/// The chaos law over all n! orders.
fn exact_law(n: usize) -> anyhow::Result<LawParts> {
    let counts = chaos::chaos_counts(n)?;
    let t: u64 = counts.iter().sum();
    let law: Vec<f64> = counts.iter().map(|&c| c as f64 / t as f64).collect();
    Ok(("exact", law, 0.0, None))
}

/// The chaos law estimated from `trials` seeded Fisher–Yates shuffles.
fn simulated_law(n: usize, trials: u64, random: &RandomArgs) -> anyhow::Result<LawParts> {
    if trials < 2 {
        return Err(usage("--trials must be at least 2"));
    }
    let mut r = random.randomness()?;
    let mut counts = vec![0u64; n + 1];
    for _ in 0..trials {
        let mut deck: Vec<usize> = (0..n).collect();
        fairdeck::shuffle::shuffle(&mut deck, &mut r.dice);
        counts[chaos::chaos_of_permutation(&deck).chaos] += 1;
    }
    let law: Vec<f64> = counts.iter().map(|&c| c as f64 / trials as f64).collect();
    let error = (moments(&law).1 / trials as f64).sqrt();
    Ok(("simulated", law, error, Some(r.seed.to_hex())))
}

fn ratio(a: &num_bigint::BigInt, b: &num_bigint::BigInt) -> f64 {
    num_rational::BigRational::new(a.clone(), b.clone())
        .to_f64()
        .unwrap_or(0.0)
}

fn moments(law: &[f64]) -> (f64, f64) {
    let mean: f64 = law.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
    let var = law
        .iter()
        .enumerate()
        .map(|(k, p)| (k as f64 - mean).powi(2) * p)
        .sum();
    (mean, var)
}

fn print(r: &Law, out: &mut Output) -> anyhow::Result<ExitCode> {
    if out.format() == Format::Json {
        out.json(r)?;
        return Ok(ExitCode::SUCCESS);
    }
    let w = out.stdout();
    writeln!(
        w,
        "chaos of a uniformly shuffled order of {} items ({})",
        r.n, r.method
    )?;
    writeln!(w, "{:>4}  {:>12}  {:>12}", "k", "P(chaos=k)", "P(asc=k)")?;
    for k in 0..=r.n {
        if r.chaos[k] > 0.0 || r.ascending[k] > 1e-12 {
            writeln!(w, "{k:>4}  {:>12.6}  {:>12.6}", r.chaos[k], r.ascending[k])?;
        }
    }
    writeln!(
        w,
        "chaos: mean {:.4} (± {:.4}), variance {:.4}",
        r.chaos_mean, r.chaos_mean_error, r.chaos_variance
    )?;
    writeln!(
        w,
        "ascending swaps (exact, n - H(n)): mean {:.4}, variance {:.4}",
        r.ascending_mean, r.ascending_variance
    )?;
    if let Some(seed) = &r.seed {
        writeln!(w, "seed: {seed}")?;
    }
    Ok(ExitCode::SUCCESS)
}
