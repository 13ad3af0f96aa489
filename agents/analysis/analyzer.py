"""QuestionAnalyzer: free-text question -> QuestionAnalysis (entities, times, relations, type).

Everything that can be built once per store (name tables, role vectors, the in-memory fact graph,
the FAISS index over entity names) is built in the constructor and cached per store file, so a
question costs a few milliseconds. `analyze_batch` embeds all questions' phrases in one call.
"""

from __future__ import annotations

import os
from pathlib import Path

from agents.analysis.ambiguity import resolve_by_facts
from agents.analysis.entities import EntityLinker
from agents.analysis.graph import fact_graph
from agents.analysis.question_type import (
    classify,
    distinct_entities,
    in_role_order,
    mask,
)
from agents.analysis.relations import (
    RelationLexicon,
    RelationLinker,
    bundled_lexicon_path,
    predicate_text,
)
from agents.analysis.synonyms import SynonymMap
from agents.analysis.times import find_times
from agents.analysis.types import QuestionAnalysis
from ari.base.embedding import Embedder
from tkg_store.store import TKGStore

_LINKERS: dict[tuple[str, str | None], EntityLinker] = {}


def default_lexicon(store: TKGStore) -> RelationLexicon | None:
    """$ARI_RELATION_LEXICON when set (e.g. one learned on a training share only, for a fair
    evaluation), else the bundled lexicon for the store's dataset (MultiTQ), when it fits the store."""
    source = store.meta().get("source", "")
    configured = os.environ.get("ARI_RELATION_LEXICON")
    path = Path(configured) if configured else bundled_lexicon_path(source) if source else None
    if path is None or not path.exists():
        return None
    lexicon = RelationLexicon.load(path)
    known = set(store.relation_names())
    return lexicon if set(lexicon.relation_totals) <= known else None


class QuestionAnalyzer:
    """Analyses questions against one store."""

    def __init__(
        self,
        store: TKGStore,
        embedder: Embedder | None = None,
        lexicon: RelationLexicon | None = None,
        max_relations: int = 10,
        use_default_lexicon: bool = True,
        relation_embeddings: bool = False,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.graph = fact_graph(store)
        key = (str(Path(store.path).resolve()), embedder.name if embedder is not None else None)
        if key not in _LINKERS:
            _LINKERS[key] = EntityLinker(store, embedder)
        self.entity_linker = _LINKERS[key]
        if lexicon is None and use_default_lexicon:
            lexicon = default_lexicon(store)
        # with a lexicon, relation-name similarity adds nothing measurable (benchmarks/results/linking_bench.md)
        # and costs an embedding per question; without one it is the only relation signal
        use_vectors = embedder is not None and (relation_embeddings or lexicon is None)
        synonyms = None
        if lexicon is not None and embedder is not None:
            synonyms = SynonymMap({g: sum(row.values()) for g, row in lexicon.counts.items() if " " not in g}, embedder)
        self.relation_linker = RelationLinker(
            store, self.graph, embedder if use_vectors else None, lexicon, synonyms=synonyms
        )
        self.max_relations = max_relations
        self.kg_range = store.time_range()

    def analyze(self, question: str) -> QuestionAnalysis:
        return self.analyze_batch([question])[0]

    def analyze_batch(self, questions: list[str], rank_relations: bool = True) -> list[QuestionAnalysis]:
        times = [find_times(q, self.kg_range) for q in questions]
        entities = self.entity_linker.link_batch(questions, [[t.span for t in ts] for ts in times])
        analyses = []
        for question, ts, mentions in zip(questions, times, entities):
            resolve_by_facts([m for m in mentions if m.candidates], self.graph)
            ordered = in_role_order(question, [m for m in mentions if m.candidates])
            masked = mask(question, ordered, ts)
            ents = distinct_entities(ordered)
            kind = classify(question, ts, masked)
            analyses.append(
                QuestionAnalysis(
                    question=question,
                    masked=masked,
                    entities=ents,
                    times=ts,
                    answer_type=kind.answer_type,
                    time_level=kind.time_level,
                    pattern=kind.pattern,
                    cue=kind.cue,
                    cues=kind.cues,
                    unlinked=[m for m in mentions if not m.candidates],
                )
            )
        if rank_relations:
            self._rank_relations(analyses)
        return analyses

    def _rank_relations(self, analyses: list[QuestionAnalysis]) -> None:
        vectors = [None] * len(analyses)
        if self.relation_linker.embedder is not None and analyses:
            vectors = list(self.embedder.embed_batch([predicate_text(a.masked) for a in analyses]))
        for analysis, vector in zip(analyses, vectors):
            mentions = [[name for name, _ in m.candidates] for m in analysis.entities]
            candidates = self.relation_linker.connected(mentions)
            ranked = self.relation_linker.rank(analysis.masked, candidates, vector)
            analysis.relations = ranked[: self.max_relations]
