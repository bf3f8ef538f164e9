//! The evidence a player gives a verification, named in the verdict's
//! words as each front end takes it: the CLI as a flag (`--commitment C`),
//! the web page as a field (`commitment`), Python as a keyword
//! (`commitment=`). The library writes no front end's spelling itself.

/// A piece of evidence a player gives a verification, as its front end
/// takes it: the CLI as a flag, the web page and Python as a field. The
/// verdict's words name it through a [`Spelling`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Given {
    /// The room's commitment published before play.
    Commitment,
    /// The seat lock published before the reveals.
    Lock,
    /// The player's seat name.
    Seat,
    /// The player's own seed.
    Seed,
    /// The deal numbers the player was shown.
    Played,
    /// A session's board range published before play.
    Boards,
}

impl Given {
    /// The evidence's name in a request: `commitment`, `lock`, `seat`,
    /// `seed`, `played`, `boards`.
    pub fn name(self) -> &'static str {
        match self {
            Given::Commitment => "commitment",
            Given::Lock => "lock",
            Given::Seat => "seat",
            Given::Seed => "seed",
            Given::Played => "played",
            Given::Boards => "boards",
        }
    }
}

/// How a front end names the evidence it takes, in the verdict's words.
///
/// ```
/// use fairdeck_fair::{ByName, Unchecked};
///
/// assert_eq!(
///     Unchecked::OwnSeed.describe(&ByName),
///     "your own seed (seat seed)"
/// );
/// ```
pub trait Spelling {
    /// The evidence's name where the words only point at it.
    fn name(&self, given: Given) -> String;

    /// How to give it, with a placeholder for its value where the front
    /// end shows one; by default its name.
    fn usage(&self, given: Given) -> String {
        self.name(given)
    }
}

/// The evidence spelled by its own names ([`Given::name`]): `commitment`,
/// `seat seed`, … — for a front end whose inputs are named like them.
#[derive(Debug, Clone, Copy, Default)]
pub struct ByName;

impl Spelling for ByName {
    fn name(&self, given: Given) -> String {
        given.name().to_string()
    }
}
