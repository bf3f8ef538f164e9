//! Where results go: text or one JSON document on stdout, notes on stderr.

use std::io::{self, BufWriter, IsTerminal, Write};

use serde::Serialize;

/// The output format chosen with `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// One JSON document on stdout.
    Json,
}

/// The printer every subcommand writes through.
pub struct Output {
    format: Format,
    color: bool,
    stdout: BufWriter<io::Stdout>,
}

impl Output {
    /// Text goes to a buffered stdout; colour only on a terminal without `NO_COLOR`.
    pub fn new(format: Format) -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Self {
            format,
            color: !no_color && io::stdout().is_terminal(),
            stdout: BufWriter::new(io::stdout()),
        }
    }

    /// The chosen format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Whether text may use ANSI colours.
    pub fn color(&self) -> bool {
        self.color
    }

    /// Writes one JSON document (pretty-printed) and a newline.
    pub fn json<T: Serialize + ?Sized>(&mut self, value: &T) -> anyhow::Result<()> {
        serde_json::to_writer_pretty(&mut self.stdout, value)?;
        writeln!(self.stdout)?;
        Ok(())
    }

    /// The raw stdout stream, for text and for bulk data.
    pub fn stdout(&mut self) -> &mut impl Write {
        &mut self.stdout
    }

    /// Flushes stdout.
    pub fn flush(&mut self) -> io::Result<()> {
        self.stdout.flush()
    }
}
