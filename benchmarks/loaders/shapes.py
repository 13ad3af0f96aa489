"""The shape question sets of issue 23 (`benchmarks/shape_golds.py` writes them): counts, yes/no,
lists, most / least, relations between two entities, date windows, the n-th one and unanswerable
questions, one JSON list per split (`DIR/dev.json`, `DIR/held.json`).

Each record: `id`, `question`, `shape`, `answers` (display form), `answer_type` (entity | time |
number | yesno | relation | none), `is_list`, `abstain`, `time_level`; the shape becomes the
question's type, and `shape` and `is_list` travel in `extra` for scoring.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.loaders.json_list import load_json_records
from benchmarks.loaders.types import LoadResult, Question

ANSWER_TYPES = ("entity", "time", "number", "yesno", "relation", "none")
_TIME_LEVELS = {"day", "month", "year"}
_PASSTHROUGH = ("writer", "missing", "spec")


class ShapesLoader:
    name = "shapes"

    def split_path(self, data_dir: Path, split: str) -> Path:
        return Path(data_dir) / f"{split}.json"

    def load(self, path: Path, skip_bad: bool = False) -> LoadResult:
        return load_json_records(path, parse_record, "a shape question", skip_bad)


def parse_record(record: dict) -> Question:
    """One record of shape_golds' output -> Question (raises KeyError/TypeError/ValueError when malformed)."""
    if not isinstance(record, dict):
        raise TypeError(f"expected an object, got {type(record).__name__}")
    answers = record["answers"]
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        raise TypeError("answers must be a list of strings")
    question = record["question"]
    if not isinstance(question, str) or not question.strip():
        raise ValueError("question must be non-empty text")
    answer_type = record["answer_type"]
    if answer_type not in ANSWER_TYPES:
        raise ValueError(f"answer_type {answer_type!r} is not one of {', '.join(ANSWER_TYPES)}")
    time_level = record.get("time_level")
    if time_level is not None and time_level not in _TIME_LEVELS:
        raise ValueError(f"time_level {time_level!r} is not day, month or year")
    abstain = bool(record.get("abstain", False))
    if not abstain and not answers:
        raise ValueError("an answerable record needs answers")
    shape = str(record["shape"])
    return Question(
        qid=str(record["id"]),
        text=question,
        answers=[] if abstain else list(answers),
        answer_type=answer_type,
        time_level=time_level,
        qtype=shape,
        answerable=not abstain,
        extra={"shape": shape, "is_list": bool(record.get("is_list", False)),
               **{k: record[k] for k in _PASSTHROUGH if k in record}},
    )
