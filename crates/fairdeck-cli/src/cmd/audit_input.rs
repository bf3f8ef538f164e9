//! `fairdeck audit --input FILE`: opens the log; the report layer reads it
//! ([`fairdeck_report::input`]: integers or card names, with the audit's
//! limits).

use std::io::{BufReader, Read};
use std::path::Path;

use anyhow::Context;
use fairdeck_audit::stats::Tally;
use fairdeck_report::input::LogRequest;

use crate::failure::{flag, usage};

/// Reads and counts the decks of `path` (`-`: stdin).
pub fn read(path: &Path, log: &LogRequest) -> anyhow::Result<Tally> {
    log.validate()?;
    let source: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?,
        )
    };
    log.read(BufReader::new(source)).map_err(|e| match e {
        fairdeck_report::Error::Refused(refused) => usage(format!(
            "{}: {}",
            path.display(),
            refused.message.render(&flag)
        )),
        other => anyhow::Error::new(other).context(format!("cannot read {}", path.display())),
    })
}
