"""DuckDB schema of one temporal KG, and the physical layout that makes lookups fast.

Names live once in `entities` / `relations`; `facts` holds only integer ids and dates so the hot
lookups scan narrow integer columns. Times are closed day ranges: a MultiTQ event is a point
(start = end), a CronQuestions fact a year interval whose ends may be open (NULL).

Layout (schema 2): `facts` is kept physically sorted by (head, relation, start) and a second copy,
`facts_by_tail`, by (tail, relation, start), both in small row groups. A lookup's equality filter
then lets DuckDB's per-row-group min/max (zone maps) skip all but one row group, which measured
faster than an ART index (benchmarks/results/store_bench.md). Ingest rebuilds both copies.
"""

from __future__ import annotations

import duckdb

from ari.base.errors import StoreError

SCHEMA_VERSION = 2

# Rows per row group of stores that ARI writes: small groups make zone-map pruning sharp.
ROW_GROUP_SIZE = 16384

_FACT_COLUMNS_DDL = """(
        head INTEGER NOT NULL,
        relation INTEGER NOT NULL,
        tail INTEGER NOT NULL,
        start_day DATE,                    -- NULL: open start
        end_day DATE,                      -- NULL: open end
        granularity VARCHAR NOT NULL       -- day | month | year: how the source stated the time
    )"""

DDL = [
    """CREATE TABLE IF NOT EXISTS entities (
        id INTEGER PRIMARY KEY,
        name VARCHAR NOT NULL UNIQUE,      -- exactly as in the source (Jack_Straw, Q42)
        display VARCHAR NOT NULL,          -- human text (Jack Straw, Douglas Adams)
        normalized VARCHAR NOT NULL        -- lower-cased, accents and punctuation folded, for matching
    )""",
    """CREATE TABLE IF NOT EXISTS relations (
        id INTEGER PRIMARY KEY,
        name VARCHAR NOT NULL UNIQUE,      -- as in the source (Make_statement, P39)
        text VARCHAR NOT NULL              -- readable (make statement, position held)
    )""",
    # Answers are compared as displayed, and a question asks which names read as an answer
    # (`TKGStore.entities_displayed`): an index makes that ~1 ms, where a scan of 230k names took
    # 10-20 ms and a dict of every name cost each cold process time that grows with the KG.
    "CREATE INDEX IF NOT EXISTS entities_by_display ON entities (display)",
    f"CREATE TABLE IF NOT EXISTS facts {_FACT_COLUMNS_DDL}",
    # The same rows as `facts`, sorted by (tail, relation, start): serves tail-side lookups.
    f"CREATE TABLE IF NOT EXISTS facts_by_tail {_FACT_COLUMNS_DDL}",
    """CREATE TABLE IF NOT EXISTS meta (
        key VARCHAR PRIMARY KEY,
        value VARCHAR NOT NULL
    )""",
]

# Schema 1 kept ART indexes on facts; on sorted facts they measured slower than a zone-map scan
# (the optimizer prefers them), so schema 2 has none. Kept as a name for importers.
INDEXES: list[str] = []

_SORT_KEYS = {
    "facts": "head, relation, start_day, end_day, tail, granularity",
    "facts_by_tail": "tail, relation, start_day, end_day, head, granularity",
}


def rebuild_layout(con: duckdb.DuckDBPyConnection) -> None:
    """Rewrite `facts` and `facts_by_tail` sorted by their lookup keys (call inside a transaction).

    Rows are rewritten into fresh tables and swapped in, so the sort holds even after appends.
    """
    con.execute("DROP INDEX IF EXISTS facts_head_rel")
    con.execute("DROP INDEX IF EXISTS facts_tail_rel")
    for table, keys in _SORT_KEYS.items():
        con.execute(f"CREATE TABLE {table}__new {_FACT_COLUMNS_DDL}")
        con.execute(f"INSERT INTO {table}__new SELECT * FROM facts ORDER BY {keys}")
    for table in _SORT_KEYS:
        con.execute(f"DROP TABLE {table}")
        con.execute(f"ALTER TABLE {table}__new RENAME TO {table}")


def one_row(con: duckdb.DuckDBPyConnection, sql: str) -> tuple:
    """The row of an aggregate query (count, min, max...), which always returns exactly one."""
    row = con.execute(sql).fetchone()
    if row is None:
        raise StoreError(f"the store returned no row for: {sql}")
    return row
