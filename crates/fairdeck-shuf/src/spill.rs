//! Bucket files written by a second thread, so that the kernel's copying of
//! bucket data into files overlaps with splitting and assigning the next
//! lines. The main thread fills one buffer per bucket and hands a full
//! buffer over a short queue; the writer thread writes it and hands the
//! emptied buffer back for reuse. Which line goes to which bucket, and in
//! which order, is decided by the main thread alone, so runs replay exactly.

use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};
use std::thread::{self, JoinHandle};

use crate::error::{Error, IoContext};
use crate::scratch::ScratchFile;

/// Full buffers that may wait for the writer at once.
const QUEUE: usize = 4;

/// The buckets being written.
pub struct Spill {
    sender: Option<SyncSender<(usize, Vec<u8>)>>,
    recycled: Receiver<Vec<u8>>,
    worker: Option<JoinHandle<Result<(), Error>>>,
    buffers: Vec<Vec<u8>>,
    capacity: usize,
}

impl Spill {
    /// Starts the writer thread for `files`, with buffers of `capacity` bytes.
    pub fn new(files: Vec<(PathBuf, ScratchFile)>, capacity: usize) -> Self {
        let (sender, queue) = sync_channel::<(usize, Vec<u8>)>(QUEUE);
        let (give_back, recycled) = channel::<Vec<u8>>();
        let buffers = files.iter().map(|_| Vec::with_capacity(capacity)).collect();
        let worker = thread::spawn(move || {
            let mut files = files;
            for (bucket, buffer) in queue {
                let (path, file) = &mut files[bucket];
                file.write_all(&buffer).on(path.display())?;
                let _ = give_back.send(buffer);
            }
            Ok(())
        });
        Self {
            sender: Some(sender),
            recycled,
            worker: Some(worker),
            buffers,
            capacity,
        }
    }

    /// Appends `line` to `bucket`.
    ///
    /// # Errors
    ///
    /// The writer thread's error (a full disk, say), once it has stopped.
    #[inline]
    pub fn push(&mut self, bucket: usize, line: &[u8]) -> Result<(), Error> {
        let buffer = &mut self.buffers[bucket];
        buffer.extend_from_slice(line);
        if buffer.len() >= self.capacity {
            self.ship(bucket)?;
        }
        Ok(())
    }

    /// Writes what is left and waits for the writer to finish.
    ///
    /// # Errors
    ///
    /// The first write error.
    pub fn finish(mut self) -> Result<(), Error> {
        for bucket in 0..self.buffers.len() {
            if !self.buffers[bucket].is_empty() {
                self.ship(bucket)?;
            }
        }
        self.sender = None;
        self.join()
    }

    fn ship(&mut self, bucket: usize) -> Result<(), Error> {
        let fresh = match self.recycled.try_recv() {
            Ok(mut b) => {
                b.clear();
                b
            }
            Err(_) => Vec::with_capacity(self.capacity),
        };
        let full = std::mem::replace(&mut self.buffers[bucket], fresh);
        let sent = self.sender.as_ref().map(|s| s.send((bucket, full)));
        match sent {
            Some(Ok(())) => Ok(()),
            // The writer stopped: its error says why.
            _ => Err(self
                .join()
                .err()
                .unwrap_or_else(|| Error::Invalid("the bucket writer stopped".into()))),
        }
    }

    fn join(&mut self) -> Result<(), Error> {
        match self.worker.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(Error::Invalid("the bucket writer thread panicked".into())),
            None => Ok(()),
        }
    }
}

impl Drop for Spill {
    /// On an early return the writer is stopped and waited for, so that no
    /// write races the removal of the temporary directory.
    fn drop(&mut self) {
        self.sender = None;
        let _ = self.join();
    }
}
