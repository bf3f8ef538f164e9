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

/// Why `bytes` are not exactly one JSON document in UTF-8 without a byte
/// order mark (RFC 8259), if they are not: invalid UTF-8, a byte order
/// mark, `NaN` or `Infinity`, anything after the document (a second one
/// too), or any other syntax error. The wording is that of the version-3
/// reader (`fairdeck_hidden::record::Record::from_bytes`).
pub(crate) fn not_json(bytes: &[u8]) -> Option<String> {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            return Some(format!(
                "not UTF-8 text: the byte at offset {} begins no UTF-8 character",
                e.valid_up_to()
            ));
        }
    };
    if text.starts_with('\u{feff}') {
        return Some(
            "a byte order mark (U+FEFF) before the document: a transcript is UTF-8 JSON text \
             without one (RFC 8259 section 8.1)"
                .into(),
        );
    }
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .err()
        .map(|e| {
            format!(
                "not exactly one JSON document (RFC 8259: no NaN or Infinity, nothing after \
                 the document): {e}"
            )
        })
}

/// The version a document that is not JSON text declares, read only to
/// choose the form of its verdict: the value of the first `"version"` key
/// in its bytes (`3`, `2` or `"2.1"`), else `1` when `"client_seed"`
/// appears (a version 1 deal), else none.
pub(crate) fn declared_version(bytes: &[u8]) -> Option<&'static str> {
    const KEY: &[u8] = b"\"version\"";
    let skip = |mut i: usize| {
        while bytes.get(i).is_some_and(|b| b" \t\r\n".contains(b)) {
            i += 1;
        }
        i
    };
    let found = bytes.windows(KEY.len()).position(|w| w == KEY);
    if let Some(at) = found {
        let colon = skip(at + KEY.len());
        if bytes.get(colon) == Some(&b':') {
            let value = &bytes[skip(colon + 1)..];
            let ends = |n: usize| {
                !value
                    .get(n)
                    .is_some_and(|b| b.is_ascii_digit() || b".eE".contains(b))
            };
            if value.starts_with(b"3") && ends(1) {
                return Some("3");
            }
            if value.starts_with(b"\"2.1\"") {
                return Some("2.1");
            }
            if value.starts_with(b"2") && ends(1) {
                return Some("2");
            }
        }
    }
    let v1 = bytes.windows(13).any(|w| w == b"\"client_seed\"");
    v1.then_some("1")
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
