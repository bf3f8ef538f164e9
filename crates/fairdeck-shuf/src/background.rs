//! Output written by a second thread: while it copies one full buffer into
//! the output (the kernel's copy into the page cache is as slow as the
//! shuffle itself), the calling thread fills the next. Buffers go over a
//! short queue in order and come back emptied for reuse, so the bytes
//! reach the output exactly in the order they were handed over.

use std::fs::File;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};
use std::thread::{self, JoinHandle};

/// Full buffers that may wait for the writer at once.
const QUEUE: usize = 2;

/// A writer thread and its queue.
pub struct Background {
    sender: Option<SyncSender<Vec<u8>>>,
    recycled: Receiver<Vec<u8>>,
    worker: Option<JoinHandle<io::Result<()>>>,
}

impl Background {
    /// Starts a thread that writes every buffer it is sent to `file`.
    ///
    /// # Errors
    ///
    /// The thread could not be started (a process at its thread limit).
    pub fn start(mut file: File) -> io::Result<Self> {
        let (sender, queue) = sync_channel::<Vec<u8>>(QUEUE);
        let (give_back, recycled) = channel::<Vec<u8>>();
        let worker = thread::Builder::new().spawn(move || {
            for buffer in queue {
                file.write_all(&buffer)?;
                let _ = give_back.send(buffer);
            }
            Ok(())
        })?;
        Ok(Self {
            sender: Some(sender),
            recycled,
            worker: Some(worker),
        })
    }

    /// Hands `full` to the writer and returns an empty buffer of at least
    /// `capacity` bytes (a recycled one when the writer has given one back).
    ///
    /// # Errors
    ///
    /// The writer's error, once it has stopped.
    pub fn send(&mut self, full: Vec<u8>, capacity: usize) -> io::Result<Vec<u8>> {
        let sent = self.sender.as_ref().map(|s| s.send(full));
        match sent {
            Some(Ok(())) => Ok(match self.recycled.try_recv() {
                Ok(mut b) => {
                    b.clear();
                    b
                }
                Err(_) => Vec::with_capacity(capacity),
            }),
            // The writer stopped: its error says why.
            _ => Err(self
                .stop()
                .err()
                .unwrap_or_else(|| io::Error::other("the output writer stopped"))),
        }
    }

    /// Waits until everything sent has been written.
    ///
    /// # Errors
    ///
    /// The first write error.
    pub fn stop(&mut self) -> io::Result<()> {
        self.sender = None;
        match self.worker.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(io::Error::other("the output writer panicked")),
            None => Ok(()),
        }
    }
}

impl Drop for Background {
    /// On an early return the writer is stopped and waited for, so that no
    /// write races the removal of a temporary output.
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_arrive_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let mut bg = Background::start(File::create(&path).unwrap()).unwrap();
        let mut expected = Vec::new();
        let mut buffer = Vec::new();
        for i in 0..1000u32 {
            buffer.extend_from_slice(&i.to_le_bytes());
            expected.extend_from_slice(&i.to_le_bytes());
            if i % 7 == 0 {
                buffer = bg.send(buffer, 64).unwrap();
                assert!(buffer.is_empty());
            }
        }
        bg.send(buffer, 64).unwrap();
        bg.stop().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), expected);
    }

    #[test]
    fn a_write_error_comes_back() {
        // A read-only file: every write fails.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ro");
        std::fs::write(&path, b"x").unwrap();
        let mut bg = Background::start(File::open(&path).unwrap()).unwrap();
        let mut failed = false;
        for _ in 0..10 {
            if bg.send(vec![1; 16], 16).is_err() {
                failed = true;
                break;
            }
        }
        assert!(failed || bg.stop().is_err());
    }
}
