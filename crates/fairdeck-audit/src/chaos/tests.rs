use super::*;

/// Ch(N) by brute force over all N! orders with the article's selection sort.
fn brute_force_max(n: usize) -> usize {
    let mut p: Vec<usize> = (0..n).collect();
    let mut best = 0;
    loop {
        let up = selection_sort_swaps(&p, false);
        let down = selection_sort_swaps(&p, true);
        best = best.max(up.min(down));
        if !next_permutation(&mut p) {
            return best;
        }
    }
}

#[test]
fn the_article_example() {
    let c = chaos(&[1, 4, 2, 3, 5]).unwrap();
    assert_eq!(c.chaos, 2);
    assert!(chaos(&[1, 1]).is_err());
    assert_eq!(chaos(&[-7, 100, 3]).unwrap().ascending, 1);
}

#[test]
fn selection_sort_counts_the_minimum_on_all_orders_up_to_7() {
    for n in 0..=7 {
        let mut p: Vec<usize> = (0..n).collect();
        loop {
            let c = chaos_of_permutation(&p);
            assert_eq!(selection_sort_swaps(&p, false), c.ascending, "{p:?}");
            assert_eq!(selection_sort_swaps(&p, true), c.descending, "{p:?}");
            if !next_permutation(&mut p) {
                break;
            }
        }
    }
}

#[test]
fn formula_matches_brute_force_up_to_8() {
    for n in 0..=8 {
        assert_eq!(brute_force_max(n) as u64, max_chaos(n as u64), "N = {n}");
    }
}

#[test]
fn enumeration_matches_the_article_table_for_3_to_11() {
    let table: Vec<usize> = (3..=11)
        .map(|n| max_chaos_by_enumeration(n).unwrap().0)
        .collect();
    assert_eq!(table, [1, 3, 4, 4, 5, 7, 8, 8, 9]);
    for n in 0..=11 {
        let (c, witness) = max_chaos_by_enumeration(n).unwrap();
        assert_eq!(c as u64, max_chaos(n as u64));
        assert_eq!(chaos_of_permutation(&witness).chaos, c);
    }
}

#[test]
fn enumeration_refuses_beyond_its_limit() {
    assert!(max_chaos_by_enumeration(MAX_ENUMERATION_N + 1).is_err());
}

#[test]
fn stirling_counts_match_enumeration() {
    for n in 1..=7 {
        let mut by_count = vec![0u64; n + 1];
        let mut p: Vec<usize> = (0..n).collect();
        loop {
            by_count[chaos_of_permutation(&p).ascending] += 1;
            if !next_permutation(&mut p) {
                break;
            }
        }
        let stirling: Vec<u64> = ascending_swap_counts(n)
            .iter()
            .map(|x| u64::try_from(x).unwrap())
            .collect();
        assert_eq!(by_count, stirling);
        let total: u64 = by_count.iter().sum();
        let mean = by_count
            .iter()
            .enumerate()
            .map(|(k, &c)| (k as u64 * c) as f64)
            .sum::<f64>()
            / total as f64;
        assert!((mean - ascending_swap_moments(n).0).abs() < 1e-12);
    }
}

#[test]
fn chaos_law_at_four() {
    // 24 orders: 2 sorted ones (chaos 0), the rest split by enumeration.
    let counts = chaos_counts(4).unwrap();
    assert_eq!(counts.iter().sum::<u64>(), 24);
    assert_eq!(counts[0], 2);
    assert_eq!(counts[3] > 0, max_chaos(4) == 3);
}

/// The construction of docs/chaos.md (Lemma 2): from an order of N items,
/// put it in the middle of N + 4, the 4-cycle 2 4 1 3 on the outside, and
/// swap one middle position with one outer position.
fn add_four(sigma: &[usize]) -> Vec<usize> {
    let n = sigma.len();
    let tau = [1usize, 3, 0, 2]; // 2 4 1 3, 0-based
    let outer = [0, 1, n + 2, n + 3];
    let mut rho = vec![0; n + 4];
    for (i, &v) in sigma.iter().enumerate() {
        rho[i + 2] = v + 2;
    }
    for (i, &t) in tau.iter().enumerate() {
        rho[outer[i]] = outer[t];
    }
    rho.swap(2, 0); // σ' = ρ∘(m x): swap the items at positions m and x
    rho
}

#[test]
fn the_construction_reaches_the_formula_up_to_60() {
    let mut orders: Vec<Vec<usize>> = vec![vec![0], vec![0, 1], vec![1, 0, 2], vec![1, 3, 0, 2]];
    for n in 1..=60usize {
        let base = &orders[(n - 1) % 4];
        assert_eq!(base.len(), n);
        assert_eq!(
            chaos_of_permutation(base).chaos as u64,
            max_chaos(n as u64),
            "N = {n}"
        );
        let next = add_four(base);
        orders[(n - 1) % 4] = next;
    }
}
