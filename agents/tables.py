"""The per-store tables a question reads, built in one pass (`ari ingest` runs it after loading).

Every table ARI derives from a store is built on first use and kept beside the store
(`tkg_store.name_vectors`, `tkg_store.saved`), so a store ingested without them still works; but
built lazily, the first question pays for all of them (minutes on a large KG, with no progress
shown). This module builds each the way a question would, so the files are the ones a cold
process then only reads: the entity and relation name vectors (in steps of
`tkg_store.name_vectors.CHUNK` names, only the names no earlier file embeds), the mirror and
symmetric relations, the linker's name tables and role vectors, the candidate filter's template
vectors, and the names' word pairs that chat spellings must leave alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from ari.base.background import Background
from ari.base.embedding import Embedder
from ari.base.progress import progress
from tkg_store.learned import mirror_relations, symmetric_relations
from tkg_store.name_vectors import plan_name_vectors
from tkg_store.store import TKGStore


@dataclass
class TablesReport:
    """What building a store's tables did."""

    names_embedded: int
    """Entity and relation names embedded now."""
    names_kept: int
    """Names whose vectors an earlier file held (facts were added to a store that had them)."""
    seconds: float

    def to_dict(self) -> dict:
        return asdict(self)


def build_tables(store: TKGStore, embedder: Embedder, quiet: bool = False) -> TablesReport:
    """Build (or find built) every per-store table of `store` for `embedder`, with one progress bar."""
    from actions.filtering import get_filter
    from agents.analysis.analyzer import QuestionAnalyzer, chat_protected, formal_names
    from agents.analysis.entities import linker_tables

    started = time.perf_counter()
    plan = plan_name_vectors(store, embedder)
    steps: list[Callable[[], object]] = []
    analyzer = QuestionAnalyzer(store, embedder)
    if plan.saved() is None:
        # The linker's name tables are Python on one thread and need no vectors: built beside the names'
        # embedding, they take the core it leaves (a tenth of a 10M-fact ingest on two). The embedding
        # reads names from memory only, so the store's connection is the tables' alone until the join.
        embedding = plan.plan().steps()
        beside = Background(lambda: linker_tables(store), "ari-linker-tables")
        steps += [*embedding, beside.result, plan.finish]
    steps += [
        lambda: mirror_relations(store),
        lambda: symmetric_relations(store),
        lambda: analyzer.entity_linker,  # the linker's name tables and role vectors
        lambda: analyzer.relation_linker,
        lambda: get_filter(store, embedder),  # the template vectors
        lambda: chat_protected(store),
        lambda: formal_names(store),
    ]
    for step in progress(steps, "building tables", quiet=quiet):
        step()
    names = len(plan.entities) + len(plan.relations)
    return TablesReport(len(plan.todo), names - len(plan.todo), round(time.perf_counter() - started, 2))

