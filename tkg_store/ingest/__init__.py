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
from tkg_store.ingest import cronquestions, multitq, tsv
from tkg_store.ingest.core import IngestSummary, ParsedKG, Step, write_kg

# Format name -> reader(path, skip_bad) -> ParsedKG.
READERS: dict[str, Callable[[Path, bool], ParsedKG]] = {
    multitq.NAME: multitq.read,
    cronquestions.NAME: cronquestions.read,
    tsv.NAME: tsv.read,
}


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
) -> IngestSummary:
    """Read a dataset and append it to the store at `db` (created when missing); a dataset with
    no fact is an IngestError that leaves `db` as it was.

    `steps` runs named phases (reading, then the writer's); the CLI passes a progress bar.
    """
    started = time.perf_counter()
    run = steps or run_steps
    read: list[ParsedKG] = []
    run([(f"reading {fmt}", lambda: read.append(read_dataset(fmt, path, skip_bad)))])
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


__all__ = ["READERS", "IngestSummary", "ParsedKG", "ingest", "read_dataset", "write_kg"]
