"""Turning the answer step's items into ranked display strings, and a confidence for risk-coverage."""

from __future__ import annotations

from collections import Counter
from datetime import date
from functools import lru_cache
from typing import TYPE_CHECKING

from actions.items import Item
from actions.query import VALUE_ASKS
from agents.analysis.types import QuestionAnalysis
from agents.shapes import value_answers
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity, format_time

if TYPE_CHECKING:
    from agents.state import AgentState


def ranked_answers(store: TKGStore, analysis: QuestionAnalysis | None, items: list[Item]) -> list[str]:
    """Entities in display form, or times at the granularity the question asks; most supported first.

    Ranking by the number of supporting facts puts the best-attested answer at rank 1; ties keep
    the order of the items (which is time order).
    """
    if analysis is not None and analysis.query.asks in VALUE_ASKS:
        return value_answers(store, analysis.query, items)
    wants_time = analysis is not None and analysis.answer_type == "time"
    level = (analysis.time_level if analysis else None) or Granularity.DAY
    # Counted per distinct value first, then per text: a text first appears with its first value,
    # so ties keep the order of the items exactly as counting item by item would.
    entities = [] if wants_time else [item.entity for item in items]
    if entities and None not in entities:  # the common case, counted in C
        values: Counter = Counter(entities)
    elif wants_time:  # as _answer_value, without a call per item: the program search ranks ~100 results a question
        values = Counter((item.start, item.granularity) for item in items if item.start is not None)
    else:
        values = Counter(_answer_value(item, wants_time) for item in items)
        values.pop(None, None)
    counts: dict[str, int] = {}
    for value, n in values.items():
        text = store.display(value) if isinstance(value, str) else _time_text(value[0], value[1], level)
        counts[text] = counts.get(text, 0) + n
    # the question's own entities answer it only when nothing else does ("... the same day as X":
    # X itself is in the same-day join, but the question asks for the others)
    asked = {store.display(m.best) for m in (analysis.entities if analysis else []) if m.best}
    ranked = [text for text, _ in sorted(counts.items(), key=lambda kv: -kv[1])]
    others = [text for text in ranked if text not in asked]
    return others or ranked


@lru_cache(maxsize=1 << 16)
def _time_text(day: date, granularity: Granularity, level: Granularity) -> str:
    """`format_item_time` of an item starting on `day`, once per day and granularities (a KG has a few thousand days)."""
    return format_time(day, granularity.coarser(level))


def _answer_value(item: Item, wants_time: bool) -> str | tuple | None:
    """What an item answers: its entity, or its time as (start, granularity); None: nothing."""
    if wants_time or item.entity is None:
        return None if item.start is None else (item.start, item.granularity)
    return item.entity


def confidence(state: "AgentState") -> float:
    """A score in [0, 1] for ranking answers by trust (risk-coverage): linking certainty x program evidence."""
    if state.abstained or not state.answers:
        return 0.0
    analysis = state.analysis
    linking = 1.0
    if analysis is not None:
        for mention in analysis.entities:
            if mention.candidates:
                linking *= max(0.0, min(1.0, mention.candidates[0][1]))
    program = 0.5
    if state.methodology is not None and state.methodology.programs:
        done = tuple(r.abstract for r in state.records)
        for stat in state.methodology.programs:
            if stat.program.texts == done:
                program = float(stat.success_rate)
                break
    spread = 1.0 / len(state.answers) ** 0.5
    return round(linking * (0.5 + 0.5 * program) * (0.5 + 0.5 * spread), 4)
