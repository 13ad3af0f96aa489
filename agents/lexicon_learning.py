"""Learning the relation lexicon (`tkg_store.relation_lexicon`) from questions with known answers.

A question's masked n-grams (`agents.analysis.relations.predicate_ngrams`) are credited to the relations
through which a short program over its linked entities reaches a gold answer (`actions.program_search`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from actions.program_search import SHAPES_BY_PATTERN, ProgramSearch
from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.relations import predicate_ngrams
from agents.analysis.types import QuestionAnalysis
from tkg_store.relation_lexicon import RelationLexicon
from tkg_store.store import TKGStore


def credited_relations(
    store: TKGStore, questions: list[dict], analyzer: QuestionAnalyzer, batch_size: int = 512
) -> Iterator[tuple[dict, QuestionAnalysis, set[str]]]:
    """Each question with a known answer (MultiTQ schema) its entities reach, with the relations through which a program of
    its own pattern (else any program) over its linked entities (the first candidates, where they suffice) reaches it."""
    search = ProgramSearch(store)
    for offset in range(0, len(questions), batch_size):
        chunk = questions[offset : offset + batch_size]
        analyses = analyzer.analyze_batch([q["question"] for q in chunk], rank_relations=False)
        for record, analysis in zip(chunk, analyses):
            mentions = [[name for name, _ in m.candidates] for m in analysis.entities]
            hits = search.reaching(
                mentions, [t.time for t in analysis.times], list(record["answers"]), record["answer_type"]
            )
            if not hits:
                continue
            wanted = SHAPES_BY_PATTERN.get((analysis.pattern, analysis.answer_type), frozenset())
            fitting = [h for h in hits if h.shape in wanted] or hits
            top = [h for h in fitting if all(rank == 0 for _, rank in h.entities)] or fitting
            yield record, analysis, {h.relation for h in top}


def learn_relation_lexicon(
    store: TKGStore, questions: list[dict], analyzer: QuestionAnalyzer, batch_size: int = 512, min_count: float = 1.0
) -> RelationLexicon:
    """Learn n-gram -> relation evidence from questions with known answers: each question's n-grams are
    credited to its `credited_relations`. Cells credited less than `min_count` are dropped at the end."""
    lexicon = RelationLexicon()
    for _, analysis, credited in credited_relations(store, questions, analyzer, batch_size):
        lexicon.add(predicate_ngrams(analysis.masked), credited)
    lexicon.prune(min_count)
    lexicon.meta = {"questions_seen": len(questions), "store": Path(store.path).name, "min_count": min_count}
    return lexicon
