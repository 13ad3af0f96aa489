"""Checking a SQLite memory's integrity, and copying what is still readable out of a damaged one.

Both work on the file with Python's sqlite3 directly, read-only, because a damaged memory may not
get through `HistoryStore.open`. A repair never touches the damaged file: it writes a new memory
(migrated to the current schema) and copies every row it can read, table by table; rows in a
damaged part of a table, and rows whose text or JSON no longer decodes, are left behind.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import quote

from ari.base.errors import MemoryCorruptError, MemoryStoreError
from memory.history import HistoryStore

# The memory's tables in copy order (traces before what refers to them), with their JSON columns.
TABLES = {
    "traces": ("steps", "answers", "data"),
    "learned_questions": (),
    "clusterings": (),
    "cluster_members": (),
    "methodologies": ("programs", "pitfalls"),
    "key_vectors": (),
    "memory_meta": (),
}
_BLOBS = {"centroids", "vector"}  # binary columns; every other bytes value is text
PROBLEMS_LISTED = 20  # integrity_check stops after this many problems
_CHUNK = 1000  # rows read at once; a chunk that fails is read again one row at a time


@dataclass
class CheckReport:
    """What `check` found (and `repair` copied)."""

    memory: str
    ok: bool
    problems: list[str] = field(default_factory=list)  # one a line: integrity_check's first ones, or why it could not run
    rows: dict[str, int | None] = field(default_factory=dict)  # readable rows per table (None: unreadable)
    repaired: str | None = None  # the new file, after a repair
    copied: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


def check(path: str | Path) -> CheckReport:
    """SQLite's integrity check of a memory file, and how many rows of each table can be read."""
    path = Path(path)
    if not path.is_file():
        raise MemoryStoreError(f"no memory file at {path}")
    report = CheckReport(str(path), ok=False)
    try:
        with _reader(path) as source:
            try:
                found = [str(row[0]) for row in source.execute(f"PRAGMA integrity_check({PROBLEMS_LISTED})")]
            except sqlite3.DatabaseError as exc:  # a file SQLite cannot even check
                found = [str(exc)]
            report.ok = found == ["ok"]
            report.problems = [] if report.ok else _one_per_line(found)
            for table in TABLES:
                report.rows[table] = _count(source, table)
            if report.ok and not any(_columns(source, table) for table in TABLES):  # an empty file, another database
                report.ok, report.problems = False, ["none of the memory's tables is in it: not an ARI memory"]
    except sqlite3.DatabaseError as exc:
        report.problems = report.problems or [str(exc)]
        report.ok = False
    return report


def _one_per_line(found: list[str]) -> list[str]:
    """integrity_check's rows as one problem a line: a row may hold several, one a line, after a
    "*** in database main ***" heading."""
    lines = (line.strip() for row in found for line in row.splitlines())
    return [line for line in lines if line and not line.startswith("*** in database")]


def repair(path: str | Path, out: str | Path) -> CheckReport:
    """Copy what is readable of the memory at `path` into a new memory at `out` (never overwritten).
    The copy is written under a temporary name beside `out` and renamed only when done, so a failed
    repair leaves no file; one that reads nothing at all from a damaged memory fails."""
    path, out = Path(path), Path(out)
    report = check(path)
    if out.exists():
        raise MemoryStoreError(f"{out} already exists; not overwriting it (give another --out)")
    partial = out.with_name(out.name + ".partial")
    _remove(partial)  # what a killed repair left
    try:
        HistoryStore.open(partial, create=True).close()  # an empty memory of the current schema
        report.copied = _copy_readable(path, partial)
        if not report.ok and not any(report.copied.values()):
            raise MemoryCorruptError(f"nothing in {path} can be read ({report.problems[0]}); no repaired memory was written")
        partial.rename(out)
    finally:
        _remove(partial)
    report.repaired = str(out)
    return report


def _copy_readable(path: Path, out: Path) -> dict[str, int]:
    """Every readable row of the memory at `path`, table by table, into the memory at `out`: rows copied per table."""
    copied: dict[str, int] = {}
    target = sqlite3.connect(out)
    try:
        with _reader(path) as source:
            source.text_factory = bytes  # text that no longer decodes is skipped, not fatal
            for table, json_columns in TABLES.items():
                columns = [c for c in _columns(source, table) if c in _columns(target, table)]
                decoded = (_decoded(r, columns, json_columns) for r in _readable_rows(source, table, columns))
                rows = [r for r in decoded if r is not None]
                if rows:
                    marks = ", ".join("?" * len(columns))
                    names = ", ".join(f'"{c}"' for c in columns)
                    target.executemany(f'INSERT OR IGNORE INTO "{table}" ({names}) VALUES ({marks})', rows)
                copied[table] = len(rows)
        target.commit()
    finally:
        target.close()
    return copied


def _remove(database: Path) -> None:
    """A SQLite file and the journal files beside it, where they exist."""
    for name in (database.name, f"{database.name}-wal", f"{database.name}-shm", f"{database.name}-journal"):
        database.with_name(name).unlink(missing_ok=True)


class _reader:
    """A read-only sqlite3 connection to a memory file, closed on exit."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)

    def __enter__(self) -> sqlite3.Connection:
        return self.connection

    def __exit__(self, *exc: object) -> None:
        self.connection.close()


def _count(source: sqlite3.Connection, table: str) -> int | None:
    try:
        return int(source.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0])
    except sqlite3.DatabaseError:
        return None


def _columns(connection: sqlite3.Connection, table: str) -> list[str]:
    try:
        return [row[1] if isinstance(row[1], str) else row[1].decode() for row in connection.execute(f'PRAGMA table_info("{table}")')]
    except sqlite3.DatabaseError:
        return []


def _readable_rows(source: sqlite3.Connection, table: str, columns: list[str]) -> list[tuple]:
    """Every row that reads: a whole scan when the table is sound, else chunks by rowid, and the
    rows of a failing chunk one by one."""
    if not columns:
        return []
    names = ", ".join(f'"{c}"' for c in columns)
    try:
        return list(source.execute(f'SELECT {names} FROM "{table}"'))
    except sqlite3.DatabaseError:
        pass
    by_rowid = f'SELECT {names} FROM "{table}" WHERE rowid BETWEEN ? AND ?'
    rows: list[tuple] = []
    highest = _highest_rowid(source, table)
    start, last_found = 1, 0
    while start <= highest and start - last_found <= 50 * _CHUNK:  # give up far past the last readable row
        try:
            chunk = source.execute(by_rowid, (start, start + _CHUNK - 1)).fetchall()
        except sqlite3.DatabaseError:
            chunk = []
            for rowid in range(start, start + _CHUNK):
                try:
                    chunk += source.execute(by_rowid, (rowid, rowid)).fetchall()
                except sqlite3.DatabaseError:
                    continue
        if chunk:
            rows += chunk
            last_found = start + _CHUNK
        start += _CHUNK
    return rows


def _highest_rowid(source: sqlite3.Connection, table: str) -> int:
    try:
        found = source.execute(f'SELECT MAX(rowid) FROM "{table}"').fetchone()[0]
        if found is not None:
            return int(found)
    except sqlite3.DatabaseError:
        pass
    pages, size = (source.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "page_size"))
    return int(pages) * int(size) // 32  # no row is smaller than about 32 bytes


def _decoded(row: tuple, columns: list[str], json_columns: tuple[str, ...]) -> tuple | None:
    """The row with its text decoded (blobs stay bytes), or None when text or JSON is damaged."""
    values = list(row)
    for i, value in enumerate(values):
        if isinstance(value, bytes) and columns[i] not in _BLOBS:
            try:
                values[i] = value.decode("utf-8")
            except UnicodeDecodeError:
                return None
        if columns[i] in json_columns and values[i] is not None:
            try:
                json.loads(values[i])
            except ValueError:
                return None
    return tuple(values)
