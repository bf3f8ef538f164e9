//! The incremental verifier checks each proof once, and checks again what
//! changed (docs/hidden-dealing.md §15; the verdicts themselves are compared
//! with a verification from scratch in `transcript.rs` and
//! `transcript_cheats.rs`).

mod fixture;

use fairdeck_hidden::verify::{Options, Verifier};
use fixture::{play, prefixes};

fn progress() -> Options<'static> {
    Options {
        in_progress: true,
        ..Options::default()
    }
}

#[test]
fn a_growing_transcript_costs_each_proof_once() {
    let record = play("once", 3, 31, 1, &[0]).record;
    let h = &record.hands[0];
    let proofs = record.keys.len()
        + h.shuffles.len()
        + h.deal.len()
        + h.streets.iter().map(|s| s.shares.len()).sum::<usize>()
        + h.showdown.len();
    let mut verifier = Verifier::new();
    for p in prefixes(&record) {
        assert!(verifier.verify(&p, &progress()).verdict.is_valid());
    }
    assert_eq!(verifier.proofs_checked(), proofs as u64);
    // The same transcript again: nothing new to check.
    assert!(
        verifier
            .verify(&record, &Options::default())
            .verdict
            .is_valid()
    );
    assert_eq!(verifier.proofs_checked(), proofs as u64);
    // Control: a verifier from scratch on every prefix checks far more.
    let scratch: u64 = prefixes(&record)
        .iter()
        .map(|p| {
            let mut v = Verifier::new();
            v.verify(p, &progress());
            v.proofs_checked()
        })
        .sum();
    assert!(scratch > 5 * proofs as u64, "{scratch} vs {proofs}");
}

#[test]
fn a_changed_earlier_message_is_checked_again_with_what_depends_on_it() {
    let record = play("changed", 3, 32, 1, &[]).record;
    let h = &record.hands[0];
    let shares = h.deal.len() + h.streets.iter().map(|s| s.shares.len()).sum::<usize>();
    let mut verifier = Verifier::new();
    assert!(verifier.verify(&record, &progress()).verdict.is_valid());
    let before = verifier.proofs_checked();
    // Seat 1's shuffle with seat 2's proof: seat 1's shuffle is checked
    // again (and refused); nothing after it is trusted from before.
    let mut bent = record.clone();
    bent.hands[0].shuffles[1].proof = bent.hands[0].shuffles[2].proof.clone();
    let v = verifier.verify(&bent, &progress()).verdict;
    assert_eq!(v.kinds(), ["shuffle-proof"]);
    assert_eq!(verifier.proofs_checked(), before + 1);
    // The honest transcript again: seats 1 and 2's shuffles and every share
    // are checked again (what was remembered after seat 0 was forgotten).
    assert!(verifier.verify(&record, &progress()).verdict.is_valid());
    assert_eq!(verifier.proofs_checked(), before + 1 + 2 + shares as u64);
    // A changed share is checked again, and alone.
    let mut bent = record.clone();
    bent.hands[0].deal[0].proof.s = bent.hands[0].deal[0].proof.c;
    let at = verifier.proofs_checked();
    assert_eq!(
        verifier.verify(&bent, &progress()).verdict.kinds(),
        ["share-proof"]
    );
    assert_eq!(verifier.proofs_checked(), at + 1);
    assert_eq!(before, 3 + 3 + shares as u64);
}

#[test]
fn another_table_starts_from_scratch() {
    let a = play("table a", 2, 33, 0, &[]).record;
    let b = play("table b", 2, 34, 0, &[]).record;
    let mut verifier = Verifier::new();
    assert!(verifier.verify(&a, &Options::default()).verdict.is_valid());
    let once = verifier.proofs_checked();
    assert!(verifier.verify(&b, &Options::default()).verdict.is_valid());
    assert_eq!(verifier.proofs_checked(), 2 * once);
    // Back to the first table: its results were forgotten, so it is checked again.
    assert!(verifier.verify(&a, &Options::default()).verdict.is_valid());
    assert_eq!(verifier.proofs_checked(), 3 * once);
}
