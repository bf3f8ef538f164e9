//! The accept loop: each connection served by hyper's HTTP/1 machinery with
//! the time limits axum's own `serve` cannot set.
//!
//! A client has [`HEAD_TIME`] to send each request's head, and a kept-alive
//! connection that sends nothing for [`HEAD_TIME`] is closed (hyper's header
//! timer runs from the moment it waits for the next request). The body's
//! limit, [`BODY_TIME`](crate::transport::BODY_TIME), is kept where the body is
//! read. When hyper itself refuses a request (a head too large, or not
//! HTTP), its bare answer is replaced by the same JSON error the API sends.

use std::future::Future;
use std::io;
use std::pin::{Pin, pin};
use std::task::{Context, Poll, ready};

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

use crate::access::SECURITY;
use crate::transport::HEAD_TIME;

/// Serves `app` on `listener` until `shutdown` completes.
///
/// # Errors
///
/// Never at present: a failed accept (out of file descriptors, say) is
/// retried after a pause.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let mut shutdown = pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(_) => {
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => return Ok(()),
        };
        tokio::spawn(connection(stream, peer, app.clone()));
    }
}

/// One connection, kept alive between requests within [`HEAD_TIME`]; its
/// requests carry the peer's address (`ConnectInfo<SocketAddr>`).
async fn connection(stream: TcpStream, peer: std::net::SocketAddr, app: Router) {
    let app = app.layer(axum::Extension(axum::extract::ConnectInfo(peer)));
    let _ = stream.set_nodelay(true);
    let io = TokioIo::new(JsonErrors::new(stream));
    let served = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIME)
        .keep_alive(true)
        .serve_connection(io, TowerToHyperService::new(app))
        .await;
    // A client that hung up or timed out: nothing to tell anyone.
    drop(served);
}

/// A stream that rewrites hyper's own bare error answers (status 400, 408,
/// 414 or 431 with an empty body: the handlers never send those) as JSON.
struct JsonErrors<T> {
    inner: T,
    /// A replacement being written: its bytes, how many are out, and how
    /// many bytes of hyper's answer it stands for.
    pending: Option<(Vec<u8>, usize, usize)>,
}

impl<T> JsonErrors<T> {
    fn new(inner: T) -> Self {
        Self {
            inner,
            pending: None,
        }
    }
}

/// The JSON answer standing in for `head`, when `head` is one of hyper's
/// bare error answers.
fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let status = text.strip_prefix("HTTP/1.1 ")?.get(..3)?;
    let bare = text.ends_with("\r\n\r\n")
        && text
            .to_ascii_lowercase()
            .contains("\r\ncontent-length: 0\r\n");
    let error = match status {
        "400" => "the request is not valid HTTP/1.1",
        "408" => "the request did not arrive in time",
        "414" => "the request's URL is too long",
        "431" => "the request's headers are too large",
        _ => return None,
    };
    if !bare {
        return None;
    }
    let reason = text.lines().next()?.get(13..).unwrap_or("");
    let body = serde_json::json!({ "error": error, "parameter": null, "limit": null }).to_string();
    let mut out = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (name, value) in SECURITY {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("\r\n");
    out.push_str(&body);
    Some(out.into_bytes())
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonErrors<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.pending.is_none() {
            match replacement(buf) {
                Some(bytes) => this.pending = Some((bytes, 0, buf.len())),
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
            }
        }
        let (bytes, written, stands_for) = this.pending.as_mut().expect("set above");
        while *written < bytes.len() {
            let n = ready!(Pin::new(&mut this.inner).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        let n = *stands_for;
        this.pending = None;
        Poll::Ready(Ok(n))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
    // Not vectored: hyper then hands each answer's head to `poll_write` whole.
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bare_error_answers_are_replaced() {
        let bare =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let json = String::from_utf8(replacement(bare).unwrap()).unwrap();
        assert!(json.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        let body = json.split("\r\n\r\n").nth(1).unwrap();
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"], "the request's headers are too large");
        assert!(json.contains(&format!("content-length: {}\r\n", body.len())));
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 40\r\n\r\n";
        assert!(replacement(ours).is_none());
        assert!(replacement(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
    }
}
