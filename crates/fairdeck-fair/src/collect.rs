//! The rules a room follows while it collects the seats' commitments and
//! reveals for a version 2 table (sections 8.5 and 8.6 of
//! `docs/fair-dealing.md`): only the table's seats take part, each seat
//! commits once and reveals once, and no seat reveals without a collected
//! commitment — the one its seed must match (a reveal's own copy of it is
//! never trusted). `fair table lock|void` and `fair deal --table` apply
//! them to the documents collected as files ([`collect`]); the table
//! service applies them one event at a time ([`once`], [`seed_matches`]).

use core::fmt;

use crate::{Manifest, SeatRecord, Table};

/// A step of a seat in the collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The seat sends its commitment.
    Commit,
    /// The seat reveals its seed.
    Reveal,
}

impl Step {
    /// `commit` or `reveal`.
    pub fn name(self) -> &'static str {
        match self {
            Step::Commit => "commit",
            Step::Reveal => "reveal",
        }
    }

    /// `commitments` or `reveals`.
    fn plural(self) -> &'static str {
        match self {
            Step::Commit => "commitments",
            Step::Reveal => "reveals",
        }
    }
}

/// A rule of the collection broken.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CollectionError {
    /// A document of a seat the manifest does not list.
    NotAtTable {
        /// The seat named.
        seat: String,
        /// The table's seats.
        seats: Vec<String>,
    },
    /// A second commitment, or a second reveal, of one seat.
    Twice {
        /// The seat.
        seat: String,
        /// What it did twice.
        step: Step,
    },
    /// A seed revealed by a seat whose commitment was not collected.
    RevealWithoutCommitment {
        /// The seat.
        seat: String,
    },
    /// Seats that did not commit, where every seat must have (a lock, a deal).
    Uncommitted {
        /// Their names, in the manifest's order.
        seats: Vec<String>,
    },
    /// A revealed seed that does not give the seat's collected commitment.
    SeedMismatch {
        /// The seat.
        seat: String,
    },
}

impl fmt::Display for CollectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CollectionError::NotAtTable { seat, seats } => {
                write!(
                    f,
                    "seat {seat:?} is not at this table ({})",
                    seats.join(", ")
                )
            }
            CollectionError::Twice { seat, step } => {
                write!(f, "seat {seat:?} has two {}", step.plural())
            }
            CollectionError::RevealWithoutCommitment { seat } => {
                write!(f, "seat {seat:?} revealed without a collected commitment")
            }
            CollectionError::Uncommitted { seats } => {
                let names: Vec<String> = seats.iter().map(|s| format!("{s:?}")).collect();
                write!(
                    f,
                    "no commitment from seat(s) {}: every seat commits before any seat reveals",
                    names.join(", ")
                )
            }
            CollectionError::SeedMismatch { seat } => write!(
                f,
                "the seed of seat {seat:?} does not give its collected commitment"
            ),
        }
    }
}

impl std::error::Error for CollectionError {}

/// One seat's part as a document carries it (`fair seed commit|reveal
/// --format json`): its commitment, and in a reveal its seed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SeatDoc {
    /// The seat's name, as the manifest lists it.
    pub seat: String,
    /// 64 hex digits.
    pub commitment: String,
    /// The seed (a reveal only).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub seed: Option<String>,
}

/// The rule that a seat does each step once: `done` says whether `seat`
/// already did `step`. O(1).
///
/// # Errors
///
/// [`CollectionError::Twice`] when it did.
pub fn once(seat: &str, step: Step, done: bool) -> Result<(), CollectionError> {
    if done {
        return Err(CollectionError::Twice {
            seat: seat.to_string(),
            step,
        });
    }
    Ok(())
}

/// The rule that a revealed seed gives the commitment collected from seat
/// `index` (named `seat`) of `table`. O(manifest + seed).
///
/// # Errors
///
/// [`CollectionError::RevealWithoutCommitment`] when none was collected,
/// [`CollectionError::SeedMismatch`] when the seed gives another.
pub fn seed_matches(
    table: &Table,
    (index, seat): (usize, &str),
    collected: Option<&str>,
    seed: &str,
) -> Result<(), CollectionError> {
    let Some(collected) = collected else {
        return Err(CollectionError::RevealWithoutCommitment { seat: seat.into() });
    };
    if table.seat_commitment(index, seed).to_hex() != collected.to_ascii_lowercase() {
        return Err(CollectionError::SeedMismatch { seat: seat.into() });
    }
    Ok(())
}

/// The seats of the manifest with the commitments and reveals collected;
/// a seat without a commitment has an empty one. The seeds are not
/// checked against the commitments here: the transcript or void record
/// made from the seats does that. O(seats × documents).
///
/// # Errors
///
/// The first rule broken: a document of a seat not at the table, then, seat
/// by seat in the manifest's order, two commitments, two reveals, or a
/// reveal without a commitment.
pub fn collect(
    m: &Manifest,
    commits: &[SeatDoc],
    reveals: &[SeatDoc],
) -> Result<Vec<SeatRecord>, CollectionError> {
    if let Some(doc) = (commits.iter().chain(reveals)).find(|d| !m.seats.contains(&d.seat)) {
        return Err(CollectionError::NotAtTable {
            seat: doc.seat.clone(),
            seats: m.seats.clone(),
        });
    }
    let one = |docs: &[SeatDoc], seat: &str, step| {
        let mut found = docs.iter().filter(|d| d.seat == seat);
        let first = found.next().cloned();
        once(seat, step, found.next().is_some()).map(|()| first)
    };
    let mut seats = Vec::new();
    for name in &m.seats {
        let commitment = one(commits, name, Step::Commit)?.map(|c| c.commitment);
        // The reveal's own commitment is never trusted: the one collected
        // before the reveals is what its seed must match.
        let seed = one(reveals, name, Step::Reveal)?.and_then(|r| r.seed);
        if commitment.is_none() && seed.is_some() {
            return Err(CollectionError::RevealWithoutCommitment { seat: name.clone() });
        }
        seats.push(SeatRecord {
            name: name.clone(),
            commitment: commitment.unwrap_or_default(),
            seed,
        });
    }
    Ok(seats)
}

/// The rule that every seat committed (before a lock or a deal). O(seats).
///
/// # Errors
///
/// [`CollectionError::Uncommitted`] naming the seats that did not.
pub fn all_committed(seats: &[SeatRecord]) -> Result<(), CollectionError> {
    let missing: Vec<String> = (seats.iter())
        .filter(|s| s.commitment.is_empty())
        .map(|s| s.name.clone())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(CollectionError::Uncommitted { seats: missing })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            version: crate::VERSION,
            table: "t".into(),
            game: "holdem".into(),
            deck: "standard".into(),
            seats: vec!["ann".into(), "bo".into()],
            first: 0,
            last: 0,
        }
    }

    fn doc(seat: &str, commitment: &str, seed: Option<&str>) -> SeatDoc {
        SeatDoc {
            seat: seat.into(),
            commitment: commitment.into(),
            seed: seed.map(Into::into),
        }
    }

    #[test]
    fn the_seats_in_the_manifests_order() {
        let commits = [doc("bo", "b", None), doc("ann", "a", None)];
        let reveals = [doc("ann", "ignored", Some("s"))];
        let seats = collect(&manifest(), &commits, &reveals).unwrap();
        assert_eq!(seats[0].name, "ann");
        assert_eq!(
            (seats[0].commitment.as_str(), seats[0].seed.as_deref()),
            ("a", Some("s"))
        );
        assert_eq!(
            (seats[1].commitment.as_str(), seats[1].seed.as_deref()),
            ("b", None)
        );
        assert_eq!(all_committed(&seats), Ok(()));
    }

    #[test]
    fn each_rule_broken_is_named() {
        let m = manifest();
        let e = collect(&m, &[doc("cy", "c", None)], &[]).unwrap_err();
        assert_eq!(e.to_string(), r#"seat "cy" is not at this table (ann, bo)"#);
        let twice = [doc("ann", "a", None), doc("ann", "a", None)];
        let e = collect(&m, &twice, &[]).unwrap_err();
        assert_eq!(e.to_string(), r#"seat "ann" has two commitments"#);
        let e = collect(&m, &[], &[doc("bo", "b", Some("s"))]).unwrap_err();
        assert_eq!(
            e,
            CollectionError::RevealWithoutCommitment { seat: "bo".into() }
        );
        let seats = collect(&m, &[doc("bo", "b", None)], &[]).unwrap();
        let e = all_committed(&seats).unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"no commitment from seat(s) "ann": every seat commits before any seat reveals"#
        );
    }

    #[test]
    fn a_seed_must_give_the_collected_commitment() {
        let table = manifest().check().unwrap();
        let c = table.seat_commitment(1, "seed").to_hex();
        assert_eq!(seed_matches(&table, (1, "bo"), Some(&c), "seed"), Ok(()));
        let e = seed_matches(&table, (1, "bo"), Some(&c), "other").unwrap_err();
        assert_eq!(e, CollectionError::SeedMismatch { seat: "bo".into() });
        let e = seed_matches(&table, (0, "ann"), Some(&c), "seed").unwrap_err();
        assert_eq!(e, CollectionError::SeedMismatch { seat: "ann".into() });
        assert!(seed_matches(&table, (1, "bo"), None, "seed").is_err());
        assert_eq!(once("bo", Step::Reveal, false), Ok(()));
        assert!(once("bo", Step::Reveal, true).is_err());
    }
}
