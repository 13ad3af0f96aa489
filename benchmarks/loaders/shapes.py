"""The shape question sets of issue 23 (`benchmarks/shape_golds.py` writes them): counts, yes/no,
lists, most / least, relations between two entities, date windows, the n-th one and unanswerable
questions, one JSON list per split (`DIR/dev.json`, `DIR/held.json`).

Each record: `id`, `question`, `shape`, `answers` (display form), `answer_type` (entity | time |
number | yesno | relation | none), `is_list`, `abstain`, `time_level`; the shape becomes the
question's type, and `shape` and `is_list` travel in `extra` for scoring.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.loaders.json_list import common_fields, load_json_records
from benchmarks.loaders.types import LoadResult, Question

ANSWER_TYPES = ("entity", "time", "number", "yesno", "relation", "none")
_PASSTHROUGH = ("writer", "missing", "spec")


class ShapesLoader:
    name = "shapes"

    def split_path(self, data_dir: Path, split: str) -> Path:
        return Path(data_dir) / f"{split}.json"

    def load(self, path: Path, skip_bad: bool = False) -> LoadResult:
        return load_json_records(path, parse_record, "a shape question", skip_bad)


def parse_record(record: dict) -> Question:
    """One record of shape_golds' output -> Question (raises KeyError/TypeError/ValueError when malformed)."""
    common = common_fields(record, ANSWER_TYPES)
    abstain = bool(record.get("abstain", False))
    if not abstain and not common.answers:
        raise ValueError("an answerable record needs answers")
    shape = str(record["shape"])
    return Question(
        qid=str(record["id"]),
        text=common.text,
        answers=[] if abstain else common.answers,
        answer_type=common.answer_type,
        time_level=common.time_level,
        qtype=shape,
        answerable=not abstain,
        extra={"shape": shape, "is_list": bool(record.get("is_list", False)),
               **{k: record[k] for k in _PASSTHROUGH if k in record}},
    )
