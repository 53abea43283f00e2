#!/usr/bin/env python3
"""Module dependencies: the manifests, the imports and ARCHITECTURE.md agree.

Reads every target of the root Package.swift and of Packages/*/Package.swift
and the `import` lines of each Swift target's sources, then:

  check    lists every dependency a target declares but never imports, and
           every module it imports but does not declare; and fails when the
           dependency block of ARCHITECTURE.md is not the one the imports make.
  write    rewrites that block from the imports.

Modules that are not targets of ours (Foundation, Glibc, Testing, ...) are
ignored. A test target's dependency on an executable target is not an import:
it builds the program the test runs, so it is never reported as unused.
Exit status: 0 clean, 1 findings.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ARCHITECTURE = os.path.join(ROOT, "ARCHITECTURE.md")
BLOCK_TITLE = "## Modules and the direction of dependencies"

TARGET_CALL = re.compile(r"\.(target|executableTarget|testTarget|systemLibrary)\s*\(")
IMPORT_LINE = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|internal|package|fileprivate|private)\s+)?"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


class Target:
    """One target of one manifest."""

    def __init__(self, manifest, kind, name, folder, dependencies, library):
        self.manifest = manifest
        self.kind = kind
        self.name = name
        self.folder = folder
        self.dependencies = dependencies
        self.library = library


def balanced(text, start, opening, closing):
    """The text between the bracket at `start` and its partner, skipping strings and comments."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                break
            continue
        if c == '"':
            i = text.find('"', i + 1) + 1
            continue
        if c == opening:
            depth += 1
        elif c == closing:
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
        i += 1
    raise ValueError("unbalanced %s in manifest" % opening)


def argument(call, label, opening, closing):
    """The bracketed value of `label:` at the top level of a call's arguments, or None."""
    match = re.search(r"\b%s\s*:\s*\%s" % (label, opening), call)
    return balanced(call, match.end() - 1, opening, closing) if match else None


def string_argument(call, label):
    match = re.search(r'\b%s\s*:\s*"([^"]*)"' % label, call)
    return match.group(1) if match else None


def manifests():
    found = [os.path.join(ROOT, "Package.swift")]
    packages = os.path.join(ROOT, "Packages")
    for name in sorted(os.listdir(packages)):
        path = os.path.join(packages, name, "Package.swift")
        if os.path.isfile(path):
            found.append(path)
    return found


def read_targets(manifest):
    text = open(manifest, encoding="utf-8").read()
    base = os.path.dirname(manifest)
    targets = []
    for match in TARGET_CALL.finditer(text):
        kind = match.group(1)
        call = balanced(text, match.end() - 1, "(", ")")
        name = string_argument(call, "name")
        path = string_argument(call, "path")
        if path is None:
            path = os.path.join("Tests" if kind == "testTarget" else "Sources", name)
        dependencies = []
        listed = argument(call, "dependencies", "[", "]")
        if listed:
            for product in re.finditer(r'\.product\s*\(\s*name\s*:\s*"([^"]+)"', listed):
                dependencies.append(product.group(1))
            plain = re.sub(r"\.product\s*\([^)]*\)", "", listed)
            dependencies += re.findall(r'"([^"]+)"', plain)
        targets.append(Target(os.path.relpath(manifest, ROOT), kind, name,
                              os.path.normpath(os.path.join(base, path)), dependencies, library=True))
    return targets


def imports(folder):
    """Every module the Swift files under `folder` import, outside string literals."""
    modules = set()
    for directory, _, files in os.walk(folder):
        for file in files:
            if not file.endswith(".swift"):
                continue
            in_literal = False
            for line in open(os.path.join(directory, file), encoding="utf-8"):
                if line.count('"""') % 2 == 1:
                    in_literal = not in_literal
                    continue
                if in_literal:
                    continue
                match = IMPORT_LINE.match(line)
                if match:
                    modules.add(match.group(1))
    return modules


def has_swift(folder):
    return any(f.endswith(".swift") for _, _, files in os.walk(folder) for f in files)


def load():
    targets = [t for manifest in manifests() for t in read_targets(manifest)]
    by_name = {}
    for target in targets:
        # A test target listed by two manifests (the root builds a package's
        # tests) is one set of sources; the root's entry is checked.
        by_name.setdefault(target.name, target)
    return targets, by_name


def findings(targets, by_name):
    problems = []
    for target in targets:
        if target.kind == "systemLibrary" or not has_swift(target.folder):
            continue
        used = {m for m in imports(target.folder) if m in by_name and m != target.name}
        declared = set(target.dependencies)
        for name in sorted(declared - used):
            if by_name.get(name) and by_name[name].kind == "executableTarget" and target.kind == "testTarget":
                continue
            problems.append("%s: target %s declares %s but never imports it" % (target.manifest, target.name, name))
        for name in sorted(used - declared):
            problems.append("%s: target %s imports %s but does not declare it" % (target.manifest, target.name, name))
    for manifest in manifests():
        text = open(manifest, encoding="utf-8").read()
        used_packages = set(re.findall(r'package\s*:\s*"([^"]+)"', text))
        for path in re.findall(r'\.package\s*\(\s*path\s*:\s*"([^"]+)"', text):
            if os.path.basename(path) not in used_packages:
                problems.append("%s: package %s is declared but no target uses it"
                                % (os.path.relpath(manifest, ROOT), os.path.basename(path)))
    return problems


def graph(targets, by_name):
    """What each non-test target imports (executables: what they declare), by module name."""
    edges = {}
    for target in targets:
        if target.kind == "testTarget" or target.name in edges or target.name == "TestSupport":
            continue
        if target.kind == "systemLibrary" or not has_swift(target.folder):
            edges[target.name] = set()
        else:
            edges[target.name] = {m for m in imports(target.folder) if m in by_name and m != target.name}
    return edges


def depth(name, edges, memo):
    """How far above the bottom a module stands: 0 for one that imports nothing of ours."""
    if name not in memo:
        memo[name] = 0
        memo[name] = 1 + max((depth(d, edges, memo) for d in edges[name]), default=-1)
    return memo[name]


def system_library_notes(manifests_text):
    notes = {}
    for text in manifests_text:
        for match in TARGET_CALL.finditer(text):
            if match.group(1) != "systemLibrary":
                continue
            call = balanced(text, match.end() - 1, "(", ")")
            config = string_argument(call, "pkgConfig")
            if config:
                notes[string_argument(call, "name")] = config if config.startswith("lib") else "lib" + config
    return notes


def block(targets, by_name):
    """The dependency block of ARCHITECTURE.md, made from the imports."""
    edges = graph(targets, by_name)
    notes = system_library_notes(open(m, encoding="utf-8").read() for m in manifests())
    memo = {}
    ordered = sorted(edges, key=lambda n: (-depth(n, edges, memo), n.lower()))
    width = max(len(n) for n in ordered if edges[n])

    def shown(name):
        return "%s (%s)" % (name, notes[name]) if name in notes else name

    lines = []
    level = None
    for name in ordered:
        if not edges[name]:
            continue
        if level is not None and depth(name, edges, memo) != level:
            lines.append("")
        level = depth(name, edges, memo)
        targets_text = ", ".join(shown(d) for d in sorted(edges[name], key=lambda d: (-depth(d, edges, memo), d.lower())))
        lines.append("%s ──> %s" % (name.ljust(width), targets_text))
    leaves = sorted((n for n in ordered if not edges[n] and by_name[n].kind != "systemLibrary"), key=str.lower)
    lines += ["", "%s import nothing of ours" % ", ".join(leaves)]
    return "\n".join(lines) + "\n"


def committed_block(text):
    start = text.index(BLOCK_TITLE)
    opening = text.index("```\n", start) + 4
    closing = text.index("```\n", opening)
    return opening, closing


def main(argv):
    mode = argv[1] if len(argv) > 1 else "check"
    targets, by_name = load()
    made = block(targets, by_name)
    text = open(ARCHITECTURE, encoding="utf-8").read()
    opening, closing = committed_block(text)
    if mode == "write":
        with open(ARCHITECTURE, "w", encoding="utf-8") as out:
            out.write(text[:opening] + made + text[closing:])
        return 0
    if mode != "check":
        print("usage: dependencies.py [check|write]", file=sys.stderr)
        return 2
    problems = findings(targets, by_name)
    if text[opening:closing] != made:
        problems.append("ARCHITECTURE.md: the block under '%s' is not what the imports make; "
                        "run Tools/lint/dependencies.py write" % BLOCK_TITLE)
    for problem in problems:
        print("  " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
