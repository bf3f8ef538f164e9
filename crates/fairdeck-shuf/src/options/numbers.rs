//! The numbers of `shuf`'s command line, read as GNU reads them
//! (`xstrtoumax`): `-n COUNT` and `-i LO-HI`.

use crate::error::Error;
use crate::quote::Quotes;

/// Why a decimal number did not parse, as `xstrtoumax` tells it.
#[derive(Debug, PartialEq, Eq)]
enum NumberError {
    Invalid,
    Overflow,
}

/// A decimal unsigned integer as `strtoumax` reads it: leading white space
/// and one `+` allowed, then digits and nothing else.
fn parse_decimal(text: &str) -> Result<u64, NumberError> {
    let trimmed = text.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let digits = trimmed.strip_prefix('+').unwrap_or(trimmed);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberError::Invalid);
    }
    digits.parse::<u64>().map_err(|_| NumberError::Overflow)
}

/// `-n COUNT`: GNU saturates a count too large for the machine to its maximum.
pub(super) fn parse_count(text: &str, quotes: Quotes) -> Result<u64, Error> {
    match parse_decimal(text) {
        Ok(n) => Ok(n),
        Err(NumberError::Overflow) => Ok(u64::MAX),
        Err(NumberError::Invalid) => Err(Error::Invalid(format!(
            "invalid line count: {}",
            quotes.quote(text.as_bytes())
        ))),
    }
}

/// `-i LO-HI`. `HI = LO − 1` is allowed (no lines), as in GNU. The whole
/// 64-bit range `0-18446744073709551615` is allowed too (GNU rejects it):
/// it needs `-n` or `-r`, which the caller checks.
pub(super) fn parse_range(text: &str, quotes: Quotes) -> Result<(u64, Option<u64>), Error> {
    let whole = || {
        Error::Invalid(format!(
            "invalid input range: {}",
            quotes.quote(text.as_bytes())
        ))
    };
    let part = |p: &str| {
        parse_decimal(p).map_err(|e| {
            let why = match e {
                NumberError::Invalid => "",
                NumberError::Overflow => ": Value too large for defined data type",
            };
            Error::Invalid(format!(
                "invalid input range: {}{why}",
                quotes.quote(p.as_bytes())
            ))
        })
    };
    let Some((lo_text, hi_text)) = text.split_once('-') else {
        return Err(whole());
    };
    let lo = part(lo_text)?;
    let hi = part(hi_text)?;
    match lo.checked_sub(1) {
        _ if lo <= hi => Ok((lo, Some(hi))),
        Some(below) if below == hi => Ok((lo, None)),
        _ => Err(whole()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_range_c(text: &str) -> Result<(u64, Option<u64>), Error> {
        parse_range(text, Quotes::Ascii)
    }

    fn parse_count_c(text: &str) -> Result<u64, Error> {
        parse_count(text, Quotes::Ascii)
    }

    #[test]
    fn ranges_follow_gnu() {
        assert_eq!(parse_range_c("1-3").unwrap(), (1, Some(3)));
        assert_eq!(parse_range_c(" +1- 3").unwrap(), (1, Some(3)));
        assert_eq!(parse_range_c("3-2").unwrap(), (3, None));
        assert_eq!(
            parse_range_c("0-18446744073709551615").unwrap(),
            (0, Some(u64::MAX))
        );
        for bad in [
            "5-3",
            "3",
            "-3",
            "1-2-3",
            "1-",
            "x-1",
            "1-99999999999999999999",
        ] {
            assert!(parse_range_c(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn counts_saturate() {
        assert_eq!(parse_count_c("99999999999999999999").unwrap(), u64::MAX);
        assert!(parse_count_c("-1").is_err() && parse_count_c("").is_err());
    }
}
