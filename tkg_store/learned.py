"""What a store's own contents say about its names: mirror and symmetric relations, countries.

Nothing here is a list written by hand: each table is learned from the facts or the names of the
store it is asked of, built once per store (`TKGStore.derived`; the two self-joins are also saved
beside the store, `tkg_store.saved`) and gone after `reload()`.

* Mirror relations state one event from its two sides: "X made a visit to Y" and "Y hosted a visit
  of X" (Make_a_visit / Host_a_visit). The answer check reads them (a mirror fact supports an
  answer), and so do the lookups of the counting and yes/no shapes (a visit counts whichever side
  the KG recorded it on).
* Symmetric relations are those the KG states both ways (Consult): either entity is the doer.
* One-way relations link two kinds of entity that never trade places (people and the awards they
  received, players and their teams): which side an entity stands on is its kind's, so a question's
  wording cannot put it on the other.
* Countries: ICEWS-style KGs name a sector after its country in brackets ("Military_(Iran)",
  "Foreign_Affairs_(India)"); a country is an entity named that way by several sectors.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from functools import partial

from tkg_store.saved import saved
from tkg_store.store import TKGStore

# Two relations mirror each other when at least this share of each one's (head, tail, day) facts
# appears reversed in the other. Measured on MultiTQ (461,329 facts): Make_a_visit / Host_a_visit
# 0.999 / 0.999 and Provide_military_protection_or_peacekeeping / Receive_deployment_of_peacekeepers
# 1.0 / 0.894 pass; the next pair (Use_tactics_of_violent_repression / Protest_violently,_riot,
# 0.458 / 0.318) is far below, so any threshold in (0.46, 0.89) gives the same pairs.
# A relation is symmetric when at least MIRROR_SHARE of its (head, tail, day) facts also appear
# reversed in it. On MultiTQ: Consult 1.0, Engage_in_negotiation 0.999, Sign_formal_agreement 0.976,
# Declare_truce,_ceasefire 0.865, Express_intent_to_cooperate 0.848 pass; the next,
# Engage_in_diplomatic_cooperation (0.764), and every relation below it do not.
MIRROR_SHARE = 0.8
MIRROR_MIN_FACTS = 20  # a pair seen on fewer facts is chance (one-fact relations mirror anything)

# A relation is one-way when at least ONE_WAY_MIN_ENTITIES distinct entities stand on each side and
# at most ONE_WAY_OVERLAP of the smaller side also stand on the other. On Wikidata12k: award received
# (1,873 heads, 1,223 tails), nominated for, position held, member of sports team, employer, educated
# at share none; spouse shares 0.82. On MultiTQ no relation with 50 entities a side shares under 0.027
# (Protest_violently,_riot): actors there act and are acted on alike. Fewer entities a side can miss
# each other by chance (MultiTQ's Demonstrate_for_leadership_change: 31 and 35, none shared).
ONE_WAY_MIN_ENTITIES = 50
ONE_WAY_OVERLAP = 0.01

# A country is an entity that at least this many other entities name as their bracketed qualifier.
# On MultiTQ (10,488 entities) 130 entities are some other entity's qualifier. Organisations are
# named by a few of their parts ("Combatant_(Moro_National_Liberation_Front)": 54 qualifiers are
# named once, 11 twice; Al-Shabaab and The_Hague four times), countries by dozens of sectors
# (Sudan 80, China 69, Iraq 59, Iran 50, Japan 43; the smallest, Bahamas and Cape_Verde, 5). At 5,
# 55 entities are countries; the borderline: Belize (4 sectors) is left out, Boko_Haram (5) and the
# regions Pakistan_administered_Kashmir (6) and Middle_East (23) reach it; STATE_BODIES leaves out
# Boko_Haram, Middle_East and Cayman_Islands (52 countries). At 6 Bahamas and Cape_Verde would
# drop out as well, at 4 the organisations come in.
MIN_COUNTRY_SECTORS = 5
# the civil bodies only a state has (an army, citizens or media may be a region's or a group's)
STATE_BODIES = ("Government", "Ministry", "Foreign Affairs", "Police", "Cabinet", "Domestic Affairs")
_QUALIFIED = re.compile(r"^.+?[_ ]\(([^()]+)\)$")  # "Military_(Iran)" -> "Iran"


def qualifier_of(name: str) -> str | None:
    """The bracketed qualifier of a sector's name ("Military (Iran)": Iran), None when it has none."""
    m = _QUALIFIED.match(name)
    return m.group(1) if m else None


def mirror_relations(store: TKGStore) -> dict[str, frozenset[str]]:
    """Relation -> the relations that state the same events from the other side (learned from
    the KG: reversed (head, tail, day) sets that cover each other, see MIRROR_SHARE). A self-join
    over every fact: saved beside the store, so a cold `ari ask` reads it back."""
    return store.derived(("mirror_relations",), partial(_read_mirrors, store))


def _read_mirrors(store: TKGStore) -> dict[str, frozenset[str]]:
    pairs = saved(store, "mirror-relations", partial(_mirror_pairs, store), [sys.modules[__name__]])
    return {r: frozenset(o) for r, o in pairs.items()}


def _mirror_pairs(store: TKGStore) -> dict[str, list[str]]:
    rows = store.connection.execute(
        """WITH f AS (SELECT DISTINCT head, relation, tail, start_day FROM facts),
           n AS (SELECT relation, count(*) AS n FROM f GROUP BY relation),
           m AS (SELECT a.relation AS r1, b.relation AS r2, count(*) AS k FROM f a JOIN f b
                 ON a.head = b.tail AND a.tail = b.head AND a.start_day = b.start_day
                 AND a.relation <> b.relation GROUP BY 1, 2)
           SELECT r1.name, r2.name FROM m JOIN n n1 ON n1.relation = m.r1 JOIN n n2 ON n2.relation = m.r2
           JOIN relations r1 ON r1.id = m.r1 JOIN relations r2 ON r2.id = m.r2
           WHERE m.k >= ? AND m.k >= ? * n1.n AND m.k >= ? * n2.n""",
        [MIRROR_MIN_FACTS, MIRROR_SHARE, MIRROR_SHARE],
    ).fetchall()
    mirrors: dict[str, list[str]] = {}
    for one, other in sorted(rows):
        mirrors.setdefault(one, []).append(other)
    return mirrors


def symmetric_relations(store: TKGStore) -> frozenset[str]:
    """Relations whose facts the KG states both ways (see MIRROR_SHARE): either entity may be the
    doer. Learned like `mirror_relations`, and saved beside the store the same way."""
    return store.derived(("symmetric_relations",), partial(_read_symmetric, store))


def _read_symmetric(store: TKGStore) -> frozenset[str]:
    return frozenset(saved(store, "symmetric-relations", partial(_symmetric, store), [sys.modules[__name__]]))


def _symmetric(store: TKGStore) -> list[str]:
    rows = store.connection.execute(
        """WITH f AS (SELECT DISTINCT head, relation, tail, start_day FROM facts),
           n AS (SELECT relation, count(*) AS n FROM f GROUP BY relation),
           m AS (SELECT a.relation AS r, count(*) AS k FROM f a JOIN f b
                 ON a.head = b.tail AND a.tail = b.head AND a.start_day = b.start_day
                 AND a.relation = b.relation AND a.head <> a.tail GROUP BY 1)
           SELECT r.name FROM m JOIN n ON n.relation = m.r JOIN relations r ON r.id = m.r
           WHERE m.k >= ? AND m.k >= ? * n.n""",
        [MIRROR_MIN_FACTS, MIRROR_SHARE],
    ).fetchall()
    return sorted(name for (name,) in rows)


def one_way_relations(store: TKGStore) -> frozenset[str]:
    """Relations whose heads and tails are two kinds of entity (see ONE_WAY_OVERLAP): an entity's
    side is fixed by its kind. Learned from the facts and saved beside the store."""
    return store.derived(("one_way_relations",), partial(_read_one_way, store))


def _read_one_way(store: TKGStore) -> frozenset[str]:
    return frozenset(saved(store, "one-way-relations", partial(_one_way, store), [sys.modules[__name__]]))


def _one_way(store: TKGStore) -> list[str]:
    rows = store.connection.execute(
        """WITH h AS (SELECT DISTINCT relation, head AS e FROM facts),
           t AS (SELECT DISTINCT relation, tail AS e FROM facts),
           nh AS (SELECT relation, count(*) AS n FROM h GROUP BY 1),
           nt AS (SELECT relation, count(*) AS n FROM t GROUP BY 1),
           o AS (SELECT h.relation, count(*) AS k FROM h JOIN t ON h.relation = t.relation AND h.e = t.e GROUP BY 1)
           SELECT r.name FROM nh JOIN nt USING (relation) LEFT JOIN o USING (relation) JOIN relations r ON r.id = nh.relation
           WHERE nh.n >= ? AND nt.n >= ? AND coalesce(o.k, 0) <= ? * least(nh.n, nt.n)""",
        [ONE_WAY_MIN_ENTITIES, ONE_WAY_MIN_ENTITIES, ONE_WAY_OVERLAP],
    ).fetchall()
    return sorted(name for (name,) in rows)


def countries(store: TKGStore) -> frozenset[str]:
    """The KG's country entities: those at least MIN_COUNTRY_SECTORS other entities name as their
    bracketed qualifier ("Military_(Iran)", "Foreign_Affairs_(Iran)" ... make Iran one), one of them
    a civil state body (STATE_BODIES): a region or an armed group has an army, citizens or media
    named after it ("Military_(Middle_East)"), but no government or ministry. A sector is never a
    country, and neither is a person (no entity is named after one)."""
    return store.derived(("countries",), partial(_countries, store))


def country_names(store: TKGStore) -> frozenset[str]:
    """`countries` as answers name them (`TKGStore.display`)."""
    return store.derived(("country_names",), lambda: frozenset(store.display(c) for c in countries(store)))


def _countries(store: TKGStore) -> frozenset[str]:
    names = store.entity_names()
    governed = {q for name in names if (q := qualifier_of(name)) is not None and is_state_body(name)}
    return frozenset(q for q in qualifier_counts(names, store.has_entity, MIN_COUNTRY_SECTORS) if q in governed)


def is_state_body(name: str) -> bool:
    """Whether a sector's name ("Foreign_Affairs_(Iran)") is one of a state's civil bodies."""
    words = name.replace("_", " ")
    return any(re.search(rf"\b{body}\b", words) for body in STATE_BODIES)


def qualifier_counts(names: Iterable[str], is_entity: Callable[[str], bool], at_least: int = 1) -> dict[str, int]:
    """Entity -> how many of `names` name it as their bracketed qualifier (at least `at_least`)."""
    counts = Counter(q for name in names if (q := qualifier_of(name)) is not None)
    return {q: n for q, n in counts.items() if n >= at_least and is_entity(q)}
