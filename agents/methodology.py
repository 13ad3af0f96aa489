"""Which methodology guides a question, and its programs in the order this question should try them.

One function for every decider: the offline decider follows the first program that binds, and an
LLM decider is shown the same program, bound to the question, as its guidance.

Matching takes the nearest cluster's methodology, and a fallback that holds the next clusters'
programs, those induced over all traces, then every other program the memory knows (most supported
first), so that a question whose nearest clusters lack the kind of program it asks for ("the last to
..." near "the last ... before X") can still find one. Ordering then adapts the programs to the
question: programs that need more entity roles than it mentions go; a program that ignores a time
the question states is first tried restricted to it; programs whose temporal operations are exactly
the ones the question's cue words ask for come first, and among them those whose same-period joins
keep their entity in place. When a cue points at another entity's event ("before China did"), the
programs that read that event the other way round go (`Program.consistent_references`: they answer
the question reversed), and a time the question states dates that event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from actions.programs import Program, asked_operations
from agents.analysis.types import QuestionAnalysis
from agents.roles import reference_role
from ari.base.config import MemoryConfig


@dataclass(frozen=True)
class Guide:
    """One of a methodology's programs, as offered to one question."""

    program: Program
    support: int  # correct traces that followed it
    success_rate: float
    note: str = ""  # how it was adapted to the question (", restricted to the question's time")

    def describe(self, rank: int) -> str:
        return f"methodology program {rank}{self.note} (right {self.support} times, success {self.success_rate:.2f})"


def match_methodologies(
    memory: Any, masked: list[str], nearest: int = MemoryConfig.nearest_methodologies
) -> list[tuple[Any, Any]]:
    """(methodology of the nearest cluster, a fallback) for each masked question (see the module doc)."""
    pairs: list[tuple[Any, Any]] = []
    for found in memory.match_nearest(masked, k=nearest):
        if not found:
            pairs.append((None, None))
            continue
        key = ("fallback", id(memory), *map(id, found))
        pairs.append((found[0], _remembered(key, (memory, *found), partial(_fallback, memory, found))))
    return pairs


def _fallback(memory: Any, found: list[Any]) -> Any:
    # without clustering (the ablation) the one methodology induced over all traces is all there is
    library = memory.program_library() if memory.use_clustering else []
    rest = [p for m in found[1:] for p in m.programs]
    known = {p.program for p in found[0].programs + rest}
    rest += [p for p in library if p.program not in known]
    return replace(found[0], cluster_id=-2, text="", programs=rest, pitfalls=[]) if rest else None


def programs_for(analysis: QuestionAnalysis | None, *methodologies: Any) -> list[Guide]:
    """The methodologies' programs in the order this question should try them (see the module doc)."""
    if analysis is None:
        return _guides(methodologies)
    # the order depends on these only, and many questions share them
    shape = (bool(analysis.times), len(analysis.entities), asked_operations(analysis.cues), reference_role(analysis) is not None)
    return list(_remembered(("guides", *shape, *map(id, methodologies)), methodologies, partial(_ordered, methodologies, *shape)))


def _guides(methodologies: tuple[Any, ...]) -> list[Guide]:
    return [Guide(p.program, int(p.support), float(p.success_rate)) for m in methodologies if m is not None for p in m.programs]


def _ordered(methodologies: tuple[Any, ...], dated: bool, entities: int, asked: frozenset[str], referred: bool) -> list[Guide]:
    """`referred`: a cue points at the last entity's event ("before {E2} did")."""
    guides = _guides(methodologies)
    if referred:
        guides = [g for g in guides if g.program.consistent_references]
    if dated:
        guides = [variant for guide in guides for variant in _with_dated(guide, referred)]
    roles = {f"E{i}" for i in range(1, entities + 1)}
    guides = [g for g in guides if g.program.roles <= roles]
    return sorted(guides, key=lambda g: (g.program.operations != asked, not g.program.consistent_joins))


_REMEMBERED: dict[tuple, tuple[tuple, Any]] = {}
_MAX_REMEMBERED = 4096


def _remembered(key: tuple, owners: tuple, compute: Callable[[], Any]) -> Any:
    """`compute()`, kept under `key` (built from the ids of `owners`) for the next question with the
    same nearest clusters: the fallback and the ordered programs walk the memory's whole program
    library, a fraction of a millisecond per question. The entry holds `owners`, so no id in a
    live key can be taken by another object; a memory reloaded (refresh, learn) brings new
    methodology objects and so new keys."""
    entry = _REMEMBERED.get(key)
    if entry is None:
        if len(_REMEMBERED) >= _MAX_REMEMBERED:
            _REMEMBERED.clear()
        entry = _REMEMBERED[key] = (owners, compute())
    return entry[1]


def _with_dated(guide: Guide, referred: bool = False) -> list[Guide]:
    """For a question that states a time: a program that ignores it, first restricted to it (the
    event a cue points at, when `referred`: "before China did in 2013")."""
    variant = guide.program.dated_event() if referred else guide.program.dated()
    dated = Guide(variant, guide.support, guide.success_rate, note=", restricted to the question's time") if variant else None
    return [dated, guide] if dated else [guide]
