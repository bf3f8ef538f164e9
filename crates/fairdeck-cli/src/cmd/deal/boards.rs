//! Bridge board sets (`--boards A-B`), PBN files read back (`--from-pbn`),
//! and PBN output.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use fairdeck::cards::pbn::{self, PbnBoard};
use fairdeck::cards::{Board, Card, Deal, DealShape, DeckKind, Game, Pile, PileRole};
use fairdeck::dice::RngDice;
use serde::Serialize;

use super::source;
use super::{Args, Hand, Plan, print_diagram};
use crate::failure::usage;
use crate::output::{Format, Output};
use fairdeck_report::deal::{Entropy, Shuffled, bits, check_key};

/// The most boards one run deals (a long event has a few hundred).
const MAX_BOARDS: u64 = 10_000;

/// Where a set of boards came from, for the report.
#[derive(Default)]
struct Origin {
    seed: Option<String>,
    generator: Option<&'static str>,
    file: Option<String>,
    entropy: Option<Entropy>,
}

/// The bridge shape: four unordered hands of 13.
fn bridge() -> anyhow::Result<Plan> {
    let plan = Game::Bridge.plan(None)?;
    let shape = DealShape::for_game(Some(Game::Bridge), &plan, DeckKind::Standard)?;
    Ok(Plan {
        game: Some(Game::Bridge),
        deck: DeckKind::Standard,
        plan,
        shape,
    })
}

fn require_bridge(config: &Plan, what: &str) -> anyhow::Result<()> {
    if config.game != Some(Game::Bridge) || config.deck != DeckKind::Standard {
        return Err(usage(format!(
            "{what} is for bridge (52 cards, four hands); drop --game/--deck/--cards or use --game bridge"
        )));
    }
    Ok(())
}

/// The four hands of a bridge deal, North first.
fn hands_of(deal: &Deal) -> [Vec<Card>; 4] {
    core::array::from_fn(|i| deal.piles[i].cards.clone())
}

/// Runs `deal --boards RANGE`.
pub fn deal_boards(
    args: &Args,
    config: &Plan,
    range: &str,
    out: &mut Output,
) -> anyhow::Result<ExitCode> {
    require_bridge(config, "--boards")?;
    let range = Board::parse_range(range).map_err(|e| usage(e.to_string()))?;
    let count = range.end() - range.start() + 1;
    if count > MAX_BOARDS {
        return Err(usage(format!(
            "--boards: at most {MAX_BOARDS} boards per run, asked for {count}"
        )));
    }
    let mut hands = Vec::new();
    let mut origin = Origin::default();
    if let Some(kind) = args.entropy {
        let kind = kind.symbols();
        let mut dice = source::stdin_dice(kind, config, count);
        for _ in range.clone() {
            hands.push(hands_of(&source::draw_deal(&mut dice, kind, config)?.0));
        }
        let used = dice.symbols_used();
        let bits = used as f64 * f64::from(kind.base()).log2();
        let mut e = config.entropy(bits, kind.name());
        e.rolls_needed = Some(kind.symbols_needed(&config.shape.count()) * count);
        e.rolls_used = Some(used);
        origin.entropy = Some(e);
    } else {
        let random = args.random.randomness()?;
        source::show(check_key(
            random.key,
            config.shape.bits(),
            "a bridge deal",
            args.strict,
        )?);
        for b in range.clone() {
            let seed = Board::new(b)?.seed(&random.seed);
            let mut dice = RngDice::new(random.generator.build(&seed));
            hands.push(hands_of(
                &config.plan.shuffle_and_deal(config.deck, &mut dice)?,
            ));
        }
        origin.seed = Some(random.seed.to_hex());
        origin.generator = Some(random.generator.name());
        origin.entropy = Some(config.entropy(random.key.bits, random.key.origin));
    }
    let date = today();
    let boards: Vec<PbnBoard> = range
        .zip(hands)
        .map(|(b, h)| {
            let mut board = PbnBoard::new(Board::new(b)?, h);
            (board.event, board.date) = (args.event.clone(), date.clone());
            Ok(board)
        })
        .collect::<anyhow::Result<_>>()?;
    render(args, out, &boards, &origin)
}

/// Largest PBN file read (`deal --from-pbn`, `fair verify --pbn`): 16 MiB,
/// tens of thousands of boards (a board takes a few hundred bytes), so that
/// a wrong path such as /dev/zero is refused instead of read until memory
/// runs out, as `--secret-file` and `--entropy` are.
const MAX_PBN_BYTES: u64 = 16 << 20;

/// Reads a PBN file (at most [`MAX_PBN_BYTES`]): its text and its boards
/// (at least one).
///
/// # Errors
///
/// An unreadable file (runtime error); a file over the size limit, bad PBN
/// or no board with a `[Deal]` tag (usage errors naming the file, and the
/// line where there is one).
pub(crate) fn read_pbn_file(path: &Path) -> anyhow::Result<(String, Vec<pbn::PbnBoard>)> {
    use std::io::Read;
    let cannot = || format!("cannot read {}", path.display());
    let mut text = String::new();
    std::fs::File::open(path)
        .with_context(cannot)?
        .take(MAX_PBN_BYTES + 1)
        .read_to_string(&mut text)
        .with_context(cannot)?;
    if text.len() as u64 > MAX_PBN_BYTES {
        return Err(usage(format!(
            "{} is larger than 16 MiB: not a PBN file of boards",
            path.display()
        )));
    }
    let (boards, skipped) =
        pbn::read_lenient(&text).map_err(|e| usage(format!("{}: {e}", path.display())))?;
    // Import for play is lenient, but says what it did not read.
    for why in skipped.iter().take(10) {
        crate::failure::note(format_args!("note: {}: skipped {why}", path.display()));
    }
    if skipped.len() > 10 {
        crate::failure::note(format_args!(
            "note: {}: skipped {} more",
            path.display(),
            skipped.len() - 10
        ));
    }
    if boards.is_empty() {
        return Err(usage(format!(
            "{}: no board with a [Deal] tag",
            path.display()
        )));
    }
    Ok((text, boards))
}

/// Runs `deal --from-pbn FILE`.
pub fn from_pbn(args: &Args, path: &Path, out: &mut Output) -> anyhow::Result<ExitCode> {
    let (_, boards) = read_pbn_file(path)?;
    let origin = Origin {
        file: Some(path.display().to_string()),
        ..Origin::default()
    };
    render(args, out, &boards, &origin)
}

/// `--format pbn` of a single bridge deal: written as board 1.
pub fn single_pbn(
    args: &Args,
    config: &Plan,
    s: &Shuffled,
    out: &mut Output,
) -> anyhow::Result<ExitCode> {
    require_bridge(config, "--format pbn")?;
    let mut board = PbnBoard::new(Board::new(1)?, hands_of(&s.deal));
    (board.event, board.date) = (args.event.clone(), today());
    out.stdout().write_all(pbn::write(&[board]).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The number of a bridge deal given by its hands.
pub fn deal_number(hands: &[Vec<Card>; 4]) -> anyhow::Result<String> {
    let config = bridge()?;
    let piles = fairdeck::cards::Seat::ALL
        .iter()
        .zip(hands)
        .map(|(s, h)| Pile {
            name: s.name().to_string(),
            role: PileRole::Player,
            cards: h.clone(),
        })
        .collect();
    let deck = config.plan.undeal(&Deal {
        piles,
        stock: Vec::new(),
    })?;
    Ok(config.shape.number(&deck)?.to_string())
}

#[derive(Serialize)]
struct BoardsReport<'a> {
    seed: Option<String>,
    generator: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_file: Option<&'a str>,
    game: &'a str,
    deck: &'a str,
    deck_size: usize,
    boards: Vec<BoardJson>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    entropy: Option<&'a Entropy>,
}

#[derive(Serialize)]
struct BoardJson {
    board: u64,
    dealer: &'static str,
    vulnerable: &'static str,
    /// The PBN `[Deal]` value.
    deal: String,
    hands: Vec<Hand>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deal_number: Option<String>,
}

fn render(
    args: &Args,
    out: &mut Output,
    boards: &[PbnBoard],
    origin: &Origin,
) -> anyhow::Result<ExitCode> {
    if out.pbn() {
        out.stdout().write_all(pbn::write(boards).as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    let numbers: Vec<Option<String>> = boards
        .iter()
        .map(|b| args.show_number.then(|| deal_number(&b.hands)).transpose())
        .collect::<anyhow::Result<_>>()?;
    match out.format() {
        Format::Json => out.json(&BoardsReport {
            seed: origin.seed.clone(),
            generator: origin.generator,
            source_file: origin.file.as_deref(),
            game: "bridge",
            deck: "standard",
            deck_size: 52,
            boards: boards
                .iter()
                .zip(numbers)
                .map(|(b, n)| board_json(b, n))
                .collect(),
            entropy: origin.entropy.as_ref(),
        })?,
        Format::Text => {
            let style = args.style(out);
            let w = out.stdout();
            for (b, n) in boards.iter().zip(numbers) {
                let mut heading = format!(
                    "Board {} · dealer {} · vulnerable {}",
                    b.board,
                    b.dealer.name(),
                    b.vulnerable
                );
                if let Some(n) = n {
                    heading += &format!(" · deal number {n}");
                }
                print_diagram(w, &heading, &b.hands, style)?;
                writeln!(w)?;
            }
            print_origin(w, origin, boards.len())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn board_json(b: &PbnBoard, number: Option<String>) -> BoardJson {
    BoardJson {
        board: b.board.number(),
        dealer: b.dealer.name(),
        vulnerable: b.vulnerable.pbn(),
        deal: pbn::deal_value(&b.hands),
        hands: fairdeck::cards::Seat::ALL
            .iter()
            .map(|&s| {
                Hand::new(
                    s.name(),
                    PileRole::Player.name(),
                    &b.hands[s as usize],
                    true,
                )
            })
            .collect(),
        deal_number: number,
    }
}

fn print_origin(w: &mut impl Write, origin: &Origin, boards: usize) -> std::io::Result<()> {
    if let Some(file) = &origin.file {
        writeln!(w, "{boards} boards read from {file}")?;
    }
    if let Some(seed) = &origin.seed {
        writeln!(
            w,
            "seed: {seed} (each board from its own stream: seed and board number)"
        )?;
    }
    let Some(e) = &origin.entropy else {
        return Ok(());
    };
    let needs = format!(
        "each board needs {:.1} bits ({} deals)",
        e.entropy_needed_bits, e.entropy_deals
    );
    match e.rolls_used {
        Some(used) => writeln!(
            w,
            "rolls: {used} used ({} needed up front), {:.1} bits; {needs}",
            e.rolls_needed.unwrap_or(0),
            e.entropy_key_bits
        ),
        None => {
            let bound = if e.entropy_source == "seed-text" {
                "at most "
            } else {
                ""
            };
            let key = bits(e.entropy_key_bits);
            writeln!(w, "entropy: {needs}, the key holds {bound}{key}")
        }
    }
}

/// Today's date (UTC) as PBN writes it, `YYYY.MM.DD`: the board set's `[Date]`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_date((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian
/// (the era arithmetic of Howard Hinnant's `civil_from_days`).
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::civil_date;

    #[test]
    fn dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_780), (2026, 11, 23));
    }
}
