//! Exact laws of permutation statistics under the uniform distribution on
//! all n! orders, as probability vectors (f64), for the goodness-of-fit tests.

/// Law of the number of fixed points: P(k) = (1/k!) Σ_{j=0}^{n−k} (−1)^j / j!.
/// O(n²) time.
pub fn fixed_points(n: usize) -> Vec<f64> {
    (0..=n)
        .map(|k| {
            let mut term = 1.0; // (−1)^j / j!
            let mut sum = 0.0;
            for j in 0..=(n - k) {
                if j > 0 {
                    term *= -1.0 / j as f64;
                }
                sum += term;
            }
            sum / factorial_f64(k)
        })
        .collect()
}

fn factorial_f64(k: usize) -> f64 {
    (1..=k).map(|x| x as f64).product()
}

/// Law of the number of cycles, P(k) = |s(n, k)| / n! (unsigned Stirling
/// numbers of the first kind), by the recurrence
/// P_m(k) = ((m−1)/m)·P_{m−1}(k) + (1/m)·P_{m−1}(k−1). O(n²) time.
pub fn cycles(n: usize) -> Vec<f64> {
    let mut p = vec![1.0];
    for m in 1..=n {
        let mf = m as f64;
        let mut next = vec![0.0; m + 1];
        for (k, &x) in p.iter().enumerate() {
            next[k] += x * (mf - 1.0) / mf;
            next[k + 1] += x / mf;
        }
        p = next;
    }
    p
}

/// Law of the number of rising sequences (1 + descents of the inverse),
/// P(k) = A(n, k)/n! with Eulerian numbers, by
/// P_m(k) = (k/m)·P_{m−1}(k) + ((m−k+1)/m)·P_{m−1}(k−1). Index k = 0..=n
/// (P(0) = 0 for n ≥ 1). O(n²) time.
pub fn rising_sequences(n: usize) -> Vec<f64> {
    let mut p = vec![1.0]; // m = 0: one (empty) arrangement with 0 sequences
    for m in 1..=n {
        let mf = m as f64;
        let mut next = vec![0.0; m + 1];
        for k in 1..=m {
            let stay = p.get(k).copied().unwrap_or(0.0) * k as f64 / mf;
            let grow = p[k - 1] * (m - k + 1) as f64 / mf;
            next[k] = stay + grow;
        }
        p = next;
    }
    p
}

/// Law of the number of successions (positions where card i is directly
/// followed by card i+1): P(k) = C(n−1, k)·R(n−k)/n!, where R(m) counts the
/// orders of m cards without successions, R(m) = (m−1)R(m−1) + (m−2)R(m−2).
/// Computed as r(m) = R(m)/m! and P(k) = r(n−k)·(n−k)/(n·k!). O(n) time.
pub fn successions(n: usize) -> Vec<f64> {
    if n == 0 {
        return vec![1.0];
    }
    let mut r = vec![0.0, 1.0]; // r(0) unused, r(1) = 1
    for m in 2..=n {
        let mf = m as f64;
        let prev2 = if m >= 3 { r[m - 2] } else { 0.0 };
        r.push((mf - 1.0) / mf * r[m - 1] + (mf - 2.0) / (mf * (mf - 1.0)) * prev2);
    }
    (0..n)
        .map(|k| r[n - k] * (n - k) as f64 / (n as f64 * factorial_f64(k)))
        .collect()
}

/// Law of the number of valleys — interior positions `i` with
/// `p[i−1] > p[i] < p[i+1]` — of a uniform order of n cards, read top to
/// bottom. Valleys and peaks have one law (complement every card), and
/// inserting the largest card into an order of m − 1 cards keeps the number
/// of peaks in the 2k + 2 gaps beside a peak or at an end and adds one in the
/// m − 2k others:
/// P_m(k) = ((2k+2)/m)·P_{m−1}(k) + ((m−2k)/m)·P_{m−1}(k−1).
/// Index k = 0..=n/2. O(n²) time.
///
/// Diaconis, Fulman and Holmes (2013), “Analysis of casino shelf shuffling
/// machines”: the law of a shelf shuffler's deck depends on the order only
/// through this number.
pub fn valleys(n: usize) -> Vec<f64> {
    let mut p = vec![1.0];
    for m in 2..=n {
        let mf = m as f64;
        let mut next = vec![0.0; m / 2 + 1];
        for (k, x) in next.iter_mut().enumerate() {
            let stay = p.get(k).copied().unwrap_or(0.0) * (2 * k + 2) as f64 / mf;
            let grow = match k {
                0 => 0.0,
                _ => p.get(k - 1).copied().unwrap_or(0.0) * m.saturating_sub(2 * k) as f64 / mf,
            };
            *x = stay + grow;
        }
        p = next;
    }
    p
}

/// Law of the number of cards guessed right in one deck of n cards by any
/// player who, told each card once it is turned, always names a card not
/// yet seen: with k cards left the guess is right with probability 1/k,
/// independently of the past, so the count is a sum of independent
/// Bernoulli(1/k), k = 1..n (mean H_n, 4.54 at 52; variance Σ(1/k − 1/k²)).
/// Index 0..=n. O(n²) time.
pub fn guesses(n: usize) -> Vec<f64> {
    let mut p = vec![1.0];
    for k in 1..=n {
        let q = 1.0 / k as f64;
        let mut next = vec![0.0; p.len() + 1];
        for (j, &x) in p.iter().enumerate() {
            next[j] += x * (1.0 - q);
            next[j + 1] += x * q;
        }
        p = next;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn laws_at_four_match_counts_over_all_24_orders() {
        let s = |v: &[f64]| v.iter().map(|x| x / 24.0).collect::<Vec<_>>();
        assert!(close(&fixed_points(4), &s(&[9.0, 8.0, 6.0, 0.0, 1.0])));
        assert!(close(&cycles(4), &s(&[0.0, 6.0, 11.0, 6.0, 1.0])));
        assert!(close(
            &rising_sequences(4),
            &s(&[0.0, 1.0, 11.0, 11.0, 1.0])
        ));
        // R(4) = 11, 3·R(3) = 9, 3·R(2) = 3, R(1) = 1.
        assert!(close(&successions(4), &s(&[11.0, 9.0, 3.0, 1.0])));
        // Orders of 4 without a valley: increasing then decreasing, 2³ of them.
        assert!(close(&valleys(4), &s(&[8.0, 16.0, 0.0])));
        assert!(close(&guesses(2), &[0.0, 0.5, 0.5]));
    }

    /// The valley law against a count over all 5040 orders of 7 cards.
    #[test]
    fn valleys_match_a_count_over_all_orders() {
        let all = crate::stats::gof::orders(7);
        let mut counts = vec![0.0; 4];
        for p in &all {
            let v = (1..6)
                .filter(|&i| p[i - 1] > p[i] && p[i] < p[i + 1])
                .count();
            counts[v] += 1.0 / all.len() as f64;
        }
        assert!(close(&valleys(7), &counts), "{:?}", valleys(7));
    }

    #[test]
    fn laws_sum_to_one_at_52() {
        for law in [
            fixed_points(52),
            cycles(52),
            rising_sequences(52),
            successions(52),
            valleys(52),
            guesses(52),
        ] {
            assert!((law.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }
}
