//! The client side of `fairdeck table serve`: what a player's seat and the
//! load bench link, without the service itself (no store, no SQLite, no
//! PostgreSQL, no server code).
//!
//! - [`Client`]: one keep-alive HTTP/1.1 connection to the service, JSON
//!   in and out, answers bounded in size.
//! - [`wire`]: the API's shapes beyond the protocol's messages — a hidden
//!   table's [`Status`](wire::Status), a seat's [`Post`](wire::Post), the
//!   table ids the service accepts. The service builds and reads these
//!   same types.
//! - A seat of a hidden table: its [`Link`] ([`parse_link`]), its
//!   connection [`Remote`], and its next message after verifying the
//!   served transcript ([`turn`]).
//! - [`hand`]: whole version-2 hold'em hands for the load bench and the
//!   crash tests.
//!
//! A seat's loop, as `fairdeck hidden seat` runs it (key file, printing
//! and polling left out):
//!
//! ```no_run
//! use std::time::Duration;
//! use fairdeck_client::{Remote, parse_link, turn};
//! use fairdeck_hidden::keys::SecretKey;
//! use rand_core::SeedableRng;
//!
//! let link = parse_link("http://127.0.0.1:8090/table/hidden.html#table=t1&seat=0&token=T")?;
//! let mut remote = Remote::new(link, Duration::from_secs(120));
//! let mut rng = chacha20::ChaCha20Rng::from_seed([7; 32]);
//! let key = SecretKey::generate(&mut rng);
//! let mut follower = fairdeck_hidden::seat::Follower::new();
//! loop {
//!     let status = remote.status()?;
//!     if status.state == "finished" || status.state == "void" {
//!         break;
//!     }
//!     let record = remote.record(status.hand)?;
//!     if let Some(post) = turn::next_post(&mut follower, &status, record, (0, &key), true, &mut rng)? {
//!         remote.send(&post)?;
//!     }
//!     std::thread::sleep(Duration::from_secs(1));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

pub mod hand;
mod http;
mod link;
mod remote;
pub mod turn;
pub mod wire;

pub use http::Client;
pub use link::{Link, LinkError, key_file, parse_link};
pub use remote::{Error, Remote};
