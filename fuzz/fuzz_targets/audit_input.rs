//! The audit input readers (`fairdeck audit --input`: numbers, or card
//! names through the standard order): any bytes give a tally of
//! permutations or an error, never a panic or an unbounded allocation; a
//! tally counts every accepted line once.
#![no_main]

use fairdeck_audit::stats::MAX_N;
use fairdeck_audit::stats::input::{read_log, read_permutations};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let base = match data.first() {
        Some(0) => Some(0),
        Some(1) => Some(1),
        Some(2) => Some(7),
        _ => None,
    };
    for tally in [read_permutations(data, base), read_log(data, base, None)]
        .into_iter()
        .flatten()
    {
        assert!(tally.n <= MAX_N);
        assert!(tally.trials >= 1);
        let per_card: u64 = tally.positions.iter().take(tally.n).sum();
        assert_eq!(per_card, tally.trials);
    }
});
