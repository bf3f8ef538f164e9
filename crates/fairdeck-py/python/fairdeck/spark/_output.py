"""The output directory: never an input, never replaced before the job succeeded.

``check`` refuses an output that is, contains or lies inside an input (the
paths given and every file listed, after resolving symbolic links for local
paths; by normalised path on other ``pyarrow.fs`` filesystems of the same
kind), and a non-empty output unless ``overwrite`` is set. ``prepare`` then
chooses where the parts are written: straight into an absent or empty
output, or, when a non-empty output is to be replaced, into a hidden
temporary sibling ``.NAME.fairdeck-UUID`` that ``Output.commit`` swaps in
only after the job succeeded (``Output.abort`` removes it otherwise), so a
failed run leaves the old output as it was.
"""

from __future__ import annotations

import os
import posixpath
import uuid
from dataclasses import dataclass
from pathlib import PurePosixPath

import pyarrow.fs as pafs

from ._glob import is_glob, local_path
from ._listing import Listing


class OutputNotEmpty(FileExistsError):
    """The output directory holds files and ``overwrite`` was not set."""

    def __init__(self, path: str, flag: str = "overwrite=True"):
        super().__init__(f"{path}: directory is not empty (pass {flag} to replace it)")
        self.path = path


def _open(path: str) -> tuple[pafs.FileSystem, str]:
    """The filesystem and the path in it: links resolved when local."""
    local = local_path(path)
    if local is not None:
        path = local
    uri = path if "://" in path else os.path.abspath(os.path.expanduser(path))
    fs, inner = pafs.FileSystem.from_uri(uri)
    if isinstance(fs, pafs.LocalFileSystem):
        return fs, os.path.realpath(inner)
    return fs, inner.rstrip("/") or inner


def _key(path: str) -> PurePosixPath:
    """A path made comparable: rooted and normalised (``a//b/`` is ``/a/b``)."""
    return PurePosixPath(posixpath.normpath("/" + path.strip("/")))


def _relation(out: str, inp: str) -> str | None:
    """How the output ``out`` overlaps the input ``inp``, or None."""
    ko, ki = _key(out), _key(inp)
    if ko == ki:
        return "is"
    if ko.is_relative_to(ki):
        return "lies inside"
    return "contains" if ki.is_relative_to(ko) else None


def _refuse_overlap(out_fs, out: str, given: str, listing: Listing, inputs: list[str]) -> None:
    if out_fs.type_name != listing.fs.type_name:
        return
    local = isinstance(out_fs, pafs.LocalFileSystem)
    shown = given if _key(given) == _key(out) else f"{given} (that is {out})"
    for name in inputs:
        if is_glob(name):
            continue  # what it matched is checked below
        relation = _relation(out, _open(name)[1])
        if relation:
            raise ValueError(f"the output {shown} {relation} the input {name}: "
                             "choose an output directory outside every input")
    for path in listing.matched:
        relation = _relation(out, os.path.realpath(path) if local else path)
        if relation:
            raise ValueError(f"the output {shown} {relation} the input {path} (matched by a "
                             "pattern): choose an output directory outside every input")
    for path in listing.paths:
        if _relation(out, os.path.realpath(path) if local else path) == "contains":
            raise ValueError(f"the output {shown} contains the input file {path}: "
                             "choose an output directory outside every input")


def check(output, overwrite: bool, listing: Listing, inputs: list[str]):
    """The output's filesystem, real path and whether it holds files (see the module doc).

    Raises ``ValueError`` when the output overlaps an input,
    ``FileExistsError`` when it is a file, ``OutputNotEmpty`` when it holds
    files and ``overwrite`` is false. Changes nothing.
    """
    given = os.fspath(output)
    try:
        fs, root = _open(given)
    except (ValueError, OSError) as e:
        raise ValueError(f"{given}: cannot open this location: {e}") from None
    _refuse_overlap(fs, root, given, listing, [os.fspath(p) for p in inputs])
    info = fs.get_file_info(root)
    if info.type == pafs.FileType.File:
        raise FileExistsError(f"{given}: is a file; the output is a directory of parts")
    full = info.type == pafs.FileType.Directory and bool(fs.get_file_info(pafs.FileSelector(root)))
    if full and not overwrite:
        raise OutputNotEmpty(given)
    return fs, root, full


@dataclass
class Output:
    """Where the parts go (``stage``) and where they end up (``root``)."""

    fs: pafs.FileSystem
    root: str
    stage: str

    def commit(self) -> None:
        """Puts the staged parts in place of the old output, then removes the old one."""
        if self.stage == self.root:
            return
        old = _sibling(self.root, "old")
        self.fs.move(self.root, old)
        try:
            self.fs.move(self.stage, self.root)
        except Exception:
            self.fs.move(old, self.root)
            raise
        self.fs.delete_dir(old)

    def abort(self) -> None:
        """Removes a staging directory (a failed job's partial parts)."""
        if self.stage != self.root and self.fs.get_file_info(self.stage).type != pafs.FileType.NotFound:
            self.fs.delete_dir(self.stage)


def _sibling(root: str, what: str) -> str:
    parent, name = posixpath.split(root.rstrip("/"))
    return f"{parent}/.{name}.fairdeck-{what}-{uuid.uuid4().hex}"


def prepare(output, overwrite: bool, listing: Listing, inputs: list[str]) -> Output:
    """Checks the output (``check``) and creates the directory the parts are written to."""
    fs, root, full = check(output, overwrite, listing, inputs)
    stage = _sibling(root, "new") if full else root
    fs.create_dir(stage, recursive=True)
    return Output(fs, root, stage)
