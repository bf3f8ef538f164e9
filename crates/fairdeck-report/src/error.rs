//! The report layer's errors, as data: a refusal names the request field at
//! fault as a [`Field`], and its message is [`Part`]s in which other fields
//! appear as fields too, so that each front end spells them its own way —
//! the CLI as flags (`--max-shuffles`, `-n`), the web page as parameters
//! (`max_shuffles`), Python as keywords (`max_shuffles=`) — without reading
//! English back out of a string.

use std::fmt;

macro_rules! fields {
    ($($(#[$doc:meta])* $variant:ident = $name:literal,)*) => {
        /// A request field that an error can name: its name is the field's
        /// name in the request (and the web page's parameter).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Field {
            $($(#[$doc])* #[doc = concat!("`", $name, "`")] $variant,)*
        }

        impl Field {
            /// Every field, in declaration order.
            pub const ALL: &[Field] = &[$(Field::$variant,)*];

            /// The field's name in the request, e.g. `max_shuffles`.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $(Field::$variant => $name,)*
                }
            }
        }
    };
}

fields! {
    Alg = "alg",
    Algorithm = "algorithm",
    AllowLong = "allow_long",
    Alpha = "alpha",
    Base = "base",
    Boards = "boards",
    Cards = "cards",
    ClientSeed = "client_seed",
    Commitment = "commitment",
    Confidence = "confidence",
    Deal = "deal",
    Distribution = "distribution",
    Deck = "deck",
    Decks = "decks",
    Detect = "detect",
    Entropy = "entropy",
    Evidence = "evidence",
    Format = "format",
    Game = "game",
    Input = "input",
    Key = "key",
    Lock = "lock",
    Max = "max",
    MaxDepth = "max_depth",
    MaxPaths = "max_paths",
    MaxShelves = "max_shelves",
    MaxShuffles = "max_shuffles",
    MeanPacket = "mean_packet",
    Memory = "memory",
    Model = "model",
    N = "n",
    Nonce = "nonce",
    Number = "number",
    Order = "order",
    Passes = "passes",
    Pbn = "pbn",
    Played = "played",
    Players = "players",
    Rounds = "rounds",
    Seat = "seat",
    SeatKeys = "seat_keys",
    SecretFile = "secret_file",
    Seed = "seed",
    ServerSecret = "server_secret",
    Shelves = "shelves",
    ShowNumber = "show_number",
    Shuffles = "shuffles",
    Steps = "steps",
    Strict = "strict",
    Table = "table",
    Tolerance = "tolerance",
    Transcript = "transcript",
    Trials = "trials",
    UntilDecided = "until_decided",
    Values = "values",
}

impl fmt::Display for Field {
    /// The request's own spelling: the field's name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece of a message: words, a field the front end spells, or an aside
/// that only makes sense where the front end has a field (advice to add
/// `allow_long`, which the web page does not take).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Words, shown as they are.
    Text(String),
    /// A field, spelled by the front end.
    Field(Field),
    /// Shown only when the front end has every field inside it.
    IfOffered(Vec<Part>),
}

impl From<Field> for Part {
    fn from(field: Field) -> Self {
        Part::Field(field)
    }
}

impl From<&str> for Part {
    fn from(text: &str) -> Self {
        Part::Text(text.to_string())
    }
}

impl From<String> for Part {
    fn from(text: String) -> Self {
        Part::Text(text)
    }
}

/// A message made of [`Part`]s: `message!["at most ", most, " at ", Field::N]`
/// (a value that is neither a [`Field`] nor text is written with `Display`).
#[macro_export]
macro_rules! message {
    ($($part:expr),* $(,)?) => {
        $crate::Message(vec![$($crate::IntoPart::into_part($part)),*])
    };
}

/// What [`message!`] accepts: a [`Field`], a [`Part`], or anything shown
/// with `Display`.
pub trait IntoPart {
    /// The value as a part.
    fn into_part(self) -> Part;
}

impl IntoPart for Field {
    fn into_part(self) -> Part {
        Part::Field(self)
    }
}

impl IntoPart for Part {
    fn into_part(self) -> Part {
        self
    }
}

impl IntoPart for Message {
    fn into_part(self) -> Part {
        Part::IfOffered(self.0)
    }
}

impl<T: fmt::Display + ?Sized> IntoPart for &T {
    fn into_part(self) -> Part {
        Part::Text(self.to_string())
    }
}

macro_rules! text_parts {
    ($($t:ty),*) => {$(
        impl IntoPart for $t {
            fn into_part(self) -> Part {
                Part::Text(self.to_string())
            }
        }
    )*};
}

text_parts!(String, u8, u16, u32, u64, u128, usize, i32, i64, f64);

/// A message as parts; see [`message!`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Message(pub Vec<Part>);

impl Message {
    /// The message with each field spelled by `spell`. `None` means the
    /// front end has no such field: an [`Part::IfOffered`] aside naming it
    /// is left out, and elsewhere the field is written by its name.
    #[must_use]
    pub fn render(&self, spell: &dyn Fn(Field) -> Option<String>) -> String {
        let mut out = String::new();
        render_into(&self.0, spell, &mut out, false);
        out
    }

    /// Adds `other`'s parts at the end.
    pub fn append(&mut self, other: Message) {
        self.0.extend(other.0);
    }

    /// Whether the message names `field` (outside the asides).
    #[must_use]
    pub fn names(&self, field: Field) -> bool {
        self.0.contains(&Part::Field(field))
    }
}

/// Renders `parts`; false when a field in them has no spelling here. At the
/// top level such a field is written by its name; an aside is dropped.
fn render_into(
    parts: &[Part],
    spell: &dyn Fn(Field) -> Option<String>,
    out: &mut String,
    aside: bool,
) -> bool {
    for part in parts {
        match part {
            Part::Text(text) => out.push_str(text),
            Part::Field(field) => match spell(*field) {
                Some(spelled) => out.push_str(&spelled),
                None if aside => return false,
                None => out.push_str(field.name()),
            },
            Part::IfOffered(inner) => {
                let mut words = String::new();
                if render_into(inner, spell, &mut words, true) {
                    out.push_str(&words);
                }
            }
        }
    }
    true
}

impl fmt::Display for Message {
    /// In the request's own words (fields by name).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&|field| Some(field.name().to_string())))
    }
}

/// A request that cannot be run as given: the field at fault and a
/// one-line message that states the limit. Front ends spell the message's
/// fields ([`Message::render`]) and show it (the CLI as a usage error, exit
/// 2; the web as a 400 answer naming the parameter; Python as `ValueError`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestError {
    /// The request field at fault.
    pub field: Field,
    /// What is wrong and what would be accepted.
    pub message: Message,
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message.fmt(f)
    }
}

impl std::error::Error for RequestError {}

/// Everything a request can fail with.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The request cannot be run as given (a usage error).
    Refused(RequestError),
    /// The core library refused or failed.
    Core(fairdeck::Error),
    /// The audit library refused or failed.
    Audit(fairdeck_audit::Error),
    /// The memory a run needs cannot be had.
    Memory {
        /// What would have needed the memory.
        what: String,
        /// How many bytes.
        bytes: u64,
    },
    /// The operating system gave no entropy (its message).
    Entropy(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Refused(e) => e.fmt(f),
            Error::Core(e) => e.fmt(f),
            Error::Audit(e) => e.fmt(f),
            Error::Memory { what, bytes } => write!(
                f,
                "memory exhausted: {what} needs about {:.2} GB",
                *bytes as f64 / 1e9
            ),
            Error::Entropy(why) => {
                write!(f, "cannot read entropy from the operating system: {why}")
            }
        }
    }
}

/// No `source`: each variant displays its cause itself, so a chain of
/// causes (anyhow's `{:#}`) does not say it twice.
impl std::error::Error for Error {}

impl From<RequestError> for Error {
    fn from(e: RequestError) -> Self {
        Error::Refused(e)
    }
}

impl From<fairdeck::Error> for Error {
    fn from(e: fairdeck::Error) -> Self {
        Error::Core(e)
    }
}

impl From<fairdeck_audit::Error> for Error {
    fn from(e: fairdeck_audit::Error) -> Self {
        Error::Audit(e)
    }
}

impl Error {
    /// The refusal, when this is one.
    #[must_use]
    pub fn refused(&self) -> Option<&RequestError> {
        match self {
            Error::Refused(r) => Some(r),
            _ => None,
        }
    }

    /// The message with each refusal's fields spelled by `spell` (see
    /// [`Message::render`]); other errors as they display.
    #[must_use]
    pub fn render(&self, spell: &dyn Fn(Field) -> Option<String>) -> String {
        match self {
            Error::Refused(r) => r.message.render(spell),
            other => other.to_string(),
        }
    }
}

/// The report layer's results.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A refusal of `field` with `message`, for `?` in `validate` and `run`.
pub fn refuse(field: Field, message: impl Into<Message>) -> Error {
    RequestError {
        field,
        message: message.into(),
    }
    .into()
}

impl From<&str> for Message {
    fn from(text: &str) -> Self {
        Message(vec![Part::Text(text.to_string())])
    }
}

impl From<String> for Message {
    fn from(text: String) -> Self {
        Message(vec![Part::Text(text)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cli(field: Field) -> Option<String> {
        let name = field.name();
        Some(if name.len() == 1 {
            format!("-{name}")
        } else {
            format!("--{}", name.replace('_', "-"))
        })
    }

    fn page(field: Field) -> Option<String> {
        (field != Field::AllowLong).then(|| field.name().to_string())
    }

    #[test]
    fn each_front_end_spells_the_fields_and_drops_what_it_does_not_offer() {
        let m = message![
            Field::Trials,
            " at most ",
            30u64,
            " at ",
            Field::N,
            " 52",
            message![", or add ", Field::AllowLong, " to run it anyway"],
        ];
        assert_eq!(
            m.render(&cli),
            "--trials at most 30 at -n 52, or add --allow-long to run it anyway"
        );
        assert_eq!(m.render(&page), "trials at most 30 at n 52");
        assert_eq!(
            m.to_string(),
            "trials at most 30 at n 52, or add allow_long to run it anyway"
        );
        assert!(m.names(Field::N) && !m.names(Field::AllowLong));
    }

    #[test]
    fn field_names_are_distinct_request_names() {
        let mut names: Vec<_> = Field::ALL.iter().map(|f| f.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Field::ALL.len());
        assert!(
            names
                .iter()
                .all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        );
    }
}
