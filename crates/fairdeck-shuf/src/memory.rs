//! `--memory SIZE`: how many bytes of input `shuf` may hold in RAM before it
//! shuffles out of core, and the default, which respects every limit the
//! process runs under: physical RAM, `RLIMIT_AS` (`ulimit -v`) and the
//! cgroup memory limit (a container's `--memory`, systemd's `MemoryMax`).
//!
//! Parsing and the arithmetic are pure; only [`SystemMemory::probe`] reads
//! the system (Linux `/proc` and `/sys/fs/cgroup`), and only when a caller
//! asks for it.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::quote::Quotes;

/// A `--memory` value before it is applied to a machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemorySize {
    /// A number of bytes.
    Bytes(u64),
    /// A percentage (0–100) of the memory available to the process.
    Percent(u8),
}

/// The memory limits of a process; `None` where there is no limit or it is unknown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SystemMemory {
    /// Physical RAM (`MemTotal`).
    pub physical: Option<u64>,
    /// The soft `RLIMIT_AS`: the most address space the process may map.
    pub address_space: Option<u64>,
    /// The tightest `memory.max` (cgroup v2) or `memory.limit_in_bytes` (v1)
    /// of the process's cgroup and its ancestors.
    pub cgroup: Option<u64>,
}

/// The budget when nothing is known about the machine.
const FALLBACK: u64 = 1 << 30;

/// The smallest budget accepted.
const MINIMUM: u64 = 4096;

impl SystemMemory {
    /// Reads the limits of this process from `/proc/meminfo`,
    /// `/proc/self/limits` and the cgroup file system (Linux; elsewhere all
    /// are `None`).
    ///
    /// O(depth of the cgroup tree) small file reads.
    pub fn probe() -> Self {
        let read = |p: &str| std::fs::read_to_string(p).ok();
        Self {
            physical: read("/proc/meminfo").and_then(|t| parse_meminfo(&t)),
            address_space: read("/proc/self/limits").and_then(|t| parse_limits(&t)),
            cgroup: read("/proc/self/cgroup")
                .and_then(|t| cgroup_limit(&t, Path::new("/sys/fs/cgroup"))),
        }
    }

    /// The memory this process can really have: the least of the three limits.
    pub fn available(&self) -> Option<u64> {
        [self.physical, self.address_space, self.cgroup]
            .into_iter()
            .flatten()
            .min()
    }

    /// The default budget: half of physical RAM, but at most a third of the
    /// address-space or cgroup limit (the in-memory shuffle needs room for
    /// its line index and output buffer besides the input); 1 GiB when
    /// nothing is known; at least 4 KiB.
    ///
    /// ```
    /// use fairdeck_shuf::memory::SystemMemory;
    /// let small = SystemMemory { physical: Some(8 << 30), address_space: Some(3 << 30), cgroup: None };
    /// assert_eq!(small.default_budget(), 1 << 30);
    /// ```
    pub fn default_budget(&self) -> u64 {
        let half_ram = self.physical.map(|p| p / 2);
        let limits = [self.address_space, self.cgroup].into_iter().flatten();
        let third = limits.min().map(|l| l / 3);
        let budget = [half_ram, third].into_iter().flatten().min();
        budget.unwrap_or(FALLBACK).max(MINIMUM)
    }

    /// The bytes `size` stands for on this machine (a percentage of the
    /// memory [`available`](Self::available), or of 2 GiB when unknown);
    /// at least 4 KiB.
    pub fn resolve(&self, size: MemorySize) -> u64 {
        match size {
            MemorySize::Bytes(b) => b,
            MemorySize::Percent(p) => {
                let total = self.available().unwrap_or(2 * FALLBACK);
                total / 100 * u64::from(p)
            }
        }
        .max(MINIMUM)
    }
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
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

/// The soft limit of "Max address space" in `/proc/self/limits`.
fn parse_limits(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}

/// The tightest memory limit along the cgroup path(s) named in
/// `/proc/self/cgroup`, looked up under `root`.
fn cgroup_limit(self_cgroup: &str, root: &Path) -> Option<u64> {
    let mut best: Option<u64> = None;
    for line in self_cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let (base, file) = match controllers {
            "" => (root.to_path_buf(), "memory.max"),
            c if c.split(',').any(|x| x == "memory") => {
                (root.join("memory"), "memory.limit_in_bytes")
            }
            _ => continue,
        };
        let mut dir: PathBuf = base.join(path.trim_start_matches('/'));
        loop {
            if let Some(limit) = read_limit(&dir.join(file)) {
                best = Some(best.map_or(limit, |b| b.min(limit)));
            }
            if dir == base || !dir.pop() {
                break;
            }
        }
    }
    best
}

/// A cgroup limit file: a number, or `max` (none). cgroup v1 writes "no
/// limit" as a number near 2^63, which is kept: it is larger than any
/// other limit, so it never decides anything.
fn read_limit(path: &Path) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// Parses `SIZE`: a number of bytes with an optional suffix `K`, `M`, `G`,
/// `T` (powers of 1024; `KB`/`KiB` spellings and lower case accepted), or
/// `P%` of the memory available. At least 4 KiB.
///
/// O(length). Pure.
///
/// ```
/// use fairdeck_shuf::memory::{parse_size, MemorySize};
/// use fairdeck_shuf::quote::Quotes;
/// assert_eq!(parse_size("64M", Quotes::Ascii).unwrap(), MemorySize::Bytes(64 << 20));
/// assert_eq!(parse_size("25%", Quotes::Ascii).unwrap(), MemorySize::Percent(25));
/// ```
///
/// # Errors
///
/// [`Error::Invalid`] naming the bad size.
pub fn parse_size(text: &str, quotes: Quotes) -> Result<MemorySize, Error> {
    let bad = || {
        Error::Invalid(format!(
            "invalid memory size: {}",
            quotes.quote(text.as_bytes())
        ))
    };
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, suffix) = t.split_at(split);
    let number: u64 = digits.parse().map_err(|_| bad())?;
    if suffix == "%" {
        return match u8::try_from(number) {
            Ok(p) if (1..=100).contains(&p) => Ok(MemorySize::Percent(p)),
            _ => Err(bad()),
        };
    }
    let shift = match suffix.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(bad()),
    };
    match number.checked_mul(1 << shift) {
        Some(b) if b >= MINIMUM => Ok(MemorySize::Bytes(b)),
        Some(_) => Err(Error::Invalid(format!(
            "memory size {} is too small (at least 4K)",
            quotes.quote(text.as_bytes())
        ))),
        None => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(text: &str) -> Result<MemorySize, Error> {
        parse_size(text, Quotes::Ascii)
    }

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(size("64K").unwrap(), MemorySize::Bytes(64 << 10));
        assert_eq!(size("64MiB").unwrap(), MemorySize::Bytes(64 << 20));
        assert_eq!(size("2g").unwrap(), MemorySize::Bytes(2 << 30));
        assert_eq!(size("5000").unwrap(), MemorySize::Bytes(5000));
        assert_eq!(size("50%").unwrap(), MemorySize::Percent(50));
        for bad in ["", "M", "12Q", "-5M", "1K", "101%", "0%", "99999999999T"] {
            assert!(size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn proc_files_parse() {
        let text = "MemTotal:       24684452 kB\nMemFree: 1 kB\n";
        assert_eq!(parse_meminfo(text), Some(24684452 * 1024));
        assert_eq!(parse_meminfo("nothing"), None);
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max address space         1024000000           unlimited            bytes\n";
        assert_eq!(parse_limits(limits), Some(1_024_000_000));
        assert_eq!(
            parse_limits(&limits.replace("1024000000", "unlimited")),
            None
        );
    }

    #[test]
    fn the_tightest_cgroup_limit_along_the_path_wins() {
        let root = tempfile::tempdir().unwrap();
        let leaf = root.path().join("a/b");
        std::fs::create_dir_all(&leaf).unwrap();
        std::fs::write(root.path().join("a/memory.max"), "3000000\n").unwrap();
        std::fs::write(leaf.join("memory.max"), "max\n").unwrap();
        assert_eq!(cgroup_limit("0::/a/b\n", root.path()), Some(3_000_000));
        assert_eq!(cgroup_limit("0::/\n", root.path()), None);
    }

    #[test]
    fn the_default_respects_every_limit() {
        let none = SystemMemory::default();
        assert_eq!(none.default_budget(), FALLBACK);
        let cg = SystemMemory {
            physical: Some(24 << 30),
            address_space: None,
            cgroup: Some(300 << 20),
        };
        assert_eq!(cg.default_budget(), 100 << 20);
        assert_eq!(cg.resolve(MemorySize::Percent(50)), 150 << 20);
        assert_eq!(cg.resolve(MemorySize::Bytes(5000)), 5000);
    }
}
