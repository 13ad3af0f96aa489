"""Dataset ingest: one small reader per format, one shared bulk writer.

    summary = ingest("multitq", Path("../shared/data/multitq"), Path("multitq.duckdb"))

A reader turns files into a `ParsedKG` (names, times) and reports malformed lines with file and
line number; `write_kg` appends it to a store in one transaction (idempotent: facts already
stored are not added again).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ari.base.errors import IngestError, UsageError
from tkg_store.ingest import cronquestions, multitq, tsv, yago11k
from tkg_store.ingest.core import IngestSummary, ParsedKG, Step, write_kg
from tkg_store.temporal import span_of

# Format name -> reader(path, skip_bad) -> ParsedKG.
READERS: dict[str, Callable[[Path, bool], ParsedKG]] = {
    multitq.NAME: multitq.read,
    cronquestions.NAME: cronquestions.read,
    tsv.NAME: tsv.read,
    yago11k.NAME: yago11k.read,
}


# What a fact with one stated end means. OPEN: the other end is unknown (an open start held since
# ever, an open end held still). POINT: the fact holds at its stated time only, as CronQuestions
# reads its facts (its generator gives such a fact its one year: measured on the complex valid
# questions whose entities Wikidata12k holds, 145 "last" golds follow this reading, 136 the open one).
OPEN = "open"
POINT = "point"


def close_open_ends(parsed: ParsedKG) -> None:
    """Give each fact with exactly one stated end the granule (year, month, day) of that end as
    its whole interval."""
    for i, (start, end, granularity) in enumerate(zip(parsed.starts, parsed.ends, parsed.granularities)):
        if start is None and end is not None:
            parsed.starts[i] = span_of(end, granularity).start
        elif end is None and start is not None:
            parsed.ends[i] = span_of(start, granularity).end


def read_dataset(fmt: str, path: Path, skip_bad: bool = False) -> ParsedKG:
    reader = READERS.get(fmt)
    if reader is None:
        raise UsageError(f"unknown dataset format {fmt!r} (known: {', '.join(READERS)})")
    return reader(Path(path), skip_bad)


def ingest(
    fmt: str,
    path: Path,
    db: Path,
    skip_bad: bool = False,
    steps: Callable[[list[tuple[str, Step]]], None] | None = None,
    open_ends: str = OPEN,
) -> IngestSummary:
    """Read a dataset and append it to the store at `db` (created when missing); a dataset with
    no fact is an IngestError that leaves `db` as it was.

    `steps` runs named phases (reading, then the writer's); the CLI passes a progress bar.
    `open_ends`: OPEN keeps a missing start or end open; POINT makes a fact with one stated end
    hold at that time only (`close_open_ends`).
    """
    if open_ends not in (OPEN, POINT):
        raise UsageError(f"unknown open-ends convention {open_ends!r} (known: {OPEN}, {POINT})")
    started = time.perf_counter()
    run = steps or run_steps
    read: list[ParsedKG] = []
    run([(f"reading {fmt}", lambda: read.append(read_dataset(fmt, path, skip_bad)))])
    if open_ends == POINT:
        close_open_ends(read[0])
    if not len(read[0]):  # an empty file would make (or touch) a store with nothing in it
        skipped = f" ({read[0].skipped:,} malformed lines skipped)" if read[0].skipped else ""
        files = ", ".join(str(p) for p in read[0].paths) or str(path)
        raise IngestError(f"no facts in {files}{skipped}; {db} was not touched")
    summary = write_kg(read[0], Path(db), run)
    return replace(summary, elapsed_s=time.perf_counter() - started)


def run_steps(phases: list[tuple[str, Step]]) -> None:
    """Run named phases in order (no progress display)."""
    for _, step in phases:
        step()


__all__ = ["OPEN", "POINT", "READERS", "close_open_ends", "IngestSummary", "ParsedKG", "ingest", "read_dataset", "write_kg"]
