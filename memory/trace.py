"""The record one question leaves behind: what the memory stores and clusters."""

from __future__ import annotations

from dataclasses import dataclass, field

from actions.programs import Program


@dataclass
class StepRecord:
    """One agent step: which candidates were offered, which was chosen, and what came of it."""

    step: int
    candidates: list[str]  # renderings of the filtered candidates, in the order offered
    chosen: str  # rendering of the chosen action ("" when the step failed)
    abstract: str  # entity-free signature of the chosen action, e.g. "getTailEntity(E1, R, T)"
    result_size: int
    reason: str = ""  # why the decider chose it (offline: the methodology step and scores)


@dataclass
class Trace:
    """A whole solved (or abstained) question."""

    question: str
    masked_question: str
    steps: list[StepRecord] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    abstained: bool = False
    reason: str | None = None
    decider: str = "offline"
    outcome: str | None = None  # correct | wrong | abstained, when a gold answer is known
    qtype: str | None = None  # the analysed temporal pattern (or the dataset's label when known)
    answer_type: str | None = None

    @property
    def program(self) -> Program:
        """The abstract action program this trace followed."""
        return Program.parse([s.abstract for s in self.steps if s.abstract])

    def to_dict(self) -> dict:
        """The fields as plain JSON-ready data (as `dataclasses.asdict`, without its deep copies:
        learning converts some hundred thousand traces)."""
        data = dict(self.__dict__)
        data["steps"] = [{**s.__dict__, "candidates": list(s.candidates)} for s in self.steps]
        data["answers"] = list(self.answers)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "Trace":
        steps = [StepRecord(**s) for s in data.get("steps", [])]
        return cls(**{**data, "steps": steps})
