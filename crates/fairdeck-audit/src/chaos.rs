//! The degree of chaos of Florian, “关于如何评价洗牌质量的猜想”:
//! the least number of swaps of two items that sorts a sequence ascending or
//! descending, its maximum Ch(N) over all orders, and its law under a uniform
//! shuffle.
//!
//! Facts proven in `docs/chaos.md`: sorting ascending needs exactly
//! n − c(σ) swaps (c = number of cycles of the rank permutation σ), which is
//! also what the article's selection sort counts; descending needs
//! n − c(w₀∘σ) (w₀ reverses the values); and
//! Ch(N) = N − 1 when N mod 4 ∈ {0, 1}, N − 2 when N mod 4 ∈ {2, 3} (N ≥ 2).

use num_bigint::BigUint;

use crate::error::Error;
use crate::stats::count_cycles;

/// Swaps needed to sort a sequence each way, and the chaos (the smaller).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chaos {
    /// Least swaps to sort ascending.
    pub ascending: usize,
    /// Least swaps to sort descending.
    pub descending: usize,
    /// The degree of chaos: `min(ascending, descending)`.
    pub chaos: usize,
}

/// Ranks of distinct values: the permutation σ with `values[i]` the σ(i)-th smallest.
///
/// # Errors
///
/// [`Error::NotAPermutation`] if two values are equal.
pub fn ranks<T: Ord>(values: &[T]) -> Result<Vec<usize>, Error> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].cmp(&values[b]));
    if order.windows(2).any(|w| values[w[0]] == values[w[1]]) {
        return Err(Error::NotAPermutation("values repeat".into()));
    }
    let mut rank = vec![0; values.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    Ok(rank)
}

/// The degree of chaos of a sequence of distinct values. O(n log n) time.
///
/// ```
/// use fairdeck_audit::chaos::chaos;
///
/// let c = chaos(&[1, 4, 2, 3, 5])?;
/// assert_eq!((c.ascending, c.descending, c.chaos), (2, 2, 2));
/// # Ok::<(), fairdeck_audit::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::NotAPermutation`] if two values are equal.
pub fn chaos<T: Ord>(values: &[T]) -> Result<Chaos, Error> {
    let sigma = ranks(values)?;
    Ok(chaos_of_permutation(&sigma))
}

/// The degree of chaos of a permutation of `0..n`. O(n) time.
pub fn chaos_of_permutation(sigma: &[usize]) -> Chaos {
    let n = sigma.len();
    let ascending = n - count_cycles(sigma);
    let descending = n - complement_cycles(sigma);
    Chaos {
        ascending,
        descending,
        chaos: ascending.min(descending),
    }
}

/// Cycles of i ↦ n−1−σ(i), without building it. O(n).
fn complement_cycles(sigma: &[usize]) -> usize {
    let n = sigma.len();
    let mut seen = vec![false; n];
    let mut cycles = 0;
    for start in 0..n {
        if !seen[start] {
            cycles += 1;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                i = n - 1 - sigma[i];
            }
        }
    }
    cycles
}

/// Swaps made by the article's selection sort (swap only when the extreme
/// is not already in place). O(n²) time; equals the minimum (see docs/chaos.md).
pub fn selection_sort_swaps<T: Ord + Clone>(values: &[T], descending: bool) -> usize {
    let mut v = values.to_vec();
    let mut swaps = 0;
    for i in 0..v.len().saturating_sub(1) {
        let mut k = i;
        for j in i + 1..v.len() {
            if (v[j] < v[k]) != descending && v[j] != v[k] {
                k = j;
            }
        }
        if k != i {
            v.swap(i, k);
            swaps += 1;
        }
    }
    swaps
}

/// Ch(N) by the closed formula: 0 for N ≤ 1, N − 1 if N mod 4 ∈ {0, 1},
/// else N − 2. O(1).
///
/// ```
/// let table: Vec<u64> = (3..=11).map(fairdeck_audit::chaos::max_chaos).collect();
/// assert_eq!(table, [1, 3, 4, 4, 5, 7, 8, 8, 9]); // Florian, “关于如何评价洗牌质量的猜想”
/// ```
pub fn max_chaos(n: u64) -> u64 {
    match n {
        0 | 1 => 0,
        _ if n % 4 <= 1 => n - 1,
        _ => n - 2,
    }
}

/// Largest N accepted by [`max_chaos_by_enumeration`].
pub const MAX_ENUMERATION_N: usize = 13;

/// Ch(N) by exhaustive search, with a witness permutation.
///
/// Searches the permutations with exactly L cycles for L = 1, 2, …: each has
/// ascending count N − L, so once the best chaos found is ≥ N − L no later
/// level can beat it and the search stops (also as soon as a level's best,
/// N − L, is reached). Each level lists cyclic sequences starting with 0 (the
/// (N−1)! orders of the others, Heap's algorithm) cut into L blocks, one cycle
/// each. Uses no number theory; in practice only level 1 runs: (N−1)!·O(N)
/// time at worst, under a second for N = 11.
///
/// # Errors
///
/// [`Error::OutOfRange`] for N > [`MAX_ENUMERATION_N`].
pub fn max_chaos_by_enumeration(n: usize) -> Result<(usize, Vec<usize>), Error> {
    if n > MAX_ENUMERATION_N {
        return Err(Error::OutOfRange(format!(
            "enumeration goes up to N = {MAX_ENUMERATION_N}; use the formula beyond"
        )));
    }
    let mut best = (0, (0..n).collect::<Vec<_>>());
    for level in 1..=n {
        if n - level <= best.0 {
            break;
        }
        if let Some(found) = search_level(n, level, &mut best) {
            return Ok(found);
        }
    }
    Ok(best)
}

/// Visits every permutation with `level` cycles (with repeats); returns early
/// with a permutation of chaos n − level, the most this level can give.
fn search_level(
    n: usize,
    level: usize,
    best: &mut (usize, Vec<usize>),
) -> Option<(usize, Vec<usize>)> {
    let mut seq: Vec<usize> = (0..n).collect();
    let mut cuts = vec![0; level + 1];
    let mut heap = vec![0usize; n];
    let mut i = 1;
    loop {
        if let Some(found) = try_cuttings(&seq, level, &mut cuts, best) {
            return Some(found);
        }
        // Heap's algorithm over seq[1..n].
        while i < n - 1 && heap[i] >= i {
            heap[i] = 0;
            i += 1;
        }
        if i >= n.saturating_sub(1) {
            return None;
        }
        let j = if i % 2 == 0 { 1 } else { 1 + heap[i] };
        seq.swap(j, i + 1);
        heap[i] += 1;
        i = 1;
    }
}

/// Tries every way to cut `seq` into `level` non-empty blocks.
fn try_cuttings(
    seq: &[usize],
    level: usize,
    cuts: &mut [usize],
    best: &mut (usize, Vec<usize>),
) -> Option<(usize, Vec<usize>)> {
    let n = seq.len();
    cuts[0] = 0;
    cuts[level] = n;
    for (k, c) in cuts.iter_mut().enumerate().take(level).skip(1) {
        *c = k;
    }
    let mut sigma = vec![0; n];
    loop {
        for b in 0..level {
            let block = &seq[cuts[b]..cuts[b + 1]];
            for (t, &x) in block.iter().enumerate() {
                sigma[x] = block[(t + 1) % block.len()];
            }
        }
        let c = chaos_of_permutation(&sigma).chaos;
        if c > best.0 {
            *best = (c, sigma.clone());
            if c == n - level {
                return Some(best.clone());
            }
        }
        // Next cutting: move the last movable cut right, reset those after it.
        let movable = (1..level).rev().find(|&b| cuts[b] + (level - b) < n)?;
        cuts[movable] += 1;
        for b in movable + 1..level {
            cuts[b] = cuts[b - 1] + 1;
        }
    }
}

/// How many of the n! orders need exactly k swaps to sort ascending, for
/// k = 0..n: |s(n, n−k)|, unsigned Stirling numbers of the first kind. O(n²)
/// big-integer additions.
pub fn ascending_swap_counts(n: usize) -> Vec<BigUint> {
    // row[c] = |s(m, c)|
    let mut row = vec![BigUint::from(1u32)];
    for m in 1..=n {
        let mut next = vec![BigUint::from(0u32); m + 1];
        for (c, x) in row.iter().enumerate() {
            next[c] += x * BigUint::from(m - 1);
            next[c + 1] += x;
        }
        row = next;
    }
    row.reverse(); // index by n − c
    row
}

/// Mean and variance of the ascending swap count n − c(σ) of a uniform σ:
/// n − H(n) and H(n) − H⁽²⁾(n). O(n).
pub fn ascending_swap_moments(n: usize) -> (f64, f64) {
    let h: f64 = (1..=n).map(|k| 1.0 / k as f64).sum();
    let h2: f64 = (1..=n).map(|k| 1.0 / (k * k) as f64).sum();
    (n as f64 - h, h - h2)
}

/// Largest n for [`chaos_counts`] (10! = 3 628 800 orders).
pub const MAX_DISTRIBUTION_N: usize = 10;

/// How many of the n! orders have chaos k, k = 0..n, by visiting them all.
/// O(n!·n) time.
///
/// # Errors
///
/// [`Error::OutOfRange`] for n > [`MAX_DISTRIBUTION_N`].
pub fn chaos_counts(n: usize) -> Result<Vec<u64>, Error> {
    if n > MAX_DISTRIBUTION_N {
        return Err(Error::OutOfRange(format!(
            "the exact chaos law is enumerated up to n = {MAX_DISTRIBUTION_N}"
        )));
    }
    let mut counts = vec![0u64; n + 1];
    let mut p: Vec<usize> = (0..n).collect();
    loop {
        counts[chaos_of_permutation(&p).chaos] += 1;
        if !next_permutation(&mut p) {
            return Ok(counts);
        }
    }
}

/// Steps to the lexicographically next permutation; `false` after the last.
pub fn next_permutation(v: &mut [usize]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let j = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]).unwrap_or(i);
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

#[cfg(test)]
mod tests;
