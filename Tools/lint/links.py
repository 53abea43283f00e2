#!/usr/bin/env python3
"""Links between the documents: every relative link names something that exists.

Reads every Markdown file of the repository (`git ls-files '*.md'`, and the
ones not yet added that git does not ignore), finds its links, inline
`[text](path)` and `[text](path#anchor)` (images too) and reference
definitions `[name]: path`, and checks each relative one:

  - the file or folder it names exists, inside the repository;
  - an anchor into a Markdown file (`#anchor` alone means the same file) is
    the GitHub slug of one of that file's headings, or an explicit
    `<a name="...">` / `id="..."`.

Links with a scheme (http:, https:, mailto:, ...) are not followed. Code
blocks and code spans are not read. Prints one line per dead link,
`file:line: dead link: target`, and exits 1 when there is any, else 0.

    python3 Tools/lint/links.py [FILE.md ...]
"""
import os
import re
import subprocess
import sys
import unicodedata
from urllib.parse import unquote

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

INLINE = re.compile(
    r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]"          # [text], one level of nested brackets
    r"\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"  # (target, balanced parentheses
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)")  # optional "title")
DEFINITION = re.compile(r"^ {0,3}\[([^\]\n]+)\]:[ \t]*(<[^>\n]*>|\S+)", re.M)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
EXPLICIT = re.compile(r"<a\s[^>]*\bname=[\"']([^\"']+)[\"']|\bid=[\"']([^\"']+)[\"']", re.I)


def markdown_files():
    """Every Markdown file git tracks, or would track, that is on disk."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.md"],
        cwd=ROOT, check=True, capture_output=True).stdout.decode("utf-8", "replace")
    return sorted({p for p in out.split("\0") if p and os.path.isfile(os.path.join(ROOT, p))})


def closes(match, fence, line):
    """Whether a line closes the fenced block that `fence` opened."""
    return bool(match) and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) \
        and not line.strip()[len(match.group(1)):].strip()


def prose(text):
    """The text with fenced code blocks and code spans blanked, offsets and line breaks kept."""
    lines = text.split("\n")
    fence = None
    for i, line in enumerate(lines):
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            lines[i] = ""
        elif fence is not None:
            if closes(match, fence, line):
                fence = None
            lines[i] = ""
    kept = "\n".join(lines)

    def blank(span):
        return re.sub(r"[^\n]", " ", span.group(0))
    return re.sub(r"(`+)(?:(?!\1).|\n)+?\1", blank, kept)


def slug(heading):
    """GitHub's anchor for a heading: its text lowercased, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = re.sub(r"<[^>]+>", "", text)                                            # inline HTML
    text = text.strip().lower()
    kept = "".join(c for c in text
                   if c in " -" or unicodedata.category(c)[0] in "LMN" or unicodedata.category(c) == "Pc")
    return kept.replace(" ", "-")


ANCHORS = {}


def anchors(path):
    """The anchors a Markdown file offers: its headings' slugs (repeats numbered) and explicit ones."""
    if path in ANCHORS:
        return ANCHORS[path]
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    found = set()
    seen = {}
    lines = text.split("\n")
    fence = None
    previous = ""
    for line in lines:
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            previous = ""
            continue
        if fence is not None:
            if closes(match, fence, line):
                fence = None
            continue
        title = None
        heading = HEADING.match(line)
        if heading:
            title = heading.group(2)
        elif SETEXT.match(line) and previous.strip() and not previous.lstrip().startswith(("|", "-", "*")):
            title = previous.strip()
        if title is not None:
            base = slug(title)
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else "%s-%d" % (base, count))
        for name in EXPLICIT.findall(line):
            found.add((name[0] or name[1]).lower())
        previous = line
    ANCHORS[path] = found
    return found


def check(relative):
    """The dead links of one Markdown file, as (line, target, why)."""
    path = os.path.join(ROOT, relative)
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = prose(handle.read())
    links = [(m.start(2), m.group(2)) for m in INLINE.finditer(text)]
    links += [(m.start(2), m.group(2)) for m in DEFINITION.finditer(text)]
    dead = []
    for offset, raw in sorted(links):
        target = raw[1:-1] if raw.startswith("<") and raw.endswith(">") else raw
        if not target or SCHEME.match(target) or target.startswith("//"):
            continue
        line = text.count("\n", 0, offset) + 1
        file_part, _, anchor = target.partition("#")
        file_part = unquote(file_part.split("?", 1)[0])
        if file_part.startswith("/"):
            resolved = os.path.normpath(os.path.join(ROOT, file_part.lstrip("/")))
        elif file_part:
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
        else:
            resolved = path
        if resolved != ROOT and not resolved.startswith(ROOT + os.sep):
            dead.append((line, target, "outside the repository"))
        elif not os.path.exists(resolved):
            dead.append((line, target, None))
        elif anchor and resolved.endswith(".md") and os.path.isfile(resolved) \
                and unquote(anchor).lower() not in anchors(resolved):
            dead.append((line, target, "no such heading"))
    return dead


def main(arguments):
    files = arguments or markdown_files()
    failed = False
    for relative in files:
        for line, target, why in check(relative):
            failed = True
            print("%s:%d: dead link: %s%s" % (relative, line, target, " (%s)" % why if why else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
