"""Dataset loaders: the official formats, errors naming file and record, and the safe unpickler."""

from __future__ import annotations

import json
import os
import pickle

import pytest

from ari.base.errors import DatasetError, UsageError
from benchmarks.loaders import get_loader
from benchmarks.loaders.safe_pickle import load_plain_pickle


def _write_json(path, records):
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


MULTITQ = [
    {"quid": 3000007, "question": "Before Ethiopia, which country did Seyoum Mesfin negotiate with?",
     "answers": ["China", "Sudan"], "answer_type": "entity", "time_level": "day", "qtype": "before_after",
     "qlabel": "Single"},
    {"quid": 3000002, "question": "In which year did Iraq first negotiate with Japan?", "answers": ["2010"],
     "answer_type": "time", "time_level": "year", "qtype": "first_last", "qlabel": "Multiple"},
    {"quid": 5, "question": "Who visited Kenya in 1990?", "answers": [], "answer_type": "entity",
     "time_level": "year", "qtype": "equal", "qlabel": "Single"},
    {"quid": 6, "question": "Who visited Atlantis in 2010?", "answers": ["Nobody"], "answer_type": "entity",
     "time_level": "year", "qtype": "equal", "qlabel": "Single", "answerable": False,
     "unanswerable_reason": "entity_not_in_kg"},
]


def test_multitq_official_schema(tmp_path):
    result = get_loader("multitq").load(_write_json(tmp_path / "dev.json", MULTITQ))
    first, second, empty, marked = result.questions
    assert first.qid == "3000007" and first.answers == ["China", "Sudan"] and first.answerable
    assert second.answer_type == "time" and second.time_level == "year" and second.qlabel == "Multiple"
    assert not empty.answerable  # empty gold: the right output is "No Answer"
    assert not marked.answerable and marked.extra["unanswerable_reason"] == "entity_not_in_kg"
    assert result.skipped == 0


def test_multitq_split_path_layout(tmp_path):
    assert get_loader("multitq").split_path(tmp_path, "dev") == tmp_path / "questions" / "dev.json"


def test_malformed_record_names_file_and_index(tmp_path):
    bad = [MULTITQ[0], {"quid": 9, "question": "No answers field?", "answer_type": "entity"}, MULTITQ[1]]
    path = _write_json(tmp_path / "bad.json", bad)
    with pytest.raises(DatasetError, match=r"bad\.json: record 1 .*answers"):
        get_loader("multitq").load(path)
    result = get_loader("multitq").load(path, skip_bad=True)
    assert [q.qid for q in result.questions] == ["3000007", "3000002"] and result.skipped == 1


def test_bad_answer_type_and_invalid_json(tmp_path):
    path = _write_json(tmp_path / "t.json", [{**MULTITQ[0], "answer_type": "number"}])
    with pytest.raises(DatasetError, match="record 0 .*answer_type"):
        get_loader("multitq").load(path)
    broken = tmp_path / "broken.json"
    broken.write_text('[{"quid": 1,\n "question": }]', encoding="utf-8")
    with pytest.raises(DatasetError, match=r"broken\.json:2"):
        get_loader("multitq").load(broken)
    with pytest.raises(DatasetError, match="no questions file"):
        get_loader("multitq").load(tmp_path / "missing.json")


def test_unknown_dataset_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown dataset"):
        get_loader("webqsp")


CRON = [
    {"question": "Who was the first to hold the position of Q17521638", "answers": {"Q705862"},
     "answer_type": "entity", "template": "Who was the first to hold the position of {tail}",
     "entities": {"Q17521638"}, "times": set(), "relations": {"P39"}, "type": "first_last",
     "annotation": {"tail": "Q17521638", "adj": "first"}, "uniq_id": 16386,
     "paraphrases": ["Who was the first to hold the position of Member of the Landtag of Lower Saxony"]},
    {"question": "What's the last time Q13529989 was Q41582617?", "answers": {1979, 1983}, "answer_type": "time",
     "template": "What's the last time {head} was {tail}?", "entities": {"Q13529989", "Q41582617"},
     "times": set(), "relations": {"P39"}, "type": "first_last",
     "annotation": {"head": "Q13529989", "tail": "Q41582617", "adj": "last"}, "uniq_id": 18409,
     "paraphrases": ["What's the last time Michael Mates was Member of the 47th Parliament of the United Kingdom?"]},
]


def test_cronquestions_pickle_loads_with_linking_or_gold_annotations(tmp_path):
    path = tmp_path / "complex_test.pickle"
    path.write_bytes(pickle.dumps(CRON, protocol=4))
    own = get_loader("cronquestions").load(path)
    first, second = own.questions
    assert first.text.endswith("Member of the Landtag of Lower Saxony")
    assert first.answers == ["Q705862"] and first.qtype == "first_last" and first.qid == "16386"
    assert second.answer_type == "time" and second.answers == ["1979", "1983"] and second.time_level == "year"
    assert second.extra["gold_entities"] == {"head": "Q13529989", "tail": "Q41582617"}
    assert own.notes == {"gold_annotations": False}
    gold = get_loader("cronquestions", gold_annotations=True).load(path)
    assert gold.questions[0].text == "Who was the first to hold the position of Q17521638"
    assert gold.notes == {"gold_annotations": True}


def test_cronquestions_old_protocol_sets_load(tmp_path):
    path = tmp_path / "old.pickle"
    path.write_bytes(pickle.dumps(CRON, protocol=2))  # sets pickled as builtins.set calls
    assert len(get_loader("cronquestions").load(path).questions) == 2


def test_cronquestions_malformed_record(tmp_path):
    path = tmp_path / "bad.pickle"
    path.write_bytes(pickle.dumps([CRON[0], {"question": "x"}], protocol=4))
    with pytest.raises(DatasetError, match=r"bad\.pickle: record 1 .*missing field"):
        get_loader("cronquestions").load(path)
    assert get_loader("cronquestions").load(path, skip_bad=True).skipped == 1


class _Exploit:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_restricted_unpickler_refuses_code_and_runs_nothing(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.pickle"
    path.write_bytes(pickle.dumps([{"question": "x", "answers": {_Exploit(marker)}}]))
    with pytest.raises(DatasetError, match=r"refusing to load (posix|nt|os)\.system from .*evil\.pickle: pickles can run code"):
        get_loader("cronquestions").load(path)
    assert not marker.exists()


def test_restricted_unpickler_refuses_classes_and_damaged_files(tmp_path):
    path = tmp_path / "class.pickle"
    path.write_bytes(pickle.dumps(DatasetError("x")))
    with pytest.raises(DatasetError, match="refusing to load ari.base.errors.DatasetError"):
        load_plain_pickle(path)
    torn = tmp_path / "torn.pickle"
    torn.write_bytes(pickle.dumps(CRON)[:100])
    with pytest.raises(DatasetError, match="not a readable pickle"):
        load_plain_pickle(torn)
    not_list = tmp_path / "dict.pickle"
    not_list.write_bytes(pickle.dumps({"a": 1}))
    with pytest.raises(DatasetError, match="expected a list"):
        get_loader("cronquestions").load(not_list)
    assert load_plain_pickle(not_list) == {"a": 1}


class _Builds:
    """Pickles as a call of an allowed builtin: what a hostile file can ask the unpickler to do."""

    def __init__(self, kind, *args):
        self.kind, self.args = kind, args

    def __reduce__(self):
        return (self.kind, self.args)


@pytest.mark.parametrize(
    "payload, what",
    [
        (_Builds(bytearray, 2**40), "bytearray of 1,099,511,627,776 items"),
        (_Builds(bytes, 2**33), "bytes of 8,589,934,592 items"),
        ([_Builds(bytearray, 2**25) for _ in range(64)], "bytearray of 33,554,432 items"),  # 2 GiB in 64 steps
        (_Builds(str, ["x" * 1000] * 1000), "str of unbounded size"),  # the repr of shared references
    ],
    ids=["bytearray-1TiB", "bytes-8GiB", "many-32MiB", "str-of-a-list"],
)
def test_restricted_unpickler_bounds_what_allowed_types_build(tmp_path, payload, what):
    path = tmp_path / "big.pickle"
    path.write_bytes(pickle.dumps(payload, protocol=4))
    assert path.stat().st_size < 20_000
    with pytest.raises(DatasetError, match=f"refusing to build {what} from .*big.pickle"):
        load_plain_pickle(path)


def test_restricted_unpickler_still_reads_plain_data_of_every_allowed_type(tmp_path):
    data = [{"s": {1, 2}, "f": frozenset({"a"}), "c": complex(1, 2), "b": b"xy", "ba": bytearray(b"z"),
             "t": (1.5, True, None), "big": "q" * 100_000}]
    for protocol in range(3, pickle.HIGHEST_PROTOCOL + 1):  # protocol 2 spells bytes as _codecs.encode, refused
        path = tmp_path / f"plain{protocol}.pickle"
        path.write_bytes(pickle.dumps(data, protocol=protocol))
        assert load_plain_pickle(path) == data


SHAPE = {"id": "w1-count-01", "shape": "count", "question": "How many times did Alice visit Iran?", "answers": ["3"],
         "answer_type": "number", "is_list": False, "abstain": False, "time_level": None}


def test_shapes_split_layout_and_malformed_records(tmp_path):
    loader = get_loader("shapes")
    assert loader.split_path(tmp_path, "held") == tmp_path / "held.json"
    (question,) = loader.load(_write_json(tmp_path / "dev.json", [SHAPE])).questions
    assert (question.qid, question.qtype, question.answer_type, question.extra["shape"]) == ("w1-count-01", "count", "number", "count")
    for bad in ({**SHAPE, "answers": []}, {**SHAPE, "answer_type": "date"}, {k: v for k, v in SHAPE.items() if k != "shape"}):
        path = _write_json(tmp_path / "bad.json", [SHAPE, bad])
        with pytest.raises(DatasetError, match=r"bad\.json: record 1 is not a shape question"):
            loader.load(path)
        assert loader.load(path, skip_bad=True).skipped == 1
    with pytest.raises(UsageError, match="cronquestions only"):
        get_loader("shapes", gold_annotations=True)


def _laughs(levels: int, width: int) -> list:
    """A question whose answers hold one list referenced `width` times per level, `levels` deep:
    pickled with its memo, a few hundred bytes; spelled out, width**levels strings."""
    shared: list = ["lol" * 10]
    for _ in range(levels):
        shared = [shared] * width
    return [{"question": "x", "answers": {"a"}, "answer_type": "entity", "type": "simple_entity", "uniq_id": 1,
             "entities": shared}]


def test_restricted_unpickler_counts_shared_references_spelled_out(tmp_path):
    import time

    path = tmp_path / "laughs.pickle"
    path.write_bytes(pickle.dumps(_laughs(levels=40, width=10), protocol=4))  # 10**40 strings, spelled out
    assert path.stat().st_size < 2_000
    started = time.monotonic()
    for load in (load_plain_pickle, get_loader("cronquestions").load):
        with pytest.raises(DatasetError, match=r"refusing .*laughs\.pickle: its data, with every shared reference spelled out, is more than"):
            load(path)
    assert time.monotonic() - started < 1.0
    cycle: list = []
    cycle.append(cycle)
    path.write_bytes(pickle.dumps(cycle))
    with pytest.raises(DatasetError, match="every shared reference spelled out"):
        load_plain_pickle(path)


def test_restricted_unpickler_reads_shared_references_within_the_budget(tmp_path):
    path = tmp_path / "shared.pickle"
    path.write_bytes(pickle.dumps(_laughs(levels=3, width=10), protocol=4))  # 1,000 strings spelled out
    assert load_plain_pickle(path)[0]["entities"][9][9][9] == ["lol" * 10]
