//! `fair verify`: a transcript (version detected from the document), a
//! version-1 deck line (`--deal`), or a session's PBN file (`--pbn`).

use std::io::Write;
use std::process::ExitCode;

use fairdeck_fair::detect::{declared_version, is_table_document, is_version_3, not_json};
use fairdeck_fair::{
    self as fair, Commitment, Document, DocumentError, Evidence, MAX_DEALS, Mismatch, OwnSeed,
    V1Deal, V1Error, VerdictReport, Verification, checked_v2, read_document, refused,
    verify_record,
};
use serde::Serialize;

use super::document::read_json_bytes;
use super::flags::{Input, only_flags_of};
use super::{VerifyArgs, parse_cards};
use crate::failure::usage;
use crate::output::{Format, Output};

/// Runs `fairdeck fair verify`.
pub fn run(args: &VerifyArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.pbn {
        only_flags_of(args, Input::Pbn)?;
        return super::session::verify(args, path, out);
    }
    if let Some(deal) = &args.deal {
        only_flags_of(args, Input::DeckLine)?;
        return deck_line(args, deal, out);
    }
    let Some(path) = &args.transcript else {
        return Err(usage(
            "give a TRANSCRIPT file (- for stdin), --deal CARDS or --pbn FILE",
        ));
    };
    let recorded = recorded(args)?;
    let published = recorded.commitment;
    let bytes = read_json_bytes(path)?;
    if let Some(why) = not_json(&bytes) {
        return not_json_text(args, (path, &bytes), why, &recorded, out);
    }
    let text = String::from_utf8(bytes)?; // UTF-8: checked by not_json
    if is_version_3(&text) {
        return version_3(args, Ok(&text), out);
    }
    if is_table_document(&text) {
        return Err(usage(format!(
            "{}: a table document (manifest and commitment), not a transcript: verify the \
             transcript that fair deal --table … --format json writes",
            path.display()
        )));
    }
    let (version, verification, checked) = match read_document(&text) {
        Err(e) if e.version.is_none() => {
            return Err(usage(format!(
                "{}: {e}: verify takes the JSON transcript (fair deal --format json)",
                path.display()
            )));
        }
        Err(e) => {
            only_flags_of(args, declared(e.version))?;
            refused(&e)
        }
        Ok(Document::V2(t)) => {
            only_flags_of(args, Input::V2)?;
            let v = verify_record(&t, &recorded);
            let checked = checked_v2(&t, &v);
            (t.version.name(), v, checked)
        }
        Ok(Document::V1(doc)) => {
            only_flags_of(args, Input::V1)?;
            let (v, checked) = verify_v1(args, &doc, published.as_ref())?;
            ("1", v, checked)
        }
        Ok(_) => return Err(usage("a document of a version this fairdeck does not know")),
    };
    report(out, version, &verification, checked, &recorded)
}

/// A version-3 (hidden hands) document, or bytes that declare version 3 but
/// are not JSON text (`Err`): `fairdeck-hidden`'s strict reader refuses
/// those as `document`.
fn version_3(args: &VerifyArgs, text: Result<&str, &[u8]>, out: &mut Output) -> Exit {
    only_flags_of(args, Input::V3)?;
    let key = args.key.as_deref();
    let evidence = args.evidence.as_deref();
    let pins = &args.seat_key;
    let bytes = match text {
        Ok(text) => return crate::cmd::hidden::verify_text(text, (key, evidence, pins), out), // read again, strictly
        Err(bytes) => bytes,
    };
    // Not UTF-8: the verdict of a refused document, with the reader's reason.
    let why = match fairdeck_hidden::record::Record::from_bytes(bytes) {
        Err(e) => e,
        Ok(_) => fairdeck_hidden::Error::Document("not JSON text".into()),
    };
    let mut verdict = fairdeck_hidden::verify::verify_json("", &Default::default()).verdict;
    verdict.differences = vec![fairdeck_hidden::verdict::Difference::new(None, why)];
    match out.format() {
        Format::Json => out.json(&verdict)?,
        Format::Text => {
            let w = out.stdout();
            writeln!(w, "version 3 transcript; checked:")?;
            for c in &verdict.checked {
                writeln!(w, "  {c}")?;
            }
            for d in &verdict.differences {
                writeln!(w, "{}", d.message)?;
            }
            writeln!(w, "{}", verdict.summary())?;
        }
    }
    Ok(ExitCode::FAILURE)
}

type Exit = anyhow::Result<ExitCode>;

/// The reader of a document that declares `version` (1, else 2).
fn declared(version: Option<&str>) -> Input {
    match version {
        Some("1") => Input::V1,
        _ => Input::V2,
    }
}

/// Bytes that are not exactly one JSON document (`why`): when they declare
/// a version, an unreadable document — the one difference `document`
/// (exit 1), in the verdict form of that version (read from the bytes only
/// for that); when they declare none (plain text, such as a transcript's
/// text rendering), not a transcript at all: a usage error.
fn not_json_text(
    args: &VerifyArgs,
    (path, bytes): (&std::path::Path, &[u8]),
    why: String,
    recorded: &Evidence,
    out: &mut Output,
) -> Exit {
    let Some(version) = declared_version(bytes) else {
        return Err(usage(format!(
            "{}: {why}: verify takes the JSON transcript (fair deal --format json)",
            path.display()
        )));
    };
    if version == "3" {
        return version_3(args, std::str::from_utf8(bytes).map_err(|_| bytes), out);
    }
    only_flags_of(args, declared(Some(version)))?;
    let e = DocumentError {
        version: Some(version),
        message: why,
    };
    let (version, verification, checked) = refused(&e);
    report(out, version, &verification, checked, recorded)
}

/// What the player recorded, from the flags.
fn recorded(args: &VerifyArgs) -> anyhow::Result<Evidence> {
    let hex = |flag: &str, text: &Option<String>| {
        text.as_deref()
            .map(|h| Commitment::from_hex(h).map_err(|e| usage(format!("--{flag}: {e}"))))
            .transpose()
    };
    Ok(Evidence {
        commitment: hex("commitment", &args.commitment)?,
        lock: hex("lock", &args.lock)?,
        seat: args
            .seat
            .clone()
            .zip(args.seed.clone())
            .map(|(seat, seed)| {
                fair::check_seed(&seed).map_err(|e| usage(format!("--seed: {e}")))?;
                Ok::<_, anyhow::Error>(OwnSeed { seat, seed })
            })
            .transpose()?,
        played: args.played.as_deref().map(parse_played).transpose()?,
    })
}

/// Deal numbers: `0,1,2`, `0-2` or a mix, at most MAX_DEALS of them.
fn parse_played(text: &str) -> anyhow::Result<Vec<u64>> {
    let bad = || {
        usage(format!(
            "--played {text:?}: write deal numbers as 0,1,2 or 0-2"
        ))
    };
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let num = |s: &str| s.trim().parse::<u64>().map_err(|_| bad());
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (num(a)?, num(b)?),
            None => (num(part)?, num(part)?),
        };
        if a > b || b - a >= MAX_DEALS || out.len() as u64 + (b - a + 1) > MAX_DEALS {
            return Err(usage(format!(
                "--played {text:?}: at most {MAX_DEALS} deal numbers, ranges as A-B with A <= B"
            )));
        }
        out.extend(a..=b);
    }
    Ok(out)
}

/// Renders the verdict on a version 1, 2 or 2.1 transcript.
fn report(
    out: &mut Output,
    version: &str,
    v: &Verification,
    checked: Vec<String>,
    recorded: &Evidence,
) -> anyhow::Result<ExitCode> {
    let doc = VerdictReport::new(version, v, checked, recorded);
    match out.format() {
        Format::Json => out.json(&doc)?,
        Format::Text => {
            let w = out.stdout();
            writeln!(w, "version {version} transcript; checked:")?;
            for c in &doc.checked {
                writeln!(w, "  {c}")?;
            }
            for d in &doc.differences {
                writeln!(w, "{}: {}", d.kind, d.message)?;
            }
            writeln!(w, "{}", doc.message)?;
        }
    }
    Ok(if doc.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Version 1: the secret from the flags, the check from `fairdeck_fair`.
fn verify_v1(
    args: &VerifyArgs,
    doc: &V1Deal,
    published: Option<&Commitment>,
) -> anyhow::Result<(Verification, Vec<String>)> {
    let secret = args.inputs.secret().map_err(|e| {
        usage(format!(
            "{e:#} (a version 1 deal does not carry the server secret)"
        ))
    })?;
    fair::verify_v1(doc, &secret, published).map_err(|e| match e {
        V1Error::Cards(e) => e.into(),
        e => usage(e.to_string()),
    })
}

/// `fair verify --deal CARDS`: the version 1 deck line only.
fn deck_line(args: &VerifyArgs, deal: &str, out: &mut Output) -> anyhow::Result<ExitCode> {
    let inputs = &args.inputs;
    let hex = args.commitment.as_deref().ok_or_else(|| {
        usage("--deal needs --commitment HEX, the commitment published before play")
    })?;
    let published = Commitment::from_hex(hex).map_err(|e| usage(e.to_string()))?;
    let nonce = inputs.nonce()?;
    let secret = inputs.secret()?;
    let client_seed = inputs.client_seed()?;
    let (_, kind) = inputs.game_and_deck()?;
    let claimed = parse_cards(deal)?;
    let result = fair::verify(&published, &secret, client_seed, nonce, kind, &claimed);
    let (valid, mismatch, message) = match &result {
        Ok(()) => (
            true,
            None,
            "valid (the deck line only: the hands were not checked; verify the transcript for those)".to_string(),
        ),
        Err(m) => (
            false,
            Some(match m {
                Mismatch::Commitment { .. } => "commitment",
                Mismatch::CardCount { .. } => "card-count",
                Mismatch::NotTheDeck { .. } => "not-the-deck",
                _ => "order",
            }),
            format!("invalid: {m}"),
        ),
    };
    #[derive(Serialize)]
    struct Verdict {
        valid: bool,
        checked: &'static str,
        mismatch: Option<&'static str>,
        message: String,
    }
    let verdict = Verdict {
        valid,
        checked: "deck-line",
        mismatch,
        message,
    };
    match out.format() {
        Format::Json => out.json(&verdict)?,
        Format::Text => writeln!(out.stdout(), "{}", verdict.message)?,
    }
    Ok(if valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
