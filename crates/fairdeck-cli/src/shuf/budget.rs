//! `--memory SIZE`: how many bytes of input `fairdeck shuf` may hold in RAM
//! before it shuffles out of core, and its default.

use super::failure::ShufError;

/// Default budget: half of physical RAM, as `MemTotal` in `/proc/meminfo`
/// says; 1 GiB when that cannot be read.
pub fn default_memory() -> u64 {
    physical_memory().map_or(FALLBACK, |total| total / 2)
}

/// The budget when the amount of RAM is unknown.
const FALLBACK: u64 = 1 << 30;

/// Physical RAM in bytes, from `/proc/meminfo` (Linux).
pub fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo(&text)
}

fn parse_meminfo(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line.split_whitespace().skip(1);
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => value.checked_mul(1024),
        None => Some(value),
        Some(_) => None,
    }
}

/// Parses `SIZE`: a number of bytes with an optional suffix `K`, `M`, `G`,
/// `T` (powers of 1024; `KB`/`KiB` spellings and lower case accepted), or
/// `P%` for a percentage of physical RAM. At least 4 KiB.
///
/// # Errors
///
/// A message naming the bad size.
pub fn parse_size(text: &str) -> Result<u64, ShufError> {
    let bad = || ShufError::fatal(format!("invalid memory size: '{text}'"));
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, suffix) = t.split_at(split);
    let number: u64 = digits.parse().map_err(|_| bad())?;
    let bytes = if suffix == "%" {
        let total = physical_memory().unwrap_or(2 * FALLBACK);
        (number <= 100).then(|| total / 100 * number)
    } else {
        let shift = match suffix.to_ascii_lowercase().as_str() {
            "" | "b" => 0,
            "k" | "kb" | "kib" => 10,
            "m" | "mb" | "mib" => 20,
            "g" | "gb" | "gib" => 30,
            "t" | "tb" | "tib" => 40,
            _ => return Err(bad()),
        };
        number.checked_mul(1 << shift)
    };
    match bytes {
        Some(b) if b >= 4096 => Ok(b),
        Some(_) => Err(ShufError::fatal(format!(
            "memory size '{text}' is too small (at least 4K)"
        ))),
        None => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("64K").unwrap(), 64 << 10);
        assert_eq!(parse_size("64MiB").unwrap(), 64 << 20);
        assert_eq!(parse_size("2g").unwrap(), 2 << 30);
        assert_eq!(parse_size("5000").unwrap(), 5000);
        assert!(parse_size("50%").unwrap() > 0);
        for bad in ["", "M", "12Q", "-5M", "1K", "101%", "99999999999T"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn meminfo_total_is_read_in_kibibytes() {
        let text = "MemTotal:       24684452 kB\nMemFree: 1 kB\n";
        assert_eq!(parse_meminfo(text), Some(24684452 * 1024));
        assert_eq!(parse_meminfo("nothing"), None);
    }
}
