"""CronQuestions question pickles (lists of dicts) read with the restricted unpickler.

Two ways to give the agent a question (the report records which):
- ARI's own linking (default): the natural-language paraphrase ("...position of Member of the
  Landtag of Lower Saxony"); the agent must find the entities itself.
- gold annotations (as the reference CronKGQA does): the official `question` field, in which each
  annotated entity is already written as its KG name (Q17521638), so linking is exact. The gold
  entities are also kept in `extra["gold_entities"]` (role -> Qid).
Gold answers are Qids or years; the runner shows entity answers in the store's display form.
A `.json` file holds the same records as a JSON list (sets as lists): what `benchmarks/cron_devset.py`
writes, with its entity answers already in the store's names.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from ari.base.errors import DatasetError
from benchmarks.loaders.safe_pickle import load_plain_pickle
from benchmarks.loaders.types import LoadResult, Question

_REQUIRED = ("question", "answers", "answer_type", "type", "uniq_id")
_KEPT = ("template", "entities", "times", "relations", "annotation", "paraphrases", "question")  # "question": with the KG's names


class CronQuestionsLoader:
    name = "cronquestions"

    def __init__(self, gold_annotations: bool = False) -> None:
        self.gold_annotations = gold_annotations

    def split_path(self, data_dir: Path, split: str) -> Path:
        """Splits are the official file stems: complex_test, complex_valid, test, valid, train ..."""
        return Path(data_dir) / "questions" / f"{split}.pickle"

    def load(self, path: Path, skip_bad: bool = False) -> LoadResult:
        path = Path(path)
        records = _read_json(path) if path.suffix == ".json" else load_plain_pickle(path)
        if not isinstance(records, list):
            raise DatasetError(f"{path}: expected a list of question records, got {type(records).__name__}")
        questions: list[Question] = []
        bad: list[str] = []
        seen: dict[str, int] = {}
        for index, record in enumerate(records):
            try:
                question = parse_record(record, self.gold_annotations)
                questions.append(_numbered(question, seen))
            except (KeyError, TypeError, ValueError) as exc:
                why = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
                if not skip_bad:
                    raise DatasetError(f"{path}: record {index} is not a CronQuestions question ({why}); --skip-bad skips such records") from None
                bad.append(f"record {index}: {why}")
        return LoadResult(questions, path, bad, notes={"gold_annotations": self.gold_annotations})


def _numbered(question: Question, seen: dict[str, int]) -> Question:
    """The question with an id of its own: CronQuestions gives one uniq_id to every wording of a
    question (complex_valid: 5,020 records, far fewer ids), and runs and memories key by id, so the
    n-th record of an id after the first is `ID#n`."""
    count = seen.get(question.qid, 0) + 1
    seen[question.qid] = count
    return question if count == 1 else replace(question, qid=f"{question.qid}#{count}")


def _read_json(path: Path) -> object:
    if not path.is_file():
        raise DatasetError(f"no JSON file at {path}")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{path}: not a readable JSON list of CronQuestions records ({exc})") from None


def parse_record(record: dict, gold_annotations: bool = False) -> Question:
    """One official record -> Question (raises KeyError/TypeError/ValueError when malformed)."""
    if not isinstance(record, dict):
        raise TypeError(f"expected a dict, got {type(record).__name__}")
    for key in _REQUIRED:
        record[key]  # noqa: B018 - KeyError names the missing field
    answers = record["answers"]
    if not isinstance(answers, (set, frozenset, list, tuple)):
        raise TypeError("answers must be a set")
    if record["answer_type"] not in ("entity", "time"):
        raise ValueError(f"answer_type {record['answer_type']!r} is not entity or time")
    paraphrases = record.get("paraphrases") or []
    if not isinstance(paraphrases, list):
        raise TypeError("paraphrases must be a list")
    if gold_annotations or not paraphrases:
        text = record["question"]
    else:
        text = paraphrases[0]  # checked by Question, by the rule `ari ask` and `ari serve` follow
    annotation = record.get("annotation") or {}
    if not isinstance(annotation, dict):
        raise TypeError("annotation must be a dict")
    extra = {key: _plain(record[key]) for key in _KEPT if key in record}
    extra["gold_entities"] = {role: value for role, value in annotation.items() if _is_qid(value)}
    extra["gold_annotations"] = gold_annotations
    gold = sorted(str(a) for a in answers)
    return Question(
        qid=str(record["uniq_id"]),
        text=text,
        answers=gold,
        answer_type=record["answer_type"],
        time_level="year",  # CronQuestions times are years
        qtype=str(record["type"]),
        qlabel=None,
        answerable=bool(gold),
        extra=extra,
    )


def _is_qid(value: object) -> bool:
    return isinstance(value, str) and len(value) > 1 and value[0] == "Q" and value[1:].isdigit()


def _plain(value: object) -> object:
    """Sets -> sorted lists so the record serialises to JSON."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    return value
