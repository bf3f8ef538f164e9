//! What a player recorded during play, checked against a transcript
//! (section 11 of `docs/fair-dealing.md`): the room's commitment `C` seen
//! before play, the seat lock `L` seen before revealing, the player's own
//! seed, and the deal numbers announced to the player as they were played.
//! The verdict says which of them were checked.

use core::fmt;

use super::Commitment;
use super::record::Record;
use super::spelling::{Given, Spelling};
use super::table::Table;
use super::transcript::{Transcript, deal_record};
use super::verdict::{
    Kind, Verification, check_commitment, check_deals, check_reveals, check_secret, check_table,
    diff,
};
use super::version::TranscriptVersion;
use super::void::check_void;

/// Everything a player recorded, each part optional: what is not given is
/// not checked, and [`Verification::unchecked`] lists it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Evidence {
    /// The room's commitment `C`, as published before play.
    pub commitment: Option<Commitment>,
    /// The seat lock `L`, as published before any seed was revealed.
    pub lock: Option<Commitment>,
    /// The player's own seat and seed.
    pub seat: Option<OwnSeed>,
    /// The deal numbers announced to the player, in the order played.
    pub played: Option<Vec<u64>>,
}

/// A player's own seat and the seed it committed to.
#[derive(Clone, PartialEq, Eq)]
pub struct OwnSeed {
    /// The seat's name, as in the manifest.
    pub seat: String,
    /// The seed (revealed by the time a transcript is verified).
    pub seed: String,
}

impl fmt::Debug for OwnSeed {
    /// Never prints the seed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OwnSeed({:?}, seed redacted)", self.seat)
    }
}

/// A piece of evidence that was not given, so not checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Unchecked {
    /// The room's commitment published before play.
    Commitment,
    /// The seat lock published before the reveals.
    Lock,
    /// The player's own seed.
    OwnSeed,
    /// The deal numbers the player was shown.
    Played,
}

impl Unchecked {
    /// What was not checked, and how the front end takes it (`spell`).
    pub fn describe(self, spell: &dyn Spelling) -> String {
        let usage = |given| spell.usage(given);
        match self {
            Unchecked::Commitment => format!(
                "the room's commitment published before play ({})",
                usage(Given::Commitment)
            ),
            Unchecked::Lock => format!(
                "the seat lock published before the reveals ({}): without it a seat \
                 colluding with the room may have chosen its seed after the others' reveals",
                usage(Given::Lock)
            ),
            Unchecked::OwnSeed => format!(
                "your own seed ({} {})",
                usage(Given::Seat),
                usage(Given::Seed)
            ),
            Unchecked::Played => format!(
                "the deal numbers you were shown as they were played ({})",
                usage(Given::Played)
            ),
        }
    }
}

/// What a verification amounts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Verdict {
    /// No difference, and the commitment, the lock, the player's seed and
    /// the deals shown were all compared.
    Valid,
    /// No difference against the published commitment, but some recorded
    /// evidence was not given ([`Verification::unchecked`]).
    Partial,
    /// No difference, but no published commitment was given: a forger
    /// holding another secret can achieve this too.
    SelfConsistentOnly,
    /// A void record that names the right seats and deals nothing.
    Void,
    /// At least one difference.
    Invalid,
}

impl Verdict {
    /// `valid`, `partial`, `self-consistent-only`, `void` or `invalid`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Valid => "valid",
            Verdict::Partial => "partial",
            Verdict::SelfConsistentOnly => "self-consistent-only",
            Verdict::Void => "void",
            Verdict::Invalid => "invalid",
        }
    }
}

impl Verification {
    /// The evidence that was not given and so not checked.
    pub fn unchecked(&self) -> Vec<Unchecked> {
        [
            (Unchecked::Commitment, self.published_checked),
            (Unchecked::Lock, self.lock_checked),
            (Unchecked::OwnSeed, self.seed_checked),
            (
                Unchecked::Played,
                self.played_checked || self.void.is_some(),
            ),
        ]
        .into_iter()
        .filter(|(_, checked)| !checked)
        .map(|(u, _)| u)
        .collect()
    }

    /// The verdict: invalid on any difference; void for a correct void
    /// record; valid only when nothing is [`Verification::unchecked`].
    pub fn verdict(&self) -> Verdict {
        let unchecked = self.unchecked();
        if !self.differences.is_empty() {
            Verdict::Invalid
        } else if self.void.is_some() {
            Verdict::Void
        } else if unchecked.contains(&Unchecked::Commitment) {
            Verdict::SelfConsistentOnly
        } else if unchecked.is_empty() {
            Verdict::Valid
        } else {
            Verdict::Partial
        }
    }
}

/// Checks a version-2 transcript against the derivation: the manifest, every
/// seat's reveal against its commitment, the room's commitment (against
/// `published` when given, else only against the transcript's own), and
/// every deal of the manifest's range pile by pile. O(deals · deck).
///
/// ```
/// use fairdeck_fair::{Manifest, SeatRecord, ServerSecret, Transcript, verify_transcript};
///
/// let m = Manifest {
///     version: 2, table: "t1".into(), game: "holdem".into(), deck: "standard".into(),
///     seats: vec!["ann".into(), "bo".into()], first: 0, last: 2,
/// };
/// let table = m.check()?;
/// let seats: Vec<SeatRecord> = ["s1", "s2"].iter().enumerate().map(|(i, s)| SeatRecord {
///     name: m.seats[i].clone(), commitment: table.seat_commitment(i, s).to_hex(), seed: Some(s.to_string()),
/// }).collect();
/// let secret = ServerSecret::from_bytes([5; 32]);
/// let t = Transcript::deal(&m, &secret, &seats)?;
/// let published = table.room_commitment(&secret);
/// assert!(verify_transcript(&t, Some(&published)).is_valid());
/// let unchecked = verify_transcript(&t, None);
/// assert!(unchecked.differences.is_empty() && !unchecked.is_valid());
/// # Ok::<(), fairdeck::Error>(())
/// ```
pub fn verify_transcript(t: &Transcript, published: Option<&Commitment>) -> Verification {
    let evidence = Evidence {
        commitment: published.copied(),
        ..Evidence::default()
    };
    verify_record(&Record::from(t.clone()), &evidence)
}

/// Checks a transcript (version 2 or 2.1, or a void record) against what
/// the player recorded: everything [`verify_transcript`](super::verify_transcript)
/// checks, and the seat lock, the player's own seed and the deals played.
/// O(deals · deck).
///
/// ```
/// use fairdeck_fair::{Evidence, Manifest, OwnSeed, Record, SeatRecord, ServerSecret,
///     Verdict, verify_record};
///
/// let m = Manifest {
///     version: 2, table: "t1".into(), game: "holdem".into(), deck: "standard".into(),
///     seats: vec!["ann".into(), "bo".into()], first: 0, last: 2,
/// };
/// let table = m.check()?;
/// let seats: Vec<SeatRecord> = ["s1", "s2"].iter().enumerate().map(|(i, s)| SeatRecord {
///     name: m.seats[i].clone(), commitment: table.seat_commitment(i, s).to_hex(), seed: Some(s.to_string()),
/// }).collect();
/// let secret = ServerSecret::from_bytes([5; 32]);
/// let room = table.room_commitment(&secret);
/// let lock = table.seat_lock(&room, &[table.seat_commitment(0, "s1"), table.seat_commitment(1, "s2")])?;
/// let t = Record::deal_locked(&m, &secret, &seats, &lock, 3)?;
/// let mut recorded = Evidence { commitment: Some(room), lock: Some(lock), ..Evidence::default() };
/// assert_eq!(verify_record(&t, &recorded).verdict(), Verdict::Partial);
/// recorded.seat = Some(OwnSeed { seat: "ann".into(), seed: "s1".into() });
/// recorded.played = Some(vec![0, 1, 2]);
/// assert_eq!(verify_record(&t, &recorded).verdict(), Verdict::Valid);
/// recorded.played = Some(vec![0, 2]);
/// assert_eq!(verify_record(&t, &recorded).verdict(), Verdict::Invalid);
/// # Ok::<(), fairdeck::Error>(())
/// ```
pub fn verify_record(record: &Record, r: &Evidence) -> Verification {
    let t = &record.transcript;
    let mut v = Verification {
        version: Some(record.version),
        ..Verification::default()
    };
    let Some(table) = check_table(t, &mut v) else {
        return v;
    };
    if let Some(void) = &record.void {
        check_void(record, &table, void, &mut v);
        if let Some(secret) = check_secret(t, &mut v) {
            check_commitment(t, &table, &secret, r.commitment.as_ref(), &mut v);
        }
    } else if let Some(seeds) = check_reveals(t, &table, &mut v)
        && let Some(secret) = check_secret(t, &mut v)
    {
        let seeds: Vec<&str> = seeds.iter().map(String::as_str).collect();
        check_commitment(t, &table, &secret, r.commitment.as_ref(), &mut v);
        check_deals(t, &table, &mut v, |nonce| {
            let deck = table.shuffled_deck(&secret, &seeds, nonce);
            let laid = table.lay_out(&deck).ok()?;
            Some(deal_record(&table, nonce, &deck, &laid))
        });
    }
    check_lock(record, &table, r.lock.as_ref(), &mut v);
    check_own_seed(t, &table, r.seat.as_ref(), &mut v);
    check_played(record, &table, r.played.as_deref(), &mut v);
    v
}

/// The lock the transcript's commitments give, against the transcript's
/// own (`lock`) and against the one the player recorded (`published-lock`).
fn check_lock(r: &Record, table: &Table, recorded: Option<&Commitment>, v: &mut Verification) {
    let t = &r.transcript;
    let all: Option<Vec<Commitment>> = t
        .seats
        .iter()
        .map(|s| Commitment::from_hex(&s.commitment).ok())
        .collect();
    let room = Commitment::from_hex(&t.commitment).ok();
    let computed = match (room, all) {
        (Some(room), Some(all)) => table.seat_lock(&room, &all).ok(),
        _ => None,
    };
    v.lock = computed;
    let commit_phase_void = r
        .void
        .as_ref()
        .is_some_and(|x| x.phase == super::VoidPhase::Commit);
    let shown =
        |c: Option<Commitment>| c.map_or("none (a commitment is missing)".into(), |c| c.to_hex());
    match (&r.lock, r.version) {
        (Some(l), _) if Commitment::from_hex(l).ok() != computed || computed.is_none() => {
            let why = format!(
                "the seats' commitments give the lock {}, the transcript states {l:?}",
                shown(computed)
            );
            v.differences.push(diff(Kind::Lock, why));
        }
        (None, TranscriptVersion::V2_1) if !commit_phase_void => {
            let why = "a version 2.1 transcript carries the seat lock; this one has none";
            v.differences.push(diff(Kind::Lock, why.into()));
        }
        _ => {}
    }
    if let Some(l) = recorded {
        v.lock_checked = true;
        if computed != Some(*l) {
            let why = format!(
                "the seats' commitments give the lock {}, the one you recorded before the \
                 reveals is {l}: a seat's commitment was replaced after the lock (a seed \
                 chosen after the other seats' reveals) or this is another table",
                shown(computed)
            );
            v.differences.push(diff(Kind::PublishedLock, why));
        }
    }
}

/// The transcript's seed and commitment for the player's seat against the
/// player's own seed.
fn check_own_seed(
    t: &super::Transcript,
    table: &Table,
    own: Option<&super::OwnSeed>,
    v: &mut Verification,
) {
    let Some(own) = own else { return };
    v.seed_checked = true;
    let Some(i) = t.seats.iter().position(|s| s.name == own.seat) else {
        let why = format!("there is no seat {:?} at this table", own.seat);
        v.differences.push(diff(Kind::OwnSeed, why));
        return;
    };
    let seat = &t.seats[i];
    let mine = table.seat_commitment(i, &own.seed);
    if Commitment::from_hex(&seat.commitment).ok() != Some(mine) {
        let why = format!(
            "seat {:?}'s commitment in the transcript is not the one your seed gives ({mine}): \
             your commitment was replaced",
            own.seat
        );
        v.differences.push(diff(Kind::OwnSeed, why));
    } else if seat.seed.as_deref().is_some_and(|s| s != own.seed) {
        let why = format!("seat {:?}'s seed in the transcript is not yours", own.seat);
        v.differences.push(diff(Kind::OwnSeed, why));
    }
}

/// The transcript's count of deals played, and the deal numbers the
/// player was shown: `first`, `first + 1`, … in that order, as many as the
/// count (version 2.1).
fn check_played(r: &Record, table: &Table, shown: Option<&[u64]>, v: &mut Verification) {
    let (first, last) = (table.manifest.first, table.manifest.last);
    let range = last - first + 1;
    match (r.played, r.version) {
        (Some(p), _) if p > range => {
            let why =
                format!("the transcript says {p} deals were played, the manifest has {range}");
            v.differences.push(diff(Kind::Played, why));
        }
        (Some(p), _) => v.played = Some((p, range)),
        (None, TranscriptVersion::V2_1) => {
            let why = "a version 2.1 transcript says how many deals were played; this one does not";
            v.differences.push(diff(Kind::Played, why.into()));
        }
        (None, TranscriptVersion::V2) => {}
    }
    let Some(shown) = shown else { return };
    v.played_checked = true;
    if let Some(why) = out_of_turn(shown, first) {
        v.differences.push(diff(Kind::Played, why));
    } else if shown.len() as u64 > range {
        let why = format!(
            "you were shown {} deals, the manifest has {range}",
            shown.len()
        );
        v.differences.push(diff(Kind::Played, why));
    }
    if let Some(p) = r.played.filter(|&p| p != shown.len() as u64) {
        let why = format!(
            "you were shown {} deal(s), the transcript says {p} were played",
            shown.len()
        );
        v.differences.push(diff(Kind::Played, why));
    }
}

/// Why `shown` is not `first, first + 1, …`, if it is not.
fn out_of_turn(shown: &[u64], first: u64) -> Option<String> {
    let (k, &n) = shown
        .iter()
        .enumerate()
        .find(|&(k, &n)| first.checked_add(k as u64) != Some(n))?;
    let next = first.saturating_add(k as u64);
    Some(match k.checked_sub(1).map(|j| shown[j]) {
        Some(prev) if n <= prev => {
            format!(
                "you were shown deal {n} after deal {prev}: deals are played in increasing order"
            )
        }
        _ if n > next => {
            format!("you were shown deal {n} where deal {next} was next: deal(s) skipped")
        }
        _ => format!("you were shown deal {n}, before the manifest's first deal {first}"),
    })
}
