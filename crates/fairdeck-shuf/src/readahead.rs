//! Input read by a second thread: while the calling thread splits and
//! scatters one chunk, the next is copied out of the kernel. Chunks arrive
//! over a short queue in order and go back emptied for reuse, so the bytes
//! read are exactly the input's, in its order.

use std::io::{self, Read};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::thread;

/// Chunks read ahead at most.
const QUEUE: usize = 2;

/// Calls `body` with a reader that yields the bytes of `reader`, read
/// `chunk` bytes at a time by a second thread (by this one when no thread
/// can be started). A read error reaches `body` where it happened.
///
/// O(`chunk`) extra memory (a few chunks).
pub fn with_read_ahead<R>(
    reader: &mut (dyn Read + Send),
    chunk: usize,
    body: impl FnOnce(&mut dyn Read) -> R,
) -> R {
    let (sender, queue) = sync_channel::<io::Result<Vec<u8>>>(QUEUE);
    let (give_back, recycled) = channel::<Vec<u8>>();
    // The reader goes to the thread through a slot, so that it is still
    // here if the thread cannot be started.
    let slot = Mutex::new(Some(reader));
    let slot = &slot;
    let take = || slot.lock().ok().and_then(|mut s| s.take());
    thread::scope(|scope| {
        let spawned = thread::Builder::new().spawn_scoped(scope, move || {
            if let Some(reader) = take() {
                fill(reader, chunk, &sender, &recycled);
            }
        });
        // Taken back only when no thread took it.
        if let Some(reader) = spawned.err().and_then(|_| take()) {
            return body(reader);
        }
        let mut ahead = Ahead {
            queue,
            give_back,
            current: Vec::new(),
            at: 0,
        };
        // On return `ahead` is dropped, so a reader still running fails to
        // send its next chunk and stops.
        body(&mut ahead)
    })
}

/// The reading thread: sends chunks until the end of input, an error, or
/// the receiver is gone.
fn fill(
    reader: &mut (dyn Read + Send),
    chunk: usize,
    sender: &SyncSender<io::Result<Vec<u8>>>,
    recycled: &Receiver<Vec<u8>>,
) {
    loop {
        let mut buffer = recycled.try_recv().unwrap_or_default();
        buffer.clear();
        let got = (&mut *reader).take(chunk as u64).read_to_end(&mut buffer);
        let last = !matches!(got, Ok(n) if n > 0);
        if sender.send(got.map(|_| buffer)).is_err() || last {
            return;
        }
    }
}

/// The reading end of the queue.
struct Ahead {
    queue: Receiver<io::Result<Vec<u8>>>,
    give_back: Sender<Vec<u8>>,
    current: Vec<u8>,
    at: usize,
}

impl Read for Ahead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.current.len() {
            match self.queue.recv() {
                Ok(next) => {
                    let used = std::mem::replace(&mut self.current, next?);
                    let _ = self.give_back.send(used);
                    self.at = 0;
                }
                // The reader has finished (end of input, or an error
                // already returned).
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len() - self.at);
        buf[..n].copy_from_slice(&self.current[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_arrives_in_order_whatever_the_sizes() {
        let data: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        for chunk in [1, 7, 4096, 1 << 20] {
            let mut input: &[u8] = &data;
            let got = with_read_ahead(&mut input, chunk, |r| {
                let mut out = Vec::new();
                let mut small = [0u8; 333];
                loop {
                    let n = r.read(&mut small).unwrap();
                    if n == 0 {
                        break;
                    }
                    out.extend_from_slice(&small[..n]);
                }
                out
            });
            assert_eq!(got, data, "chunk {chunk}");
        }
    }

    #[test]
    fn a_read_error_reaches_the_caller() {
        struct Failing(u32);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::other("disk on fire"));
                }
                self.0 -= 1;
                buf[0] = b'x';
                Ok(1)
            }
        }
        let got = with_read_ahead(&mut Failing(3), 2, |r| {
            let mut out = Vec::new();
            r.read_to_end(&mut out).map(|_| out)
        });
        assert_eq!(got.unwrap_err().to_string(), "disk on fire");
    }

    #[test]
    fn stopping_early_does_not_hang() {
        let data = vec![b'a'; 1 << 20];
        let mut input: &[u8] = &data;
        let first = with_read_ahead(&mut input, 1024, |r| {
            let mut b = [0u8; 10];
            r.read(&mut b).unwrap()
        });
        assert_eq!(first, 10);
    }
}
