//! Where results go: text or one JSON document on stdout, notes on stderr.

use std::io::{self, BufWriter, IsTerminal, Write};

use serde::Serialize;

/// The kind of document a subcommand writes: text or JSON. (`--format pbn`
/// is a text document that only `deal` and `fair deal` can write; see
/// [`FormatChoice`] and [`Output::pbn`].)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// One JSON document on stdout.
    Json,
}

/// The output format chosen with the global `--format` flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatChoice {
    /// Human-readable text.
    Text,
    /// One JSON document on stdout.
    Json,
    /// Portable Bridge Notation 2.1 (bridge boards: `deal`, `fair deal`).
    Pbn,
}

/// The printer every subcommand writes through.
pub struct Output {
    format: Format,
    pbn: bool,
    color: bool,
    stdout: BufWriter<io::Stdout>,
}

impl Output {
    /// Text goes to a buffered stdout; colour only on a terminal without `NO_COLOR`.
    pub fn new(choice: FormatChoice) -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let format = match choice {
            FormatChoice::Json => Format::Json,
            FormatChoice::Text | FormatChoice::Pbn => Format::Text,
        };
        Self {
            format,
            pbn: choice == FormatChoice::Pbn,
            color: !no_color && io::stdout().is_terminal(),
            stdout: BufWriter::new(io::stdout()),
        }
    }

    /// The chosen format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Whether `--format pbn` was chosen (then [`Output::format`] is text).
    pub fn pbn(&self) -> bool {
        self.pbn
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
