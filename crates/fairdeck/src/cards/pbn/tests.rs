//! PBN: writing, reading back, and one-line errors that name the line.

use super::*;
use crate::cards::DeckKind;
use crate::dice::RngDice;
use crate::rng::{Generator, Seed};
use crate::shuffle::shuffle;

fn random_board(n: u64, dice: &mut RngDice<crate::rng::AnyRng>) -> PbnBoard {
    let mut deck = DeckKind::Standard.cards();
    shuffle(&mut deck, dice);
    let hands = core::array::from_fn(|h| deck[13 * h..13 * h + 13].to_vec());
    let mut b = PbnBoard::new(Board::new(n).unwrap(), hands);
    b.event = "Club \"night\"".into();
    b.date = "2026.11.23".into();
    b
}

#[test]
fn boards_round_trip() {
    let mut dice = RngDice::new(Generator::ChaCha20.build(&Seed::parse("pbn")));
    let boards: Vec<PbnBoard> = (1..=20).map(|n| random_board(n, &mut dice)).collect();
    let text = write(&boards);
    assert!(text.starts_with("% PBN 2.1\n"));
    assert!(text.contains("[Board \"7\"]\n[Dealer \"S\"]\n[Vulnerable \"All\"]\n"));
    assert_eq!(read(&text).unwrap(), boards);
}

#[test]
fn reads_what_other_programs_write() {
    // Another dealer's layout: a first hand other than North, lowercase
    // ranks, a comment, inherited tags, an auction section to skip.
    let text = "% PBN 2.1\n% EXPORT\n[Event \"Cup\"]\n[Site \"Home\"]\n[Date \"2000.01.02\"]\n\
[Board \"2\"]\n[Dealer \"E\"]\n[Vulnerable \"NS\"]\n\
[Deal \"E:86.KT2.K85.Q9742 KJT932.97.942.86 54.8653.AQJT73.3 AQ7.AQJ4.6.AKJT5\"]\n\
{a comment\nover two lines}\n[Auction \"E\"]\n1S Pass 2S Pass\n\n\
[Event \"#\"]\n[Site \"#\"]\n[Date \"#\"]\n[Board \"3\"]\n\
[Deal \"N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...akqjt98765432\"]\n";
    let boards = read(text).unwrap();
    assert_eq!(boards.len(), 2);
    let b = &boards[0];
    assert_eq!(
        (b.board.number(), b.dealer, b.vulnerable),
        (2, Seat::East, Vulnerability::NorthSouth)
    );
    assert_eq!(b.hands[Seat::East as usize][0].to_string(), "8S");
    assert_eq!(b.hands[Seat::North as usize][0].to_string(), "AS");
    assert_eq!(
        deal_value(&b.hands),
        "N:AQ7.AQJ4.6.AKJT5 86.KT2.K85.Q9742 KJT932.97.942.86 54.8653.AQJT73.3"
    );
    let c = &boards[1];
    assert_eq!((c.event.as_str(), c.date.as_str()), ("Cup", "2000.01.02"));
    assert_eq!(
        (c.dealer, c.vulnerable),
        (Seat::South, Vulnerability::EastWest)
    );
}

#[test]
fn bad_files_name_the_line() {
    let ok = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    let cases = [
        (
            format!("[Board \"1\"]\n[Deal \"{}\"]\n", ok.replace("N:", "X:")),
            2,
            "not a seat",
        ),
        (
            format!("[Board \"1\"]\n\n[Board \"x\"]\n[Deal \"{ok}\"]\n"),
            3,
            "not a number",
        ),
        (
            format!(
                "[Deal \"{}\"]\n",
                ok.replace("AKQJT98765432...", "AKQJT9876543Z...")
            ),
            1,
            "not a rank",
        ),
        (
            format!(
                "[Deal \"{}\"]\n",
                ok.replace(".AKQJT98765432..", ".AKQJT9876543..")
            ),
            1,
            "12 cards",
        ),
        (
            format!(
                "[Deal \"{}\"]\n",
                ok.replace("...AKQJT98765432", "AKQ...JT98765432")
            ),
            1,
            "appears twice",
        ),
        (format!("[Deal \"{}\"]\n", "N:- - - -"), 1, "not supported"),
        ("[Deal N:AK]\n".to_string(), 1, "in quotes"),
        (
            format!("\n\n[Dealer \"Q\"]\n[Deal \"{ok}\"]\n"),
            3,
            "not N, E, S or W",
        ),
        (
            format!("[Vulnerable \"Some\"]\n[Deal \"{ok}\"]\n"),
            1,
            "not None",
        ),
    ];
    for (text, line, why) in cases {
        let e = read(&text).unwrap_err();
        let Error::InvalidPbn { line: l, why: w } = &e else {
            panic!("{e}")
        };
        assert_eq!(*l, line, "{text}: {e}");
        assert!(w.contains(why), "{text}: {e}");
        assert!(!e.to_string().contains('\n'));
    }
}

#[test]
fn lenient_reading_says_what_it_skipped_and_strict_reading_refuses_it() {
    let deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    let board =
        format!("[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"{deal}\"]\n");
    let text = format!("[Event \"header\"]\n\n{board}[Auction \"N\"]\n1S Pass\n");
    let (boards, skipped) = read_lenient(&text).unwrap();
    assert_eq!(boards.len(), 1);
    assert_eq!(
        skipped,
        [
            "line 8: not a tag (a section's data)",
            "line 1: a game without a [Deal] tag"
        ]
    );
    assert_eq!(
        read_strict(&text).unwrap_err().to_string(),
        "line 1: the board starting here has no [Board] tag"
    );
    let err = read_strict(&format!("{board}[Dealer \"E\"]\n")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 5: [Dealer] again (first on line 2): two boards run together, or a repeated tag"
    );
    let inherited = board.replace("[Dealer \"N\"]", "[Dealer \"#\"]");
    assert!(
        read_strict(&inherited)
            .unwrap_err()
            .to_string()
            .contains("inherited")
    );
    assert_eq!(
        read_strict(&format!("% c\n{board}\n{board}"))
            .unwrap()
            .len(),
        2
    );
}

/// Issue 32 item 6: each of these was read by the strict reader; now each
/// is refused, naming its line.
#[test]
fn strict_reading_refuses_every_loose_spelling_with_its_line() {
    let deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    let board =
        format!("[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"{deal}\"]\n");
    let two = format!("% header\n{board}\n{}", board.replace("\"1\"", "\"2\""));
    assert_eq!(read_strict(&two).unwrap().len(), 2);
    assert_eq!(read_strict(&two.replace('\n', "\r\n")).unwrap().len(), 2);
    let cases: Vec<(String, usize, &str)> = vec![
        (two.replacen(". .", ".\u{a0}.", 1), 5, "U+00A0"),
        (
            two.replacen("[Board \"1\"]", "[Board \"01\"]", 1),
            2,
            "leading zeros",
        ),
        (two.replacen("[Deal ", "[deal ", 1), 5, "written [Deal]"),
        (
            two.replacen("[Dealer ", "[DEALER ", 1),
            3,
            "written [Dealer]",
        ),
        (two.replacen("\n\n", "\n  \n", 1), 6, "only spaces or tabs"),
        (two.replacen("\n\n", "\n\t\n", 1), 6, "only spaces or tabs"),
        (
            two.replacen("[Dealer \"N\"]", "[Dealer \"N\u{0}\"]", 1),
            3,
            "U+0000",
        ),
        (format!("\u{feff}{two}"), 1, "byte-order mark"),
        (two.replacen("% header", "; header", 1), 1, "';' comment"),
        (
            two.replacen("% header", "{c} [Board \"9\"]", 1),
            1,
            "whole lines",
        ),
        (
            two.replacen("[Vulnerable \"None\"]", "[Vulnerable \"Love\"]", 1),
            4,
            "None, NS",
        ),
        (
            two.replacen("[Dealer \"N\"]", "[Dealer \"n\"]", 1),
            3,
            "not N, E",
        ),
        (two.replacen(". .", ".  .", 1), 5, "single spaces"),
        (two.replacen("N:AKQ", "N:akq", 1), 5, "upper case"),
        (two.replacen("[Board ", "[Board  ", 1), 2, "one space"),
        (two.replacen("[Board", " [Board", 1), 2, "start of the line"),
        (two.replacen("% header", "% header\u{202e}", 1), 1, "U+202E"),
    ];
    for (text, line, says) in cases {
        let err = read_strict(&text).unwrap_err().to_string();
        assert!(err.starts_with(&format!("line {line}: ")), "{says}: {err}");
        assert!(err.contains(says), "{says}: {err}");
    }
}
