"""The values actions pass along: (entity, time) items.

Every action returns a list of items; the next action may take that list as input. An item keeps
the interval of the fact it came from (a MultiTQ day point, or a CronQuestions year interval that
may be open), so list operations (before/after/first/last) can compare items exactly.

An item's entity is usually a KG entity name, but the value-producing actions put a value there,
with no time: `count` its count in decimal ("21"), `exists` "Yes" or "No", `getRelation` the KG
name of a relation ("Make_a_visit", with the fact's interval). `answer` reads them as it reads
entity names.
"""

from __future__ import annotations

from datetime import date
from typing import NamedTuple

from tkg_store.temporal import Granularity


class Item(NamedTuple):
    """One result row: an entity (or None for a pure time) and the interval of its fact.

    A named tuple rather than a frozen dataclass: list operations hash and build hundreds of
    thousands of items per thousand questions, and a tuple does both in C."""

    entity: str | None
    start: date | None
    end: date | None
    granularity: Granularity = Granularity.DAY
