"""Reading tab-separated dataset files exactly, and the strict time formats they state.

Fields are split on tabs only: no quoting, no trimming, no CSV sniffing, so names with commas,
quotes, parentheses, slashes or non-breaking spaces come through byte for byte. Every problem is
reported as `file:line: what is wrong`; a `BadLines` collector either raises it (the default) or
counts it (`skip_bad`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from ari.base.errors import IngestError
from tkg_store.temporal import Granularity, stated_span, year_span

_STATED_TIME = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")
_YEAR = re.compile(r"^\d{1,4}$")

# A parsed time: (first day, last day, granularity it was stated at).
Stated = tuple[date, date, Granularity]


class BadLine(ValueError):
    """One line of a dataset file is malformed; the message says why (without file and line)."""


@dataclass
class BadLines:
    """Collects malformed lines: raises the first as IngestError, or counts them when skipping."""

    skip: bool = False
    count: int = 0
    examples: list[str] = field(default_factory=list)  # the first few messages, for the summary

    def report(self, path: Path, lineno: int, problem: str) -> None:
        message = f"{path}:{lineno}: {problem}"
        if not self.skip:
            raise IngestError(message + " (use --skip-bad to skip malformed lines)")
        self.count += 1
        if len(self.examples) < 5:
            self.examples.append(message)


BLOCK = 1 << 24  # bytes read at a time: memory stays bounded by it, and whole blocks decode and split at C speed


def read_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Yield (line number, text without its line ending) for every non-empty line of a UTF-8 file.

    A block of whole lines at a time: the whole file decoded and split at once held three copies of
    it (a 855 MB file of 10M facts peaked at 6.7 GB before a fact was stored); a line at a time
    read it 1.5x slower."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise IngestError(f"cannot read {path}: {exc.strerror or exc}") from None
    with handle:
        before, rest, first = 0, b"", True  # lines in earlier blocks; a last line not ended yet
        while True:
            try:
                block = handle.read(BLOCK)
            except OSError as exc:
                raise IngestError(f"cannot read {path} (after line {before}): {exc.strerror or exc}") from None
            if block:
                block = rest + block
                cut = block.rfind(b"\n") + 1  # lines end at b"\n" only, as str.split("\n") splits them
                whole, rest = block[:cut], block[cut:]
            else:
                whole, rest = rest, b""
            if not whole:
                if block:
                    continue
                return
            try:
                text = whole.decode("utf-8")
            except UnicodeDecodeError as exc:
                lineno = before + whole.count(b"\n", 0, exc.start) + 1
                raise IngestError(f"{path}:{lineno}: not valid UTF-8 ({exc.reason})") from None
            if first and text.startswith("\ufeff"):
                text = text[1:]
            first = False
            lines = text.split("\n")
            if whole.endswith(b"\n"):
                lines.pop()  # the empty text after the block's last line ending
            for lineno, line in enumerate(lines, start=before + 1):
                if line.endswith("\r"):
                    line = line[:-1]
                if line:
                    yield lineno, line
            before += len(lines)


def check_name(value: str, what: str) -> str:
    """A name must have at least one visible character; it is kept exactly as written."""
    if not value.strip():
        raise BadLine(f"empty {what} name")
    return value


def parse_stated_time(text: str) -> Stated:
    """Parse YYYY, YYYY-MM or YYYY-MM-DD strictly into the span it states."""
    match = _STATED_TIME.match(text)
    if not match:
        raise BadLine(f"bad time {text!r} (expected YYYY, YYYY-MM or YYYY-MM-DD)")
    try:
        span = stated_span(*(int(part) for part in match.groups() if part is not None))  # year[, month[, day]]
    except ValueError:
        raise BadLine(f"bad time {text!r} (no such date)") from None
    return span.start, span.end, span.granularity


def parse_year(text: str) -> Stated:
    """Parse a CronQuestions year (1..9999, unpadded allowed) into that year's span."""
    if not _YEAR.match(text) or int(text) < 1:
        raise BadLine(f"bad year {text!r} (expected a year 1..9999)")
    span = year_span(int(text))
    return span.start, span.end, span.granularity


class TimeCache:
    """Memoises a time parser: a KG states the same few thousand times hundreds of thousands of times."""

    def __init__(self, parse) -> None:
        self._parse = parse
        self._seen: dict[str, Stated] = {}

    def __call__(self, text: str) -> Stated:
        stated = self._seen.get(text)
        if stated is None:
            stated = self._seen[text] = self._parse(text)
        return stated
