"""MultiTQ questions in the official JSON schema (quid, question, answers, answer_type, time_level,
qtype, qlabel). Also reads the unanswerable extension: `"answerable": false` or an empty `answers`
list, with an optional `unanswerable_reason`."""

from __future__ import annotations

from pathlib import Path

from benchmarks.loaders.json_list import common_fields, load_json_records
from benchmarks.loaders.types import LoadResult, Question

_ANSWER_TYPES = ("entity", "time")
_PASSTHROUGH = ("unanswerable_reason", "source_quid", "db")


class MultiTQLoader:
    name = "multitq"

    def split_path(self, data_dir: Path, split: str) -> Path:
        return Path(data_dir) / "questions" / f"{split}.json"

    def load(self, path: Path, skip_bad: bool = False) -> LoadResult:
        return load_json_records(path, parse_record, "a MultiTQ question", skip_bad)


def parse_record(record: dict) -> Question:
    """One official-schema record -> Question (raises KeyError/TypeError/ValueError when malformed)."""
    common = common_fields(record, _ANSWER_TYPES)
    answerable = bool(record.get("answerable", True)) and len(common.answers) > 0
    return Question(
        qid=str(record["quid"]),
        text=common.text,
        answers=common.answers,
        answer_type=common.answer_type,
        time_level=common.time_level,
        qtype=str(record.get("qtype", "unknown")),
        qlabel=record.get("qlabel"),
        answerable=answerable,
        extra={k: record[k] for k in _PASSTHROUGH if k in record},
    )
