"""The input listing: which files, in which order, how big, how to split them.

Row ids number files by their place in the *sorted, normalised listing*:
every input path is made absolute (``os.path.abspath`` for local paths,
the filesystem's own form for URIs such as ``hdfs://`` or ``s3://``),
directories are expanded recursively (skipping names that start with ``_``
or ``.``, as Spark and Hadoop do: ``_SUCCESS``, ``.crc`` files), duplicates
are dropped, and the paths are sorted by their text. Moving the whole
dataset to another directory keeps the order, so it keeps the ids; renaming
files so that their order changes, or adding files, changes them.

An input may be a Hadoop glob pattern (``in/*.txt``, ``part-?``,
``{in,more}``) or a ``file:`` URI, as Spark's readers take them: a pattern
stands for what it matches (see ``_glob``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pyarrow.fs as pafs

from ._glob import PatternError, glob, is_glob, local_path, visible


@dataclass(frozen=True)
class Listing:
    """The input files of a shuffle, in id order."""

    fs: pafs.FileSystem
    paths: list[str]
    sizes: list[int]
    local: bool
    # What the glob patterns among the inputs matched (paths of ``fs``).
    matched: tuple[str, ...] = ()


def _resolve(path: str) -> tuple[pafs.FileSystem, str]:
    local = local_path(path)
    if local is not None:
        path = local
    if "://" not in path:
        path = os.path.abspath(os.path.expanduser(path))
    try:
        return pafs.FileSystem.from_uri(path)
    except (ValueError, OSError) as e:
        raise ValueError(f"{path}: cannot open this location: {e}") from None


def _hidden(root: str, path: str) -> bool:
    rel = os.path.relpath(path, root) if path != root else os.path.basename(path)
    return any(part.startswith(("_", ".")) for part in rel.split("/"))


def list_inputs(paths: str | os.PathLike | list) -> Listing:
    """Lists the input files: sorted, normalised, without duplicates."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise ValueError("no input paths given")
    fs0, found, matched = None, {}, []
    for given in paths:
        fs, path = _resolve(given)
        if fs0 is not None and fs.type_name != fs0.type_name:
            raise ValueError(f"{given}: all inputs must be on one filesystem")
        fs0 = fs0 or fs
        targets = _matches(fs, path, given) if is_glob(given) else [path]
        matched += targets if is_glob(given) else []
        for target in targets:
            _add(fs, target, given, found)
    ordered = sorted(found)
    if len(ordered) >= 2**31:
        raise ValueError(f"{len(ordered)} input files: at most 2**31 - 1 are supported")
    local = isinstance(fs0, pafs.LocalFileSystem)
    return Listing(fs0, ordered, [found[p] for p in ordered], local, tuple(matched))


def _matches(fs: pafs.FileSystem, pattern: str, given: str) -> list[str]:
    """What the glob ``pattern`` (``given`` as the user wrote it) matches."""
    try:
        matches = glob(fs, pattern)
    except PatternError as e:
        raise ValueError(f"{given}: not a valid glob pattern: {e}") from None
    if not matches:
        raise FileNotFoundError(f"{given}: no file or directory matches this pattern")
    return visible(matches)


def _add(fs: pafs.FileSystem, path: str, given: str, found: dict) -> None:
    """Adds the file ``path``, or the files under the directory ``path``."""
    info = fs.get_file_info(path)
    if info.type == pafs.FileType.NotFound:
        raise FileNotFoundError(f"{given}: no such file or directory")
    if info.type == pafs.FileType.Directory:
        selector = pafs.FileSelector(path, recursive=True)
        for entry in fs.get_file_info(selector):
            if entry.type == pafs.FileType.File and not _hidden(path, entry.path):
                found[entry.path] = entry.size
    else:
        found[info.path] = info.size


def parse_bytes(text: str | int) -> int:
    """``"128MB"``, ``"64m"``, ``"134217728b"`` or ``134217728`` as bytes."""
    if isinstance(text, int):
        return text
    units = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "m": 1 << 20, "mb": 1 << 20,
             "g": 1 << 30, "gb": 1 << 30, "t": 1 << 40, "tb": 1 << 40}
    s = str(text).strip().lower()
    digits = s.rstrip("abcdefghijklmnopqrstuvwxyz")
    unit = s[len(digits):]
    if not digits.isdigit() or unit not in units:
        raise ValueError(f"not a size in bytes: {text!r} (e.g. 128MB)")
    return int(digits) * units[unit]
