//! A seat link of a hidden table (`http://HOST:PORT/…#table=ID&seat=N&token=T`),
//! as `fairdeck hidden seat --link` reads it.

use std::io::{BufRead, Read};

use anyhow::Context;

use crate::failure::usage;

/// What a seat link names.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Link {
    pub(super) addr: String,
    pub(super) table: String,
    pub(super) seat: u64,
    pub(super) token: String,
}

/// Reads a seat link; only `http://` (the service speaks no TLS).
pub(super) fn parse_link(link: &str) -> anyhow::Result<Link> {
    let bad = |why: &str| {
        usage(format!(
            "--link: {why} (expected http://HOST:PORT/…#table=ID&seat=N&token=T)"
        ))
    };
    let rest = link
        .strip_prefix("http://")
        .ok_or_else(|| bad("not an http:// link"))?;
    let (addr, fragment) = rest
        .split_once('#')
        .ok_or_else(|| bad("no #table=…&seat=…&token=…"))?;
    let addr = addr.split('/').next().unwrap_or_default().to_string();
    let field = |name: &str| {
        fragment
            .split('&')
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
            .map(str::to_string)
            .ok_or_else(|| bad(&format!("no {name}=")))
    };
    let seat = field("seat")?
        .parse()
        .map_err(|_| bad("the seat is not a number"))?;
    if addr.is_empty() {
        return Err(bad("no host"));
    }
    Ok(Link {
        addr,
        table: field("table")?,
        seat,
        token: field("token")?,
    })
}

/// The link, or with `-` its first line on stdin (a link on the command
/// line shows its token to every local user who lists processes).
pub(super) fn link_text(link: &str) -> anyhow::Result<String> {
    if link != "-" {
        return Ok(link.to_string());
    }
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .take(64 * 1024)
        .read_line(&mut line)
        .context("cannot read the link from stdin")?;
    Ok(line.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_name_the_service_table_seat_and_token() {
        let l = parse_link("http://127.0.0.1:8090/table/hidden.html#table=t1&seat=2&token=abc")
            .unwrap();
        let want = Link {
            addr: "127.0.0.1:8090".into(),
            table: "t1".into(),
            seat: 2,
            token: "abc".into(),
        };
        assert_eq!(l, want);
        for bad in [
            "https://h:1/x#table=t&seat=0&token=a",
            "http://h:1/x",
            "http://h:1/x#table=t&seat=x&token=a",
            "http://h:1/x#table=t&token=a",
            "http:///x#table=t&seat=0&token=a",
        ] {
            assert!(parse_link(bad).is_err(), "{bad}");
        }
    }
}
