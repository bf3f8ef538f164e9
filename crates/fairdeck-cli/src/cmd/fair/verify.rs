//! `fair verify`: a transcript (version detected from the document), a
//! version-1 deck line (`--deal`), or a session's PBN file (`--pbn`).
//!
//! A transcript is `fairdeck_report::verify`'s: this module maps the flags
//! and files to its request and renders its report.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use fairdeck_fair::{Commitment, DeckLineVerdict, VerdictReport};
use fairdeck_report::verify::{
    self as report, Reader, Transcript, Verdict, VerifyReport, VerifyRequest,
};
use fairdeck_report::{Field, RequestError};

use super::document::read_json_bytes;
use super::{VerifyArgs, parse_cards, read_secret_file};
use crate::cmd::hidden::{print_verdict, read_text};
use crate::failure::{Flags, flag, usage};
use crate::output::{Format, Output};

/// Runs `fairdeck fair verify`.
pub fn run(args: &VerifyArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    let mut request = VerifyRequest {
        commitment: args.commitment.clone(),
        lock: args.lock.clone(),
        seat: args.seat.clone(),
        seed: args.seed.clone(),
        played: args.played.clone(),
        server_secret: args.inputs.server_secret.clone(),
        seat_keys: args.seat_key.clone(),
        ..VerifyRequest::default()
    };
    let given = given(args, &request);
    if let Some(path) = &args.pbn {
        report::fits(Reader::Pbn, &given)?;
        return super::session::verify(args, path, out);
    }
    if let Some(deal) = &args.deal {
        report::fits(Reader::DeckLine, &given)?;
        return deck_line(args, deal, out);
    }
    let Some(path) = &args.transcript else {
        return Err(usage(
            "give a TRANSCRIPT file (- for stdin), --deal CARDS or --pbn FILE",
        ));
    };
    let recorded = request.recorded()?;
    let bytes = read_json_bytes(path)?;
    let transcript = report::read(&bytes).map_err(|e| at(path, &e))?;
    report::fits(transcript.reader(), &given)?;
    read_files(args, &transcript, &mut request)?;
    let report =
        (transcript.verify((&request, &recorded), &Flags)).map_err(|e| named_file(args, e))?;
    render(out, &report)
}

/// The fields given, as the report layer names them: those the request
/// holds ([`VerifyRequest::given`]), the files it is given later (`--key`,
/// `--evidence`), and the flags of the other readers (`--secret-file`,
/// version 1's deck-line inputs, `--boards`).
fn given(args: &VerifyArgs, request: &VerifyRequest) -> Vec<Field> {
    let inputs = &args.inputs;
    let files_and_others = [
        (Field::Key, args.key.is_some()),
        (Field::Evidence, args.evidence.is_some()),
        (Field::SecretFile, inputs.secret_file.is_some()),
        (Field::ClientSeed, inputs.client_seed.is_some()),
        (Field::Nonce, inputs.nonce.is_some()),
        (Field::Game, inputs.game.is_some()),
        (Field::Deck, inputs.deck.is_some()),
        (Field::Boards, args.boards.is_some()),
    ];
    let mut given = request.given();
    given.extend(
        files_and_others
            .iter()
            .filter(|(_, on)| *on)
            .map(|(f, _)| *f),
    );
    given
}

/// A refusal of the transcript, after its file name.
fn at(path: &Path, e: &RequestError) -> anyhow::Error {
    usage(format!("{}: {}", path.display(), e.message.render(&flag)))
}

/// The files the transcript's version reads, into the request: version
/// 1's `--secret-file`, version 3's `--evidence` and `--key` (in that
/// order: an evidence file that is not one is said before a key file
/// that cannot be read).
fn read_files(
    args: &VerifyArgs,
    t: &Transcript<'_>,
    request: &mut VerifyRequest,
) -> anyhow::Result<()> {
    if let (Reader::V1, Some(path)) = (t.reader(), &args.inputs.secret_file) {
        let text = read_secret_file(path).map_err(|e| {
            usage(format!(
                "{e:#} (a version 1 deal does not carry the server secret)"
            ))
        })?;
        request.server_secret = Some(text);
    }
    if !t.reads_key_and_evidence() {
        return Ok(());
    }
    if let Some(path) = &args.evidence {
        let text = read_text(path).map_err(|e| usage(format!("--evidence: {e:#}")))?;
        request.evidence = Some(text);
    }
    if let Some(path) = &args.key {
        let text = read_text(path).map_err(|e| usage(format!("--key: {e:#}")));
        if let (Err(_), Some(evidence)) = (&text, &request.evidence) {
            report::evidence_list(evidence).map_err(|e| named_file(args, e.into()))?;
        }
        request.key = Some(text?);
    }
    Ok(())
}

/// A refusal of a file's contents, naming the file as the CLI gave it.
fn named_file(args: &VerifyArgs, e: fairdeck_report::Error) -> anyhow::Error {
    let refused = e.refused().map(|r| (r.field, r.message.render(&flag)));
    match (refused, &args.key, &args.evidence) {
        (Some((Field::Key, why)), Some(path), _) => usage(format!("{}: {why}", path.display())),
        (Some((Field::Evidence, why)), _, Some(path)) => {
            usage(format!("--evidence {}: {why}", path.display()))
        }
        _ => e.into(),
    }
}

type Exit = anyhow::Result<ExitCode>;

/// Renders the verdict on a transcript of any version; exit 1 unless it passed.
fn render(out: &mut Output, report: &VerifyReport) -> Exit {
    match (out.format(), &report.verdict) {
        (Format::Json, _) => out.json(report)?,
        (Format::Text, Verdict::Fair(doc)) => fair_text(out.stdout(), doc)?,
        (Format::Text, Verdict::Hidden(verdict)) => {
            if let Some((seat, name)) = &report.read_as {
                writeln!(
                    out.stdout(),
                    "reading as seat {seat} ({name}), with its key"
                )?;
            }
            print_verdict(out.stdout(), verdict)?
        }
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The text form of the verdict on a version 1, 2 or 2.1 transcript.
fn fair_text(w: &mut impl Write, doc: &VerdictReport) -> std::io::Result<()> {
    let version = match &doc.version {
        serde_json::Value::String(v) => v.clone(),
        other => other.to_string(),
    };
    writeln!(w, "version {version} transcript; checked:")?;
    for c in &doc.checked {
        writeln!(w, "  {c}")?;
    }
    for d in &doc.differences {
        writeln!(w, "{}: {}", d.kind, d.message)?;
    }
    writeln!(w, "{}", doc.message)
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
    let verdict = DeckLineVerdict::check(&published, &secret, (client_seed, nonce), kind, &claimed);
    match out.format() {
        Format::Json => out.json(&verdict)?,
        Format::Text => writeln!(out.stdout(), "{}", verdict.message)?,
    }
    Ok(if verdict.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
