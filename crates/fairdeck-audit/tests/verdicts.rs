//! Exact verdicts on the whole catalogue: the known facts must come out.

use fairdeck::algorithms::Algorithm;
use fairdeck_audit::exact::{Limits, distribution, verdicts};
use num_bigint::BigInt;
use num_rational::BigRational;

#[test]
fn intended_uniform_algorithms_are_exactly_uniform_and_flawed_ones_are_not() {
    for alg in Algorithm::ALL {
        let v = verdicts(alg);
        assert!(v.len() >= 2, "{}: too few sizes", alg.name());
        if alg.intended_uniform() {
            assert!(
                v.iter().all(|x| x.uniform_on_resolved),
                "{}: {v:?}",
                alg.name()
            );
        } else {
            assert!(
                v.iter().any(|x| !x.uniform_on_resolved),
                "{}: {v:?}",
                alg.name()
            );
        }
        // "uniform" is claimed only for a complete walk.
        for x in &v {
            let complete = x.unresolved == BigRational::from_integer(0.into());
            assert_eq!(
                x.uniform,
                x.uniform_on_resolved && complete,
                "{}",
                alg.name()
            );
        }
    }
}

#[test]
fn sattolo_reaches_only_the_cyclic_orders() {
    let v = verdicts(Algorithm::Sattolo);
    for x in &v {
        let cyclic: usize = (1..x.n).product();
        assert_eq!(x.support, cyclic, "n = {}", x.n);
    }
}

#[test]
fn naive_swap_at_three_walks_27_paths() {
    let d = distribution(3, |w| Algorithm::NaiveSwap.permute(3, w), Limits::default()).unwrap();
    assert_eq!(d.paths, 27);
    let r = |p: i64| BigRational::new(BigInt::from(p), BigInt::from(27));
    let fours = d.outcomes.iter().filter(|(_, p)| *p == r(4)).count();
    let fives = d.outcomes.iter().filter(|(_, p)| *p == r(5)).count();
    assert_eq!((fours, fives), (3, 3));
}
