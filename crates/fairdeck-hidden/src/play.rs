//! A seat's next step in a hand, as pure functions over a verified
//! transcript (`docs/hidden-dealing.md` §5, §14): its shuffle when it is its
//! turn, the shares it owes for a stage, its showdown shares, and the void
//! record of a stalled hand. Each function takes the [`State`] that
//! [`crate::verify::verify`] established, so a seat never acts on a deck
//! whose proofs it has not checked.

use rand_core::CryptoRng;

use crate::dleq::{ShareMessage, share_message};
use crate::elgamal::PublishedDeck;
use crate::keys::SecretKey;
use crate::layout::Stage;
use crate::record::{HandRecord, Missing, Record, StreetRecord, Void};
use crate::shuffle::{ShuffleMessage, shuffle};
use crate::verdict::HandReport;
use crate::verify::{HandState, State};
use crate::{Error, Table};

/// Where a hand stands for the next step: its state, or a hand not begun.
fn hand_state(state: &State, hand: u64) -> Option<&HandState> {
    state.hands.iter().find(|h| h.hand == hand)
}

fn refuse(why: String) -> Error {
    Error::UnexpectedMessage(why)
}

/// Seat `seat`'s shuffle of hand `hand`, if it is its turn: seat 0 starts
/// from the starting deck, seat `j` takes seat `j−1`'s verified deck.
/// O(N) scalar multiplications.
///
/// # Errors
///
/// [`Error::Hand`] or [`Error::Seat`] out of range; [`Error::UnexpectedMessage`]
/// if it is not the seat's turn (or the hand failed, is void or dealt).
pub fn next_shuffle<R: CryptoRng + ?Sized>(
    state: &State,
    hand: u64,
    seat: u64,
    rng: &mut R,
) -> Result<ShuffleMessage, Error> {
    let table = &state.table;
    table.check_hand(hand)?;
    table.check_seat(seat)?;
    let (deck, turn) = match hand_state(state, hand) {
        None => (PublishedDeck::from_deck(table.starting_deck()), 0),
        Some(h) if h.failed || h.void => return Err(refuse(format!("hand {hand} is over"))),
        Some(h) => (h.deck.clone(), h.shuffled as u64),
    };
    if turn != seat {
        let why = match turn as usize == table.seats() {
            true => format!("every seat has shuffled hand {hand}"),
            false => format!("it is seat {turn}'s turn to shuffle hand {hand}, not seat {seat}'s"),
        };
        return Err(refuse(why));
    }
    Ok(shuffle(table, hand, seat, &state.joint, &deck, rng)?.0)
}

/// The dealt deck of a hand still in play, and the first stage owing messages.
fn dealt(state: &State, hand: u64) -> Result<(&PublishedDeck, Option<Stage>), Error> {
    match hand_state(state, hand) {
        Some(h) if !h.failed && !h.void && h.shuffled == state.table.seats() => {
            Ok((&h.deck, h.stage))
        }
        Some(h) if h.failed || h.void => Err(refuse(format!("hand {hand} is over"))),
        _ => Err(refuse(format!(
            "hand {hand} is not dealt yet: every seat shuffles first"
        ))),
    }
}

/// The shares seat `seat` owes in `stage` of hand `hand` and has not
/// published yet, each with its proof. O(positions) scalar multiplications.
///
/// # Errors
///
/// [`Error::UnexpectedMessage`] if the hand is not dealt, over, or an
/// earlier stage still owes messages (a street is shown only after the
/// deal and the streets before it), or if `stage` is a street and the
/// showdown has begun; [`Error::Seat`] out of range.
pub fn owed_shares<R: CryptoRng + ?Sized>(
    state: &State,
    record: &Record,
    (hand, stage): (u64, Stage),
    (seat, key): (u64, &SecretKey),
    rng: &mut R,
) -> Result<Vec<ShareMessage>, Error> {
    let table = &state.table;
    table.check_seat(seat)?;
    let (deck, first_open) = dealt(state, hand)?;
    let rec = record.hand(hand);
    let shown = rec.map_or(0, |r| r.streets.len());
    let reachable = match stage {
        Stage::Shuffle => false,
        Stage::Deal => true,
        Stage::Street(k) => k <= shown && first_open.is_none_or(|s| s >= stage),
    };
    if !reachable || first_open.is_some_and(|s| s < stage) {
        let why = format!(
            "the {} stage of hand {hand} is not open: an earlier stage owes messages",
            table.layout().stage_name(stage)
        );
        return Err(refuse(why));
    }
    // §14 "Stages": the showdown comes after the streets; a street begun
    // after it would be a message of an earlier stage than one present.
    if matches!(stage, Stage::Street(_)) && rec.is_some_and(|r| !r.showdown.is_empty()) {
        let why = format!(
            "the showdown of hand {hand} has begun: no more streets (the {} stage is closed)",
            table.layout().stage_name(stage)
        );
        return Err(refuse(why));
    }
    let sent =
        |p: u64| rec.is_some_and(|r| r.all_shares().any(|m| m.seat == seat && m.position == p));
    let todo = table
        .layout()
        .owed(stage, seat)
        .into_iter()
        .filter(|&p| !sent(p));
    todo.map(|p| share_message(table, hand, seat, p, key, &deck.deck.0[p as usize], rng))
        .collect()
}

/// Seat `seat`'s showdown: its own shares of those of its private positions
/// it has not opened yet.
///
/// # Errors
///
/// As [`owed_shares`]; the deal and every street begun must be complete
/// (§14 "Stages": the showdown comes after them, and a verifier refuses a
/// showdown share while an earlier stage owes messages).
pub fn showdown_shares<R: CryptoRng + ?Sized>(
    state: &State,
    record: &Record,
    hand: u64,
    (seat, key): (u64, &SecretKey),
    rng: &mut R,
) -> Result<Vec<ShareMessage>, Error> {
    let table = &state.table;
    table.check_seat(seat)?;
    let (deck, first_open) = dealt(state, hand)?;
    if let Some(stage) = first_open {
        let name = table.layout().stage_name(stage);
        return Err(refuse(format!(
            "the {name} of hand {hand} is not complete: the showdown comes after it"
        )));
    }
    let rec = record.hand(hand);
    let opened =
        |p: u64| rec.is_some_and(|r| r.showdown.iter().any(|m| m.seat == seat && m.position == p));
    let todo = table
        .layout()
        .private(seat)
        .iter()
        .copied()
        .filter(|&p| !opened(p));
    todo.map(|p| share_message(table, hand, seat, p, key, &deck.deck.0[p as usize], rng))
        .collect()
}

/// Puts shares where the transcript keeps them: the deal, a street (begun
/// if it is the next one), or the showdown (`stage` `None`).
///
/// # Errors
///
/// [`Error::HandOrder`] for a new hand not after the last;
/// [`Error::UnexpectedMessage`] for a street that is not the next one.
pub fn record_shares(
    table: &Table,
    record: &mut Record,
    (hand, stage): (u64, Option<Stage>),
    shares: Vec<ShareMessage>,
) -> Result<(), Error> {
    let layout = table.layout().clone();
    let rec: &mut HandRecord = record.hand_mut(hand)?;
    match stage {
        None => rec.showdown.extend(shares),
        Some(Stage::Shuffle) => return Err(refuse("a share is no shuffle".into())),
        Some(Stage::Deal) => rec.deal.extend(shares),
        Some(Stage::Street(k)) => {
            if k == rec.streets.len() {
                let street = layout.stage_name(Stage::Street(k)).to_string();
                rec.streets.push(StreetRecord {
                    street,
                    shares: Vec::new(),
                });
            }
            let street = rec
                .streets
                .get_mut(k)
                .ok_or_else(|| refuse(format!("street {} is not the next one", k + 1)))?;
            street.shares.extend(shares);
        }
    }
    Ok(())
}

/// The void record of a stalled hand in progress (§14 "Void"): the first
/// stage the rules call for that still owes a message, the lowest seat
/// that owes one there, and exactly what that seat owes. That stage is the
/// first incomplete one of `report` (an in-progress verification of `rec`)
/// or, when every stage present is complete, the next street of the
/// layout not shown yet: nobody has sent a share of it, so every seat owes
/// all of it and the void names the lowest seat (seat 0). `None` if nothing
/// is owed: the hand is void already, has showdown shares (the streets are
/// over), or has shown every street of the game. O(seats · positions).
pub fn void_record(table: &Table, rec: &HandRecord, report: &HandReport) -> Option<Void> {
    if let Some(first) = report.owed.first() {
        return Some(Void {
            stage: first.stage.clone(),
            seat: first.seat,
            missing: first.missing.clone(),
        });
    }
    if rec.void.is_some() || !rec.showdown.is_empty() {
        return None;
    }
    let layout = table.layout();
    let street = layout.streets().get(rec.streets.len())?;
    let stage = Stage::Street(rec.streets.len());
    (0..table.seats() as u64).find_map(|seat| {
        let owed = layout.owed(stage, seat);
        (!owed.is_empty()).then(|| Void {
            stage: street.name.clone(),
            seat,
            missing: owed
                .into_iter()
                .map(|position| Missing::Share { position })
                .collect(),
        })
    })
}
