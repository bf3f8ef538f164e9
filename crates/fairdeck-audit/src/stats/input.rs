//! Permutations produced by any program, read as text: whitespace-separated
//! integers, one permutation per line; blank lines and lines starting with
//! `#` are skipped.

use std::io::{BufRead, Read};

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
pub fn read_permutations(mut reader: impl BufRead, base: Option<usize>) -> Result<Tally, Error> {
    if base.is_some_and(|b| b > 1) {
        return Err(invalid(0, "the numbering base must be 0 or 1"));
    }
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
        let values = parse_line(text).map_err(|e| invalid(number, &e))?;
        if tally.is_none() {
            tally = Some(start(&values, base, number)?);
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
