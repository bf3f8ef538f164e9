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
    }

    #[test]
    fn laws_sum_to_one_at_52() {
        for law in [
            fixed_points(52),
            cycles(52),
            rising_sequences(52),
            successions(52),
        ] {
            assert!((law.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }
}
