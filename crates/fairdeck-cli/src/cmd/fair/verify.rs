//! `fair verify`: a transcript (version detected from the document), a
//! version-1 deck line (`--deal`), or a session's PBN file (`--pbn`).

use std::io::Write;
use std::process::ExitCode;

use fairdeck::cards::{Card, DeckKind, Game};
use fairdeck::fair::{
    self, Commitment, DealRecord, Difference, Kind, Mismatch, PileRecord, Transcript, Verification,
    compare_deal, verify_transcript,
};
use serde::{Deserialize, Serialize};

use super::document::read_json_text;
use super::{VerifyArgs, parse_cards};
use crate::failure::usage;
use crate::output::{Format, Output};

/// What `fair verify --format json` prints for a transcript.
#[derive(Serialize)]
struct Report {
    version: u64,
    /// `valid`, `self-consistent-only` or `invalid`.
    verdict: &'static str,
    commitment: Option<String>,
    published_commitment: Option<String>,
    checked: Vec<String>,
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
        return super::session::verify(args, path, out);
    }
    if let Some(deal) = &args.deal {
        return deck_line(args, deal, out);
    }
    let Some(path) = &args.transcript else {
        return Err(usage(
            "give a TRANSCRIPT file (- for stdin), --deal CARDS or --pbn FILE",
        ));
    };
    let published = published(args)?;
    let text = read_json_text(path)?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        usage(format!(
            "{}: not JSON ({e}): verify takes the JSON transcript (fair deal --format json)",
            path.display()
        ))
    })?;
    if value.get("version").and_then(|v| v.as_u64()) == Some(3) {
        return crate::cmd::hidden::verify_text(&text, out); // read again, strictly
    }
    if value.get("manifest").is_some() && value.get("deals").is_none() {
        return Err(usage(format!(
            "{}: a table document (manifest and commitment), not a transcript: verify the \
             transcript that fair deal --table … --format json writes",
            path.display()
        )));
    }
    let (version, verification, checked) = if value.get("manifest").is_some() {
        let t: Transcript = serde_json::from_value(value).map_err(|e| {
            usage(format!(
                "{}: not a version 2 transcript: {e}",
                path.display()
            ))
        })?;
        let v = verify_transcript(&t, published.as_ref());
        let checked = checked_v2(&t, &v);
        (2, v, checked)
    } else if value.get("client_seed").is_some() {
        let doc: V1Deal = serde_json::from_value(value)
            .map_err(|e| usage(format!("{}: not a version 1 deal: {e}", path.display())))?;
        let (v, checked) = verify_v1(args, &doc, published.as_ref())?;
        (1, v, checked)
    } else {
        return Err(usage(format!(
            "{}: neither a version 2 transcript (no \"manifest\") nor a version 1 deal (no \"client_seed\")",
            path.display()
        )));
    };
    report(out, version, &verification, checked, published)
}

fn published(args: &VerifyArgs) -> anyhow::Result<Option<Commitment>> {
    args.commitment
        .as_deref()
        .map(|hex| Commitment::from_hex(hex).map_err(|e| usage(e.to_string())))
        .transpose()
}

fn checked_v2(t: &Transcript, v: &Verification) -> Vec<String> {
    let m = &t.manifest;
    let mut checked = vec![
        format!(
            "the manifest: table {:?}, {}, {} deck, seats {}, deals {}-{}",
            m.table,
            m.game,
            m.deck,
            m.seats.join(", "),
            m.first,
            m.last
        ),
        format!("{} seat seed(s) against their commitments", t.seats.len()),
    ];
    if v.computed.is_some() {
        checked
            .push("the room commitment against the revealed secret and the manifest".to_string());
    }
    if v.deals_checked > 0 {
        checked.push(format!(
            "{} deal(s): the manifest's whole range in order, and in each every hand, the \
             community cards, burns and kitty, the stock, the deck line, and a bridge board's \
             dealer and vulnerability",
            v.deals_checked
        ));
    }
    checked
}

fn report(
    out: &mut Output,
    version: u64,
    v: &Verification,
    checked: Vec<String>,
    published: Option<Commitment>,
) -> anyhow::Result<ExitCode> {
    let computed = v.computed.map(|c| c.to_hex());
    let (verdict, message) = match (v.differences.len(), &published) {
        (0, Some(p)) => (
            "valid",
            format!(
                "valid: everything listed matches, and the commitment is the one published before play ({p})"
            ),
        ),
        (0, None) => (
            "self-consistent-only",
            format!(
                "self-consistent only: compare the commitment {} with the one published before \
                 play (give it with --commitment)",
                computed.as_deref().unwrap_or("?")
            ),
        ),
        (n, _) => {
            let mut kinds: Vec<&str> = v.differences.iter().map(|d| d.kind.name()).collect();
            kinds.dedup();
            (
                "invalid",
                format!("invalid: {n} difference(s): {}", kinds.join(", ")),
            )
        }
    };
    let doc = Report {
        version,
        verdict,
        commitment: computed,
        published_commitment: published.map(|c| c.to_hex()),
        checked,
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

/// A version 1 deal as `fair deal --format json` printed it.
#[derive(Deserialize)]
struct V1Deal {
    commitment: String,
    client_seed: String,
    nonce: u64,
    game: String,
    deck: String,
    cards: Vec<Card>,
    hands: Vec<V1Hand>,
    stock: Vec<Card>,
}

#[derive(Deserialize)]
struct V1Hand {
    name: String,
    cards: Vec<Card>,
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
        differences: Vec::new(),
        computed: Some(computed),
        published_checked: published.is_some(),
        deals_checked: 1,
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
