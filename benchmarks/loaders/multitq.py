"""MultiTQ questions in the official JSON schema (quid, question, answers, answer_type, time_level,
qtype, qlabel). Also reads the unanswerable extension: `"answerable": false` or an empty `answers`
list, with an optional `unanswerable_reason`."""

from __future__ import annotations

import json
from pathlib import Path

from ari.base.errors import DatasetError
from benchmarks.loaders.types import LoadResult, Question

_ANSWER_TYPES = {"entity", "time"}
_TIME_LEVELS = {"day", "month", "year"}
_PASSTHROUGH = ("unanswerable_reason", "source_quid", "db")


class MultiTQLoader:
    name = "multitq"

    def split_path(self, data_dir: Path, split: str) -> Path:
        return Path(data_dir) / "questions" / f"{split}.json"

    def load(self, path: Path, skip_bad: bool = False) -> LoadResult:
        path = Path(path)
        records = _read_json_list(path)
        questions: list[Question] = []
        skipped = 0
        for index, record in enumerate(records):
            try:
                questions.append(parse_record(record))
            except (KeyError, TypeError, ValueError) as exc:
                if not skip_bad:
                    raise DatasetError(f"{path}: record {index} is not a MultiTQ question ({_why(exc)}); --skip-bad skips such records") from None
                skipped += 1
        return LoadResult(questions, path, skipped)


def parse_record(record: dict) -> Question:
    """One official-schema record -> Question (raises KeyError/TypeError/ValueError when malformed)."""
    if not isinstance(record, dict):
        raise TypeError(f"expected an object, got {type(record).__name__}")
    answers = record["answers"]
    if not isinstance(answers, list) or not all(isinstance(a, (str, int)) for a in answers):
        raise TypeError("answers must be a list of strings")
    question = record["question"]  # checked by Question, by the rule `ari ask` and `ari serve` follow
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


def _read_json_list(path: Path) -> list:
    if not path.is_file():
        raise DatasetError(f"no questions file at {path}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    except UnicodeDecodeError as exc:
        raise DatasetError(f"{path}: not UTF-8 text ({exc.reason})") from None
    if not isinstance(data, list):
        raise DatasetError(f"{path}: expected a JSON list of questions, got {type(data).__name__}")
    return data


def _why(exc: BaseException) -> str:
    return f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
