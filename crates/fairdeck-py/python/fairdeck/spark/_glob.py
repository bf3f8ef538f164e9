"""Input paths as Spark's readers take them: Hadoop glob patterns and ``file:`` URIs.

Spark globs a path when it holds one of ``{}[]*?\\`` and reads what the
pattern matches, with the syntax of Hadoop's ``FileSystem.globStatus``:

- ``?`` one character, ``*`` any run of characters (neither crosses a ``/``:
  patterns match one path component at a time);
- ``[abc]`` one of a set, ``[a-z]`` one of a range, ``[^a]`` or ``[!a]`` one
  character outside the set;
- ``{ab,cd}`` either alternative, nested (``{ab,c{de,fh}}``) and across
  components (``{in/a,out}/*``);
- ``\\c`` the character ``c`` itself.

A pattern that matches nothing is an error, as in Spark ("path does not
exist"); a match whose name Spark treats as hidden (``_…`` or ``.…``, as
``_SUCCESS``) is read as nothing, as Spark reads it (``visible``). Brace alternatives are
expanded first and each is matched component by component; the union of
their matches is what Hadoop's single regular expression per component
matches.
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import urlsplit

import pyarrow.fs as pafs

# The characters that make Spark glob a path (DataSource's isGlobPath).
GLOB_CHARS = frozenset("{}[]*?\\")


class PatternError(ValueError):
    """A glob pattern that cannot be read (an unclosed ``[`` or ``{``)."""


def is_glob(path: str) -> bool:
    """Whether Spark would glob ``path``."""
    return any(c in GLOB_CHARS for c in path)


def local_path(path: str) -> str | None:
    """The local path of a ``file:`` URI (``file:/d``, ``file:///d``,
    ``file://localhost/d``), or None for any other path. ValueError for a
    ``file:`` URI that names another host."""
    if not path.startswith("file:"):
        return None
    parts = urlsplit(path)
    if parts.netloc not in ("", "localhost"):
        raise ValueError(f"{path}: a file: URI must name this machine (file:/path), not {parts.netloc!r}")
    return parts.path or "/"


def _closing(text: str, start: int, open_: str, close: str) -> int:
    """The index of the ``close`` that ends the group opened at ``start``
    (escapes and nested groups skipped); PatternError when there is none."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if open_ == "{" and c == "[":
            i = _closing(text, i, "[", "]") + 1
            continue
        if c == open_ and (open_ == "{" or i == start):
            depth += 1
        elif c == close and (open_ == "{" or i > start + 1):
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise PatternError(f"unclosed {open_!r} in the pattern")


def _alternatives(body: str) -> list[str]:
    """``body`` of a ``{…}`` split at its own commas (not nested ones)."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = _closing(body, i, "[", "]")
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
        i += 1
    return parts + [body[start:]]


def expand_braces(pattern: str) -> list[str]:
    """Every brace-free pattern ``pattern`` stands for, in order."""
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
        elif c == "[":
            i = _closing(pattern, i, "[", "]") + 1
        elif c == "{":
            end = _closing(pattern, i, "{", "}")
            head, tail = pattern[:i], pattern[end + 1:]
            return [
                expanded
                for alternative in _alternatives(pattern[i + 1:end])
                for expanded in expand_braces(head + alternative + tail)
            ]
        else:
            i += 1
    return [pattern]


def component_regex(component: str) -> re.Pattern:
    """One brace-free path component as a regular expression."""
    out, i = [], 0
    while i < len(component):
        c = component[i]
        if c == "\\" and i + 1 < len(component):
            out.append(re.escape(component[i + 1]))
            i += 2
        elif c == "*":
            out.append(".*")
            i += 1
        elif c == "?":
            out.append(".")
            i += 1
        elif c == "[":
            end = _closing(component, i, "[", "]")
            out.append(_char_class(component[i + 1:end]))
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out), re.DOTALL)


def _char_class(body: str) -> str:
    """The inside of ``[…]`` as a regular expression class."""
    negate = body[:1] in ("^", "!")
    body = body[1:] if negate else body
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(re.escape(body[i + 1]))
            i += 2
            continue
        if c == "-" and 0 < i < len(body) - 1:
            out.append("-")
        else:
            out.append(re.escape(c))
        i += 1
    return "[" + ("^" if negate else "") + "".join(out) + "]"


def _unescape(component: str) -> str:
    return re.sub(r"\\(.)", r"\1", component)


def visible(paths: list[str]) -> list[str]:
    """The matches Spark reads: those not named as hidden files (``_…``, ``.…``)."""
    return [p for p in paths if not posixpath.basename(p).startswith(("_", "."))]


def _match(fs: pafs.FileSystem, pattern: str) -> list[str]:
    """The paths of ``fs`` that one brace-free pattern matches."""
    parts = pattern.split("/")
    current = [parts[0]]
    for part in parts[1:]:
        if not part:
            continue
        if not is_glob(part):
            current = [f"{base}/{_unescape(part)}" for base in current]
            continue
        regex, found = component_regex(part), []
        for base in current:
            if fs.get_file_info(base or "/").type != pafs.FileType.Directory:
                continue
            for entry in fs.get_file_info(pafs.FileSelector(base or "/")):
                name = posixpath.basename(entry.path)
                if regex.fullmatch(name):
                    found.append(f"{base}/{name}")
        current = found
    return [p for p in current if fs.get_file_info(p).type != pafs.FileType.NotFound]


def glob(fs: pafs.FileSystem, pattern: str) -> list[str]:
    """The paths a pattern (a path of ``fs``) matches, sorted; PatternError
    for a malformed pattern."""
    return sorted({p for flat in expand_braces(pattern) for p in _match(fs, flat)})
