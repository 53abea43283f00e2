"""Checks that say, in one line, what was expected and what was seen."""

from __future__ import annotations

import sys


class CheckFailed(Exception):
    """A check that did not hold; its message is the one line a person reads."""


def shorten(value: object, limit: int = 160) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Tally:
    """Counts the checks that held, and prints each step as it passes."""

    def __init__(self) -> None:
        self.passed = 0
        self.step = "set-up"

    def begin(self, step: str) -> None:
        self.step = step

    def expect(self, holds: bool, expected: str, seen: object = None) -> None:
        if not holds:
            raise CheckFailed(f"expected {expected}, saw {shorten(seen)}")
        self.passed += 1

    def equal(self, seen: object, wanted: object, what: str) -> None:
        self.expect(seen == wanted, f"{what} to be {wanted!r}", repr(seen))

    def contains(self, text: str, part: str, what: str) -> None:
        self.expect(part in text, f"{what} to show {part!r}", repr(text))

    def done(self) -> None:
        print(f"console-check: ok   {self.step}", file=sys.stderr)

    def closing(self, failed: int) -> str:
        return f"console-check: {self.passed} passed, {failed} failed"
