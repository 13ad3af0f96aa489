"""A copy of a store without the facts of some entities: questions about them become ones the
KG cannot answer while every other fact, name and time stays as it was (the abstention sets)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import duckdb

from ari.base.errors import StoreError, UsageError
from tkg_store.schema import one_row, rebuild_layout
from tkg_store.store import create_schema


def write_hidden_store(source: Path, target: Path, hidden_entities: Sequence[str]) -> int:
    """Copy the store at `source` to `target` without any fact touching `hidden_entities`.

    Returns the number of facts dropped. The source is only read (attached read-only)."""
    source, target = Path(source), Path(target)
    if target.exists():
        raise UsageError(f"{target} exists; remove it or choose another --hidden-db")
    con = duckdb.connect(str(target))
    try:
        create_schema(con)
        con.execute(f"ATTACH '{_sql_path(source)}' AS src (READ_ONLY)")
        con.execute("CREATE TEMP TABLE hidden (name VARCHAR)")
        con.executemany("INSERT INTO hidden VALUES (?)", [[name] for name in hidden_entities])
        con.execute("INSERT INTO entities SELECT * FROM src.entities")
        con.execute("INSERT INTO relations SELECT * FROM src.relations")
        con.execute(
            """INSERT INTO facts SELECT f.* FROM src.facts f
               WHERE f.head NOT IN (SELECT e.id FROM src.entities e JOIN hidden h ON e.name = h.name)
                 AND f.tail NOT IN (SELECT e.id FROM src.entities e JOIN hidden h ON e.name = h.name)"""
        )
        rebuild_layout(con)  # the store's physical layout (sorted copies) for the kept facts
        con.execute("INSERT INTO meta SELECT * FROM src.meta ON CONFLICT (key) DO NOTHING")
        total = one_row(con, "SELECT count(*) FROM src.facts")[0]
        kept = one_row(con, "SELECT count(*) FROM facts")[0]
        con.execute(
            "INSERT INTO meta VALUES ('derived_from', ?), ('hidden_entities', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [str(source), json.dumps(list(hidden_entities))],
        )
        con.execute("DETACH src")
    except duckdb.Error as exc:
        con.close()
        target.unlink(missing_ok=True)
        raise StoreError(f"cannot write derived store {target}: {str(exc).splitlines()[0]}") from None
    con.close()
    return int(total - kept)


def _sql_path(path: Path) -> str:
    """ATTACH takes no bound parameter; a path with a quote is refused rather than spliced."""
    text = str(path.resolve())
    if "'" in text:
        raise UsageError(f"store path may not contain a quote: {text}")
    return text
