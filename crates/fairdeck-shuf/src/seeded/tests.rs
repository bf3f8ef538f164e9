//! The order of a seed: pinned values, thread-count invariance, uniformity.

use super::*;
use crate::cancel::Cancel;

/// Tiny buckets and chunks, so that small inputs cross every boundary.
const SMALL: Plan = Plan {
    bucket_lines: 2,
    label_chunk: 5,
};

/// The output of the seeded shuffle of `data` on `threads` threads.
fn shuffled_with<S>(data: &[u8], seed: &str, threads: usize, plan: Plan, shuffle: S) -> Vec<u8>
where
    S: Fn(&mut [u32], &mut RngDice<AnyRng>) + Sync,
{
    thread_local!(static DIR: tempfile::TempDir = tempfile::tempdir().unwrap());
    let out = DIR.with(|d| d.path().join("out"));
    let cancel = Cancel::default();
    let mut sink = Sink::new(Some(out.clone()), None, &cancel);
    let parts = split(data, b'\n', threads);
    let seed = Seed::parse(seed);
    run::<u32, _>(data, b'\n', &parts, &seed, plan, shuffle, &mut sink).unwrap();
    sink.finish().unwrap();
    std::fs::read(out).unwrap_or_default()
}

fn shuffled(data: &[u8], seed: &str, threads: usize, plan: Plan) -> Vec<u8> {
    shuffled_with(data, seed, threads, plan, bucket_shuffle)
}

fn numbers(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| format!("{i}\n"))
        .collect::<String>()
        .into_bytes()
}

#[test]
fn bucket_bits_follow_the_line_count() {
    assert_eq!(PLAN.bits(0), 0);
    assert_eq!(PLAN.bits(1 << 17), 0);
    assert_eq!(PLAN.bits((1 << 17) + 1), 1);
    assert_eq!(PLAN.bits(20_000_000), 8);
    assert_eq!(PLAN.bits(40_000_000), 9);
    assert_eq!(PLAN.bits(u64::MAX), MAX_BITS);
}

#[test]
fn the_order_of_a_seed_is_pinned() {
    // Reproducibility: changing these values breaks `shuf --seed` replays.
    let out = shuffled(&numbers(10), "pin", 1, PLAN);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "1\n4\n3\n2\n8\n7\n9\n0\n5\n6\n"
    );
    // 300 lines in 256 buckets of 9 label bits (two label calls), 60 chunks.
    let out = shuffled(
        &numbers(300),
        "pin",
        1,
        Plan {
            bucket_lines: 1,
            label_chunk: 5,
        },
    );
    let head: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().take(8).collect();
    assert_eq!(head.join(" "), "18 117 150 2 23 297 94 124");
}

#[test]
fn any_thread_count_gives_the_same_order() {
    for n in [0, 1, 2, 7, 64, 65, 333] {
        let mut data = numbers(n);
        for plan in [
            PLAN,
            SMALL,
            Plan {
                bucket_lines: 1,
                label_chunk: 3,
            },
        ] {
            let one = shuffled(&data, "threads", 1, plan);
            let mut sorted: Vec<&[u8]> = one.split_inclusive(|&b| b == b'\n').collect();
            sorted.sort();
            let mut expected: Vec<&[u8]> = data.split_inclusive(|&b| b == b'\n').collect();
            expected.sort();
            assert_eq!(sorted, expected, "n = {n}: not a permutation");
            for threads in 2..=5 {
                assert_eq!(
                    shuffled(&data, "threads", threads, plan),
                    one,
                    "n = {n}, {threads} threads"
                );
            }
        }
        // A last line without a delimiter gets one, wherever it lands.
        if data.pop().is_some() && !data.is_empty() {
            let out = shuffled(&data, "threads", 3, SMALL);
            assert_eq!(out.len(), data.len() + 1);
            assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), n);
        }
    }
}

/// Counts how often each order of 4 lines comes out over `runs` seeds
/// and returns Pearson's χ² statistic against the uniform distribution.
fn chi_square<S>(runs: usize, plan: Plan, shuffle: S) -> f64
where
    S: Fn(&mut [u32], &mut RngDice<AnyRng>) + Sync + Copy,
{
    let data = b"a\nb\nc\nd\n";
    let mut counts = std::collections::HashMap::new();
    for run in 0..runs {
        let out = shuffled_with(data, &format!("u{run}"), 1 + run % 2, plan, shuffle);
        *counts.entry(out).or_insert(0u64) += 1;
    }
    let expected = runs as f64 / 24.0;
    let missing = 24 - counts.len();
    counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum::<f64>()
        + missing as f64 * expected
}

#[test]
fn every_order_of_four_lines_is_equally_likely() {
    // 4 lines in 4 buckets (2 label bits, label chunks of 3 lines, so
    // chunks and buckets both matter), 6 000 fixed seeds, one and two
    // threads alternately: Pearson's χ² over the 24 orders (23 degrees
    // of freedom) stays below 57.0, whose false-alarm rate for a fair
    // shuffle is 1.0e-4. Negative control: 3 000 runs with one bucket
    // "shuffled" by the naive swap (swap i with any j: 256 equally
    // likely paths onto 24 orders, so some orders are favoured) land
    // above the bound.
    let buckets = Plan {
        bucket_lines: 1,
        label_chunk: 3,
    };
    let fair = chi_square(6_000, buckets, bucket_shuffle::<u32>);
    assert!(fair < 57.0, "fair shuffle: chi2 = {fair}");
    let naive = |bucket: &mut [u32], dice: &mut RngDice<AnyRng>| {
        let n = bucket.len() as u64;
        for i in 0..bucket.len() {
            bucket.swap(i, dice.roll(n) as usize);
        }
    };
    let one_bucket = Plan {
        bucket_lines: 4,
        label_chunk: 3,
    };
    let biased = chi_square(3_000, one_bucket, naive);
    assert!(biased > 57.0, "naive swap, one bucket: chi2 = {biased}");
}
