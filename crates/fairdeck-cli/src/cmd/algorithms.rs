//! `fairdeck algorithms [ALG]`: the catalogue of shuffles, with sources and complexity.

use std::io::Write;
use std::process::ExitCode;

use fairdeck::algorithms::{Algorithm, PYTHON_SNIPPET_BUG};
use serde::Serialize;

use crate::output::{Format, Output};

/// Flags of `fairdeck algorithms`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Run one with: fairdeck shuffle ALG -n N [--steps]")]
pub struct Args {
    /// Show only this algorithm, with its full description.
    #[arg(value_name = "ALG")]
    pub algorithm: Option<String>,
}

/// One catalogue entry as printed in JSON.
#[derive(Serialize)]
struct Entry {
    name: &'static str,
    sources: &'static [&'static str],
    description: &'static str,
    time: &'static str,
    space: &'static str,
    intended_uniform: bool,
    unbounded: bool,
    notes: Vec<&'static str>,
}

impl Entry {
    fn of(alg: Algorithm) -> Self {
        Self {
            name: alg.name(),
            sources: alg.sources(),
            description: alg.description(),
            time: alg.time(),
            space: alg.space(),
            intended_uniform: alg.intended_uniform(),
            unbounded: alg.is_unbounded(),
            notes: notes(alg),
        }
    }
}

/// Extra remarks: seed 004's Python snippet belongs with the shuffle it tried to be.
fn notes(alg: Algorithm) -> Vec<&'static str> {
    match alg {
        Algorithm::FisherYates => vec![PYTHON_SNIPPET_BUG],
        _ => Vec::new(),
    }
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

/// The whole catalogue, one line each, then the note on seed 004.
fn table(w: &mut impl Write, entries: &[Entry]) -> anyhow::Result<()> {
    writeln!(
        w,
        "{:<26} {:<22} {:<6} {:<8} {:<9} sources",
        "algorithm", "time", "space", "uniform", "unbounded"
    )?;
    for e in entries {
        let sources: Vec<&str> = e.sources.iter().map(|s| short_source(s)).collect();
        writeln!(
            w,
            "{:<26} {:<22} {:<6} {:<8} {:<9} {}",
            e.name,
            e.time,
            e.space,
            yes_no(e.intended_uniform),
            yes_no(e.unbounded),
            sources.join(", ")
        )?;
    }
    writeln!(w)?;
    writeln!(
        w,
        "Seeds are the articles in shared/seeds/ (000 = 000_*.txt)."
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
    writeln!(w)?;
    wrap(w, e.description, "  ")?;
    for note in &e.notes {
        writeln!(w)?;
        wrap(w, &format!("Note: {note}"), "  ")?;
    }
    Ok(())
}

/// "000" for "000_d872db0c4b9f5b66.txt"; other sources as they are.
fn short_source(s: &str) -> &str {
    match s.split_once('_') {
        Some((num, _)) if num.len() == 3 && num.bytes().all(|b| b.is_ascii_digit()) => num,
        _ => s,
    }
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
