//! The seat's steps over a table's transcript, in the order `fairdeck
//! hidden` runs them (`crates/fairdeck-cli/src/cmd/hidden/`): read the
//! transcript strictly, verify every proof in it, add the seat's
//! message(s), and answer them with the new transcript. The protocol and
//! its checks are [`fairdeck_hidden`]'s; this module only maps requests
//! to them.

use chacha20::ChaCha20Rng;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::record::Record;
use fairdeck_hidden::seat::{Follower, Refused, Turn, check_published, publish_key};
use fairdeck_hidden::verdict::Verdict;
use fairdeck_hidden::verify::{Options, verify_json};
use fairdeck_hidden::wire::Hex32;
use fairdeck_hidden::{Error, Table};
use serde::{Deserialize, Serialize};

/// A secret key held by the seat, once it is published the table and
/// seat it belongs to, and what the seat has verified of that table.
pub(crate) struct Slot {
    pub(crate) key: SecretKey,
    pub(crate) bound: Option<(String, u64)>,
    pub(crate) follower: Follower,
}

impl Slot {
    /// A key not published yet.
    pub(crate) fn new(key: SecretKey, bound: Option<(String, u64)>) -> Slot {
        Slot {
            key,
            bound,
            follower: Follower::new(),
        }
    }
}

/// The key file of `fairdeck hidden key`: the table and seat, and the secret.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyFile {
    table: String,
    seat: u64,
    secret_key: Hex32,
}

fn text(e: Error) -> String {
    e.to_string()
}

/// An answer as JSON text (fields in declaration order, as the spec prints them).
pub(crate) fn answer<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| format!("answer: {e}"))
}

/// A step's answer: what the seat published, and the transcript with it.
#[derive(Serialize)]
struct Published<T: Serialize> {
    message: T,
    transcript: String,
}

/// A step's answer when it publishes several shares.
#[derive(Serialize)]
struct PublishedShares {
    messages: Vec<fairdeck_hidden::dleq::ShareMessage>,
    transcript: String,
}

fn read(transcript: &str) -> Result<Record, String> {
    Record::from_json(transcript).map_err(|e| format!("transcript: {e}"))
}

/// Publishes the key of `slot` as seat `seat`: keys go in seat order, a key
/// serves one table and seat.
pub(crate) fn key_message(
    slot: &mut Slot,
    transcript: &str,
    seat: u64,
    rng: &mut ChaCha20Rng,
) -> Result<String, String> {
    let mut record = read(transcript)?;
    let table = Table::new(record.manifest.clone()).map_err(|e| format!("transcript: {e}"))?;
    table.check_seat(seat).map_err(text)?;
    if let Some((t, s)) = &slot.bound {
        return Err(format!(
            "key: this key is already seat {s}'s key of table {t:?}"
        ));
    }
    let msg = publish_key(&table, &mut record, seat, &slot.key, rng).map_err(|e| match e {
        Refused::Step(e) => text(e),
        other => format!("key: {other}"),
    })?;
    slot.bound = Some((record.manifest.table.clone(), seat));
    answer(&Published {
        message: msg,
        transcript: record.to_json(),
    })
}

/// The seat's own key file (the only way a secret leaves the seat).
pub(crate) fn key_export(slot: &Slot) -> Result<String, String> {
    let (table, seat) = slot
        .bound
        .clone()
        .ok_or("key: a key is exported once it is published (key_message)")?;
    let file = KeyFile {
        table,
        seat,
        secret_key: Hex32(*slot.key.to_bytes()),
    };
    answer(&file)
}

/// Reads a key file of `fairdeck hidden key` (or of `key_export`).
pub(crate) fn key_import(file: &str) -> Result<Slot, String> {
    let file: KeyFile = serde_json::from_str(file)
        .map_err(|e| format!("key file: not a secret key file of `fairdeck hidden key` ({e})"))?;
    let key = SecretKey::from_bytes(&file.secret_key.0).map_err(|e| format!("key file: {e}"))?;
    Ok(Slot::new(key, Some((file.table, file.seat))))
}

/// The transcript, verified as a hand in progress by the slot's follower,
/// with the seat's key checked against the one it published.
fn checked<'a>(slot: &'a mut Slot, transcript: &str) -> Result<Turn<'a>, String> {
    let record = read(transcript)?;
    let (table, seat) = slot
        .bound
        .as_ref()
        .ok_or("key: this key is not published yet (key_message)")?;
    if *table != record.manifest.table {
        return Err(format!(
            "key: the key of table {table:?}, not {:?}",
            record.manifest.table
        ));
    }
    let seat = *seat;
    check_published(&record, seat, &slot.key).map_err(|e| e.to_string())?;
    slot.follower
        .check(record, (seat, &slot.key))
        .map_err(|e| format!("transcript: {e}"))
}

/// The seat's shuffle of the hand (by default the one whose turn it is).
pub(crate) fn shuffle(
    slot: &mut Slot,
    transcript: &str,
    hand: Option<u64>,
    rng: &mut ChaCha20Rng,
) -> Result<String, String> {
    let mut turn = checked(slot, transcript)?;
    let (_, msg) = turn.shuffle(hand, rng).map_err(text)?;
    answer(&Published {
        message: msg,
        transcript: turn.record.to_json(),
    })
}

/// The shares the seat owes for a stage: `deal` or a street's name.
pub(crate) fn share(
    slot: &mut Slot,
    transcript: &str,
    street: &str,
    hand: Option<u64>,
    rng: &mut ChaCha20Rng,
) -> Result<String, String> {
    let mut turn = checked(slot, transcript)?;
    let stage = turn.stage(street).map_err(|e| format!("street: {e}"))?;
    let (_, shares) = turn.share(stage, hand, rng).map_err(text)?;
    answer(&PublishedShares {
        messages: shares,
        transcript: turn.record.to_json(),
    })
}

/// Showdown: the seat's shares of its own private cards.
pub(crate) fn open(
    slot: &mut Slot,
    transcript: &str,
    hand: Option<u64>,
    rng: &mut ChaCha20Rng,
) -> Result<String, String> {
    let mut turn = checked(slot, transcript)?;
    let (_, shares) = turn.open(hand, rng).map_err(text)?;
    answer(&PublishedShares {
        messages: shares,
        transcript: turn.record.to_json(),
    })
}

/// The seat's view of a hand: its own private cards (its share removed
/// inside the seat), the community and opened cards.
pub(crate) fn cards(
    slot: &mut Slot,
    transcript: &str,
    hand: Option<u64>,
) -> Result<String, String> {
    let turn = checked(slot, transcript)?;
    let seat = turn.seat;
    let report = turn
        .cards(hand)
        .map_err(|n| format!("hand: {n} is not in the transcript"))?;
    answer(&SeatView { seat, hand: report })
}

/// Version 3.1: the seat's attestation of the whole transcript of a table
/// that is over (§18 check 4), made only when the seat's own history is in
/// it unchanged and the whole transcript verifies; `null` for version 3.
pub(crate) fn attest(
    slot: &mut Slot,
    transcript: &str,
    rng: &mut ChaCha20Rng,
) -> Result<String, String> {
    let turn = checked(slot, transcript)?;
    let opts = Options {
        reader: None,
        in_progress: false,
        evidence: &[],
        pins: &[],
    };
    let verdict = fairdeck_hidden::verify::verify(&turn.record, &opts).verdict;
    if !verdict.is_valid() {
        return Err(format!("transcript: {}", verdict.summary()));
    }
    answer(&turn.attest(rng))
}

/// A seat's view of one hand.
#[derive(Serialize)]
struct SeatView {
    seat: u64,
    hand: fairdeck_hidden::verdict::HandReport,
}

/// A verdict with its one-line summary.
#[derive(Serialize)]
struct Report {
    valid: bool,
    summary: String,
    verdict: Verdict,
}

/// The verdict on a transcript, as `fair verify --format json` prints it.
pub(crate) fn verdict(transcript: &str, in_progress: bool) -> Result<String, String> {
    let opts = Options {
        reader: None,
        in_progress,
        evidence: &[],
        pins: &[],
    };
    let verdict = verify_json(transcript, &opts).verdict;
    answer(&Report {
        valid: verdict.is_valid(),
        summary: verdict.summary(),
        verdict,
    })
}
