//! The crate's one error type.

use core::fmt;

use crate::RowId;

/// Everything that can go wrong in a distributed shuffle given bad input.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A shuffle into zero buckets was asked for.
    NoBuckets,
    /// Two rows of one bucket have the same id: the input listing holds a
    /// file twice, or the ids were not computed by the split reader.
    DuplicateRow(RowId),
    /// A row was handed to the shuffle of a bucket it does not belong to.
    WrongBucket {
        /// The row.
        row: RowId,
        /// The bucket being shuffled.
        bucket: u64,
    },
    /// More input files than row ids can number (2³² − 1 at most).
    TooManyFiles(usize),
    /// A split's byte range ends before it starts.
    InvalidSplit {
        /// First byte of the range.
        start: u64,
        /// One past its last byte.
        end: u64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoBuckets => f.write_str("the number of buckets must be at least 1"),
            Error::DuplicateRow(id) => write!(
                f,
                "row (file {}, position {}) appears twice: is a file listed twice?",
                id.file, id.position
            ),
            Error::WrongBucket { row, bucket } => write!(
                f,
                "row (file {}, position {}) does not belong to bucket {bucket}",
                row.file, row.position
            ),
            Error::TooManyFiles(n) => {
                write!(f, "{n} input files: at most 4294967295 are supported")
            }
            Error::InvalidSplit { start, end } => {
                write!(
                    f,
                    "invalid split: byte range {start}..{end} ends before it starts"
                )
            }
        }
    }
}

impl std::error::Error for Error {}
