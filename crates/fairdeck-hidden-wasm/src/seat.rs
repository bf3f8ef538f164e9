//! The seat: its generator, its secret keys, and the JSON dispatcher.

use chacha20::ChaCha20Rng;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::ledger::Receipt;
use rand_core::SeedableRng;
use serde::Deserialize;

use crate::steps::{self, Slot};

/// The largest request accepted: a 64 MiB transcript (the limit of
/// [`fairdeck_hidden::record::MAX_BYTES`]) with room for its JSON quoting.
pub const MAX_REQUEST: usize = 2 * fairdeck_hidden::record::MAX_BYTES + 4096;

const NOT_KEYED: &str = "seed: the seat's generator is not keyed yet (call seed first)";

/// A browser seat: a ChaCha20 generator (keyed by [`Seat::seed`]) and the
/// secret keys it made or imported, each known to the page by a handle.
///
/// Secrets are wiped when a key is forgotten or the seat dropped; the
/// seat's `Debug` form shows neither the generator nor a key.
#[derive(Default)]
pub struct Seat {
    rng: Option<ChaCha20Rng>,
    slots: Vec<Option<Slot>>,
}

impl core::fmt::Debug for Seat {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let keys = self.slots.iter().flatten().count();
        write!(f, "Seat {{ seeded: {}, keys: {keys} }}", self.rng.is_some())
    }
}

/// One request: `{"op": "<name>", …its fields}`.
#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Request {
    // A struct variant, so that `deny_unknown_fields` refuses extra fields.
    KeyNew {},
    KeyMessage {
        key: u32,
        transcript: String,
        seat: u64,
    },
    KeyExport {
        key: u32,
    },
    KeyImport {
        file: String,
    },
    KeyForget {
        key: u32,
    },
    Shuffle {
        key: u32,
        transcript: String,
        hand: Option<u64>,
    },
    Share {
        key: u32,
        transcript: String,
        street: String,
        hand: Option<u64>,
    },
    Open {
        key: u32,
        transcript: String,
        hand: Option<u64>,
    },
    Cards {
        key: u32,
        transcript: String,
        hand: Option<u64>,
    },
    Verify {
        transcript: String,
        #[serde(default)]
        in_progress: bool,
    },
    /// Version 3.1: the room's receipt for a message this seat sent.
    Receipt {
        key: u32,
        receipt: Receipt,
    },
    /// Version 3.1: the receipts and heads this seat kept (§19).
    Evidence {
        key: u32,
    },
    /// Version 3.1: the seat's attestation of a finished table's transcript.
    Attest {
        key: u32,
        transcript: String,
    },
}

impl Seat {
    /// A seat with no generator and no keys. O(1).
    pub fn new() -> Seat {
        Seat::default()
    }

    /// Keys (or re-keys) the seat's ChaCha20 generator with 32 bytes; the
    /// page passes `crypto.getRandomValues`. Keys already made are kept.
    pub fn seed(&mut self, seed: [u8; 32]) {
        self.rng = Some(ChaCha20Rng::from_seed(seed));
    }

    /// Runs one request and answers `{"ok": …}` or `{"error": "…"}`, both
    /// as JSON bytes. Never panics; the error is one line.
    pub fn call(&mut self, request: &[u8]) -> Vec<u8> {
        let answer = match self.dispatch(request) {
            Ok(value) => format!("{{\"ok\":{value}}}"),
            Err(why) => {
                let why = serde_json::Value::String(one_line(&why));
                format!("{{\"error\":{why}}}")
            }
        };
        answer.into_bytes()
    }

    /// Reads the request and runs its operation: one arm per operation,
    /// each only mapping the request's fields to a step.
    fn dispatch(&mut self, request: &[u8]) -> Result<String, String> {
        if request.len() > MAX_REQUEST {
            return Err(format!("request: larger than {MAX_REQUEST} bytes"));
        }
        let request: Request =
            serde_json::from_slice(request).map_err(|e| format!("request: {e}"))?;
        match request {
            Request::KeyNew {} => self.key_new(),
            Request::KeyMessage {
                key,
                transcript,
                seat,
            } => {
                let (rng, slot) = self.parts(key)?;
                steps::key_message(slot, &transcript, seat, rng)
            }
            Request::KeyExport { key } => steps::key_export(self.slot(key)?),
            Request::KeyImport { file } => {
                let slot = steps::key_import(&file)?;
                Ok(self.keep(slot))
            }
            Request::KeyForget { key } => self.forget(key),
            Request::Shuffle {
                key,
                transcript,
                hand,
            } => {
                let (rng, slot) = self.parts(key)?;
                steps::shuffle(slot, &transcript, hand, rng)
            }
            Request::Share {
                key,
                transcript,
                street,
                hand,
            } => {
                let (rng, slot) = self.parts(key)?;
                steps::share(slot, &transcript, &street, hand, rng)
            }
            Request::Open {
                key,
                transcript,
                hand,
            } => {
                let (rng, slot) = self.parts(key)?;
                steps::open(slot, &transcript, hand, rng)
            }
            Request::Cards {
                key,
                transcript,
                hand,
            } => steps::cards(self.slot_mut(key)?, &transcript, hand),
            Request::Verify {
                transcript,
                in_progress,
            } => steps::verdict(&transcript, in_progress),
            Request::Receipt { key, receipt } => {
                self.slot_mut(key)?.follower.receipt(receipt);
                Ok("null".into())
            }
            Request::Attest { key, transcript } => {
                let (rng, slot) = self.parts(key)?;
                steps::attest(slot, &transcript, rng)
            }
            Request::Evidence { key } => {
                let evidence = self.slot(key)?.follower.evidence();
                serde_json::to_string(evidence).map_err(|e| e.to_string())
            }
        }
    }

    fn generator(&mut self) -> Result<&mut ChaCha20Rng, String> {
        self.rng.as_mut().ok_or_else(|| NOT_KEYED.into())
    }

    fn key_new(&mut self) -> Result<String, String> {
        let key = SecretKey::generate(self.generator()?);
        Ok(self.keep(Slot::new(key, None)))
    }

    /// Stores a key in a free slot (or a new one); answers its handle.
    fn keep(&mut self, slot: Slot) -> String {
        let free = self.slots.iter().position(Option::is_none);
        let i = free.unwrap_or(self.slots.len());
        if i == self.slots.len() {
            self.slots.push(None);
        }
        self.slots[i] = Some(slot);
        format!("{{\"key\":{i}}}")
    }

    fn slot(&self, key: u32) -> Result<&Slot, String> {
        let found = self.slots.get(key as usize).and_then(Option::as_ref);
        found.ok_or_else(|| format!("key: no key {key} in this seat"))
    }

    fn slot_mut(&mut self, key: u32) -> Result<&mut Slot, String> {
        find(&mut self.slots, key)
    }

    /// The generator and a key slot, borrowed together (the key is checked first).
    fn parts(&mut self, key: u32) -> Result<(&mut ChaCha20Rng, &mut Slot), String> {
        let slot = find(&mut self.slots, key)?;
        let rng = self.rng.as_mut().ok_or_else(|| NOT_KEYED.to_string())?;
        Ok((rng, slot))
    }

    fn forget(&mut self, key: u32) -> Result<String, String> {
        self.slot(key)?;
        // Dropping the slot wipes the key (SecretKey zeroizes on drop).
        self.slots[key as usize] = None;
        Ok("null".into())
    }
}

/// Key slot `key`, if the seat holds it.
fn find(slots: &mut [Option<Slot>], key: u32) -> Result<&mut Slot, String> {
    let found = slots.get_mut(key as usize).and_then(Option::as_mut);
    found.ok_or_else(|| format!("key: no key {key} in this seat"))
}

/// Errors travel as one line: any line break of a nested message becomes a space.
fn one_line(text: &str) -> String {
    text.split(['\n', '\r']).collect::<Vec<_>>().join(" ")
}
