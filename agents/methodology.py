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
keep their entity in place.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from actions.programs import Program, asked_operations
from agents.analysis.types import QuestionAnalysis
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
    # without clustering (the ablation) the one methodology induced over all traces is all there is
    library = memory.program_library() if memory.use_clustering else []
    pairs: list[tuple[Any, Any]] = []
    for found in memory.match_nearest(masked, k=nearest):
        if not found:
            pairs.append((None, None))
            continue
        rest = [p for m in found[1:] for p in m.programs]
        known = {p.program for p in found[0].programs + rest}
        rest += [p for p in library if p.program not in known]
        fallback = replace(found[0], cluster_id=-2, text="", programs=rest, pitfalls=[]) if rest else None
        pairs.append((found[0], fallback))
    return pairs


def programs_for(analysis: QuestionAnalysis | None, *methodologies: Any) -> list[Guide]:
    """The methodologies' programs in the order this question should try them (see the module doc)."""
    guides = [Guide(p.program, int(p.support), float(p.success_rate)) for m in methodologies if m is not None for p in m.programs]
    if analysis is None:
        return guides
    if analysis.times:
        guides = [variant for guide in guides for variant in _with_dated(guide)]
    roles = {f"E{i}" for i in range(1, len(analysis.entities) + 1)}
    guides = [g for g in guides if g.program.roles <= roles]
    asked = asked_operations(analysis.cues)
    return sorted(guides, key=lambda g: (g.program.operations != asked, not g.program.consistent_joins))


def _with_dated(guide: Guide) -> list[Guide]:
    """For a question that states a time: a program that ignores it, first restricted to it."""
    variant = guide.program.dated()
    dated = Guide(variant, guide.support, guide.success_rate, note=", restricted to the question's time") if variant else None
    return [dated, guide] if dated else [guide]
