"""What the memory hands to the agent: a methodology and the programs behind it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from actions.programs import Program

ALL_TRACES = -1  # cluster id of the methodology induced from every trace (the no-clustering ablation)


class ProgramStat(NamedTuple):
    """An abstract program with its record in one cluster.

    For a methodology's programs `support` is the number of correct traces that followed it; for a
    pitfall it is the number of traces that followed it, none of them correct.
    """

    program: Program  # entity-free steps, e.g. getTime(E1, R, E2) -> answer(#1)
    support: int
    success_rate: float  # correct / all labelled traces with this program in the cluster
    exemplars: tuple[str, ...] = ()  # masked questions it solved, most frequent first (for inspection)


@dataclass
class Methodology:
    """How to solve one kind of question: the two-part text and the programs it was induced from."""

    cluster_id: int  # ALL_TRACES (-1) when induced from the whole history
    text: str  # "Overall Instruction: ..." + "Step-by-step Guide:" numbered steps
    programs: list[ProgramStat] = field(default_factory=list)  # best first
    pitfalls: list[ProgramStat] = field(default_factory=list)  # most often failed first
    source: str = "induced"  # induced | llm
    clustering_version: int | None = None
    induced_text: str = ""  # for an LLM-written text, the text induced from the traces, stored beside it

    def to_dict(self) -> dict:
        return {
            "cluster_id": self.cluster_id,
            "clustering_version": self.clustering_version,
            "source": self.source,
            "text": self.text,
            **({"induced_text": self.induced_text} if self.induced_text else {}),
            "programs": [stat_dict(p) for p in self.programs],
            "pitfalls": [stat_dict(p) for p in self.pitfalls],
        }


def stat_dict(stat: ProgramStat) -> dict:
    """A program's record in JSON form (the program as its list of step texts)."""
    return {**stat._asdict(), "program": list(stat.program.texts), "exemplars": list(stat.exemplars)}
