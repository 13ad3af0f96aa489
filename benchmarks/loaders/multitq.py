"""MultiTQ questions in the official JSON schema (quid, question, answers, answer_type, time_level,
qtype, qlabel). Also reads the unanswerable extension: `"answerable": false` or an empty `answers`
list, with an optional `unanswerable_reason`."""

from __future__ import annotations

from pathlib import Path

from benchmarks.loaders.json_list import load_json_records
from benchmarks.loaders.types import LoadResult, Question

_ANSWER_TYPES = {"entity", "time"}
_TIME_LEVELS = {"day", "month", "year"}
_PASSTHROUGH = ("unanswerable_reason", "source_quid", "db")


class MultiTQLoader:
    name = "multitq"

    def split_path(self, data_dir: Path, split: str) -> Path:
        return Path(data_dir) / "questions" / f"{split}.json"

    def load(self, path: Path, skip_bad: bool = False) -> LoadResult:
        return load_json_records(path, parse_record, "a MultiTQ question", skip_bad)


def parse_record(record: dict) -> Question:
    """One official-schema record -> Question (raises KeyError/TypeError/ValueError when malformed)."""
    if not isinstance(record, dict):
        raise TypeError(f"expected an object, got {type(record).__name__}")
    answers = record["answers"]
    if not isinstance(answers, list) or not all(isinstance(a, (str, int)) for a in answers):
        raise TypeError("answers must be a list of strings")
    question = record["question"]
    if not isinstance(question, str) or not question.strip():
        raise ValueError("question must be non-empty text")
    answer_type = record["answer_type"]
    if answer_type not in _ANSWER_TYPES:
        raise ValueError(f"answer_type {answer_type!r} is not entity or time")
    time_level = record.get("time_level")
    if time_level is not None and time_level not in _TIME_LEVELS:
        raise ValueError(f"time_level {time_level!r} is not day, month or year")
    answerable = bool(record.get("answerable", True)) and len(answers) > 0
    return Question(
        qid=str(record["quid"]),
        text=question,
        answers=[str(a) for a in answers],
        answer_type=answer_type,
        time_level=time_level,
        qtype=str(record.get("qtype", "unknown")),
        qlabel=record.get("qlabel"),
        answerable=answerable,
        extra={k: record[k] for k in _PASSTHROUGH if k in record},
    )
