//! Checking a message before the board accepts it
//! (`docs/hidden-dealing.md` §5, §15): its place (table, hand, seat, stage,
//! turn), then its proof against what the board holds. A message that fails
//! is refused with its failure kind and the seat named, and nothing is
//! stored; one that is right but early is refused as "not now".

use fairdeck_hidden::Error as Protocol;
use fairdeck_hidden::dleq::{ShareMessage, verify_share};
use fairdeck_hidden::elgamal::PublishedDeck;
use fairdeck_hidden::keys::{KeyMessage, Proof, PublicKey, verify_key};
use fairdeck_hidden::layout::{Place, Stage};
use fairdeck_hidden::ledger::{
    Attestation, check_attestation, check_signature, heads, key_digest, share_digest,
    shuffle_digest,
};
use fairdeck_hidden::shuffle::{ShuffleMessage, verify_shuffle};
use fairdeck_hidden::wire::Hex32;

use super::board::Board;
use super::entry::Entry;
use super::refusal::Refused;

fn not_now(why: impl Into<String>) -> Refused {
    Refused::NotNow(why.into())
}

/// The table must still be in play.
fn playing(board: &Board) -> Result<(), Refused> {
    match board.finished() {
        true if board.void() => Err(not_now("the table is void")),
        true => Err(not_now("every hand of the table has ended")),
        false => Ok(()),
    }
}

/// A message naming another seat than the one whose token sent it, or
/// another hand than the one in play, is `replay` (§15).
fn envelope(board: &Board, seat: u64, (hand, from): (Option<u64>, u64)) -> Result<(), Refused> {
    if from != seat {
        let why = format!("a message of seat {from} sent by seat {seat}");
        return Err(Refused::message(Protocol::Replay(why), seat, hand));
    }
    if let Some(h) = hand.filter(|&h| h != board.hand) {
        let why = format!("a message of hand {h} while hand {} is in play", board.hand);
        return Err(Refused::message(Protocol::Replay(why), seat, Some(h)));
    }
    Ok(())
}

/// Version 3.1: the message is signed by the seat that sent it (§17); a
/// version-3 table takes no signature.
fn signed(
    board: &Board,
    (seat, pk): (u64, &PublicKey),
    digest: impl FnOnce(&fairdeck_hidden::signature::Context) -> Hex32,
    (sig, what): (&Option<Proof>, String),
    hand: Option<u64>,
) -> Result<(), Refused> {
    let fail = |e| Refused::message(e, seat, hand);
    match &board.room {
        Some((_, ctx)) => check_signature(ctx, (seat, pk), &digest(ctx), sig, what).map_err(fail),
        None if sig.is_some() => Err(fail(Protocol::UnexpectedMessage(
            "a signature on a message of a version-3 table".into(),
        ))),
        None => Ok(()),
    }
}

/// Seat `seat`'s key message: keys come in seat order (§15 step 2).
pub fn key(board: &Board, seat: u64, msg: KeyMessage, at: u64) -> Result<Entry, Refused> {
    playing(board)?;
    envelope(board, seat, (None, msg.seat))?;
    let next = board.record.keys.len() as u64;
    if seat < next {
        let why = format!("seat {seat} has published its key already");
        return Err(Refused::message(
            Protocol::UnexpectedMessage(why),
            seat,
            None,
        ));
    }
    if seat > next {
        return Err(not_now(format!(
            "keys come in seat order: seat {next}'s is next"
        )));
    }
    let pk = verify_key(&board.table, &msg).map_err(|e| Refused::message(e, seat, None))?;
    let what = format!("seat {seat}'s key message");
    signed(
        board,
        (seat, &pk),
        |c| key_digest(c, &msg),
        (&msg.signature, what),
        None,
    )?;
    let mut all = board.record.keys.clone();
    all.push(msg.clone());
    if all.len() == board.table.seats() {
        fairdeck_hidden::keys::joint_key(&board.table, &all)
            .map_err(|e| Refused::message(e, seat, None))?;
    }
    Ok(Entry::Key { message: msg, at })
}

/// The deck seat `turn` shuffles: the starting deck, or the last shuffle's output.
fn input_deck(board: &Board) -> Result<PublishedDeck, Refused> {
    match board.current().and_then(|h| h.shuffles.last()) {
        None => Ok(PublishedDeck::from_deck(board.table.starting_deck())),
        Some(m) => PublishedDeck::from_wire(m.deck.clone())
            .map_err(|e| Refused::Table(crate::Error::Corrupt(e.to_string()))),
    }
}

/// Seat `seat`'s shuffle of the hand in play: its turn, then its proof (§8).
pub fn shuffle(board: &Board, seat: u64, msg: ShuffleMessage, at: u64) -> Result<Entry, Refused> {
    playing(board)?;
    envelope(board, seat, (Some(msg.hand), msg.seat))?;
    let Some((_, joint)) = &board.keys else {
        return Err(not_now("not every seat has published its key"));
    };
    let turn = board.current().map_or(0, |h| h.shuffles.len()) as u64;
    if seat < turn {
        let why = format!("seat {seat} has shuffled hand {} already", board.hand);
        return Err(Refused::message(
            Protocol::UnexpectedMessage(why),
            seat,
            Some(msg.hand),
        ));
    }
    if seat > turn {
        return Err(not_now(format!("it is seat {turn}'s turn to shuffle")));
    }
    let input = input_deck(board)?;
    let (keys, _) = board.keys.as_ref().ok_or_else(|| not_now("keys missing"))?;
    let what = format!("seat {seat}'s shuffle");
    let pk = (seat, &keys[seat as usize]);
    let sig = (&msg.signature, what);
    signed(board, pk, |c| shuffle_digest(c, &msg), sig, Some(msg.hand))?;
    verify_shuffle(&board.table, (board.hand, seat), joint, &input, &msg)
        .map_err(|e| Refused::message(e, seat, Some(msg.hand)))?;
    Ok(Entry::Shuffle {
        message: Box::new(msg),
        at,
    })
}

/// Seat `seat`'s attestation of the whole log, once the table is over
/// (§18 check 4): one per seat, signed by it, of the log as it stands.
pub fn attestation(board: &Board, seat: u64, a: Attestation, at: u64) -> Result<Entry, Refused> {
    if !board.finished() {
        return Err(not_now("a seat attests the log once the table is over"));
    }
    let Some((_, ctx)) = &board.room else {
        let why = "a version-3 table takes no attestation";
        return Err(Refused::Table(crate::Error::invalid("attestation", why)));
    };
    envelope(board, seat, (None, a.seat))?;
    if board.record.attestations.iter().any(|x| x.seat == seat) {
        let why = format!("seat {seat} has attested the log already");
        return Err(Refused::message(
            Protocol::UnexpectedMessage(why),
            seat,
            None,
        ));
    }
    let Some((keys, _)) = &board.keys else {
        return Err(not_now("the table ended before every key was in"));
    };
    let log = &board.record.log;
    if a.length != log.len() as u64 {
        let why = format!(
            "attestation covers {} log entries; the whole log has {}",
            a.length,
            log.len()
        );
        return Err(Refused::message(
            Protocol::Attestation(seat, why),
            seat,
            None,
        ));
    }
    check_attestation(ctx, keys, &heads(ctx, log), &a)
        .map_err(|e| Refused::message(e, seat, None))?;
    Ok(Entry::Attestation { attestation: a, at })
}

/// The stage a share belongs in, from its position and seat.
fn stage_of(board: &Board, seat: u64, position: u64) -> Result<String, Protocol> {
    let layout = board.table.layout();
    if position >= board.table.deck_size() as u64 {
        let why = format!("position {position} is outside the deck");
        return Err(Protocol::UnexpectedMessage(why));
    }
    match layout.place(position) {
        Place::Private(owner) if owner == seat => Ok("showdown".into()),
        Place::Private(_) => Ok("deal".into()),
        Place::Street(k) => Ok(layout.stage_name(Stage::Street(k)).to_string()),
        Place::Hidden => Err(Protocol::UnexpectedMessage(format!(
            "position {position} is a burned card or the stock: never decrypted"
        ))),
    }
}

/// Whether `stage` is open: the deck dealt, a street opened by the
/// operator, the showdown opened; and every stage before it complete.
fn open(board: &Board, stage: &str) -> Result<(), Refused> {
    let shuffled = board.current().map_or(0, |h| h.shuffles.len());
    if shuffled < board.table.seats() {
        return Err(not_now(
            "the deck is not dealt yet: every seat shuffles first",
        ));
    }
    let due = board.due();
    let layout = board.table.layout();
    let is_open = match layout.stage_named(stage) {
        Some(Stage::Street(k)) => k < board.streets_open,
        Some(_) => true,
        None => board.showdown,
    };
    let earlier = due.filter(|d| d.stage != stage);
    match (is_open, earlier) {
        (false, _) => Err(not_now(format!("the {stage} stage is not open"))),
        (true, Some(d))
            if stage == "showdown" || layout.stage_named(&d.stage) < layout.stage_named(stage) =>
        {
            Err(not_now(format!(
                "the {} stage still waits for shares",
                d.stage
            )))
        }
        _ => Ok(()),
    }
}

/// Seat `seat`'s shares, all of one stage: each in its place, none twice,
/// each proof checked against the dealt deck (§7.2, §15 steps 4.3–4.5).
pub fn shares(
    board: &Board,
    seat: u64,
    msgs: Vec<ShareMessage>,
    at: u64,
) -> Result<Entry, Refused> {
    playing(board)?;
    let first = msgs
        .first()
        .ok_or_else(|| Refused::Table(crate::Error::invalid("shares", "no share given")))?;
    let hand = Some(first.hand);
    let stage =
        stage_of(board, seat, first.position).map_err(|e| Refused::message(e, seat, hand))?;
    for m in &msgs {
        envelope(board, seat, (Some(m.hand), m.seat))?;
        let here =
            stage_of(board, seat, m.position).map_err(|e| Refused::message(e, seat, hand))?;
        if here != stage {
            let why = format!("shares of {stage} and {here} in one request");
            return Err(Refused::Table(crate::Error::invalid("shares", why)));
        }
    }
    open(board, &stage)?;
    let deck = input_deck(board)?;
    let (keys, _) = board.keys.as_ref().ok_or_else(|| not_now("keys missing"))?;
    let rec = board.current();
    for (i, m) in msgs.iter().enumerate() {
        let again = msgs[..i].iter().any(|o| o.position == m.position)
            || rec.is_some_and(|r| {
                r.all_shares()
                    .any(|o| o.seat == seat && o.position == m.position)
            });
        if again {
            return Err(Refused::message(Protocol::DuplicateShare(seat), seat, hand));
        }
        let e = &deck.deck.0[m.position as usize];
        let what = format!("seat {seat}'s share of position {}", m.position);
        let pk = (seat, &keys[seat as usize]);
        signed(
            board,
            pk,
            |c| share_digest(c, &stage, m),
            (&m.signature, what),
            hand,
        )?;
        verify_share(&board.table, &keys[seat as usize], e, m)
            .map_err(|err| Refused::message(err, seat, hand))?;
    }
    Ok(Entry::Shares {
        stage,
        shares: msgs,
        at,
    })
}
