//! The documents `fair` reads and the transcript it renders, shared by
//! `fair table`, `fair deal` and `fair verify` (kept here so that none of
//! those modules needs another for them).

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use fairdeck::cards::Card;
use fairdeck_fair::Record;

use crate::failure::usage;

/// Reads a JSON document of at most 64 MiB (`-` is stdin).
pub(crate) fn read_json_text(path: &Path) -> anyhow::Result<String> {
    let bytes = read_json_bytes(path)?;
    String::from_utf8(bytes).with_context(|| format!("cannot read {}", path.display()))
}

/// Reads a document of at most 64 MiB as bytes (`-` is stdin): `fair
/// verify` judges bytes that are not JSON text itself (a `document`
/// difference), rather than failing to read them.
pub(crate) fn read_json_bytes(path: &Path) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    const MAX: u64 = 64 << 20;
    let mut bytes = Vec::new();
    let cannot = || format!("cannot read {}", path.display());
    if path.as_os_str() == "-" {
        std::io::stdin()
            .take(MAX + 1)
            .read_to_end(&mut bytes)
            .with_context(cannot)?;
    } else {
        let file = std::fs::File::open(path).with_context(cannot)?;
        file.take(MAX + 1)
            .read_to_end(&mut bytes)
            .with_context(cannot)?;
    }
    if bytes.len() as u64 > MAX {
        return Err(usage(format!("{} is larger than 64 MiB", path.display())));
    }
    Ok(bytes)
}

/// The text rendering of a transcript (the JSON is what `verify` reads).
pub fn print_transcript(w: &mut impl Write, r: &Record) -> std::io::Result<()> {
    let t = &r.transcript;
    let m = &t.manifest;
    writeln!(w, "fair dealing transcript, version {}", r.version)?;
    writeln!(
        w,
        "table {:?}: {}, {} deck, deals {}-{}",
        m.table, m.game, m.deck, m.first, m.last
    )?;
    writeln!(w, "commitment: {}", t.commitment)?;
    for s in &t.seats {
        let seed = s
            .seed
            .as_deref()
            .map_or("not revealed".into(), super::quoted);
        let c = if s.commitment.is_empty() {
            "none (never committed)"
        } else {
            &s.commitment
        };
        writeln!(w, "seat {:?}: commitment {c}, seed {seed}", s.name)?;
    }
    if let Some(lock) = &r.lock {
        writeln!(w, "seat lock: {lock}")?;
    }
    if let Some(v) = &r.void {
        writeln!(
            w,
            "VOID at the {} phase: seat(s) {} failed; nothing was dealt",
            v.phase.name(),
            v.seats.join(", ")
        )?;
    }
    if let Some(p) = r.played.filter(|_| r.void.is_none()) {
        writeln!(
            w,
            "played: {p} of {} deal(s), from deal {} in order",
            m.last - m.first + 1,
            m.first
        )?;
    }
    let text = |c: &[Card]| c.iter().map(Card::to_string).collect::<Vec<_>>().join(" ");
    for d in &t.deals {
        let board = match (&d.dealer, &d.vulnerable) {
            (Some(dl), Some(v)) => format!(" (dealer {dl}, vulnerable {v})"),
            _ => String::new(),
        };
        writeln!(w, "deal {}{board}", d.nonce)?;
        for p in &d.piles {
            writeln!(w, "  {} ({}): {}", p.name, p.role, text(&p.cards))?;
        }
        if !d.stock.is_empty() {
            writeln!(w, "  stock: {}", text(&d.stock))?;
        }
    }
    if let Some(s) = &t.server_secret {
        writeln!(w, "server secret: {s}")?;
    }
    writeln!(
        w,
        "verify with: fairdeck fair verify TRANSCRIPT.json --commitment C --lock L --seat NAME \
         --seed T --played LIST (what you recorded: C before play, L before revealing, your seed, \
         the deal numbers you were shown)"
    )
}
