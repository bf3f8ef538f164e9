//! `fair deal --boards A-B` and `fair verify --pbn FILE`: a session of
//! bridge boards under one commitment (section 7 of docs/fair-dealing.md).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use fairdeck::cards::Board;
use fairdeck::cards::pbn::{self, PbnBoard};
use fairdeck_fair::{self as fair, Commitment, SessionInputs, SessionReport};
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

/// Runs `fair verify --pbn FILE`: the file is read strictly (section 7.1).
pub fn verify(args: &VerifyArgs, path: &Path, out: &mut Output) -> anyhow::Result<ExitCode> {
    let secret = args.inputs.secret()?;
    let client_seed = args.inputs.client_seed()?;
    let text = super::document::read_json_text(path)?;
    let published = args
        .commitment
        .as_deref()
        .map(|hex| Commitment::from_hex(hex).map_err(|e| usage(e.to_string())))
        .transpose()?;
    let inputs = SessionInputs {
        secret: &secret,
        client_seed,
        published,
        range: args.boards.as_deref(),
    };
    let name = path.display().to_string();
    let verdict = SessionReport::new(&text, &name, &inputs, &crate::failure::Flags)
        .map_err(|e| usage(e.to_string()))?;
    match out.format() {
        Format::Json => out.json(&verdict)?,
        Format::Text => {
            let w = out.stdout();
            for r in &verdict.range_differences {
                writeln!(w, "{r}")?;
            }
            for c in verdict.boards.iter().filter(|c| !c.valid) {
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
    Ok(if verdict.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
