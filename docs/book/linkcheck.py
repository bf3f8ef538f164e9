#!/usr/bin/env python3
"""Checks every internal link of the built book: each relative href or src must name a file
of the build, and each #fragment an id (or a name) in that file. External links (any URL with
a scheme, or starting with //) are not fetched: CI has no network to check them against.

Each MARKDOWN file named after it (the README, which links into the book's sources) has its
relative link targets checked for existence (not their anchors: GitHub's slugs are not mdBook's).

Usage: python3 docs/book/linkcheck.py BUILD_DIR [MARKDOWN...]  (exit 1, one line per broken link)
"""
import os
import re
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit


CHECKED = [0]  # links looked at, for the summary line


class Page(HTMLParser):
    """Collects a page's anchors (id= and name=) and its links (href= and src=)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.anchors = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if value is None:
                continue
            if key == "id" or (tag == "a" and key == "name"):
                self.anchors.add(value)
            elif key in ("href", "src"):
                self.links.append((tag, value))


def parse(path):
    page = Page()
    with open(path, encoding="utf-8") as f:
        page.feed(f.read())
    return page


def markdown_links(path):
    """Yields (path, link, reason) for each relative link of a Markdown file whose target is missing."""
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"```.*?```", "", f.read(), flags=re.S)
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        parts = urlsplit(link)
        if parts.scheme or link.startswith("//") or not parts.path:
            continue
        if not os.path.exists(os.path.join(os.path.dirname(path), unquote(parts.path))):
            yield path, link, "no such file"


def broken_links(root):
    """Yields (page, link, reason) for every internal link that does not resolve."""
    pages = {}
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".html"):
                path = os.path.normpath(os.path.join(folder, name))
                pages[path] = parse(path)
    for path, page in sorted(pages.items()):
        # mdBook's 404 page is served from any depth and links through <base href="/">.
        if os.path.basename(path) == "404.html":
            continue
        for tag, link in page.links:
            CHECKED[0] += 1
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                continue
            target = path
            if parts.path:
                target = os.path.normpath(os.path.join(os.path.dirname(path), unquote(parts.path)))
                if os.path.isdir(target):
                    target = os.path.join(target, "index.html")
                if not os.path.exists(target):
                    yield path, link, "no such file"
                    continue
            fragment = unquote(parts.fragment)
            if fragment and target.endswith(".html"):
                anchors = pages[target].anchors if target in pages else parse(target).anchors
                if fragment not in anchors:
                    yield path, link, "no such anchor"


def main():
    if len(sys.argv) < 2 or not os.path.isdir(sys.argv[1]):
        print("usage: linkcheck.py BUILD_DIR [MARKDOWN...] (BUILD_DIR: what mdbook built)", file=sys.stderr)
        return 2
    root = sys.argv[1]
    broken = list(broken_links(root))
    for path, link, reason in broken:
        print(f"{os.path.relpath(path, root)}: broken link {link!r}: {reason}", file=sys.stderr)
    for markdown in sys.argv[2:]:
        for path, link, reason in markdown_links(markdown):
            broken.append((path, link, reason))
            print(f"{path}: broken link {link!r}: {reason}", file=sys.stderr)
    pages = sum(1 for _, _, files in os.walk(root) for f in files if f.endswith(".html"))
    print(f"linkcheck: {pages} pages, {CHECKED[0]} links, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
