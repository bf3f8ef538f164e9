//! The HTTP/1.1 client every client of the service uses: one keep-alive
//! connection, JSON in and out, the answer's size bounded.
//!
//! Hand-written on `std::net` (about 130 lines) rather than on an HTTP
//! crate: the service speaks plain HTTP on loopback or a LAN (a seat link
//! is `http://` only, and the service has no TLS), every answer is JSON
//! with a `Content-Length`, and a seat must link nothing it does not need.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::Value;

/// One HTTP/1.1 connection to the service, kept alive between requests and
/// opened again after the server closed it.
pub struct Client {
    addr: String,
    stream: Option<BufReader<TcpStream>>,
    max_answer: usize,
}

/// The largest answer read (a closed table's transcript is a few KiB).
const MAX_ANSWER: usize = 1 << 22;

impl Client {
    /// A client of the service at `addr` (`127.0.0.1:8090`); connects on first use.
    pub fn new(addr: &str) -> Self {
        Client {
            addr: addr.to_string(),
            stream: None,
            max_answer: MAX_ANSWER,
        }
    }

    /// The same client reading answers of up to `max_answer` bytes (4 MiB
    /// by default; a hidden table's whole transcript may be larger).
    pub fn with_max_answer(mut self, max_answer: usize) -> Self {
        self.max_answer = max_answer;
        self
    }

    /// Sends one request and reads the answer: its status and JSON body.
    ///
    /// # Errors
    ///
    /// The connection failed or the answer is not HTTP (the connection is
    /// dropped, so the next call connects again).
    pub fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> io::Result<(u16, Value)> {
        self.call_from(method, path, token, None, body)
    }

    /// [`Client::call`] for a seat: `device` (a seat's device secret) goes
    /// in the `Fairdeck-Device` header.
    ///
    /// # Errors
    ///
    /// As [`Client::call`].
    pub fn call_from(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        device: Option<&str>,
        body: Option<&Value>,
    ) -> io::Result<(u16, Value)> {
        let answer = self.exchange(method, path, token, device, body);
        if answer.is_err() {
            self.stream = None;
        }
        answer
    }

    fn exchange(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        device: Option<&str>,
        body: Option<&Value>,
    ) -> io::Result<(u16, Value)> {
        if self.stream.is_none() {
            let stream = TcpStream::connect(&self.addr)?;
            stream.set_read_timeout(Some(Duration::from_secs(30)))?;
            stream.set_nodelay(true)?;
            self.stream = Some(BufReader::new(stream));
        }
        let reader = self.stream.as_mut().expect("connected above");
        let request = request_text((method, path), &self.addr, (token, device), body);
        reader.get_mut().write_all(request.as_bytes())?;
        let (status, bytes, close) = read_answer(reader, self.max_answer)?;
        if close {
            self.stream = None;
        }
        Ok((
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        ))
    }
}

/// One HTTP/1.1 request to `host`: its head, with the seat's token and
/// device secret when given, and its JSON body.
fn request_text(
    (method, path): (&str, &str),
    host: &str,
    (token, device): (Option<&str>, Option<&str>),
    body: Option<&Value>,
) -> String {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\n");
    if let Some(t) = token {
        head.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    if let Some(d) = device {
        head.push_str(&format!("Fairdeck-Device: {d}\r\n"));
    }
    let text = body.map(Value::to_string);
    if let Some(text) = &text {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            text.len()
        ));
    }
    head.push_str("\r\n");
    head.push_str(text.as_deref().unwrap_or(""));
    head
}

/// Reads one answer: its status, its body (at most `max_answer` bytes), and
/// whether the server closes the connection after it.
fn read_answer(
    reader: &mut BufReader<TcpStream>,
    max_answer: usize,
) -> io::Result<(u16, Vec<u8>, bool)> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_string());
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "closed"));
    }
    let status: u16 = (line.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("no status line"))?;
    let (mut length, mut close) = (0usize, false);
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':').ok_or_else(|| bad("bad header"))?;
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().map_err(|_| bad("length"))?,
            "connection" => close = value.trim().eq_ignore_ascii_case("close"),
            _ => {}
        }
    }
    if length > max_answer {
        return Err(bad("answer too large"));
    }
    let mut bytes = vec![0; length];
    reader.read_exact(&mut bytes)?;
    Ok((status, bytes, close))
}
