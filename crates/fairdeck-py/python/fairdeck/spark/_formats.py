"""Which format the input files are in, read from their first bytes.

A file's name says nothing reliable (a ``.txt`` that is gzip, a
``part-0000`` that is Parquet), so each file's first bytes are compared
with the signatures of the binary formats a data lake holds; text is
everything else. A shuffle takes one format: Parquet files (``PAR1``) or
text files. Any other mix, and any binary file given as text, is refused
before Spark runs, instead of shuffling compressed bytes as lines.
"""

from __future__ import annotations

from ._listing import Listing

#: File signatures ("magic numbers") of binary formats.
SIGNATURES = [
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x04\x22\x4d\x18", "lz4"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"PK\x03\x04", "zip"),
    (b"Obj\x01", "Avro"),
    (b"\x1f\x8b", "gzip"),
    (b"\x89HDF", "HDF5"),
    # Signatures a line of text could start with count only when a
    # control byte follows within the first 8 bytes (binary data does).
    (b"PAR1", "Parquet"),
    (b"ORC", "ORC"),
    (b"SEQ", "Hadoop SequenceFile"),
]
#: bzip2: "BZh", a block size digit, then a block or end-of-stream marker.
BZIP2_BLOCKS = (b"1AY&SY", b"\x17rE8P\x90")


def _binary(head: bytes) -> bool:
    return any(b < 9 or 13 < b < 32 or b == 127 for b in head)


def kind(listing: Listing, path: str) -> str:
    """``"Parquet"``, another binary format's name, or ``"text"``."""
    with listing.fs.open_input_stream(path, compression=None) as f:  # raw bytes, never decoded
        head = f.read(10)
    if head[:3] == b"BZh" and head[3:4].isdigit() and head[4:].startswith(BZIP2_BLOCKS):
        return "bzip2"
    for magic, name in SIGNATURES:
        if head.startswith(magic) and (not magic.isascii() or not magic.isalnum()
                                       or _binary(head[:8])):
            return name
    return "text"


def detect(listing: Listing, format: str | None) -> str:
    """The format to read the input as: ``format`` if every file is in it,
    else the one format all files share; ``ValueError`` otherwise."""
    kinds = {path: kind(listing, path) for path in listing.paths}
    if format == "parquet":
        wrong = [(p, k) for p, k in kinds.items() if k != "Parquet"]
        if wrong:
            path, k = wrong[0]
            raise ValueError(f"{path}: not a Parquet file (it looks like {k}); "
                             "shuffle Parquet files with the Parquet format only")
        return format
    binary = [(p, k) for p, k in kinds.items() if k != "text"]
    if format is None and kinds and len(binary) == len(kinds) and all(
            k == "Parquet" for _, k in binary):
        return "parquet"
    if binary:
        path, k = binary[0]
        mixed = "" if format == "text" else " among text files"
        raise ValueError(f"{path}: a {k} file{mixed}, not text: shuffle one format at a time "
                         "(Parquet files as parquet; decompress other files first)")
    return "text"
