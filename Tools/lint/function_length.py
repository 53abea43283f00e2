#!/usr/bin/env python3
"""Functions longer than a limit, in the Swift files under the given folders.

    function_length.py [--max N] [--list] FOLDER...

A function is a `func`, `init`, `deinit` or `subscript` declaration with a
body; its length is the number of lines from the line of its keyword to the
line of its closing brace. Strings (single-line, multi-line and raw) and
comments are skipped when braces are matched, so a brace inside a string or a
comment never ends a body. Nested functions count inside the function that
holds them and are measured on their own as well.

Exit 1 listing every function over the limit (80 lines unless --max says
otherwise), longest first; with --list, every function and its length.
"""

import os
import re
import sys

DECLARATION = re.compile(r"(?<![.\w])(func\s+[^\s(<]+|init[?!]?|deinit|subscript)\s*[(<{]?")


def blank_out(source):
    """The source with the insides of strings and comments replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif source.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if source.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif source.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", source[i:j]))
            i = j
        elif c == '"' or (c == "#" and re.match(r'#+"', source[i:])):
            j = skip_string(source, i)
            out.append(re.sub(r"[^\n]", " ", source[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def skip_string(source, i):
    """The index just past the string literal that starts at i."""
    hashes = 0
    while source[i] == "#":
        hashes, i = hashes + 1, i + 1
    multi = source.startswith('"""', i)
    quote = '"""' if multi else '"'
    close = quote + "#" * hashes
    escape = "\\" + "#" * hashes
    j = i + len(quote)
    n = len(source)
    while j < n:
        if source.startswith(escape + "(", j):
            j = skip_parens(source, j + len(escape))
        elif source.startswith(escape, j):
            j += len(escape) + 1
        elif source.startswith(close, j):
            return j + len(close)
        elif source[j] == "\n" and not multi:
            return j
        else:
            j += 1
    return n


def skip_parens(source, i):
    """Past the balanced parentheses that open at i (an interpolation)."""
    depth, j, n = 0, i, len(source)
    while j < n:
        c = source[j]
        if c == '"':
            j = skip_string(source, j)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return n


def functions(path):
    with open(path, encoding="utf-8") as f:
        text = blank_out(f.read())
    line_starts = [0]
    for m in re.finditer("\n", text):
        line_starts.append(m.end())

    def line_of(offset):
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    for m in DECLARATION.finditer(text):
        # The body is the first `{` at depth 0 of parentheses, brackets and angle-free
        # signature text; a `;`, or a line that begins another declaration first, means none.
        j, depth, n = m.end() - (1 if m.group(0)[-1] in "(<{" else 0), 0, len(text)
        body = None
        while j < n:
            c = text[j]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == "{" and depth == 0:
                body = j
                break
            elif c in ";}" and depth == 0:
                break
            elif c == "\n" and depth == 0:
                rest = text[j + 1 :].lstrip()
                if re.match(r"(func|init|var|let|case|struct|class|enum|protocol|extension|@|public|private|static)\b", rest):
                    break
            j += 1
        if body is None:
            continue
        depth, k = 0, body
        while k < n:
            if text[k] == "{":
                depth += 1
            elif text[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        name = m.group(1).split()[-1]
        start, end = line_of(m.start()), line_of(k)
        yield name, start, end - start + 1


def main(argv):
    limit, listing, folders = 80, False, []
    args = iter(argv)
    for a in args:
        if a == "--max":
            limit = int(next(args))
        elif a == "--list":
            listing = True
        else:
            folders.append(a)
    found = []
    for folder in folders:
        for root, _, files in os.walk(folder):
            for name in sorted(files):
                if name.endswith(".swift"):
                    path = os.path.join(root, name)
                    for fn, line, length in functions(path):
                        found.append((length, path, line, fn))
    found.sort(key=lambda t: (-t[0], t[1], t[2]))
    if listing:
        for length, path, line, fn in found:
            print(f"{length:5d}  {path}:{line}  {fn}")
        return 0
    over = [t for t in found if t[0] > limit]
    for length, path, line, fn in over:
        print(f"  {path}:{line}: {fn} is {length} lines (at most {limit})", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
