"""A count, yes / no, ranking or n-th over one relation's facts, when the question's words name two relations alike
that answer differently: the ranking's pick would be a guess, so ARI says which it cannot tell apart (a tiny real KG,
a memory learned from the questions it asks itself)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bench_support import build_store, country_sectors

FACTS = [
    ("Iran", "Threaten_with_sanctions,_boycott,_embargo", "Iraq", "2008-02-01"),
    ("Iran", "Impose_embargo,_boycott,_or_sanctions", "Iraq", "2008-03-01"),
    ("Iran", "Impose_embargo,_boycott,_or_sanctions", "Iraq", "2008-04-01"),
    ("Japan", "Impose_embargo,_boycott,_or_sanctions", "Iraq", "2008-05-01"),
    ("Japan", "Threaten_with_sanctions,_boycott,_embargo", "China", "2008-05-02"),
    ("Iran", "Provide_humanitarian_aid", "Iraq", "2008-06-01"),
    ("Japan", "Provide_humanitarian_aid", "Iraq", "2008-06-02"),
    ("Japan", "Provide_humanitarian_aid", "Iraq", "2008-07-02"),
    ("China", "Express_intent_to_provide_humanitarian_aid", "Iraq", "2008-06-03"),
    ("Iran", "Express_intent_to_provide_humanitarian_aid", "Iraq", "2008-06-04"),
    *country_sectors(("Iran", "Iraq", "Japan", "China"), "2009-01-01"),
]


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    from agents.agent import Agent
    from agents.learning import learn_generated
    from memory import Memory
    from tkg_store.store import TKGStore

    folder = tmp_path_factory.mktemp("rivals")
    db = build_store(folder / "kg.duckdb", FACTS)
    memory_path = folder / "memory.sqlite"
    learn_generated(db, str(memory_path), 40, n_clusters=4, quiet=True)
    with TKGStore.open(db) as store, Memory.open(memory_path, read_only=True) as memory:
        yield Agent(store, memory)


def test_a_count_over_two_relations_named_alike_that_answer_differently_is_refused(agent) -> None:  # noqa: ANN001
    # "sanctions" with no act says Impose embargo, boycott, or sanctions (twice) and Threaten with sanctions (once) alike
    result = agent.ask("How many times did Iran use sanctions against Iraq in 2008?")
    assert result.abstained and "alike" in (result.reason or "")
    # the words of one of them tell it apart
    assert agent.ask("How many times did Iran impose sanctions on Iraq in 2008?").answers == ["2"]


def test_a_relation_that_says_more_than_the_words_is_no_rival(agent) -> None:  # noqa: ANN001
    # "gave humanitarian aid" is Provide humanitarian aid; an intent to provide it says more than the question does
    assert agent.ask("How many times did Japan provide humanitarian aid to Iraq in 2008?").answers == ["2"]
