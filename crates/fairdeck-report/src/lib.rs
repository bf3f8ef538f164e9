//! Requests and reports: for each fairdeck operation, the validated inputs
//! and the result document, in one place for every front end.
//!
//! Each operation module has a plain `Request` (serde-deserializable, with
//! the defaults of the CLI), whose `validate` is the one place its defaults
//! and limits live, a `run` that draws from the randomness it is given, and
//! the `serde` report it returns. The front ends only translate:
//!
//! - the CLI maps its clap flags to a request and renders the report as
//!   text, JSON or PBN;
//! - the web page maps query parameters or a JSON body to a request (with
//!   serde, not clap) and answers with the report, so its JSON is the CLI's
//!   by construction;
//! - the Python package maps keyword arguments to a request and turns the
//!   report into a dict;
//! - the table service deals through the same layer.
//!
//! [`verify`] checks a fair-dealing transcript of any version (1, 2, 2.1,
//! 3, 3.1) and returns one verdict report.
//!
//! A request that cannot be run is refused with a [`RequestError`] that names
//! the parameter at fault and the limit it broke.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod audit;
pub mod budget;
pub mod catalogue;
pub mod chaos;
pub mod deal;
mod error;
pub mod estimate;
pub mod exact;
pub mod fair;
pub mod guessing;
pub mod histograms;
pub mod input;
pub mod mix;
pub mod random;
pub mod rehearsal;
pub mod shortfall;
pub mod shuffle;
pub mod tree;
pub mod verify;

pub use error::{Error, Field, IntoPart, Message, Part, RequestError, Result, refuse};
