//! The memory an audit's counting takes, estimated before it starts: the
//! run ([`super::run`]) caps its threads by it, and [`crate::estimates`] reports
//! it with the work estimates.

/// The memory an audit's counting tables may take (2 GiB).
pub const AUDIT_MEMORY_BYTES: u64 = 2 << 30;

/// Bytes of one audit tally of `n` items: the n × n position counts and
/// seven histograms of at most n + 1 counts (8 bytes each), plus the n! order table
/// for n ≤ 8. The birthday test adds 16 bytes per trial ([`audit_bytes`]).
pub fn tally_bytes(n: usize) -> u64 {
    let n = n as u64;
    let orders: u64 = if n <= 8 { (1..=n).product() } else { 0 };
    mul(
        8,
        mul(n, n)
            .saturating_add(mul(7, n.saturating_add(1)))
            .saturating_add(orders),
    )
}

/// Peak bytes of an audit of `trials` permutations of `n` items counted by
/// `workers` threads at once: one tally per worker, the running total, and
/// the birthday fingerprints (n ≥ 9).
pub fn audit_bytes(n: usize, trials: u64, workers: u64) -> u64 {
    let fingerprints = if n >= super::MIN_N_FOR_BIRTHDAY {
        mul(16, trials)
    } else {
        0
    };
    mul(tally_bytes(n), workers.saturating_add(1)).saturating_add(fingerprints)
}

/// Saturating product of byte counts.
fn mul(a: u64, b: u64) -> u64 {
    a.saturating_mul(b)
}
