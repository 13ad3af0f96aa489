"""The bundled demo KG: a few hundred ICEWS-style facts and MultiTQ-style questions about them.

`demo_store_path()` builds the DuckDB store from the bundled TSV on first use (under
`ari_home()`), so `ari ask` works right after install. The files are written by
`python -m tkg_store.demo.generate`; both are committed and ship as package data.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import duckdb

from ari.base.config import ari_home

HERE = Path(__file__).parent
DEMO_TSV = HERE / "demo_kg.tsv"
DEMO_QUESTIONS = HERE / "demo_questions.json"
_STAMP_KEY = "demo_tsv_sha256"


def demo_store_path() -> Path:
    """The demo store's path, building it first when missing or when the bundled TSV changed.

    The store is built into a temporary file beside the target and renamed over it, so a reader
    never sees a half-built store and concurrent first uses cannot corrupt it.
    """
    target = ari_home() / "demo.duckdb"
    stamp = hashlib.sha256(DEMO_TSV.read_bytes()).hexdigest()
    if _stamp_of(target) == stamp:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    from tkg_store.ingest import ingest

    fd, name = tempfile.mkstemp(prefix=".demo-", suffix=".duckdb", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    tmp.unlink()  # DuckDB must create the file itself
    try:
        ingest("tsv", DEMO_TSV, tmp)
        with duckdb.connect(str(tmp)) as con:
            con.execute("INSERT INTO meta VALUES (?, ?)", [_STAMP_KEY, stamp])
            con.execute("CHECKPOINT")
        os.replace(tmp, target)
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + ".wal")):
            leftover.unlink(missing_ok=True)
    return target


def demo_questions() -> list[dict]:
    """The demo questions in the official MultiTQ schema (gold answers use spaces)."""
    return json.loads(DEMO_QUESTIONS.read_text(encoding="utf-8"))


def _stamp_of(path: Path) -> str | None:
    """The TSV hash the store at `path` was built from (None: missing or unreadable)."""
    if not path.is_file():
        return None
    try:
        with duckdb.connect(str(path), read_only=True) as con:
            row = con.execute("SELECT value FROM meta WHERE key = ?", [_STAMP_KEY]).fetchone()
    except duckdb.Error:
        return None
    return row[0] if row else None


__all__ = ["DEMO_QUESTIONS", "DEMO_TSV", "demo_questions", "demo_store_path"]
