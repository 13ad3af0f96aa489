"""The analyzer on the bundled demo KG (a store that is not MultiTQ), without an embedder."""

from __future__ import annotations

from actions.program_search import ProgramSearch
from agents.analysis.analyzer import QuestionAnalyzer
from tkg_store.demo import demo_questions


def test_every_answerable_demo_question_stays_reachable(demo_store) -> None:
    analyzer = QuestionAnalyzer(demo_store, None)
    search = ProgramSearch(demo_store)
    questions = demo_questions()
    analyses = analyzer.analyze_batch([q["question"] for q in questions])
    unreachable = []
    for record, analysis in zip(questions, analyses):
        assert analysis.pattern == record["qtype"], record["question"]
        if not record["answers"]:
            continue
        mentions = [[name for name, _ in m.candidates] for m in analysis.entities]
        relations = [r for r, _ in analysis.relations]
        times = [t.time for t in analysis.times]
        if not search.reaching(mentions, times, record["answers"], record["answer_type"], relations):
            unreachable.append(record["question"])
    assert unreachable == []


def test_unknown_place_gets_no_entity(demo_store) -> None:
    analysis = QuestionAnalyzer(demo_store, None).analyze("Who visited Atlantis in 2009?")
    assert analysis.entities == []
