//! The seat's steps over a table's transcript, in the order `fairdeck
//! hidden` runs them (`crates/fairdeck-cli/src/cmd/hidden/`): read the
//! transcript strictly, verify every proof in it, add the seat's
//! message(s), and answer them with the new transcript. The protocol and
//! its checks are [`fairdeck_hidden`]'s; this module only maps requests
//! to them.

use chacha20::ChaCha20Rng;
use fairdeck_hidden::keys::{SecretKey, key_message as make_key_message};
use fairdeck_hidden::layout::Stage;
use fairdeck_hidden::play::{next_shuffle, owed_shares, record_shares, showdown_shares};
use fairdeck_hidden::record::Record;
use fairdeck_hidden::verdict::Verdict;
use fairdeck_hidden::verify::{Options, State, verify, verify_json};
use fairdeck_hidden::wire::Hex32;
use fairdeck_hidden::{Error, Table};
use serde::{Deserialize, Serialize};

/// A secret key held by the seat, and once it is published, the table and
/// seat it belongs to.
pub(crate) struct Slot {
    pub(crate) key: SecretKey,
    pub(crate) bound: Option<(String, u64)>,
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
    if record.keys.len() as u64 != seat {
        return Err(match record.keys.iter().any(|k| k.seat == seat) {
            true => format!("key: seat {seat} already has a key in the transcript"),
            false => format!(
                "key: keys are published in seat order: seat {} is next",
                record.keys.len()
            ),
        });
    }
    let msg = make_key_message(&table, seat, &slot.key, rng).map_err(text)?;
    slot.bound = Some((record.manifest.table.clone(), seat));
    record.keys.push(msg.clone());
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
    Ok(Slot {
        key,
        bound: Some((file.table, file.seat)),
    })
}

/// What a step starts from: the transcript, the seat, its key, and what
/// verifying the transcript established.
struct Checked<'a> {
    record: Record,
    seat: u64,
    key: &'a SecretKey,
    state: State,
    verdict: Verdict,
}

/// The transcript, verified as a hand in progress with the seat's key
/// checked against the one it published.
fn checked<'a>(slot: &'a Slot, transcript: &str) -> Result<Checked<'a>, String> {
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
    let published = record.keys.get(*seat as usize).map(|k| k.public_key);
    let ours = fairdeck_hidden::group::encode_point(&slot.key.public_key().0);
    if published != Some(ours) {
        return Err(Error::WrongKey(*seat).to_string());
    }
    let opts = Options {
        reader: Some((*seat, &slot.key)),
        in_progress: true,
    };
    let mut outcome = verify(&record, &opts);
    if let Some(d) = outcome.verdict.differences.first() {
        return Err(format!(
            "transcript: does not verify ({}); first: {}",
            outcome.verdict.summary(),
            d.message
        ));
    }
    let state = outcome
        .state
        .take()
        .ok_or("transcript: not every seat has published its key yet")?;
    Ok(Checked {
        record,
        seat: *seat,
        key: &slot.key,
        state,
        verdict: outcome.verdict,
    })
}

/// The hand a step is about: the one asked, else the last of the
/// transcript, else the manifest's first.
fn hand_of(record: &Record, hand: Option<u64>) -> u64 {
    hand.or_else(|| record.hands.last().map(|h| h.hand))
        .unwrap_or(record.manifest.first)
}

/// The seat's shuffle of the hand (by default the one whose turn it is).
pub(crate) fn shuffle(
    slot: &Slot,
    transcript: &str,
    hand: Option<u64>,
    rng: &mut ChaCha20Rng,
) -> Result<String, String> {
    let Checked {
        mut record,
        seat,
        state,
        ..
    } = checked(slot, transcript)?;
    let n = match (hand, record.hands.last()) {
        (Some(n), _) => n,
        (None, Some(h)) if h.shuffles.len() < state.table.seats() => h.hand,
        (None, Some(h)) => h.hand + 1,
        (None, None) => record.manifest.first,
    };
    let msg = next_shuffle(&state, n, seat, rng).map_err(text)?;
    record.hand_mut(n).map_err(text)?.shuffles.push(msg.clone());
    answer(&Published {
        message: msg,
        transcript: record.to_json(),
    })
}

/// The shares the seat owes for a stage: `deal` or a street's name.
pub(crate) fn share(
    slot: &Slot,
    transcript: &str,
    street: &str,
    hand: Option<u64>,
    rng: &mut ChaCha20Rng,
) -> Result<String, String> {
    let Checked {
        mut record,
        seat,
        key,
        state,
        ..
    } = checked(slot, transcript)?;
    let layout = state.table.layout();
    let stage = layout
        .stage_named(street)
        .filter(|s| *s != Stage::Shuffle)
        .ok_or_else(|| {
            let names: Vec<String> = layout.stages()[1..]
                .iter()
                .map(|&s| layout.stage_name(s).to_string())
                .collect();
            format!(
                "street: {street:?}: this game's stages are {}",
                names.join(", ")
            )
        })?;
    let n = hand_of(&record, hand);
    let shares = owed_shares(&state, &record, (n, stage), (seat, key), rng).map_err(text)?;
    record_shares(&state.table, &mut record, (n, Some(stage)), shares.clone()).map_err(text)?;
    answer(&PublishedShares {
        messages: shares,
        transcript: record.to_json(),
    })
}

/// Showdown: the seat's shares of its own private cards.
pub(crate) fn open(
    slot: &Slot,
    transcript: &str,
    hand: Option<u64>,
    rng: &mut ChaCha20Rng,
) -> Result<String, String> {
    let Checked {
        mut record,
        seat,
        key,
        state,
        ..
    } = checked(slot, transcript)?;
    let n = hand_of(&record, hand);
    let shares = showdown_shares(&state, &record, n, (seat, key), rng).map_err(text)?;
    record_shares(&state.table, &mut record, (n, None), shares.clone()).map_err(text)?;
    answer(&PublishedShares {
        messages: shares,
        transcript: record.to_json(),
    })
}

/// The seat's view of a hand: its own private cards (its share removed
/// inside the seat), the community and opened cards.
pub(crate) fn cards(slot: &Slot, transcript: &str, hand: Option<u64>) -> Result<String, String> {
    let Checked {
        record,
        seat,
        verdict,
        ..
    } = checked(slot, transcript)?;
    let n = hand_of(&record, hand);
    let report = verdict.hands.into_iter().find(|h| h.hand == n);
    let report = report.ok_or_else(|| format!("hand: {n} is not in the transcript"))?;
    answer(&SeatView { seat, hand: report })
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
    };
    let verdict = verify_json(transcript, &opts).verdict;
    answer(&Report {
        valid: verdict.is_valid(),
        summary: verdict.summary(),
        verdict,
    })
}
