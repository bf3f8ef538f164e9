use super::*;
use fairdeck::dice::Dice;

fn ratio(p: i64, q: i64) -> BigRational {
    BigRational::new(BigInt::from(p), BigInt::from(q))
}

/// Negative control: swap position i with any position in [0, n).
fn naive_swap(n: usize, w: &mut Walker) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in 0..n {
        let j = w.roll(n as u64) as usize;
        v.swap(i, j);
    }
    v
}

/// "Draw until unused": an unbounded rejection shuffle.
fn draw_until_unused(n: usize, w: &mut Walker) -> Vec<usize> {
    let mut used = vec![false; n];
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        if w.exhausted() {
            return out;
        }
        let x = w.roll(n as u64) as usize;
        if !used[x] {
            used[x] = true;
            out.push(x);
        }
    }
    out
}

#[test]
fn naive_swap_at_three_has_the_4_5_pattern() {
    let d = distribution(3, |w| naive_swap(3, w), Limits::default()).unwrap();
    assert_eq!(d.paths, 27);
    assert_eq!(d.support(), 6);
    let fives: Vec<&Vec<usize>> = d
        .outcomes
        .iter()
        .filter(|(_, p)| *p == ratio(5, 27))
        .map(|(o, _)| o)
        .collect();
    assert_eq!(fives, [&vec![0, 2, 1], &vec![1, 0, 2], &vec![1, 2, 0]]);
    let fours = d.outcomes.iter().filter(|(_, p)| *p == ratio(4, 27));
    assert_eq!(fours.count(), 3);
    assert_eq!(d.total_variation(), ratio(1, 18));
}

#[test]
fn fisher_yates_is_exactly_uniform() {
    for n in 1..=6 {
        let d = distribution(
            n,
            |w| {
                let mut v: Vec<usize> = (0..n).collect();
                fairdeck::shuffle::shuffle(&mut v, w);
                v
            },
            Limits::default(),
        )
        .unwrap();
        assert!(d.is_uniform(), "n = {n}");
        assert!(d.unresolved.is_zero());
    }
}

#[test]
fn rejection_is_uniform_given_resolution_with_mass_left() {
    let d = distribution(
        3,
        |w| draw_until_unused(3, w),
        Limits {
            max_paths: 200_000,
            max_depth: 64,
        },
    )
    .unwrap();
    assert!(d.is_uniform());
    assert!(d.unresolved > BigRational::zero());
    assert!(d.unresolved < ratio(1, 10));
    // Uniform on the resolved paths is not proven uniform: the whole law is
    // only known to lie within U·(1 − 1/3!) of uniform.
    assert!(!d.is_exactly_uniform());
    let (lower, upper) = d.total_variation_bounds();
    assert_eq!(lower, BigRational::zero());
    assert_eq!(upper, &d.unresolved * ratio(5, 6));
}

#[test]
fn bounds_of_a_complete_walk_are_its_distance() {
    let d = distribution(3, |w| naive_swap(3, w), Limits::default()).unwrap();
    assert!(d.unresolved.is_zero());
    let (lower, upper) = d.total_variation_bounds();
    assert_eq!(
        (lower.clone(), upper),
        (d.total_variation(), d.total_variation())
    );
    assert!(lower > BigRational::zero());
}

#[test]
fn refuses_a_walk_over_budget() {
    let limits = Limits {
        max_paths: 1000,
        max_depth: 64,
    };
    let err = distribution(6, |w| naive_swap(6, w), limits).unwrap_err();
    assert_eq!(err, Error::TooManyPaths { max_paths: 1000 });
}

#[test]
fn rejects_outputs_that_are_not_permutations() {
    let err = distribution(3, |_| vec![0, 0, 1], Limits::default()).unwrap_err();
    assert!(matches!(err, Error::NotAPermutation(_)));
}

#[test]
fn verdicts_flag_the_naive_swap() {
    let v = verdicts_with(naive_swap, 5, 1_000_000);
    assert_eq!(v.len(), 4);
    assert!(v[0].uniform, "n = 2: 4 paths, 2 each");
    assert!(v[1..].iter().all(|x| !x.uniform));
}

/// Issue 15: `--max-depth 4294967295` used to let a path grow until the
/// allocation failed; the depth is capped at MAX_DEPTH whatever the limits say.
#[test]
fn the_depth_is_capped_whatever_the_limits_say() {
    let forever = |w: &mut Walker| {
        while !w.exhausted() {
            w.roll(1); // a loop no probability bound can stop
        }
        vec![0]
    };
    let limits = Limits {
        max_paths: u64::MAX,
        max_depth: usize::MAX,
    };
    let d = distribution(1, forever, limits).unwrap();
    assert_eq!(d.depth, MAX_DEPTH);
    assert_eq!(d.unresolved, BigRational::one());
}
