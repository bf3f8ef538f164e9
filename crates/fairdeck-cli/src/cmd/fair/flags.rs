//! Which flags of `fair verify` each kind of input reads. A flag that the
//! input at hand does not read would be silently ignored (a verdict "valid"
//! that never looked at the given nonce): it is a usage error naming it.

use super::VerifyArgs;
use crate::failure::usage;

/// What `fair verify` checks, each reading its own flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Input {
    /// A version 1 transcript (one deal; it carries its seed, nonce, game).
    V1,
    /// A version 2 or 2.1 transcript (a table's deals; it reveals its secret).
    V2,
    /// A version 3 or 3.1 transcript (hidden hands).
    V3,
    /// A version 1 deck line (`--deal CARDS`).
    DeckLine,
    /// A session's PBN file (`--pbn FILE`).
    Pbn,
}

impl Input {
    fn name(self) -> &'static str {
        match self {
            Input::V1 => "a version 1 deal",
            Input::V2 => "a version 2 transcript",
            Input::V3 => "a version 3 (hidden hands) transcript",
            Input::DeckLine => "a --deal deck line",
            Input::Pbn => "a --pbn session",
        }
    }
}

use Input::{DeckLine, Pbn, V1, V2, V3};

/// A flag: its name, whether it was given, what it is for, the inputs that read it.
type Rule = (&'static str, bool, &'static str, &'static [Input]);

/// Refuses the first flag given that `input` does not read, naming it and
/// what it is for. O(1).
pub(super) fn only_flags_of(args: &VerifyArgs, input: Input) -> anyhow::Result<()> {
    let inputs = &args.inputs;
    let table: [Rule; 15] = [
        (
            "--commitment",
            args.commitment.is_some(),
            "checks a version 1 or 2 deal, a deck line or a session",
            &[V1, V2, DeckLine, Pbn],
        ),
        (
            "--lock",
            args.lock.is_some(),
            "checks version 2 transcripts",
            &[V2],
        ),
        (
            "--seat",
            args.seat.is_some(),
            "checks version 2 transcripts",
            &[V2],
        ),
        (
            "--seed",
            args.seed.is_some(),
            "checks version 2 transcripts",
            &[V2],
        ),
        (
            "--played",
            args.played.is_some(),
            "checks version 2 transcripts",
            &[V2],
        ),
        (
            "--key",
            args.key.is_some(),
            "reads a seat's own cards of a version 3 (hidden hands) transcript",
            &[V3],
        ),
        (
            "--evidence",
            args.evidence.is_some(),
            "holds a seat's receipts of a version 3.1 (hidden hands) transcript",
            &[V3],
        ),
        (
            "--seat-key",
            !args.seat_key.is_empty(),
            "pins a seat's key of a version 3.1 (hidden hands) transcript",
            &[V3],
        ),
        (
            "--server-secret",
            inputs.server_secret.is_some(),
            "is the secret of a version 1 deal, a deck line or a session (a version 2 transcript reveals its own)",
            &[V1, DeckLine, Pbn],
        ),
        (
            "--secret-file",
            inputs.secret_file.is_some(),
            "is the secret of a version 1 deal, a deck line or a session (a version 2 transcript reveals its own)",
            &[V1, DeckLine, Pbn],
        ),
        (
            "--client-seed",
            inputs.client_seed.is_some(),
            "is the seed of a --deal deck line or a --pbn session (a transcript carries its own)",
            &[DeckLine, Pbn],
        ),
        (
            "--nonce",
            inputs.nonce.is_some(),
            "is the deal number of a --deal deck line (a transcript carries its own)",
            &[DeckLine],
        ),
        (
            "--game",
            inputs.game.is_some(),
            "is the game of a --deal deck line (a transcript carries its own)",
            &[DeckLine],
        ),
        (
            "--deck",
            inputs.deck.is_some(),
            "is the deck of a --deal deck line (a transcript carries its own)",
            &[DeckLine],
        ),
        (
            "--boards",
            args.boards.is_some(),
            "is the board range of a --pbn session",
            &[Pbn],
        ),
    ];
    match table
        .iter()
        .find(|(_, given, _, reads)| *given && !reads.contains(&input))
    {
        Some((flag, _, what, _)) => Err(usage(format!("{flag} {what}; this is {}", input.name()))),
        None => Ok(()),
    }
}
