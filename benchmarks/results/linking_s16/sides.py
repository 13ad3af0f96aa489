"""How many entities of a store are the head of some fact, the tail of some fact, and both: a typed KG (Wikidata's)
has few on both sides, an event KG (ICEWS) most (the dropped tail-only-persons rule's premise, README).

    python sides.py STORE.duckdb [...]
"""

import sys

import duckdb

for path in sys.argv[1:]:
    con = duckdb.connect(path, read_only=True)
    heads, tails, both = con.execute(
        """WITH h AS (SELECT DISTINCT head AS id FROM facts), t AS (SELECT DISTINCT tail AS id FROM facts)
           SELECT (SELECT count(*) FROM h), (SELECT count(*) FROM t), (SELECT count(*) FROM h JOIN t USING (id))"""
    ).fetchall()[0]
    print(f"{path}: heads {heads}, tails {tails}, both {both}")
