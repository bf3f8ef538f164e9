//! Which recorded evidence each kind of input reads. Evidence that the
//! input at hand does not read would be silently ignored (a verdict "valid"
//! that never looked at the given nonce): it is refused, naming the field
//! and what it is for.

use crate::{Field, Message, RequestError, message};

/// What a verification checks, each reading its own fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reader {
    /// A version 1 transcript (one deal; it carries its seed, nonce, game).
    V1,
    /// A version 2 or 2.1 transcript (a table's deals; it reveals its secret).
    V2,
    /// A version 3 or 3.1 transcript (hidden hands).
    V3,
    /// A version 1 deck line (the CLI's `--deal`).
    DeckLine,
    /// A session's PBN file (the CLI's `--pbn`).
    Pbn,
}

use Reader::{DeckLine, Pbn, V1, V2, V3};

impl Reader {
    /// What the input is, in words (fields spelled by the front end).
    fn name(self) -> Message {
        match self {
            V1 => "a version 1 deal".into(),
            V2 => "a version 2 transcript".into(),
            V3 => "a version 3 (hidden hands) transcript".into(),
            DeckLine => message!["a ", Field::Deal, " deck line"],
            Pbn => message!["a ", Field::Pbn, " session"],
        }
    }
}

/// A field, what it is for, and the inputs that read it.
type Rule = (Field, Message, &'static [Reader]);

const OF_V2: &str = "checks version 2 transcripts";
const SECRET: &str = "is the secret of a version 1 deal, a deck line or a session (a version 2 \
                      transcript reveals its own)";
const OWN: &str = " deck line (a transcript carries its own)";

/// Every field some input reads, in the order they are checked. O(1).
fn rules() -> [Rule; 15] {
    let deck_line = |what: &str| message!["is the ", what, " of a ", Field::Deal, OWN];
    [
        (
            Field::Commitment,
            "checks a version 1 or 2 deal, a deck line or a session".into(),
            &[V1, V2, DeckLine, Pbn],
        ),
        (Field::Lock, OF_V2.into(), &[V2]),
        (Field::Seat, OF_V2.into(), &[V2]),
        (Field::Seed, OF_V2.into(), &[V2]),
        (Field::Played, OF_V2.into(), &[V2]),
        (
            Field::Key,
            "reads a seat's own cards of a version 3 (hidden hands) transcript".into(),
            &[V3],
        ),
        (
            Field::Evidence,
            "holds a seat's receipts of a version 3.1 (hidden hands) transcript".into(),
            &[V3],
        ),
        (
            Field::SeatKeys,
            "pins a seat's key of a version 3.1 (hidden hands) transcript".into(),
            &[V3],
        ),
        (Field::ServerSecret, SECRET.into(), &[V1, DeckLine, Pbn]),
        (Field::SecretFile, SECRET.into(), &[V1, DeckLine, Pbn]),
        (
            Field::ClientSeed,
            message![
                "is the seed of a ",
                Field::Deal,
                " deck line or a ",
                Field::Pbn,
                " session (a transcript carries its own)"
            ],
            &[DeckLine, Pbn],
        ),
        (Field::Nonce, deck_line("deal number"), &[DeckLine]),
        (Field::Game, deck_line("game"), &[DeckLine]),
        (Field::Deck, deck_line("deck"), &[DeckLine]),
        (
            Field::Boards,
            message!["is the board range of a ", Field::Pbn, " session"],
            &[Pbn],
        ),
    ]
}

/// Refuses the first of the `given` fields that `reader` does not read
/// (in the order of the rules, not of `given`), naming it and what it is
/// for. O(number of rules × given).
///
/// # Errors
///
/// A field given that the input does not read: `FIELD what it is for; this is INPUT`.
pub fn fits(reader: Reader, given: &[Field]) -> Result<(), RequestError> {
    let unread = rules()
        .into_iter()
        .find(|(field, _, reads)| given.contains(field) && !reads.contains(&reader));
    match unread {
        Some((field, what, _)) => {
            let mut message = message![field, " "];
            message.append(what);
            message.append("; this is ".into());
            message.append(reader.name());
            Err(RequestError { field, message })
        }
        None => Ok(()),
    }
}
