"""A word the question says that names what one relation is about ("economically", "diplomatically") puts
that relation first, over a broader one the lexicon credits the phrasing to; a short verb the lexicon never
saw ("ink" a deal) is read by its synonym."""

from __future__ import annotations

import pytest
from bench_support import build_store

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.relations import RelationLexicon, predicate_ngrams
from ari.base.embedding import get_embedder
from tkg_store.store import TKGStore

BROAD, ECONOMIC, SIGN, CRITICIZE = "Express_intent_to_cooperate", "Cooperate_economically", "Sign_formal_agreement", "Criticize_or_denounce"
DIPLOMATIC = "Express_intent_to_engage_in_diplomatic_cooperation_(such_as_policy_support)"
FACTS = [("Kuwait", relation, "Iraq", f"2005-06-0{day}") for day, relation in enumerate((BROAD, ECONOMIC, DIPLOMATIC, SIGN, CRITICIZE), start=1)]


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory: pytest.TempPathFactory):
    learned = RelationLexicon()
    for template, relation, times in [
        ("Who expressed an intention to cooperate with {E1} in {T1}?", BROAD, 20),
        ("Who wanted to cooperate with {E1} in {T1}?", BROAD, 20),
        ("Who engaged in economic cooperation with {E1} in {T1}?", ECONOMIC, 2),
        ("Who expressed intent to engage in diplomatic cooperation with {E1} in {T1}?", DIPLOMATIC, 2),
        ("Who signed an agreement with {E1} in {T1}?", SIGN, 3),
        ("Who first criticised {E1} after the {E2} deal?", CRITICIZE, 10),  # "deal" as a benchmark's reference names it
    ]:
        for _ in range(times):
            learned.add(predicate_ngrams(template), [relation])
    with TKGStore.open(build_store(tmp_path_factory.mktemp("naming") / "kg.duckdb", FACTS)) as store:
        yield QuestionAnalyzer(store, get_embedder(), lexicon=learned)


@pytest.mark.parametrize(
    ("question", "relation"),
    [
        ("Who cooperated economically with Iraq in 2005?", ECONOMIC),
        ("Who expressed an intention to cooperate diplomatically with Iraq in 2005?", DIPLOMATIC),
        ("Who expressed an intention to cooperate with Iraq in 2005?", BROAD),  # nothing more is said: the lexicon's reading
        ("When did Kuwait first ink a deal with Iraq?", SIGN),
    ],
)
def test_the_relation_naming_more_of_what_is_said_is_read_first(analyzer: QuestionAnalyzer, question: str, relation: str) -> None:
    ranked = analyzer.analyze(question).relations
    assert ranked[0][0] == relation
    assert ranked[0][1] > ranked[1][1]  # a reading, not a tie
