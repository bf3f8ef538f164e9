//! Permutations produced by any program, or a shuffling machine's log, read
//! as text: one deck per line, whitespace-separated; blank lines and lines
//! starting with `#` are skipped. A deck is either integers (a permutation
//! of 0..n−1 or 1..n, [`read_permutations`]) or card names in the usual
//! spellings — `AS`, `As`, `TS`, `10S`, `A♠`, `10♠` — mapped to 0..n−1 by
//! the order the cards went into the machine ([`read_log`]).

use std::collections::HashMap;
use std::io::{BufRead, Read};

use fairdeck::cards::{Card, DeckKind};

use super::{MAX_N, MAX_TRIALS, Tally};
use crate::error::Error;

/// Longest line read: [`MAX_N`] numbers of up to 20 digits with generous
/// spacing. A longer line is refused before it is held in memory.
pub const MAX_LINE_BYTES: u64 = 4 << 20;

/// Reads and counts the permutations of `reader`. The numbering (0- or
/// 1-based) is `base`, or detected from the first line (it contains 0, or it
/// does not). The limits of algorithm mode apply — n ≤ [`MAX_N`], at most
/// [`MAX_TRIALS`] permutations, lines up to [`MAX_LINE_BYTES`] — and are
/// checked before anything is allocated for them, so memory stays bounded
/// whatever the input holds. O(input size) time, O(n²) memory.
///
/// ```
/// use fairdeck_audit::stats::input::read_permutations;
///
/// let text = "# three decks of 3\n1 2 3\n3 1 2\n\n2 3 1\n";
/// let tally = read_permutations(text.as_bytes(), None)?;
/// assert_eq!((tally.n, tally.trials), (3, 3));
/// assert!(read_permutations("1 1 2\n".as_bytes(), None).is_err());
/// # Ok::<(), fairdeck_audit::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidInput`] naming the line for text that is not a
/// permutation of the first line's size, or past a limit (also for a
/// `base` other than 0 or 1, and for an input without permutations);
/// [`Error::Io`] if reading fails.
pub fn read_permutations(reader: impl BufRead, base: Option<usize>) -> Result<Tally, Error> {
    read_numbers(reader, base, None)
}

/// The order a log's card names are numbered by: card `order[i]` is `i`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardOrder {
    cards: Vec<Card>,
    index: HashMap<Card, usize>,
}

impl CardOrder {
    /// The order of `cards`, the first card 0.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] when a card is named twice (a shoe: its
    /// decks repeat names, so a line of names is not a permutation and
    /// cannot be audited as one), or for an empty order.
    pub fn new(cards: Vec<Card>) -> Result<Self, Error> {
        let mut index = HashMap::with_capacity(cards.len());
        for (i, &card) in cards.iter().enumerate() {
            if index.insert(card, i).is_some() {
                return Err(Error::InvalidInput(format!(
                    "the order names {card} twice: a shoe's repeated cards cannot be told \
                     apart, so its log is not audited (audit one deck's order)"
                )));
            }
        }
        if cards.is_empty() {
            return Err(Error::InvalidInput("the order names no cards".into()));
        }
        Ok(Self { cards, index })
    }

    /// The documented unshuffled order of a deck kind ([`DeckKind::cards`]):
    /// for the standard deck ♥ ♦ ♣ ♠, each ace to king.
    ///
    /// # Errors
    ///
    /// As [`CardOrder::new`], for a shoe.
    pub fn of(kind: DeckKind) -> Result<Self, Error> {
        Self::new(kind.cards())
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the order is empty (never: [`CardOrder::new`] refuses it).
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// One line of names as a permutation of `0..n`, or why not, naming
    /// the card. O(n).
    fn read(&self, text: &str) -> Result<Vec<usize>, String> {
        let n = self.cards.len();
        let mut seen = vec![false; n];
        let mut deck = Vec::with_capacity(n);
        for word in text.split_whitespace() {
            let card: Card = word.parse().map_err(|_| match word.parse::<u64>() {
                Ok(_) => {
                    format!("{word:?} is not a card name (a deck is all card names or all numbers)")
                }
                Err(_) => format!("{word:?} is not a card name"),
            })?;
            let &i = self
                .index
                .get(&card)
                .ok_or_else(|| format!("{word} is not in the order of {n} cards (mixed decks?)"))?;
            if std::mem::replace(&mut seen[i], true) {
                return Err(format!("{word} appears twice"));
            }
            deck.push(i);
        }
        match seen.iter().position(|&s| !s) {
            Some(i) => Err(format!(
                "{} is missing ({} cards where the order has {n})",
                self.cards[i],
                deck.len()
            )),
            None => Ok(deck),
        }
    }
}

/// Reads and counts the decks of a log: integers as [`read_permutations`]
/// reads them (`base`), or card names numbered by `order` (default: the
/// standard deck's documented order, [`CardOrder::of`]). Which of the two
/// is decided by the first deck: card names if any word of it is not an
/// integer. Every line must then be a whole deck in the same notation; the
/// first that is not is refused, naming the line and the card, and nothing
/// is counted. Limits and cost as [`read_permutations`].
///
/// ```
/// use fairdeck_audit::stats::input::read_log;
///
/// let log = "# two decks of the standard 52\n".to_string()
///     + &fairdeck::cards::DeckKind::Standard.cards().iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
///     + "\n"
///     + &fairdeck::cards::DeckKind::Standard.cards().iter().rev().map(|c| c.symbol()).collect::<Vec<_>>().join(" ");
/// let tally = read_log(log.as_bytes(), None, None)?;
/// assert_eq!((tally.n, tally.trials), (52, 2));
/// let err = read_log("AS KS\n".as_bytes(), None, None).unwrap_err();
/// assert!(err.to_string().contains("line 1: AH is missing"), "{err}");
/// # Ok::<(), fairdeck_audit::Error>(())
/// ```
///
/// # Errors
///
/// As [`read_permutations`]; for names, [`Error::InvalidInput`] naming the
/// line and the card that is unknown, outside the order, doubled or missing.
pub fn read_log(
    reader: impl BufRead,
    base: Option<usize>,
    order: Option<&CardOrder>,
) -> Result<Tally, Error> {
    let standard;
    let order = match order {
        Some(o) => o,
        None => {
            standard = CardOrder::of(DeckKind::Standard)?;
            &standard
        }
    };
    read_numbers(reader, base, Some(order))
}

/// The reader behind both: numbers, or names where `order` is given and the
/// first deck is not all integers.
fn read_numbers(
    mut reader: impl BufRead,
    base: Option<usize>,
    order: Option<&CardOrder>,
) -> Result<Tally, Error> {
    if base.is_some_and(|b| b > 1) {
        return Err(invalid(0, "the numbering base must be 0 or 1"));
    }
    let mut names: Option<&CardOrder> = None;
    let mut tally: Option<(Tally, usize)> = None;
    let mut line = String::new();
    for number in 1.. {
        if !read_line(&mut reader, &mut line, number)? {
            break;
        }
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if tally.is_none() && parse_line(text).is_err() {
            names = order;
        }
        let values = match names {
            Some(o) => o.read(text),
            None => parse_line(text),
        }
        .map_err(|e| invalid(number, &e))?;
        if tally.is_none() {
            let b = if names.is_some() { Some(0) } else { base };
            tally = Some(start(&values, b, number)?);
        }
        let Some((t, b)) = tally.as_mut() else {
            continue; // started just above
        };
        if t.trials >= MAX_TRIALS {
            let why = format!("more than {MAX_TRIALS} permutations (the audit's limit)");
            return Err(invalid(number, &why));
        }
        let shifted: Option<Vec<usize>> = values.iter().map(|v| v.checked_sub(*b)).collect();
        let p = shifted.ok_or_else(|| invalid(number, &format!("value below the base {b}")))?;
        t.add(&p).map_err(|e| invalid(number, &e.to_string()))?;
    }
    tally
        .map(|(t, _)| t)
        .ok_or_else(|| Error::InvalidInput("no permutations found".into()))
}

/// The error for line `number` (0: not about a line).
fn invalid(number: usize, why: &str) -> Error {
    match number {
        0 => Error::InvalidInput(why.into()),
        _ => Error::InvalidInput(format!("line {number}: {why}")),
    }
}

/// The empty counts for the first permutation's size, once that size is
/// known to be within the audit's limit.
fn start(values: &[usize], base: Option<usize>, number: usize) -> Result<(Tally, usize), Error> {
    if values.len() > MAX_N {
        let why = format!(
            "a permutation of {} items; the audit takes at most {MAX_N}",
            values.len()
        );
        return Err(invalid(number, &why));
    }
    let b = base.unwrap_or_else(|| usize::from(!values.contains(&0)));
    Ok((Tally::try_new(values.len())?, b))
}

/// Reads one line into `line` (replacing it); `false` at the end of input.
fn read_line(reader: &mut impl BufRead, line: &mut String, number: usize) -> Result<bool, Error> {
    line.clear();
    let read = (&mut *reader)
        .take(MAX_LINE_BYTES + 1)
        .read_line(line)
        .map_err(|e| Error::Io(format!("line {number}: {e}")))?;
    if read as u64 > MAX_LINE_BYTES {
        let why = format!("longer than {} MiB", MAX_LINE_BYTES >> 20);
        return Err(invalid(number, &why));
    }
    Ok(read > 0)
}

fn parse_line(text: &str) -> Result<Vec<usize>, String> {
    text.split_whitespace()
        .map(|w| {
            w.parse::<usize>()
                .map_err(|_| format!("{w:?} is not a non-negative integer"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 15: a 290 KB line of 50 000 items used to ask for a 20 GB table.
    #[test]
    fn a_permutation_over_the_limit_is_refused_before_counting() {
        let big: Vec<String> = (1..=50_000).map(|x| x.to_string()).collect();
        let err = read_permutations(big.join(" ").as_bytes(), None).unwrap_err();
        assert!(err.to_string().contains("at most 10000"), "{err}");
    }

    #[test]
    fn a_line_longer_than_the_limit_is_refused() {
        let long = vec![b' '; MAX_LINE_BYTES as usize + 10];
        let err = read_permutations(&long[..], None).unwrap_err();
        assert!(err.to_string().contains("longer than"), "{err}");
    }

    fn standard_line(name: impl Fn(&Card) -> String, reversed: bool) -> String {
        let mut cards = DeckKind::Standard.cards();
        if reversed {
            cards.reverse();
        }
        cards.iter().map(name).collect::<Vec<_>>().join(" ")
    }

    /// Names in every spelling count as their numbers do.
    #[test]
    fn card_names_audit_like_their_numbers() {
        let spellings: [&dyn Fn(&Card) -> String; 3] = [
            &|c| c.to_string(),                                   // AS, TS
            &|c| c.symbol(),                                      // A♠, 10♠
            &|c| c.to_string().to_lowercase().replace('t', "10"), // as, 10s
        ];
        let mut log = String::new();
        for (i, spell) in spellings.iter().enumerate() {
            log += &standard_line(spell, i % 2 == 1);
            log.push('\n');
        }
        let names = read_log(log.as_bytes(), None, None).unwrap();
        let numbers = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 \
            26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51";
        let reversed: Vec<&str> = numbers.split_whitespace().rev().collect();
        let text = format!("{numbers}\n{}\n{numbers}\n", reversed.join(" "));
        assert_eq!(names, read_permutations(text.as_bytes(), None).unwrap());
    }

    /// A bad deck is refused with its line and its card, and nothing counted.
    #[test]
    fn bad_decks_name_the_line_and_the_card() {
        let good = standard_line(|c| c.to_string(), false);
        let cases = [
            (good.replace("QS", "QH"), "line 2: QH appears twice"),
            (good.replace(" QS", ""), "line 2: QS is missing (51 cards"),
            (
                good.replace("QS", "XS"),
                "line 2: \"XS\" is not a card name",
            ),
            (
                good.clone() + " RJ",
                "line 2: RJ is not in the order of 52 cards",
            ),
        ];
        for (bad, want) in cases {
            let log = format!("{good}\n{bad}\n{good}\n");
            let err = read_log(log.as_bytes(), None, None).unwrap_err();
            assert!(err.to_string().contains(want), "{err} (want {want})");
        }
        // Mixed notations: names first, then numbers.
        let err = read_log(format!("{good}\n0 1 2\n").as_bytes(), None, None).unwrap_err();
        assert!(
            err.to_string().contains("line 2: \"0\" is not a card name"),
            "{err}"
        );
        // A piquet deck read in its own order, and refused in the standard one.
        let piquet: Vec<String> = DeckKind::Piquet
            .cards()
            .iter()
            .map(|c| c.to_string())
            .collect();
        let line = piquet.join(" ");
        let order = CardOrder::of(DeckKind::Piquet).unwrap();
        assert_eq!(read_log(line.as_bytes(), None, Some(&order)).unwrap().n, 32);
        let err = read_log(line.as_bytes(), None, None).unwrap_err();
        assert!(err.to_string().contains("line 1: 2H is missing"), "{err}");
        // A shoe's order repeats names: refused.
        let err = CardOrder::of(DeckKind::Shoe(2)).unwrap_err();
        assert!(err.to_string().contains("names AH twice"), "{err}");
    }

    #[test]
    fn bad_lines_name_their_number() {
        let err = read_permutations("0 1 2\n0 1 x\n".as_bytes(), None).unwrap_err();
        assert!(err.to_string().contains("line 2"), "{err}");
        let err = read_permutations("1 2 3\n0 1 2\n".as_bytes(), None).unwrap_err();
        assert!(err.to_string().contains("below the base"), "{err}");
        assert!(read_permutations("".as_bytes(), None).is_err());
        assert!(read_permutations("0 1\n".as_bytes(), Some(2)).is_err());
        let t = read_permutations("0 1\n1 0\n".as_bytes(), Some(0)).unwrap();
        assert_eq!(t.trials, 2);
    }
}
