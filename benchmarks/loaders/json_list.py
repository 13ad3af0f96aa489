"""Question files that are one JSON list of records (MultiTQ, the shape sets): reading the list and
parsing each record, with errors that name the file and the record."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from ari.base.errors import DatasetError
from benchmarks.loaders.types import LoadResult, Question


def load_json_records(path: Path, parse: Callable[[dict], Question], kind: str, skip_bad: bool = False) -> LoadResult:
    """Every record of the list parsed; a malformed one (KeyError/TypeError/ValueError from `parse`)
    raises DatasetError naming `kind`, or is counted and skipped with `skip_bad`."""
    path = Path(path)
    questions: list[Question] = []
    skipped = 0
    for index, record in enumerate(read_json_list(path)):
        try:
            questions.append(parse(record))
        except (KeyError, TypeError, ValueError) as exc:
            if not skip_bad:
                raise DatasetError(f"{path}: record {index} is not {kind} ({why(exc)}); --skip-bad skips such records") from None
            skipped += 1
    return LoadResult(questions, path, skipped)


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
