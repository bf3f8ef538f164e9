//! `fairdeck bench`'s text table: ns per element by size, the fitted
//! exponents, and the comparison with the timings of “Shuffling a deck of
//! cards” (2014) when its three algorithms were benched.

use std::io::Write;

use fairdeck::algorithms::Algorithm;

use super::Report;
use crate::bench::Series;
use crate::bench::fit::growth_exponent;

/// The table: ns per element by size, then the fitted exponent.
pub(super) fn text(
    w: &mut impl Write,
    r: &Report,
    all: &[(Algorithm, Series)],
) -> anyhow::Result<()> {
    writeln!(
        w,
        "ns per element (time per shuffle / n); '-' = skipped to stay within --budget {} s",
        r.budget_seconds
    )?;
    write!(w, "{:<26}", "algorithm")?;
    for &n in &r.sizes {
        write!(w, " {:>9}", size_label(n))?;
    }
    writeln!(w, "  {:>8}  expected", "exponent")?;
    for (alg, series) in all {
        write!(w, "{:<26}", alg.name())?;
        for &n in &r.sizes {
            match series.measured.iter().find(|m| m.n == n) {
                Some(m) => write!(w, " {:>9}", format_ns(m.ns_per_element))?,
                None => write!(w, " {:>9}", "-")?,
            }
        }
        let fit = r.fits.iter().find(|f| f.fit.algorithm == alg.name());
        match fit {
            Some(f) => writeln!(w, "  {:>8.2}  {}", f.fit.exponent, alg.time())?,
            None => writeln!(w, "  {:>8}  {}", "-", alg.time())?,
        }
    }
    writeln!(
        w,
        "exponent: least-squares slope of log(time) vs log(n), sizes >= 100 where measured"
    )?;
    writeln!(w, "seed: {} ({})", r.seed, r.generator)?;
    article_timings(w, all)?;
    Ok(())
}

/// 10, 100, 1e3, …: short column headers.
pub(super) fn size_label(n: usize) -> String {
    let log = (n as f64).log10();
    if n >= 1000 && (log - log.round()).abs() < 1e-9 {
        format!("n=1e{}", log.round() as u32)
    } else {
        format!("n={n}")
    }
}

fn format_ns(ns: f64) -> String {
    if ns >= 100.0 {
        format!("{ns:.0}")
    } else {
        format!("{ns:.2}")
    }
}

/// “Shuffling a deck of cards” (2014) timed n = 10⁶: vector erase 354 s, list 238 s, in place 2 s.
/// When those three were benched, print the same comparison measured here.
fn article_timings(w: &mut impl Write, all: &[(Algorithm, Series)]) -> anyhow::Result<()> {
    let find = |alg| all.iter().find(|(a, _)| *a == alg).map(|(_, s)| s);
    let (Some(vector), Some(list), Some(in_place)) = (
        find(Algorithm::FisherYatesOriginal),
        find(Algorithm::FisherYatesList),
        find(Algorithm::FisherYates),
    ) else {
        return Ok(());
    };
    writeln!(w)?;
    writeln!(
        w,
        "“Shuffling a deck of cards” (2014) at n = 1e6: vector 354 s, list 238 s, in place 2 s (ratios 177 : 119 : 1)"
    )?;
    let at = |s: &Series, alg: Algorithm| at_million(alg, s);
    let (Some(v), Some(l), Some(p)) = (
        at(vector, Algorithm::FisherYatesOriginal),
        at(list, Algorithm::FisherYatesList),
        at(in_place, Algorithm::FisherYates),
    ) else {
        return Ok(());
    };
    writeln!(
        w,
        "here at n = 1e6:     vector {} s, list {} s, in place {} s (ratios {:.0} : {:.0} : 1)",
        v.describe(),
        l.describe(),
        p.describe(),
        v.seconds / p.seconds,
        l.seconds / p.seconds
    )?;
    Ok(())
}

/// A time at n = 10⁶, measured or extrapolated with the fitted exponent.
struct AtMillion {
    seconds: f64,
    measured: bool,
}

impl AtMillion {
    fn describe(&self) -> String {
        let approx = if self.measured { "" } else { "~" };
        format!("{approx}{:.3}", self.seconds)
    }
}

fn at_million(alg: Algorithm, series: &Series) -> Option<AtMillion> {
    const MILLION: usize = 1_000_000;
    if let Some(m) = series.measured.iter().find(|m| m.n == MILLION) {
        return Some(AtMillion {
            seconds: m.seconds_per_run,
            measured: true,
        });
    }
    let last = series.measured.last()?;
    let fit = growth_exponent(alg.name(), &series.measured)?;
    let seconds = last.seconds_per_run * (MILLION as f64 / last.n as f64).powf(fit.exponent);
    Some(AtMillion {
        seconds,
        measured: false,
    })
}
