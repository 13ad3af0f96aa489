"""Question files that are one JSON list of records (MultiTQ, the shape sets): reading the list and
parsing each record, with errors that name the file and the record."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from ari.base.errors import DatasetError
from benchmarks.loaders.types import LoadResult, Question


def load_json_records(path: Path, parse: Callable[[dict], Question], kind: str, skip_bad: bool = False) -> LoadResult:
    """Every record of the list parsed; a malformed one (KeyError/TypeError/ValueError from `parse`)
    raises DatasetError naming `kind`, or is counted and skipped with `skip_bad`."""
    path = Path(path)
    questions: list[Question] = []
    bad: list[str] = []
    for index, record in enumerate(read_json_list(path)):
        try:
            questions.append(parse(record))
        except (KeyError, TypeError, ValueError) as exc:
            if not skip_bad:
                raise DatasetError(f"{path}: record {index} is not {kind} ({why(exc)}); --skip-bad skips such records") from None
            bad.append(f"record {index}: {why(exc)}")
    return LoadResult(questions, path, bad)


TIME_LEVELS = ("day", "month", "year")


@dataclass(frozen=True)
class Common:
    """The fields every question record has, checked."""

    text: str
    answers: list[str]
    answer_type: str
    time_level: str | None


def common_fields(record: object, answer_types: Collection[str]) -> Common:
    """question, answers, answer_type (one of `answer_types`) and time_level of a record (raises
    KeyError/TypeError/ValueError when one is missing or malformed)."""
    if not isinstance(record, dict):
        raise TypeError(f"expected an object, got {type(record).__name__}")
    answers = record["answers"]
    if not isinstance(answers, list) or not all(isinstance(a, (str, int)) for a in answers):
        raise TypeError("answers must be a list of strings")
    question = record["question"]
    if not isinstance(question, str):
        raise TypeError("question must be text")  # what text is readable is Question's rule, shared with `ari ask` and `ari serve`
    answer_type = record["answer_type"]
    if answer_type not in answer_types:
        raise ValueError(f"answer_type {answer_type!r} is not one of {', '.join(answer_types)}")
    time_level = record.get("time_level")
    if time_level is not None and time_level not in TIME_LEVELS:
        raise ValueError(f"time_level {time_level!r} is not day, month or year")
    return Common(question, [str(a) for a in answers], answer_type, time_level)


def read_json_list(path: Path) -> list:
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


def why(exc: BaseException) -> str:
    return f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
