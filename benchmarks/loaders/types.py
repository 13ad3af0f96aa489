"""The one question record every benchmark loader produces, and the loader protocol."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Protocol

from ari.base.text import question_problem


@dataclass
class Question:
    """One benchmark question, normalised across datasets."""

    qid: str  # unique within the dataset (MultiTQ quid, CronQuestions uniq_id), always a string
    text: str  # what the agent is asked
    answers: list[str]  # gold answers; entity names may be KG ids (Q42) or display text; empty: unanswerable
    answer_type: str  # "entity" | "time"
    time_level: str | None = None  # "day" | "month" | "year": granularity of time answers / the question
    qtype: str = "unknown"  # dataset's temporal pattern (equal, before_after, first_last, ...)
    qlabel: str | None = None  # MultiTQ "Single" | "Multiple"
    answerable: bool = True  # False: the correct output is to abstain ("No Answer")
    extra: dict = field(default_factory=dict)  # dataset-specific fields kept for reports and rewrites

    def __post_init__(self) -> None:
        # a question that cannot be read (or is empty, or too long) is refused where it enters (a
        # malformed record the loaders report, or skip with --skip-bad), not deep inside a batch where
        # it would fail its neighbours; `ari ask` and `ari serve` refuse it by the same rule
        why = question_problem(self.text)
        if why is not None:
            raise ValueError(f"question text {why}")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Question":
        return cls(**data)


class DatasetLoader(Protocol):
    """A dataset: where its splits live and how to read one file of questions."""

    name: str

    def split_path(self, data_dir: Path, split: str) -> Path:
        """The file that holds `split` under the dataset directory."""
        ...

    def load(self, path: Path, skip_bad: bool = False) -> "LoadResult":
        """Read every question of one file; malformed records raise DatasetError (or are skipped)."""
        ...


@dataclass
class LoadResult:
    """Questions read from one file, and how many malformed records were skipped."""

    questions: list[Question]
    path: Path
    bad: list[str] = field(default_factory=list)  # each skipped record: "record 4: missing field 'answers'"
    notes: dict = field(default_factory=dict)  # e.g. {"gold_annotations": True}

    @property
    def skipped(self) -> int:
        """How many malformed records were skipped."""
        return len(self.bad)
