//! A seat link of a hidden table (`http://HOST:PORT/…#table=ID&seat=N&token=T`),
//! as `fairdeck hidden seat --link` reads it.

use std::fmt;

use crate::wire::{TABLE_ID_PATTERN, table_id_ok};

/// What a seat link names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The service's `HOST:PORT`.
    pub addr: String,
    /// The table id (one [`table_id_ok`] accepts).
    pub table: String,
    /// The seat.
    pub seat: u64,
    /// The seat's token (visible ASCII: it is sent in a header).
    pub token: String,
}

/// Why a text is not a seat link: the part that is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkError(String);

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (expected http://HOST:PORT/…#table=ID&seat=N&token=T)",
            self.0
        )
    }
}

impl std::error::Error for LinkError {}

/// Reads a seat link; only `http://` (the service speaks no TLS). O(link). Every
/// part is checked before it is used: `HOST:PORT` with a port of 1 to
/// 65535, a table id the service accepts ([`table_id_ok`]: no `/`, no
/// `..`, so the default key file `ID-seatN.key` is a plain file name in the
/// working directory whatever the link says), a seat number and a token of
/// visible ASCII (it is sent in a header), each given exactly once.
///
/// ```
/// let link = fairdeck_client::parse_link("http://127.0.0.1:8090/table/hidden.html#table=t1&seat=2&token=abc")?;
/// assert_eq!((link.addr.as_str(), link.seat), ("127.0.0.1:8090", 2));
/// assert!(fairdeck_client::parse_link("https://h:1/#table=t&seat=0&token=a").is_err());
/// # Ok::<(), fairdeck_client::LinkError>(())
/// ```
///
/// # Errors
///
/// [`LinkError`] naming the first part that is missing, repeated or wrong.
pub fn parse_link(link: &str) -> Result<Link, LinkError> {
    let bad = |why: &str| LinkError(why.to_string());
    let rest = link
        .strip_prefix("http://")
        .ok_or_else(|| bad("not an http:// link"))?;
    let (addr, fragment) = rest
        .split_once('#')
        .ok_or_else(|| bad("no #table=…&seat=…&token=…"))?;
    let addr = addr.split('/').next().unwrap_or_default().to_string();
    check_addr(&addr).map_err(|why| bad(&why))?;
    let field = |name: &str| {
        let mut values = fragment
            .split('&')
            .filter_map(|kv| kv.strip_prefix(name)?.strip_prefix('='));
        match (values.next(), values.next()) {
            (None, _) => Err(bad(&format!("no {name}="))),
            (Some(_), Some(_)) => Err(bad(&format!("{name}= given twice"))),
            (Some(""), None) => Err(bad(&format!("an empty {name}="))),
            (Some(value), None) => Ok(value.to_string()),
        }
    };
    let table = field("table")?;
    if !table_id_ok(&table) {
        return Err(bad(&format!(
            "the table id {table:?} is not one the service accepts ({TABLE_ID_PATTERN})"
        )));
    }
    let seat = field("seat")?
        .parse()
        .map_err(|_| bad("the seat is not a number"))?;
    let token = field("token")?;
    if token.len() > 256 || !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(bad("the token is not up to 256 visible ASCII characters"));
    }
    Ok(Link {
        addr,
        table,
        seat,
        token,
    })
}

/// Checks `HOST:PORT`: a host, and a port of 1 to 65535.
fn check_addr(addr: &str) -> Result<(), String> {
    let Some((host, port)) = addr.rsplit_once(':') else {
        return Err(if addr.is_empty() {
            "no host".into()
        } else {
            format!("no port in {addr:?}")
        });
    };
    if host.is_empty() || host == "[]" {
        return Err("no host".into());
    }
    match port.parse::<u16>() {
        Ok(1..) => Ok(()),
        _ => Err(format!("the port {port:?} is not a number from 1 to 65535")),
    }
}

/// The seat's default key file: `ID-seatN.key`, a plain file name in the
/// working directory (the id is checked by [`parse_link`]). O(1).
pub fn key_file(link: &Link) -> std::path::PathBuf {
    debug_assert!(table_id_ok(&link.table));
    std::path::PathBuf::from(format!("{}-seat{}.key", link.table, link.seat))
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
        assert_eq!(key_file(&l), std::path::PathBuf::from("t1-seat2.key"));
        let v6 = parse_link("http://[::1]:8090/#table=t&seat=0&token=a").unwrap();
        assert_eq!(v6.addr, "[::1]:8090");
        for bad in [
            "https://h:1/x#table=t&seat=0&token=a",
            "http://h:1/x",
            "http://h:1/x#table=t&seat=x&token=a",
            "http://h:1/x#table=t&token=a",
            "http:///x#table=t&seat=0&token=a",
            "http://h:99999/x#table=t&seat=0&token=a",
            "http://h:0/x#table=t&seat=0&token=a",
            "http://h/x#table=t&seat=0&token=a",
            "http://:1/x#table=t&seat=0&token=a",
            "http://h:1/x#table=../x&seat=0&token=a",
            "http://h:1/x#table=a/b&seat=0&token=a",
            "http://h:1/x#table=&seat=0&token=a",
            "http://h:1/x#table=t&seat=0&token=",
            "http://h:1/x#table=t&seat=0&seat=1&token=a",
            "http://h:1/x#table=t&table=u&seat=0&token=a",
            "http://h:1/x#table=t&seat=0&token=a&token=b",
            "http://h:1/x#table=t&seat=0&token=a%0d%0a b",
        ] {
            assert!(parse_link(bad).is_err(), "{bad}");
        }
    }
}
