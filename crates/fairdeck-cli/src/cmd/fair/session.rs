//! `fair deal --boards A-B` and `fair verify --pbn FILE`: a session of
//! bridge boards under one commitment (section 7 of docs/fair-dealing.md).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use fairdeck::cards::Board;
use fairdeck::cards::pbn::{self, PbnBoard};
use fairdeck_fair::{self as fair, BoardCheck, Commitment};
use serde::Serialize;

use super::{DealArgs, VerifyArgs};
use crate::cmd::deal::print_diagram;
use crate::failure::usage;
use crate::output::{Format, Output};

/// The most boards one session run deals.
const MAX_BOARDS: u64 = 10_000;

#[derive(Serialize)]
struct Session<'a> {
    commitment: String,
    client_seed: &'a str,
    boards: Vec<SessionBoard>,
}

#[derive(Serialize)]
struct SessionBoard {
    board: u64,
    nonce: u64,
    dealer: &'static str,
    vulnerable: &'static str,
    deal: String,
}

/// Runs `fair deal --boards RANGE`.
pub fn deal(args: &DealArgs, range: &str, out: &mut Output) -> anyhow::Result<ExitCode> {
    let inputs = &args.inputs;
    let secret = inputs.secret()?;
    let range = Board::parse_range(range).map_err(|e| usage(e.to_string()))?;
    let count = range.end() - range.start() + 1;
    if count > MAX_BOARDS {
        return Err(usage(format!(
            "--boards: at most {MAX_BOARDS} boards, asked for {count}"
        )));
    }
    let seed = inputs.client_seed()?;
    let boards: Vec<PbnBoard> = range
        .map(|b| {
            let mut board = fair::session_board(&secret, seed, Board::new(b)?);
            board.event = args.event.clone();
            Ok(board)
        })
        .collect::<anyhow::Result<_>>()?;
    let commitment = secret.commitment().to_hex();
    if out.pbn() {
        let notes = [
            format!("commitment: {commitment}"),
            format!("client seed: {}", super::quoted(seed)),
            "board b is the fairdeck fair deal of nonce b (docs/fair-dealing.md, section 7)".into(),
        ];
        out.stdout()
            .write_all(pbn::write_with_notes(&boards, &notes).as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    match out.format() {
        Format::Json => out.json(&Session {
            commitment,
            client_seed: seed,
            boards: boards
                .iter()
                .map(|b| SessionBoard {
                    board: b.board.number(),
                    nonce: b.board.number(),
                    dealer: b.dealer.name(),
                    vulnerable: b.vulnerable.pbn(),
                    deal: pbn::deal_value(&b.hands),
                })
                .collect(),
        })?,
        Format::Text => {
            let style = args.style(out);
            let w = out.stdout();
            for b in &boards {
                let heading = format!(
                    "Board {} · dealer {} · vulnerable {} · nonce {}",
                    b.board,
                    b.dealer.name(),
                    b.vulnerable,
                    b.board
                );
                print_diagram(w, &heading, &b.hands, style)?;
                writeln!(w)?;
            }
            writeln!(w, "commitment: {commitment}")?;
            writeln!(
                w,
                "client seed: {}, boards {} (nonce = board number)",
                super::quoted(seed),
                boards.len()
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct SessionVerdict<'a> {
    /// `valid`, `self-consistent-only` or `invalid`.
    verdict: &'static str,
    commitment: String,
    /// The commitment given with --commitment (the file's own `% commitment:`
    /// line is never used).
    published_commitment: Option<String>,
    commitment_matches: Option<bool>,
    /// The file's own `% commitment:` line when it is not the secret's
    /// commitment (it is never trusted, but a contradiction is worth a word).
    file_commitment_contradicts: Option<String>,
    boards: Vec<BoardVerdict<'a>>,
    /// Boards of the range missing from the file, or extra, repeated, out of order.
    range_differences: Vec<String>,
    message: String,
}

#[derive(Serialize)]
struct BoardVerdict<'a> {
    board: u64,
    valid: bool,
    differences: &'a [String],
}

/// Missing, extra, repeated and out-of-order boards against `range`.
fn range_differences(boards: &[PbnBoard], range: core::ops::RangeInclusive<u64>) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut previous = 0;
    for b in boards {
        let n = b.board.number();
        if !range.contains(&n) {
            out.push(format!(
                "extra-deal: board {n} is outside boards {}-{}",
                range.start(),
                range.end()
            ));
        } else if !seen.insert(n) {
            out.push(format!("duplicate-deal: board {n} appears twice"));
        } else if n < previous {
            out.push(format!(
                "deal-order: board {n} comes after board {previous}"
            ));
        }
        previous = previous.max(n);
    }
    let missing: Vec<String> = range
        .filter(|n| !seen.contains(n))
        .map(|n| n.to_string())
        .collect();
    if !missing.is_empty() {
        out.push(format!(
            "missing-deal: board(s) {} are not in the file",
            missing.join(", ")
        ));
    }
    out
}

/// Runs `fair verify --pbn FILE`: the file is read strictly (section 7.1).
pub fn verify(args: &VerifyArgs, path: &Path, out: &mut Output) -> anyhow::Result<ExitCode> {
    let secret = args.inputs.secret()?;
    let client_seed = args.inputs.client_seed()?;
    let text = super::document::read_json_text(path)?;
    let computed = secret.commitment();
    let published = args
        .commitment
        .as_deref()
        .map(|hex| Commitment::from_hex(hex).map_err(|e| usage(e.to_string())))
        .transpose()?;
    let boards = match pbn::read_strict(&text) {
        Ok(boards) => boards,
        Err(e) => {
            return refused(
                out,
                &format!("{}: {e}", path.display()),
                computed,
                published,
            );
        }
    };
    let range = match &args.boards {
        Some(r) => Board::parse_range(r).map_err(|e| usage(e.to_string()))?,
        None => {
            let numbers = boards.iter().map(|b| b.board.number());
            numbers.clone().min().unwrap_or(1)..=numbers.max().unwrap_or(1)
        }
    };
    let matches = published.map(|c| c == computed);
    let checks = fair::verify_session(&secret, client_seed, &boards);
    let ranges = range_differences(&boards, range.clone());
    let bad: Vec<&BoardCheck> = checks
        .iter()
        .filter(|c| !c.differences.is_empty())
        .collect();
    let clean = bad.is_empty() && ranges.is_empty();
    let verdict = match matches {
        Some(true) if clean => "valid",
        None if clean => "self-consistent-only",
        _ => "invalid",
    };
    let mut message = summary(
        &checks,
        bad.len(),
        &ranges,
        matches,
        computed,
        &range,
        args.boards.is_some(),
    );
    let contradicting = file_commitment(&text).filter(|c| *c != computed.to_hex());
    if let Some(c) = &contradicting {
        message.push_str(&format!(
            "; warning: the file's own \"% commitment: {c}\" line contradicts the secret (its \
             commitment is {computed}): the file was written with another secret or edited"
        ));
    }
    let verdict = SessionVerdict {
        verdict,
        commitment: computed.to_hex(),
        published_commitment: published.map(|c| c.to_hex()),
        commitment_matches: matches,
        boards: checks
            .iter()
            .map(|c| BoardVerdict {
                board: c.board,
                valid: c.differences.is_empty(),
                differences: &c.differences,
            })
            .collect(),
        range_differences: ranges.clone(),
        file_commitment_contradicts: contradicting,
        message,
    };
    match out.format() {
        Format::Json => out.json(&verdict)?,
        Format::Text => {
            let w = out.stdout();
            for r in &ranges {
                writeln!(w, "{r}")?;
            }
            for c in &bad {
                writeln!(
                    w,
                    "board {}: differs: {}",
                    c.board,
                    c.differences.join("; ")
                )?;
            }
            writeln!(w, "{}", verdict.message)?;
        }
    }
    Ok(if verdict.verdict == "invalid" {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// A file the strict reader refuses (section 7.1): invalid, kind `document`,
/// exit 1 — the file is evidence, and nothing else in it was checked.
fn refused(
    out: &mut Output,
    why: &str,
    computed: Commitment,
    published: Option<Commitment>,
) -> anyhow::Result<ExitCode> {
    let difference = format!("document: {why}");
    let verdict = SessionVerdict {
        verdict: "invalid",
        commitment: computed.to_hex(),
        published_commitment: published.map(|c| c.to_hex()),
        commitment_matches: published.map(|c| c == computed),
        boards: Vec::new(),
        range_differences: vec![difference.clone()],
        file_commitment_contradicts: None,
        message: format!(
            "invalid: the file breaks the strict reading of section 7.1 ({why}); no board was checked"
        ),
    };
    match out.format() {
        Format::Json => out.json(&verdict)?,
        Format::Text => writeln!(out.stdout(), "{difference}\n{}", verdict.message)?,
    }
    Ok(ExitCode::FAILURE)
}

fn summary(
    checks: &[BoardCheck],
    bad: usize,
    ranges: &[String],
    matches: Option<bool>,
    computed: Commitment,
    range: &core::ops::RangeInclusive<u64>,
    range_given: bool,
) -> String {
    let of_range = if range_given {
        "the published range"
    } else {
        "the file's range (give --boards A-B to check the range published before play)"
    };
    let mut boards = match bad {
        0 => format!(
            "all {} boards match the derivation; boards {}-{}, {of_range}",
            checks.len(),
            range.start(),
            range.end()
        ),
        n => format!("{n} of {} boards differ", checks.len()),
    };
    if !ranges.is_empty() {
        boards.push_str(&format!(
            "; {} problem(s) with the board range",
            ranges.len()
        ));
    }
    let clean = bad == 0 && ranges.is_empty();
    match matches {
        Some(true) if clean => format!("valid: {boards}; the commitment matches"),
        Some(true) => format!("invalid: {boards}; the commitment matches"),
        Some(false) => {
            format!("invalid: the secret does not match the published commitment; {boards}")
        }
        None if clean => format!(
            "self-consistent only: {boards}; compare the commitment {computed} with the one \
             published before play (give it with --commitment; the file's own is never trusted)"
        ),
        None => format!("invalid: {boards}"),
    }
}

/// The hex of the file's own `% commitment:` note, if it has one.
fn file_commitment(text: &str) -> Option<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix('%'))
        .filter_map(|l| l.trim().strip_prefix("commitment:"))
        .map(|c| c.trim().to_ascii_lowercase())
        .next()
}
