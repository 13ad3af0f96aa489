"""results.jsonl: one JSON line per answered question, keyed by question id.

Lines are appended and flushed as questions are answered, so a killed run loses at most the line it
was writing. On resume the file is read back, a torn last line is cut off, and the ids already
present are skipped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO

from ari.base.errors import DatasetError


def read_results(path: Path, repair: bool = False) -> dict[str, dict]:
    """Records by question id. A torn last line (a kill mid-write) is ignored, and cut off the file
    when `repair`; a damaged line elsewhere is an error naming the line."""
    path = Path(path)
    if not path.exists():
        return {}
    records: dict[str, dict] = {}
    good_bytes = 0
    with path.open("rb") as handle:
        lines = handle.readlines()
    for number, raw in enumerate(lines, start=1):
        is_last = number == len(lines)
        try:
            record = json.loads(raw)
            if not raw.endswith(b"\n"):
                raise ValueError("no newline")
            records[str(record["qid"])] = record
        except (ValueError, KeyError, TypeError):
            if is_last:
                break
            raise DatasetError(f"{path}:{number}: damaged result line (not a JSON record with a qid)") from None
        good_bytes += len(raw)
    if repair and good_bytes < path.stat().st_size:
        with path.open("r+b") as handle:
            handle.truncate(good_bytes)
    return records


class ResultsWriter:
    """Appends records, one flushed line each."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._handle: IO[str] = self.path.open("a", encoding="utf-8")

    def write(self, record: dict) -> None:
        self._handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._handle.flush()

    def sync(self) -> None:
        """Force written lines to disk (once per batch: per line would cap throughput)."""
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> "ResultsWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
