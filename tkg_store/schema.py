"""DuckDB schema of one temporal KG.

Names live once in `entities` / `relations`; `facts` holds only integer ids and dates so the hot
lookups scan narrow integer columns. Times are closed day ranges: a MultiTQ event is a point
(start = end), a CronQuestions fact a year interval whose ends may be open (NULL).
"""

SCHEMA_VERSION = 1

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
    """CREATE TABLE IF NOT EXISTS facts (
        head INTEGER NOT NULL,
        relation INTEGER NOT NULL,
        tail INTEGER NOT NULL,
        start_day DATE,                    -- NULL: open start
        end_day DATE,                      -- NULL: open end
        granularity VARCHAR NOT NULL       -- day | month | year: how the source stated the time
    )""",
    """CREATE TABLE IF NOT EXISTS meta (
        key VARCHAR PRIMARY KEY,
        value VARCHAR NOT NULL
    )""",
]

# Lookups filter on (head, relation), (tail, relation) and single entities; DuckDB's ART indexes
# serve those point lookups without a scan.
INDEXES = [
    "CREATE INDEX IF NOT EXISTS facts_head_rel ON facts (head, relation)",
    "CREATE INDEX IF NOT EXISTS facts_tail_rel ON facts (tail, relation)",
]
