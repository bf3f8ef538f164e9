//! `fairdeck fair`: commit–reveal deals that players can verify.
//!
//! The derivation is specified byte for byte in `docs/fair-dealing.md` and
//! implemented in `fairdeck_fair`; board sessions (`--boards`, `--pbn`)
//! are in `session.rs`.

mod document;
mod lock;
mod seed;
mod session;
mod table;
mod table_doc;
mod table_pbn;
mod verify;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use fairdeck::cards::{Card, DeckKind, Game};
use fairdeck_fair::ServerSecret;
use fairdeck_report::fair::{DealRequest, Dealt, committed, fresh_secret};
use fairdeck_report::verify::SeatKey;

use crate::cmd::deal::{CardStyle, print_text};
use crate::failure::usage;
use crate::output::write_private;
use crate::output::{Format, Output};

/// Flags of `fairdeck fair`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

/// The three steps of a commit–reveal deal.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Draw a fresh 256-bit server secret and print its SHA-256 commitment.
    Commit(CommitArgs),
    /// Deal: version 2 from a table, the room's secret and every seat's
    /// reveal (writes the transcript); version 1 from a client seed and a nonce.
    Deal(DealArgs),
    /// Check a transcript (version auto-detected), a deck line (--deal) or
    /// a session's PBN file (--pbn).
    Verify(VerifyArgs),
    /// Version 2 tables: `fair table new` writes the manifest and the room's commitment.
    #[command(subcommand)]
    Table(table::TableAction),
    /// Version 2 seats: `fair seed commit` and `fair seed reveal`.
    #[command(subcommand)]
    Seed(seed::SeedAction),
}

/// Flags of `fairdeck fair commit`.
#[derive(Debug, clap::Args)]
pub struct CommitArgs {
    /// Write the secret to FILE (created new, permissions 0600) instead of
    /// printing it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The inputs that fix one deal.
#[derive(Debug, clap::Args)]
pub struct DealInputs {
    /// The server secret: 64 hex digits.
    #[arg(long, value_name = "HEX")]
    pub server_secret: Option<String>,

    /// Read the server secret from FILE (as written by `fair commit --out`).
    #[arg(long, value_name = "FILE", conflicts_with = "server_secret")]
    pub secret_file: Option<PathBuf>,

    /// Version 1: the player's seed, any text, chosen after the commitment
    /// is published.
    #[arg(long, value_name = "TEXT")]
    pub client_seed: Option<String>,

    /// The deal number, 0, 1, 2, …: never reuse one with the same secret and
    /// seed. (A board session uses the board numbers as nonces.)
    #[arg(long, value_name = "N")]
    pub nonce: Option<u64>,

    /// A game preset: its deck and dealing order (default bridge).
    #[arg(long, short, value_name = "GAME")]
    pub game: Option<String>,

    /// Deck kind (default: the game's deck).
    #[arg(long, short, value_name = "KIND")]
    pub deck: Option<String>,
}

/// Flags of `fairdeck fair deal`.
#[derive(Debug, clap::Args)]
pub struct DealArgs {
    #[command(flatten)]
    pub inputs: DealInputs,

    /// Number of players (changes the game's default).
    #[arg(long, short, value_name = "P")]
    pub players: Option<usize>,

    /// Print cards as ASCII text (AS, TH) instead of suit symbols.
    #[arg(long)]
    pub ascii: bool,

    /// A session of bridge boards, N or A-B (e.g. 1-32): board b is the deal
    /// of nonce b, so one commitment covers the whole set.
    #[arg(long, value_name = "RANGE", conflicts_with_all = ["nonce", "game", "deck", "players"])]
    pub boards: Option<String>,

    /// The event name of the PBN file (its Event tag).
    #[arg(long, value_name = "TEXT", default_value = "fairdeck fair session")]
    pub event: String,

    #[command(flatten)]
    pub table: table::TableDealArgs,
}

/// Flags of `fairdeck fair verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// A transcript to check (JSON, as `fair deal --format json` writes it;
    /// `-` for stdin). The version is detected from the document.
    #[arg(value_name = "TRANSCRIPT", conflicts_with_all = ["deal", "pbn"])]
    pub transcript: Option<PathBuf>,

    /// The commitment published before play: 64 hex digits. Never taken
    /// from the checked document itself; without it a verification is
    /// "self-consistent only".
    #[arg(long, value_name = "HEX")]
    pub commitment: Option<String>,

    /// Version 2.1: the seat lock you recorded before revealing your seed
    /// (64 hex digits). Without it the lock is not checked, and the verdict says so.
    #[arg(long, value_name = "HEX", requires = "transcript")]
    pub lock: Option<String>,

    /// Version 3 (hidden hands): your seat's secret key file, as `fairdeck
    /// hidden key` wrote it, to also open and print your own private cards.
    /// It must be the key your seat published in this transcript.
    #[arg(long, value_name = "KEYFILE", requires = "transcript")]
    pub key: Option<PathBuf>,

    /// Version 3.1 (hidden hands): the receipts and signed heads your seat
    /// kept (the evidence file `fairdeck hidden seat` writes, a JSON list).
    /// Each is checked against the published log: one the log contradicts
    /// proves the room rewrote or dropped messages, and names the room.
    #[arg(long, value_name = "FILE", requires = "transcript")]
    pub evidence: Option<PathBuf>,

    /// Version 3.1 (hidden hands): a seat's key fingerprint as its player
    /// gave it outside the room (`fairdeck hidden seat` prints its own),
    /// `SEAT=FINGERPRINT`; repeatable. A key in that seat's place with
    /// another fingerprint means someone else played the seat, and names
    /// the room that relayed it.
    #[arg(long, value_name = "SEAT=FINGERPRINT", requires = "transcript",
          value_parser = seat_key_pin)]
    pub seat_key: Vec<SeatKey>,

    /// Your seat's name, to check your own seed (with --seed).
    #[arg(long, value_name = "NAME", requires = "seed")]
    pub seat: Option<String>,

    /// Your own seed, as you committed and revealed it (with --seat).
    #[arg(long, value_name = "TEXT", requires = "seat")]
    pub seed: Option<String>,

    /// The deal numbers you were shown as they were played, in that order:
    /// e.g. 0,1,2 or 0-2 (an empty string: none was played).
    #[arg(long, value_name = "LIST", requires = "transcript")]
    pub played: Option<String>,

    #[command(flatten)]
    pub inputs: DealInputs,

    /// Version 1: the revealed deck, top card first, as `fair deal` prints
    /// it on its `deck:` line (e.g. "5D QS 3C …"). Checks that line only.
    #[arg(long, value_name = "CARDS", conflicts_with = "pbn")]
    pub deal: Option<String>,

    /// Version 1: check every board of a session's PBN file (as `fair deal
    /// --boards … --format pbn` writes it), read strictly.
    #[arg(long, value_name = "FILE", conflicts_with = "nonce")]
    pub pbn: Option<PathBuf>,

    /// With --pbn: the board range published before the event (A-B); a
    /// missing or extra board fails. Default: the file's first to last board.
    #[arg(long, value_name = "RANGE", requires = "pbn")]
    pub boards: Option<String>,
}

/// Runs `fairdeck fair`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    match &args.action {
        Action::Commit(a) => commit(a, out),
        Action::Deal(a) => deal(a, out),
        Action::Verify(a) => verify::run(a, out),
        Action::Table(a) => table::run(a, out),
        Action::Seed(a) => seed::run(a, out),
    }
}

/// Reads a secret file: at most 4 KiB (a secret is 64 hex digits), so a
/// wrong path such as /dev/zero is refused instead of read without end.
pub(crate) fn read_secret_file(path: &std::path::Path) -> anyhow::Result<String> {
    use std::io::Read;
    const MAX: u64 = 4096;
    let cannot = || format!("cannot read the secret file {}", path.display());
    let file = std::fs::File::open(path).with_context(cannot)?;
    let mut text = String::new();
    file.take(MAX + 1)
        .read_to_string(&mut text)
        .with_context(cannot)?;
    if text.len() as u64 > MAX {
        return Err(usage(format!(
            "the secret file {} is larger than 4 KiB: not a secret",
            path.display()
        )));
    }
    Ok(text)
}

impl DealArgs {
    /// How the text output draws cards (`--ascii`; colour on a terminal).
    fn style(&self, out: &Output) -> CardStyle {
        CardStyle {
            ascii: self.ascii,
            glyphs: false,
            color: out.color(),
        }
    }
}

impl DealInputs {
    fn client_seed(&self) -> anyhow::Result<&str> {
        self.client_seed.as_deref().ok_or_else(|| {
            usage("give --client-seed TEXT (version 1), or --table FILE (version 2)")
        })
    }

    fn secret(&self) -> anyhow::Result<ServerSecret> {
        let text = match (&self.server_secret, &self.secret_file) {
            (Some(hex), _) => hex.clone(),
            (None, Some(path)) => read_secret_file(path)?,
            (None, None) => return Err(usage("give --server-secret or --secret-file")),
        };
        ServerSecret::from_hex(&text).map_err(|e| usage(e.to_string()))
    }

    fn nonce(&self) -> anyhow::Result<u64> {
        self.nonce
            .ok_or_else(|| usage("--nonce N is required (or --boards A-B for a session of boards)"))
    }

    fn game_and_deck(&self) -> anyhow::Result<(Game, DeckKind)> {
        let game: Game = self.game.as_deref().unwrap_or("bridge").parse()?;
        let deck = match &self.deck {
            Some(d) => d.parse()?,
            None => game.deck(),
        };
        Ok((game, deck))
    }
}

fn commit(args: &CommitArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    // A fresh secret printed to a reader that hung up would be lost.
    out.must_deliver();
    let secret = fresh_secret()?;
    if let Some(path) = &args.out {
        write_private(path, &format!("{}\n", secret.to_hex()))?;
    }
    let report = committed(&secret, args.out.as_ref().map(|p| p.display().to_string()));
    match out.format() {
        Format::Json => out.json(&report)?,
        Format::Text => {
            let w = out.stdout();
            writeln!(w, "commitment: {}", report.commitment)?;
            match (&report.server_secret, &args.out) {
                (Some(hex), _) => writeln!(w, "server secret: {hex}")?,
                (None, Some(p)) => writeln!(w, "server secret: saved to {}", p.display())?,
                (None, None) => unreachable!("the secret is either shown or saved"),
            }
            writeln!(
                w,
                "publish the commitment now; reveal the secret after play"
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn deal(args: &DealArgs, out: &mut Output) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.table.table {
        return table::deal(args, path, out);
    }
    if let Some(range) = &args.boards {
        return session::deal(args, range, out);
    }
    if out.pbn() {
        return Err(usage(
            "--format pbn writes a session of boards: add --boards A-B",
        ));
    }
    let (report, dealt) = fairdeck_report::fair::deal(&args.inputs.request(args.players)?)?;
    let (game, kind, needed) = (report.game, &report.deck, report.entropy_needed_bits);
    if needed > 256.0 {
        crate::failure::note(format_args!(
            "note: a {kind} deck needs {needed:.1} bits; the 256-bit deal key reaches \
             at most 2^256 of its orders (unpredictable, but most orders can never be dealt)"
        ));
    }
    match out.format() {
        Format::Json => out.json(&report)?,
        Format::Text => {
            let style = args.style(out);
            let w = out.stdout();
            print_text(w, &format!("{game}, {kind} deck"), &dealt, style)?;
            print_dealt(w, &report)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

impl DealInputs {
    /// The inputs as a version-1 deal request (the secret read from
    /// `--secret-file` when given).
    ///
    /// # Errors
    ///
    /// An unreadable secret file.
    pub fn request(&self, players: Option<usize>) -> anyhow::Result<DealRequest> {
        let server_secret = match (&self.server_secret, &self.secret_file) {
            (Some(hex), _) => Some(hex.clone()),
            (None, Some(path)) => Some(read_secret_file(path)?),
            (None, None) => None,
        };
        Ok(DealRequest {
            server_secret,
            client_seed: self.client_seed.clone(),
            nonce: self.nonce,
            game: self.game.clone(),
            deck: self.deck.clone(),
            players,
        })
    }
}

/// A client seed as a JSON string: `"alice"`, a control character as
/// `\u0001`. Every verifier (the Verify page, Python's `json.loads`) reads
/// it back to the exact seed; Rust's `{:?}` quoting (`\u{1}`) they cannot.
pub(super) fn quoted(seed: &str) -> String {
    serde_json::Value::from(seed).to_string()
}

/// The lines after the hands: what a player needs to verify the deal later.
fn print_dealt(w: &mut impl Write, r: &Dealt) -> std::io::Result<()> {
    writeln!(w, "deck: {}", r.cards.join(" "))?;
    writeln!(w, "commitment: {}", r.commitment)?;
    writeln!(
        w,
        "client seed: {}, nonce: {}",
        quoted(&r.client_seed),
        r.nonce
    )?;
    writeln!(
        w,
        "entropy: the deck needs {:.1} bits, the deal key holds 256",
        r.entropy_needed_bits
    )
}

/// Cards separated by white space or commas.
pub(crate) fn parse_cards(text: &str) -> anyhow::Result<Vec<Card>> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<Card>().map_err(anyhow::Error::from))
        .collect()
}

/// `--seat-key SEAT=FINGERPRINT`: a seat index and 20 hex digits (the
/// `-` between groups optional).
fn seat_key_pin(text: &str) -> Result<SeatKey, String> {
    text.parse()
}
