"""Before / after a holding that lasts: "who was chair before X" asks for X's predecessor.

Of events (day points) "who did it before X did" is everyone who did it earlier, and a "who" asks for
them all. Of holdings that last (an office, a team, an employer: facts with a start and an end),
"who was the chair before X" and "which team did Y play for before Z" mean the one just before: the
last holding that started earlier (after: the first that started later). The wording is the same in
both; the KG tells them apart: the reference's own facts with the question's other party last longer
than a day. So on a KG of day points no reading changes."""

from __future__ import annotations

from dataclasses import replace

from agents.analysis.types import QuestionAnalysis
from agents.roles import reference_role
from tkg_store.store import TKGStore

_NEAREST = {"before": ("last", "before_last"), "after": ("first", "after_first")}


def nearest_holdings(store: TKGStore, analyses: list[QuestionAnalysis]) -> list[QuestionAnalysis]:
    """Each analysis read as the holding just before / after its reference where that holding lasts."""
    return [nearest_holding(store, analysis) for analysis in analyses]


def nearest_holding(store: TKGStore, analysis: QuestionAnalysis) -> QuestionAnalysis:
    """`analysis` with the nearest asked ("the last before", "the first after") when it places one
    entity before or after another's holding of the same thing and that holding lasts; else as it is.
    A stated first / last, an n-th, a ranking, a count or a time of its own keeps its reading."""
    query = analysis.query
    if (
        analysis.pattern != "before_after" or analysis.cue not in _NEAREST or analysis.times or analysis.answer_type != "entity"
        or query.ordinal or query.extreme or query.asks != "entity" or query.window or reference_role(analysis) is None
    ):
        return analysis
    relation = analysis.relations[0][0] if analysis.relations else None
    reference, *others = [m.best for m in reversed(analysis.entities)]
    if relation is None or reference is None or not others or not _lasts(store, reference, relation, others[0]):
        return analysis
    extreme, pattern = _NEAREST[analysis.cue]
    return replace(analysis, pattern=pattern, cues=[*analysis.cues, extreme], query=replace(query, is_list=False))


def _lasts(store: TKGStore, reference: str, relation: str, other: str | None) -> bool:
    """Whether a fact of `relation` between the reference and the other party holds over more than a day."""
    if other is None:
        return False
    facts = store.facts(head=reference, relation=relation, tail=other) + store.facts(head=other, relation=relation, tail=reference)
    return any(f.start is None or f.end is None or f.start != f.end for f in facts)
