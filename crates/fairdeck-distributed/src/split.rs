//! Reading a text file in byte-range splits, each line exactly once.
//!
//! A line *starts* at byte 0 or right after a `\n`. A split `[start, end)`
//! owns exactly the lines that start inside it (the convention of Hadoop's
//! line reader): it skips a partial first line unless `start == 0`, and
//! reads past `end` to finish its last line. So for any way of cutting a
//! file into consecutive ranges, every line is read by exactly one split,
//! with the same byte offset, which is what makes the row ids
//! ([`RowId`](crate::RowId)) independent of the split size.
//!
//! A line is its bytes without the final `\n`; a `\r` before it is kept
//! (CRLF files round-trip byte for byte once the writer adds `\n`). A last
//! line without a `\n` is a line; an empty file has none.

use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};

use crate::Error;

/// A byte range of one input file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// Index of the file in the sorted, normalised input listing.
    pub file: u32,
    /// First byte of the range.
    pub start: u64,
    /// One past the last byte of the range.
    pub end: u64,
}

/// Cuts files of the given sizes into splits of at most `split_bytes`
/// bytes (empty files get none). The listing order is the file index.
///
/// O(total / split_bytes + files).
///
/// ```
/// use fairdeck_distributed::split::{plan_splits, Split};
///
/// let splits = plan_splits(&[10, 0, 4], 6)?;
/// assert_eq!(splits, [
///     Split { file: 0, start: 0, end: 6 },
///     Split { file: 0, start: 6, end: 10 },
///     Split { file: 2, start: 0, end: 4 },
/// ]);
/// # Ok::<(), fairdeck_distributed::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::TooManyFiles`] beyond 2³² − 1 files.
pub fn plan_splits(sizes: &[u64], split_bytes: u64) -> Result<Vec<Split>, Error> {
    if sizes.len() > u32::MAX as usize {
        return Err(Error::TooManyFiles(sizes.len()));
    }
    let step = split_bytes.max(1);
    let mut splits = Vec::new();
    for (file, &size) in sizes.iter().enumerate() {
        let mut start = 0;
        while start < size {
            let end = size.min(start.saturating_add(step));
            splits.push(Split {
                file: file as u32,
                start,
                end,
            });
            start = end;
        }
    }
    Ok(splits)
}

/// The lines that start in one split of a file, in order, with their byte offsets.
///
/// O(bytes of the split's lines) time; memory is the reader's buffer and
/// the longest line.
#[derive(Debug)]
pub struct SplitLines<R> {
    reader: BufReader<R>,
    /// Offset of the next unread byte.
    pos: u64,
    end: u64,
    done: bool,
}

impl<R: Read + Seek> SplitLines<R> {
    /// Positions `reader` at the first line that starts in `[start, end)`.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use fairdeck_distributed::split::SplitLines;
    ///
    /// let data = b"ab\ncd\r\nef";
    /// let mut lines = SplitLines::new(Cursor::new(&data[..]), 1, 9)?;
    /// let mut buf = Vec::new();
    /// assert_eq!(lines.next_line(&mut buf)?, Some(3));
    /// assert_eq!(buf, b"cd\r");
    /// assert_eq!(lines.next_line(&mut buf)?, Some(7));
    /// assert_eq!(buf, b"ef");
    /// assert_eq!(lines.next_line(&mut buf)?, None);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// An I/O error from seeking or reading; `InvalidInput` if `end < start`.
    pub fn new(reader: R, start: u64, end: u64) -> io::Result<Self> {
        if end < start {
            let e = Error::InvalidSplit { start, end };
            return Err(io::Error::new(io::ErrorKind::InvalidInput, e));
        }
        let mut reader = BufReader::with_capacity(1 << 16, reader);
        let mut pos = 0;
        let mut done = start >= end;
        if start > 0 && !done {
            // The line containing byte start − 1 belongs to an earlier split
            // (if that byte is `\n`, the skip is just that byte).
            reader.seek(SeekFrom::Start(start - 1))?;
            let skipped = skip_line(&mut reader)?;
            pos = start - 1 + skipped;
            done = skipped == 0;
        }
        Ok(Self {
            reader,
            pos,
            end,
            done,
        })
    }

    /// Reads the next line of the split into `line` (cleared first, without
    /// its `\n`) and returns its byte offset, or `None` after the last one.
    ///
    /// # Errors
    ///
    /// An I/O error from reading.
    pub fn next_line(&mut self, line: &mut Vec<u8>) -> io::Result<Option<u64>> {
        line.clear();
        if self.done || self.pos >= self.end {
            return Ok(None);
        }
        let n = self.reader.read_until(b'\n', line)? as u64;
        if n == 0 {
            self.done = true;
            return Ok(None);
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        let at = self.pos;
        self.pos += n;
        Ok(Some(at))
    }
}

/// Skips through the next `\n` (or to the end); returns the bytes skipped.
fn skip_line<R: BufRead>(reader: &mut R) -> io::Result<u64> {
    let mut skipped = 0u64;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(skipped);
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            reader.consume(i + 1);
            return Ok(skipped + i as u64 + 1);
        }
        let len = buf.len();
        reader.consume(len);
        skipped += len as u64;
    }
}

/// Calls `each(offset, line)` for every line that starts in `[start, end)`.
/// Returns how many lines there were.
///
/// O(bytes read).
///
/// ```
/// use std::io::Cursor;
/// use fairdeck_distributed::split::read_split;
///
/// let data = b"one\ntwo\nthree";
/// let mut seen = Vec::new();
/// read_split(Cursor::new(&data[..]), 2, 13, |at, line| seen.push((at, line.to_vec())))?;
/// assert_eq!(seen, [(4, b"two".to_vec()), (8, b"three".to_vec())]);
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
///
/// As [`SplitLines::new`] and [`SplitLines::next_line`].
pub fn read_split<R: Read + Seek>(
    reader: R,
    start: u64,
    end: u64,
    mut each: impl FnMut(u64, &[u8]),
) -> io::Result<u64> {
    let mut lines = SplitLines::new(reader, start, end)?;
    let mut line = Vec::new();
    let mut count = 0;
    while let Some(at) = lines.next_line(&mut line)? {
        each(at, &line);
        count += 1;
    }
    Ok(count)
}

#[cfg(test)]
mod tests;
