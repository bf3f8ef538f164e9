//! `fair verify`: a transcript (version detected from the document), a
//! version-1 deck line (`--deal`), or a session's PBN file (`--pbn`).

use std::io::Write;
use std::process::ExitCode;

use fairdeck::cards::{Card, DeckKind, Game};
use fairdeck_fair::{
    self as fair, Commitment, DealRecord, Difference, Document, DocumentError, Evidence, Kind,
    MAX_DEALS, Mismatch, OwnSeed, PileRecord, V1Deal, Verdict, Verification, compare_deal,
    read_document, verify_record,
};
use serde::Serialize;

use super::document::{declared_version, not_json, read_json_bytes};
use super::flags::{Input, only_flags_of};
use super::{VerifyArgs, parse_cards};
use crate::failure::usage;
use crate::output::{Format, Output};

/// What `fair verify --format json` prints for a transcript.
#[derive(Serialize)]
struct Report {
    /// `1`, `2` or `"2.1"` (as the documents write them).
    version: serde_json::Value,
    /// `valid`, `partial`, `self-consistent-only`, `void` or `invalid`.
    verdict: &'static str,
    commitment: Option<String>,
    published_commitment: Option<String>,
    /// The seat lock the transcript's commitments give.
    lock: Option<String>,
    /// The lock given with --lock.
    recorded_lock: Option<String>,
    checked: Vec<String>,
    /// What was not given and so not checked.
    unchecked: Vec<&'static str>,
    /// Version 2.1: deals played and deals in the range.
    played: Option<[u64; 2]>,
    differences: Vec<DifferenceDoc>,
    message: String,
}

#[derive(Serialize)]
struct DifferenceDoc {
    kind: &'static str,
    message: String,
}

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
            let checked = super::verdict_text::checked_v2(&t, &v);
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

/// A version-3 (hidden hands) document: read by `fairdeck-hidden`'s strict reader.
fn is_version_3(text: &str) -> bool {
    let value: Option<serde_json::Value> = serde_json::from_str(text).ok();
    value.is_some_and(|v| v.get("version").and_then(|v| v.as_u64()) == Some(3))
}

/// A table document (`fair table new`) has a manifest and no deals: the
/// wrong file, said so as a usage error rather than a malformed transcript.
fn is_table_document(text: &str) -> bool {
    let value: Option<serde_json::Value> = serde_json::from_str(text).ok();
    value.is_some_and(|v| {
        v.get("manifest").is_some() && v.get("deals").is_none() && v.get("version").is_none()
    })
}

/// A document refused by the strict reader: one difference of kind
/// `document`, nothing else checked.
fn refused(e: &DocumentError) -> (&'static str, Verification, Vec<String>) {
    let v = Verification {
        differences: vec![Difference {
            kind: Kind::Document,
            message: format!("the document breaks the reading rules (section 10.1): {e}"),
        }],
        ..Verification::default()
    };
    (
        e.version.unwrap_or("2"),
        v,
        vec!["the document's form (refused: nothing else was checked)".into()],
    )
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

fn report(
    out: &mut Output,
    version: &str,
    v: &Verification,
    checked: Vec<String>,
    recorded: &Evidence,
) -> anyhow::Result<ExitCode> {
    let computed = v.computed.map(|c| c.to_hex());
    let verdict = if version == "1" {
        v1_verdict(v)
    } else {
        v.verdict()
    };
    let message = super::verdict_text::message(version, v, verdict, computed.as_deref());
    let unchecked = if version == "1" {
        Vec::new()
    } else {
        v.unchecked().iter().map(|u| u.describe()).collect()
    };
    let doc = Report {
        version: match version.parse::<u64>() {
            Ok(n) => n.into(),
            Err(_) => version.into(),
        },
        verdict: verdict.name(),
        commitment: computed,
        published_commitment: recorded.commitment.map(|c| c.to_hex()),
        lock: v.lock.map(|c| c.to_hex()),
        recorded_lock: recorded.lock.map(|c| c.to_hex()),
        checked,
        unchecked,
        played: v.played.map(|(p, n)| [p, n]),
        differences: v
            .differences
            .iter()
            .map(|d| DifferenceDoc {
                kind: d.kind.name(),
                message: d.message.clone(),
            })
            .collect(),
        message,
    };
    match out.format() {
        Format::Json => out.json(&doc)?,
        Format::Text => {
            let w = out.stdout();
            writeln!(w, "version {version} transcript; checked:")?;
            for c in &doc.checked {
                writeln!(w, "  {c}")?;
            }
            for d in &v.differences {
                writeln!(w, "{d}")?;
            }
            writeln!(w, "{}", doc.message)?;
        }
    }
    Ok(if v.differences.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Version 1 has no lock, seats or deal order: valid with the commitment.
fn v1_verdict(v: &Verification) -> Verdict {
    match (v.differences.is_empty(), v.published_checked) {
        (false, _) => Verdict::Invalid,
        (true, true) => Verdict::Valid,
        (true, false) => Verdict::SelfConsistentOnly,
    }
}

/// Version 1: the hands, stock and deck line of one deal from `(S, T, N)`.
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
    let game: Game = doc.game.parse()?;
    let kind: DeckKind = doc.deck.parse()?;
    let plan = game
        .players()
        .0
        .filter_map(|p| game.plan(Some(p)).ok())
        .find(|plan| plan.piles().count() == doc.hands.len())
        .ok_or_else(|| usage(format!("{} hands is no {} deal", doc.hands.len(), doc.game)))?;
    let deck = fair::shuffled_deck(&secret, &doc.client_seed, doc.nonce, kind);
    let dealt = plan.deal(&deck)?;
    let record = |piles: Vec<PileRecord>, stock: &[Card], deck: &[Card]| DealRecord {
        nonce: doc.nonce,
        dealer: None,
        vulnerable: None,
        piles,
        stock: stock.to_vec(),
        deck: Some(deck.to_vec()),
    };
    let expected_piles: Vec<PileRecord> = dealt
        .piles
        .iter()
        .map(|p| PileRecord {
            name: p.name.clone(),
            role: p.role.name().into(),
            cards: p.cards.clone(),
        })
        .collect();
    let claimed_piles = doc
        .hands
        .iter()
        .zip(&expected_piles)
        .map(|(h, e)| PileRecord {
            name: h.name.clone(),
            role: e.role.clone(),
            cards: h.cards.clone(),
        })
        .collect();
    let expected = record(expected_piles, &dealt.stock, &deck);
    let claimed = record(claimed_piles, &doc.stock, &doc.cards);
    let computed = secret.commitment();
    let mut v = Verification {
        computed: Some(computed),
        published_checked: published.is_some(),
        deals_checked: 1,
        ..Verification::default()
    };
    let bad = |kind, message| Difference { kind, message };
    if Commitment::from_hex(&doc.commitment).ok() != Some(computed) {
        let why = format!(
            "SHA-256 of the secret is {computed}, the deal states {:?}",
            doc.commitment
        );
        v.differences.push(bad(Kind::Commitment, why));
    }
    if let Some(p) = published.filter(|p| **p != computed) {
        let why =
            format!("SHA-256 of the secret is {computed}, the one published before play is {p}");
        v.differences.push(bad(Kind::PublishedCommitment, why));
    }
    compare_deal(&expected, &claimed, &mut v.differences);
    let checked = vec![
        format!("the secret against the commitment (version 1: SHA-256 of the secret)"),
        format!(
            "deal {} of client seed {:?} ({}, {} deck): every hand, the community cards and burns, the stock and the deck line",
            doc.nonce, doc.client_seed, doc.game, doc.deck
        ),
    ];
    Ok((v, checked))
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
