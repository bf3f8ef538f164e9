//! The work budget: runs over it are refused before they start, with what
//! would be accepted, unless the request allows a long run. The estimates
//! are [`fairdeck_audit::estimates`]'s; the web page applies its own, smaller
//! bounds on top.

use fairdeck_audit::estimates::{self, DEFAULT_STEPS};

use crate::{Error, Field, Message, message, refuse};

/// Ok when `steps` fit [`DEFAULT_STEPS`] or `allow_long` is set; otherwise
/// a [`crate::RequestError`] on `field` that says what would be accepted
/// (`accepted(budget)`, e.g. `trials at most 200 at n 10000`, with the
/// fields as fields), and that `allow_long` would run it anyway.
///
/// # Errors
///
/// The refusal described above.
pub fn check(
    allow_long: bool,
    field: Field,
    steps: u64,
    accepted: impl FnOnce(u64) -> Message,
) -> crate::Result<()> {
    if allow_long {
        return Ok(());
    }
    estimates::check(steps, DEFAULT_STEPS).map_err(|e| {
        let mut m = message![&e, " (about a minute): "];
        m.append(accepted(DEFAULT_STEPS));
        m.append(message![message![
            ", or add ",
            Field::AllowLong,
            " to run it anyway"
        ]]);
        refuse(field, m)
    })
}

/// Checks that `bytes` of memory can be had before a run that needs them
/// starts: reserves them (address space only; nothing is touched) and
/// gives them back. A run whose estimated peak cannot be had then fails at
/// once with `memory exhausted` instead of aborting part-way.
///
/// # Errors
///
/// `memory exhausted: WHAT needs about X GB` when the reservation fails.
pub fn reserve(bytes: u64, what: impl FnOnce() -> String) -> crate::Result<()> {
    let mut probe: Vec<u8> = Vec::new();
    usize::try_from(bytes)
        .ok()
        .and_then(|b| probe.try_reserve_exact(b).ok())
        .ok_or_else(|| Error::Memory {
            what: what(),
            bytes,
        })
}
