//! `fairdeck algorithms [ALG]`: the catalogue of shuffles, with sources and complexity.

use std::io::Write;
use std::process::ExitCode;

use fairdeck::algorithms::{Algorithm, PYTHON_SNIPPET_BUG};
use fairdeck_audit::exact::VERDICT_MAX_N;
pub use fairdeck_report::catalogue::{Entry, ExactVerdict};
use num_traits::{ToPrimitive, Zero};

use crate::output::{Format, Output};

/// Flags of `fairdeck algorithms`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Run one with: fairdeck shuffle ALG -n N [--steps]")]
pub struct Args {
    /// Show only this algorithm, with its full description.
    #[arg(value_name = "ALG")]
    pub algorithm: Option<String>,
}

/// The CLI's rendering of a catalogue entry.
trait Summary {
    /// "uniform, n = 2..7", or the first n where it is not, with its distance.
    fn verdict_summary(&self) -> String;
}

impl Summary for Entry {
    fn verdict_summary(&self) -> String {
        let unresolved = |v: &ExactVerdict| if v.unresolved == "0" { "" } else { "*" };
        match self.exact.iter().find(|v| !v.uniform_on_resolved) {
            Some(v) => format!(
                "biased at n = {}: TV {:.4}{}",
                v.n,
                fraction(&v.total_variation),
                unresolved(v)
            ),
            None => match self.exact.last() {
                Some(last) if self.exact.iter().all(|v| v.uniform) => {
                    format!("uniform, n = 2..{}", last.n)
                }
                Some(last) => format!("uniform on resolved paths, n = 2..{}*", last.n),
                None => "not walked".to_string(),
            },
        }
    }
}

/// A `"p/q"` fraction as a float, for display.
fn fraction(text: &str) -> f64 {
    text.parse::<num_rational::BigRational>()
        .ok()
        .and_then(|r| if r.is_zero() { Some(0.0) } else { r.to_f64() })
        .unwrap_or(f64::NAN)
}

/// Runs `fairdeck algorithms`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let chosen: Vec<Algorithm> = match &args.algorithm {
        Some(name) => vec![name.parse()?],
        None => Algorithm::ALL.to_vec(),
    };
    let entries: Vec<Entry> = chosen.iter().map(|&a| Entry::of(a)).collect();
    match out.format() {
        Format::Json => out.json(&entries)?,
        Format::Text if args.algorithm.is_some() => describe(out.stdout(), &entries[0])?,
        Format::Text => table(out.stdout(), &entries)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The whole catalogue, one line each, then the note on “Mischiamo le carte”.
fn table(w: &mut impl Write, entries: &[Entry]) -> anyhow::Result<()> {
    writeln!(
        w,
        "{:<26} {:<22} {:<6} {:<8} {:<9} {:<19} exact verdict (n = 2..{VERDICT_MAX_N})",
        "algorithm", "time", "space", "intended", "unbounded", "sources"
    )?;
    for e in entries {
        let sources: Vec<&str> = e.sources.iter().map(|s| short_source(s)).collect();
        writeln!(
            w,
            "{:<26} {:<22} {:<6} {:<8} {:<9} {:<19} {}",
            e.name,
            e.time,
            e.space,
            yes_no(e.intended_uniform),
            yes_no(e.unbounded),
            sources.join(", "),
            e.verdict_summary()
        )?;
    }
    writeln!(w)?;
    writeln!(
        w,
        "Sources: Juhász = Juhász, “Keverjük a kártyát” (Hungarian, n.d.); anon-2014 = \
         “Shuffling a deck of cards” (Chinese, 2014);\nanon-2023 = “洗牌算法_最简单的洗牌方法” \
         (Chinese, 2023); Florian = Florian, “关于如何评价洗牌质量的猜想” (Chinese, n.d.);\n\
         anon-it = “Mischiamo le carte” (Italian, n.d.); other = docs/references.md."
    )?;
    writeln!(
        w,
        "Exact verdicts walk every path of the algorithm's choice tree (fairdeck exact), for each n\n\
         while the walk stays under the path budget; TV = total variation distance from uniform;\n\
         * = rejection loops cut at a depth limit: uniform on the paths that finished, which\n\
           bounds but does not prove the whole law (see fairdeck exact)."
    )?;
    writeln!(w, "`fairdeck algorithms NAME` describes one.")?;
    writeln!(w)?;
    wrap(w, &format!("Note: {PYTHON_SNIPPET_BUG}"), "")?;
    Ok(())
}

/// One entry in full.
fn describe(w: &mut impl Write, e: &Entry) -> anyhow::Result<()> {
    writeln!(w, "{}", e.name)?;
    writeln!(w, "  time {}, extra space {}", e.time, e.space)?;
    writeln!(
        w,
        "  exactly uniform: {}; unbounded rolls: {}",
        yes_no(e.intended_uniform),
        yes_no(e.unbounded)
    )?;
    writeln!(w, "  sources: {}", e.sources.join(", "))?;
    writeln!(w, "  exact verdict: {}", e.verdict_summary())?;
    for v in &e.exact {
        let extra = if v.unresolved == "0" {
            String::new()
        } else {
            format!(", unresolved {}", v.unresolved)
        };
        writeln!(
            w,
            "    n = {}: {}, {} orders reachable, TV {}{extra}",
            v.n,
            match (v.uniform, v.uniform_on_resolved) {
                (true, _) => "uniform",
                (false, true) => "uniform on the resolved paths (not proven)",
                (false, false) => "biased",
            },
            v.support,
            v.total_variation
        )?;
    }
    writeln!(w)?;
    wrap(w, e.description, "  ")?;
    for note in &e.notes {
        writeln!(w)?;
        wrap(w, &format!("Note: {note}"), "  ")?;
    }
    Ok(())
}

/// The table's short name of a source (explained under the table).
fn short_source(s: &str) -> &str {
    [
        ("Juhász", "Juhász"),
        ("(2014)", "anon-2014"),
        ("(2023)", "anon-2023"),
        ("Florian", "Florian"),
        ("Mischiamo", "anon-it"),
    ]
    .iter()
    .find(|(key, _)| s.contains(key))
    .map_or("other", |(_, short)| short)
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// Writes `text` wrapped at 88 columns, each line after `indent`.
fn wrap(w: &mut impl Write, text: &str, indent: &str) -> anyhow::Result<()> {
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > 88 {
            writeln!(w, "{indent}{line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        writeln!(w, "{indent}{line}")?;
    }
    Ok(())
}
