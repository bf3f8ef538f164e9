//! `fair deal --boards A-B` and `fair verify --pbn FILE`: a session of
//! bridge boards under one commitment (section 7 of docs/fair-dealing.md).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use fairdeck::cards::Board;
use fairdeck::cards::pbn::{self, PbnBoard};
use fairdeck::fair::{self, BoardCheck, Commitment};
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
    let seed = &inputs.client_seed;
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
            format!("client seed: {seed:?}"),
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
                "client seed: {seed:?}, boards {} (nonce = board number)",
                boards.len()
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct SessionVerdict<'a> {
    valid: bool,
    commitment: String,
    /// `argument`, `file` or `computed` (nothing to compare with).
    commitment_from: &'a str,
    commitment_matches: Option<bool>,
    boards: Vec<BoardVerdict<'a>>,
    message: String,
}

#[derive(Serialize)]
struct BoardVerdict<'a> {
    board: u64,
    valid: bool,
    differences: &'a [String],
}

/// The commitment to check against: `--commitment`, else the file's
/// `% commitment:` note.
fn published(args: &VerifyArgs, text: &str) -> anyhow::Result<Option<(Commitment, &'static str)>> {
    if let Some(hex) = &args.commitment {
        let c = Commitment::from_hex(hex).map_err(|e| usage(e.to_string()))?;
        return Ok(Some((c, "argument")));
    }
    let note = text.lines().find_map(|l| {
        l.trim()
            .strip_prefix('%')?
            .trim()
            .strip_prefix("commitment:")
    });
    match note {
        Some(hex) => Ok(Some((
            Commitment::from_hex(hex).map_err(|e| usage(format!("the file's commitment: {e}")))?,
            "file",
        ))),
        None => Ok(None),
    }
}

/// Runs `fair verify --pbn FILE`.
pub fn verify(args: &VerifyArgs, path: &Path, out: &mut Output) -> anyhow::Result<ExitCode> {
    let secret = args.inputs.secret()?;
    let (text, boards) = crate::cmd::deal::boards::read_pbn_file(path)?;
    let computed = secret.commitment();
    let published = published(args, &text)?;
    let matches = published.map(|(c, _)| c == computed);
    let checks = fair::verify_session(&secret, &args.inputs.client_seed, &boards);
    let bad: Vec<&BoardCheck> = checks
        .iter()
        .filter(|c| !c.differences.is_empty())
        .collect();
    let valid = matches == Some(true) && bad.is_empty();
    let message = summary(&checks, bad.len(), matches, computed);
    let verdict = SessionVerdict {
        valid,
        commitment: computed.to_hex(),
        commitment_from: published.map_or("computed", |(_, from)| from),
        commitment_matches: matches,
        boards: checks
            .iter()
            .map(|c| BoardVerdict {
                board: c.board,
                valid: c.differences.is_empty(),
                differences: &c.differences,
            })
            .collect(),
        message,
    };
    match out.format() {
        Format::Json => out.json(&verdict)?,
        Format::Text => {
            let w = out.stdout();
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
    Ok(if valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn summary(
    checks: &[BoardCheck],
    bad: usize,
    matches: Option<bool>,
    computed: Commitment,
) -> String {
    let boards = match bad {
        0 => format!("all {} boards match the derivation", checks.len()),
        n => format!("{n} of {} boards differ", checks.len()),
    };
    match matches {
        Some(true) if bad == 0 => format!("valid: {boards}; the commitment matches"),
        Some(true) => format!("invalid: {boards}; the commitment matches"),
        Some(false) => {
            format!("invalid: the secret does not match the published commitment; {boards}")
        }
        None => format!(
            "invalid: no commitment to check (give --commitment); {boards}; the secret's \
             commitment is {computed}"
        ),
    }
}
