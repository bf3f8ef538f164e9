//! `fairdeck audit --input FILE`: permutations from any program, one per line.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use anyhow::Context;
use fairdeck_audit::stats::Tally;

use crate::failure::usage;

/// Reads and counts permutations: whitespace-separated integers, one
/// permutation per line; blank lines and lines starting with `#` are skipped.
/// The numbering (0- or 1-based) is `base`, or detected from the first line
/// (it contains 0, or it contains n).
pub fn read(path: &Path, base: Option<usize>) -> anyhow::Result<Tally> {
    if base.is_some_and(|b| b > 1) {
        return Err(usage("--base must be 0 or 1"));
    }
    let source: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?,
        )
    };
    let mut tally: Option<(Tally, usize)> = None;
    for (index, line) in BufReader::new(source).lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let number = index + 1;
        let values = parse_line(text).map_err(|e| usage(format!("line {number}: {e}")))?;
        let (t, b) = tally.get_or_insert_with(|| {
            let b = base.unwrap_or_else(|| usize::from(!values.contains(&0)));
            (Tally::new(values.len()), b)
        });
        let shifted: Option<Vec<usize>> = values.iter().map(|v| v.checked_sub(*b)).collect();
        let p = shifted.ok_or_else(|| usage(format!("line {number}: value below the base {b}")))?;
        t.add(&p)
            .map_err(|e| usage(format!("line {number}: {e}")))?;
    }
    tally
        .map(|(t, _)| t)
        .ok_or_else(|| usage(format!("{}: no permutations found", path.display())))
}

fn parse_line(text: &str) -> Result<Vec<usize>, String> {
    text.split_whitespace()
        .map(|w| {
            w.parse::<usize>()
                .map_err(|_| format!("{w:?} is not a non-negative integer"))
        })
        .collect()
}
