//! `fairdeck audit --input FILE`: permutations from any program, one per line
//! (read by [`fairdeck_audit::stats::input`], with the audit's limits).

use std::io::{BufReader, Read};
use std::path::Path;

use anyhow::Context;
use fairdeck_audit::stats::Tally;
use fairdeck_audit::stats::input::read_permutations;

use crate::failure::usage;

/// Reads and counts the permutations of `path` (`-`: stdin).
pub fn read(path: &Path, base: Option<usize>) -> anyhow::Result<Tally> {
    let source: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?,
        )
    };
    read_permutations(BufReader::new(source), base).map_err(|e| match e {
        fairdeck_audit::Error::InvalidInput(why) => usage(format!("{}: {why}", path.display())),
        other => anyhow::Error::new(other).context(format!("cannot read {}", path.display())),
    })
}
