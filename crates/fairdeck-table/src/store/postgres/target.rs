//! A PostgreSQL connection string as this service reads it: libpq's
//! key=value form or a `postgres://` URL. The TLS keys (`sslmode`,
//! `sslrootcert`) are taken out and applied by [`tls`](super::tls), since
//! the driver knows neither `verify-ca`/`verify-full` nor root files, and
//! `passfile` by [`password`](super::password), which also reads
//! `PGPASSWORD`; the rest goes to the driver unchanged.
//!
//! Without `sslmode`, a host on this machine (a Unix socket directory,
//! `localhost`, 127.0.0.0/8, `::1`) gets libpq's default `prefer`, and any
//! other host is refused: secrets would cross the network in clear, so the
//! string must say which sslmode it means. A Unix socket never uses TLS
//! (PostgreSQL offers none there; the traffic stays in the kernel), as in libpq.
//! Without `connect_timeout`, a connection attempt gives up after
//! [`CONNECT_TIMEOUT`] (the driver would wait as long as the system does).

use std::net::IpAddr;
use std::time::Duration;

use postgres::Client;
use postgres::config::Host;
use tokio_postgres_rustls::MakeRustlsConnect;

use super::password::{self, Environment};
use super::tls::{self, SslMode};
use crate::Error;
use crate::error::one_line;

/// How long a connection attempt may take when `connect_timeout` is not given.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// A checked connection string: the driver's settings, the sslmode, and
/// the root file and password file it names.
pub(crate) struct Settings {
    config: postgres::Config,
    mode: SslMode,
    root: Option<String>,
    passfile: Option<String>,
}

/// Where a host is, for the sslmode default.
#[derive(Debug, PartialEq, Eq)]
enum Reach {
    /// A Unix socket directory.
    Socket,
    /// This machine over TCP.
    Loopback,
    /// Another machine (the name or address as written).
    Remote(String),
}

/// The keys of a connection string that this module applies, not the driver.
#[derive(Default)]
struct OwnKeys {
    mode: Option<String>,
    root: Option<String>,
    passfile: Option<String>,
}

impl OwnKeys {
    fn take(&mut self, key: &str, value: String) -> Result<bool, Error> {
        let slot = match key {
            "sslmode" => &mut self.mode,
            "sslrootcert" => &mut self.root,
            "passfile" => &mut self.passfile,
            _ => return Ok(false),
        };
        if slot.replace(value).is_some() {
            return Err(Error::invalid("db", format!("{key} is given twice")));
        }
        Ok(true)
    }
}

impl Settings {
    /// Reads and checks `params` without touching any file or socket. O(len).
    pub(crate) fn read(params: &str) -> Result<Settings, Error> {
        let mut keys = OwnKeys::default();
        let rest = if is_url(params) {
            url_without_own_keys(params, &mut keys)?
        } else {
            pairs_without_own_keys(params, &mut keys)?
        };
        let mut config: postgres::Config = rest
            .parse()
            .map_err(|e: postgres::Error| Error::invalid("db", one_line(&e)))?;
        let reach = reach(&config);
        let mode = choose(keys.mode.as_deref(), keys.root.as_deref(), &reach)?;
        let sockets_only = reach.iter().all(|r| *r == Reach::Socket);
        config.ssl_mode(if sockets_only {
            SslMode::Disable.driver()
        } else {
            mode.driver()
        });
        // A connection attempt holds the room's lock: bound it unless the
        // string does (the driver, like libpq, waits for the system's).
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        Ok(Settings {
            config,
            mode,
            root: keys.root,
            passfile: keys.passfile,
        })
    }
}

/// A database to connect to, with its TLS connector ready.
pub(crate) struct Target {
    config: postgres::Config,
    mode: SslMode,
    tls: MakeRustlsConnect,
}

impl Target {
    /// Reads `params` ([`Settings::read`]), the root file it names, and the
    /// password from the environment or a password file if it gives none
    /// ([`password`]).
    pub(crate) fn open(params: &str) -> Result<Target, Error> {
        let mut settings = Settings::read(params)?;
        password::fill(
            &mut settings.config,
            settings.passfile.as_deref(),
            &Environment::of_process(),
        )?;
        let tls = tls::connector(settings.mode, settings.root.as_deref())?;
        Ok(Target {
            config: settings.config,
            mode: settings.mode,
            tls,
        })
    }

    /// A new connection, or [`Error::Unavailable`] saying why not.
    pub(crate) fn connect(&self) -> Result<Client, Error> {
        self.config.connect(self.tls.clone()).map_err(|e| {
            Error::Unavailable(format!(
                "cannot connect to PostgreSQL (sslmode={}): {}",
                self.mode.name(),
                one_line(&e)
            ))
        })
    }
}

/// The sslmode for `given` (if any) with root file `root` over hosts
/// `reach`, or why none fits.
fn choose(given: Option<&str>, root: Option<&str>, reach: &[Reach]) -> Result<SslMode, Error> {
    let refuse = |why: String| Err(Error::invalid("db", why));
    let mode = match given {
        Some(value) => SslMode::parse(value)?,
        None => unstated(reach)?,
    };
    let name = mode.name();
    if matches!(mode, SslMode::VerifyCa | SslMode::VerifyFull) && root.is_none() {
        return refuse(format!(
            "sslmode={name} needs sslrootcert=FILE (the PEM certificate of the CA that \
             signed the server's)"
        ));
    }
    if root == Some("system") {
        return refuse(
            "sslrootcert=system (the operating system's roots) is not supported: give a PEM file"
                .into(),
        );
    }
    if mode == SslMode::Disable && root.is_some() {
        return refuse("sslrootcert has no use with sslmode=disable".into());
    }
    let sockets = reach.iter().filter(|r| **r == Reach::Socket).count();
    if mode.needs_tls() && sockets > 0 && sockets < reach.len() {
        return refuse(format!(
            "sslmode={name} cannot hold for a Unix socket host (PostgreSQL has no TLS \
             there): do not mix socket and TCP hosts"
        ));
    }
    Ok(mode)
}

/// The sslmode when the string names none: libpq's `prefer` on this
/// machine; refused for another machine, where it would send in clear.
fn unstated(reach: &[Reach]) -> Result<SslMode, Error> {
    match reach.iter().find_map(|r| match r {
        Reach::Remote(name) => Some(name),
        _ => None,
    }) {
        Some(name) => Err(Error::invalid(
            "db",
            format!(
                "host {name} is another machine and no sslmode is given: add \
                 sslmode=verify-full sslrootcert=FILE (or sslmode=require to encrypt \
                 without checking the server, or sslmode=disable to send in clear)"
            ),
        )),
        None => Ok(SslMode::Prefer),
    }
}

/// Where each host of `config` is (a `hostaddr` decides over its `host`).
fn reach(config: &postgres::Config) -> Vec<Reach> {
    let (hosts, addrs) = (config.get_hosts(), config.get_hostaddrs());
    (0..hosts.len().max(addrs.len()))
        .map(|i| match (addrs.get(i), hosts.get(i)) {
            (Some(addr), _) => ip_reach(*addr),
            (None, Some(Host::Tcp(name))) => match name.parse::<IpAddr>() {
                Ok(addr) => ip_reach(addr),
                Err(_) if name.eq_ignore_ascii_case("localhost") => Reach::Loopback,
                Err(_) => Reach::Remote(name.clone()),
            },
            _ => Reach::Socket,
        })
        .collect()
}

fn ip_reach(addr: IpAddr) -> Reach {
    if addr.is_loopback() {
        Reach::Loopback
    } else {
        Reach::Remote(addr.to_string())
    }
}

fn is_url(params: &str) -> bool {
    let lower = params.to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// The URL without its `sslmode`/`sslrootcert`/`passfile` query parameters (put in `keys`).
fn url_without_own_keys(url: &str, keys: &mut OwnKeys) -> Result<String, Error> {
    // The driver knows the scheme in lower case only.
    let (scheme, after) = url.split_once("://").unwrap_or(("", url));
    let url = format!("{}://{after}", scheme.to_ascii_lowercase());
    let Some((base, query)) = url.split_once('?') else {
        return Ok(url);
    };
    let mut kept = Vec::new();
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if !keys.take(&percent_decode(key)?, percent_decode(value)?)? {
            kept.push(pair);
        }
    }
    if kept.is_empty() {
        return Ok(base.to_string());
    }
    Ok(format!("{base}?{}", kept.join("&")))
}

/// `%XX` escapes decoded (as the driver decodes URL parameters).
fn percent_decode(text: &str) -> Result<String, Error> {
    let bad = || Error::invalid("db", format!("bad %-escape in {text:?}"));
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3).ok_or_else(bad)?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// The key=value string without the keys of [`OwnKeys`] (put in `keys`), every value
/// written again quoted. libpq's rules: spaces around `=` allowed, a value
/// in single quotes may hold spaces, a backslash escapes the next character.
fn pairs_without_own_keys(params: &str, keys: &mut OwnKeys) -> Result<String, Error> {
    let mut kept = Vec::new();
    let mut chars = params.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let mut key = String::new();
        while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != '=') {
            key.push(c);
        }
        if key.is_empty() && chars.peek().is_none() {
            break;
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if key.is_empty() || chars.next() != Some('=') {
            return Err(Error::invalid(
                "db",
                format!("expected key=value at {key:?}"),
            ));
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let value = pair_value(&mut chars, &key)?;
        if !keys.take(&key, value.clone())? {
            let quoted = value.replace('\\', "\\\\").replace('\'', "\\'");
            kept.push(format!("{key}='{quoted}'"));
        }
    }
    Ok(kept.join(" "))
}

fn pair_value(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    key: &str,
) -> Result<String, Error> {
    let quoted = chars.next_if_eq(&'\'').is_some();
    let mut value = String::new();
    loop {
        match chars.peek().copied() {
            None if quoted => {
                return Err(Error::invalid("db", format!("{key}: unterminated quote")));
            }
            None => break,
            Some('\'') if quoted => {
                chars.next();
                break;
            }
            Some(c) if c.is_whitespace() && !quoted => break,
            Some('\\') => {
                chars.next();
                value.extend(chars.next());
            }
            Some(c) => {
                chars.next();
                value.push(c);
            }
        }
    }
    Ok(value)
}

#[cfg(test)]
mod tests;
