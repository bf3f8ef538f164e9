//! Exact distribution of the bucket shuffle, by enumerating every answer of
//! every draw (the bucket of each row, then each bucket's Fisher–Yates).
//!
//! The enumerator walks paths of unequal probability (a bucket of c rows
//! makes c − 1 rolls), so each path is weighted by `kⁿ · n! / Π bounds`,
//! an integer (`n! / Π c_j!`, a multinomial coefficient). The shuffle is
//! exactly uniform iff every one of the n! orders gets total weight `kⁿ`.

use std::collections::{BTreeMap, BTreeSet};

use fairdeck::dice::{Dice, Enumerator};
use fairdeck_distributed::{Draws, RowId, shuffle_rows};
use fairdeck_fair::durstenfeld;

/// Rows spread over two files, at the same offsets in both.
fn rows(n: usize) -> Vec<(RowId, usize)> {
    (0..n)
        .map(|i| (RowId::new((i % 2) as u32, 7 * (i / 2) as u64 + 3), i))
        .collect()
}

fn factorial(n: u128) -> u128 {
    (1..=n).product()
}

struct Distribution {
    /// Total weight of each output order.
    weights: BTreeMap<Vec<usize>, u128>,
    /// The bucket-size vectors seen.
    sizes: BTreeSet<Vec<usize>>,
}

/// Enumerates every path of `run` (a shuffle of `rows(n)` into `k` buckets).
fn distribution(
    n: usize,
    k: u64,
    mut run: impl FnMut(&mut Enumerator, Vec<(RowId, usize)>) -> Vec<Vec<(RowId, usize)>>,
) -> Distribution {
    let scale = (k as u128).pow(n as u32) * factorial(n as u128);
    let mut e = Enumerator::new();
    let mut d = Distribution {
        weights: BTreeMap::new(),
        sizes: BTreeSet::new(),
    };
    loop {
        let parts = run(&mut e, rows(n));
        let bounds: u128 = e.path_bounds().map(u128::from).product();
        assert_eq!(scale % bounds, 0);
        d.sizes.insert(parts.iter().map(Vec::len).collect());
        let order = parts.into_iter().flatten().map(|(_, v)| v).collect();
        *d.weights.entry(order).or_insert(0) += scale / bounds;
        if !e.next_path() {
            return d;
        }
    }
}

fn is_uniform(d: &Distribution, n: usize, k: u64) -> bool {
    d.weights.len() as u128 == factorial(n as u128)
        && d.weights.values().all(|&w| w == (k as u128).pow(n as u32))
}

#[test]
fn every_order_has_probability_one_over_n_factorial() {
    for k in [2u64, 3] {
        for n in 0..=5usize {
            if k == 3 && n == 5 {
                continue; // 3^5 · 5! paths is fine, but n = 4 already shows it
            }
            let d = distribution(n, k, |e, rows| shuffle_rows(&mut &mut *e, k, rows).unwrap());
            assert!(is_uniform(&d, n, k), "k = {k}, n = {n}: {:?}", d.weights);
            if n >= 2 {
                // Unequal sizes, an empty bucket and a full one all occur.
                assert!(
                    d.sizes
                        .iter()
                        .any(|s| s.iter().collect::<BTreeSet<_>>().len() > 1)
                );
                assert!(d.sizes.iter().any(|s| s.contains(&n)), "{:?}", d.sizes);
            }
        }
    }
}

/// Buckets drawn with modulo bias (`roll(k + 1) % k`): unequal bucket
/// probabilities only unbalance the sizes; the order stays uniform, since
/// the labels are still independent and identically distributed.
struct ModuloBuckets<'a>(&'a mut Enumerator);

impl Draws for ModuloBuckets<'_> {
    fn bucket(&mut self, _row: RowId, buckets: u64) -> u64 {
        self.0.roll(buckets + 1) % buckets
    }
    fn shuffle<T>(&mut self, _bucket: u64, rows: &mut [T]) {
        durstenfeld(rows, &mut *self.0);
    }
}

/// Negative control 1: a key-derivation bug — the bucket keyed by the
/// position only, forgetting the file, so rows at the same offset of two
/// files always share a bucket.
struct ForgetsFile<'a>(&'a mut Enumerator, BTreeMap<u64, u64>);

impl Draws for ForgetsFile<'_> {
    fn bucket(&mut self, row: RowId, buckets: u64) -> u64 {
        *self
            .1
            .entry(row.position)
            .or_insert_with(|| self.0.roll(buckets))
    }
    fn shuffle<T>(&mut self, _bucket: u64, rows: &mut [T]) {
        durstenfeld(rows, &mut *self.0);
    }
}

/// Negative control 2: each bucket shuffled by the naive swap (swap every
/// place with a place drawn from the whole bucket: mⁿ paths, not m!).
struct NaiveBuckets<'a>(&'a mut Enumerator);

impl Draws for NaiveBuckets<'_> {
    fn bucket(&mut self, _row: RowId, buckets: u64) -> u64 {
        self.0.roll(buckets)
    }
    fn shuffle<T>(&mut self, _bucket: u64, rows: &mut [T]) {
        let m = rows.len() as u64;
        for i in 0..rows.len() {
            let j = self.0.roll(m) as usize;
            rows.swap(i, j);
        }
    }
}

/// Probabilities of a negative control's orders (floating point: its
/// path weights need not share a small common denominator).
fn biased_distribution(
    run: impl Fn(&mut Enumerator) -> Vec<Vec<(RowId, usize)>>,
) -> BTreeMap<Vec<usize>, f64> {
    let mut e = Enumerator::new();
    let mut weights = BTreeMap::new();
    loop {
        let parts = run(&mut e);
        let p: f64 = e.path_bounds().map(|b| 1.0 / b as f64).product();
        let order = parts
            .into_iter()
            .flatten()
            .map(|(_, v)| v)
            .collect::<Vec<_>>();
        *weights.entry(order).or_insert(0.0) += p;
        if !e.next_path() {
            return weights;
        }
    }
}

#[test]
fn biased_variants_are_caught() {
    for k in [2u64, 3] {
        let n = 3;
        let modulo =
            biased_distribution(|e| shuffle_rows(&mut ModuloBuckets(e), k, rows(n)).unwrap());
        assert_eq!(modulo.len(), 6);
        assert!(
            modulo.values().all(|p| (p - 1.0 / 6.0).abs() < 1e-12),
            "{modulo:?}"
        );
        for weights in [
            biased_distribution(|e| {
                shuffle_rows(&mut ForgetsFile(e, BTreeMap::new()), k, rows(n)).unwrap()
            }),
            biased_distribution(|e| shuffle_rows(&mut NaiveBuckets(e), k, rows(n)).unwrap()),
        ] {
            let total: f64 = weights.values().sum();
            assert!((total - 1.0).abs() < 1e-12);
            let (lo, hi) = weights
                .values()
                .fold((1.0f64, 0.0f64), |(lo, hi), &p| (lo.min(p), hi.max(p)));
            // Uniform would be 1/6 for every order; the controls are off by
            // far more than rounding.
            assert!(
                hi - lo > 1e-3,
                "k = {k}: a biased variant looked uniform: {weights:?}"
            );
        }
    }
}
