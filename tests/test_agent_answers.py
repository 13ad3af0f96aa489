"""Ranking the answer step's items: most supported first, the question's own entities only as a
last resort (a real demo store for display names)."""

from __future__ import annotations

from datetime import date

import pytest

from actions.items import Item
from agents.analysis.types import EntityMention, QuestionAnalysis
from agents.answers import ranked_answers
from tkg_store.demo import demo_store_path
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity


@pytest.fixture(scope="module")
def store():
    with TKGStore.open(demo_store_path()) as opened:
        yield opened


def _analysis(*names: str) -> QuestionAnalysis:
    return QuestionAnalysis(question="q", masked="q", entities=[EntityMention(n, (0, 1), [(n, 1.0)]) for n in names])


def _item(entity: str, day: int = 1) -> Item:
    return Item(entity, date(2005, 1, day), date(2005, 1, day))


def test_most_supported_first_and_question_entities_dropped(store: TKGStore) -> None:
    items = [_item("South_Korea"), _item("Denmark", 2), _item("Japan"), _item("Japan", 3)]
    assert ranked_answers(store, _analysis("South_Korea"), items) == ["Japan", "Denmark"]


def test_a_question_entity_is_kept_when_nothing_else_answers(store: TKGStore) -> None:
    assert ranked_answers(store, _analysis("South_Korea"), [_item("South_Korea")]) == ["South Korea"]


def test_times_and_entities_mixed_count_per_text_with_ties_in_item_order(store: TKGStore) -> None:
    """An entity question whose items mix entities and pure times: each text counted once per
    item (two days of one month are one month), ties in the order the items came."""
    analysis = _analysis("South_Korea")
    analysis.time_level = Granularity.MONTH
    items = [
        Item(None, date(2005, 3, 1), date(2005, 3, 1)),
        _item("Denmark"),
        Item(None, date(2005, 3, 9), date(2005, 3, 9)),
        Item(None, None, None),
        _item("Japan"),
        _item("Denmark", 2),
        Item(None, date(2006, 1, 1), date(2006, 1, 1)),
    ]
    assert ranked_answers(store, analysis, items) == ["2005-03", "Denmark", "Japan", "2006-01"]
    analysis.answer_type = "time"  # a time question reads the times of the entities' items too
    assert ranked_answers(store, analysis, items) == ["2005-01", "2005-03", "2006-01"]
