"""The CronQuestions-on-Wikidata12k development set's rule, and the loader reading what it writes."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

from benchmarks import cron_devset
from benchmarks.cron_devset import Fact, Facts, gold, keep, part_of
from benchmarks.loaders import get_loader

KG = Facts([
    Fact("Q1", "P39", "Q100", 1990, 1995),   # Q1 held the post 1990-1995
    Fact("Q2", "P39", "Q100", 1996, 2001),
    Fact("Q3", "P39", "Q100", 1985, 1989),
    Fact("Q1", "P166", "Q200", 1980, 1980),
    Fact("Q1", "P166", "Q201", 1999, 1999),
    Fact("Q1", "P166", "Q202", 1999, 1999),
    Fact("Q5", "P54", "Q300", 2000, 2004),
    Fact("Q6", "P54", "Q300", 2003, 2006),
    Fact("Q7", "P54", "Q300", 2005, 2009),
])


def record(kind: str, answer_type: str, annotation: dict, relation: str, answers: set, text: str = "text", uid: int = 1) -> dict:
    entities = {v for k, v in annotation.items() if k in ("head", "tail", "event_head", "tail2")}
    return {"question": text, "answers": answers, "answer_type": answer_type, "template": "t", "entities": entities,
            "times": set(), "relations": {relation}, "type": kind, "annotation": annotation, "uniq_id": uid, "paraphrases": [text]}


def test_first_and_last_follow_the_year_split_reading() -> None:
    assert gold(record("first_last", "entity", {"tail": "Q100", "adj": "first"}, "P39", set()), KG) == {"Q3"}
    assert gold(record("first_last", "entity", {"tail": "Q100", "adj": "last"}, "P39", set()), KG) == {"Q2"}
    # the last year Q1 held the post is its END; the first its start
    assert gold(record("first_last", "time", {"head": "Q1", "tail": "Q100", "adj": "last"}, "P39", set()), KG) == {1995}
    assert gold(record("first_last", "time", {"head": "Q1", "tail": "Q100", "adj": "first"}, "P39", set()), KG) == {1990}
    # every award of the last year
    assert gold(record("first_last", "entity", {"head": "Q1", "adj": "last"}, "P166", set()), KG) == {"Q201", "Q202"}


def test_before_after_and_during() -> None:
    assert gold(record("before_after", "entity", {"head": "Q1", "tail": "Q100", "type": "after"}, "P39", set()), KG) == {"Q2"}
    assert gold(record("before_after", "entity", {"head": "Q1", "tail": "Q100", "type": "before"}, "P39", set()), KG) == {"Q3"}
    # teammates while Q6 played for Q300 (2003-2006), Q6 among them as the official answers have it
    assert gold(record("time_join", "entity", {"head": "Q6", "tail": "Q300"}, "P54", set()), KG) == {"Q5", "Q6", "Q7"}
    assert gold(record("before_after", "entity", {"event_head": "Q1", "tail": "Q100", "type": "before"}, "P39", set()), KG) is None


def test_a_question_is_kept_only_when_its_gold_reproduces_and_it_can_be_asked() -> None:
    assert keep(record("first_last", "entity", {"tail": "Q100", "adj": "last"}, "P39", {"Q2"}), KG)
    assert not keep(record("first_last", "entity", {"tail": "Q100", "adj": "last"}, "P39", {"Q1"}), KG)  # another gold
    assert not keep(record("first_last", "entity", {"tail": "Q999", "adj": "last"}, "P39", {"Q2"}), KG)  # entity not in the KG
    assert not keep(record("first_last", "entity", {"tail": "Q100", "adj": "last"}, "P39", {"Q2"}, text="Who was {tail2}"), KG)


def test_the_split_is_by_uniq_id_so_every_wording_of_a_question_is_on_one_side() -> None:
    parts = {part_of(uid) for uid in range(200)}
    assert parts == {"tune", "check"}
    assert part_of(12345) == part_of("12345")


def test_the_script_writes_loader_readable_json_with_the_store_s_names(tmp_path: Path) -> None:
    cron = tmp_path / "cron"
    (cron / "kg").mkdir(parents=True)
    (cron / "questions").mkdir()
    (cron / "kg" / "wd_id2entity_text.txt").write_text("Q1\tAlice\nQ2\tBob\nQ3\tBob\nQ100\tGovernor\n", encoding="utf-8")
    (cron / "kg" / "wd_id2relation_text.txt").write_text("P39\tposition held\n", encoding="utf-8")
    wd = tmp_path / "wd"
    wd.mkdir()
    (wd / "facts_named.tsv").write_text(
        "head\trelation\ttail\tstart\tend\tsplit\n"
        "Q1\tP39\tQ100\t1990\t1995\ttrain\nQ2\tP39\tQ100\t1996\t2001\ttrain\nQ3\tP39\tQ100\t1985\t1989\ttrain\n"
        "Q9\tP39\tQ100\t2010\t2012\ttrain\n", encoding="utf-8")  # Q9 has no name: not in the store
    last = record("first_last", "entity", {"tail": "Q100", "adj": "last"}, "P39", {"Q2"}, "Who was the last Governor", uid=7)
    last["question"] = "Who was the last Q100"  # the official field writes annotated entities as Qids
    again = {**last, "paraphrases": ["Who last held the post of Governor"]}  # the same uniq_id, another wording
    wrong = record("first_last", "entity", {"tail": "Q100", "adj": "first"}, "P39", {"Q1"}, uid=8)
    (cron / "questions" / "complex_valid.pickle").write_bytes(pickle.dumps([last, again, wrong]))
    cron_devset.main(["--cron", str(cron), "--wd12k", str(wd), "--out", str(tmp_path / "out"), "--ids", str(tmp_path / "ids.json")])
    part = part_of(7)
    kept = json.loads((tmp_path / "out" / f"{part}.json").read_text(encoding="utf-8"))
    assert [r["answers"] for r in kept] == [["Bob (Q2)"], ["Bob (Q2)"]]  # a shared name carries its Qid, as wd12k_named.tsv writes it
    assert json.loads((tmp_path / "ids.json").read_text(encoding="utf-8"))[part] == [7, 7]
    loaded = get_loader("cronquestions").load(tmp_path / "out" / f"{part}.json")
    assert [q.qid for q in loaded.questions] == ["7", "7#2"]  # each wording keeps a record of its own
    assert [q.text for q in loaded.questions] == ["Who was the last Governor", "Who last held the post of Governor"]
    # with the entities given (CronKGQA's setting), the annotated entity is written as the store's name
    given = get_loader("cronquestions", gold_annotations=True).load(tmp_path / "out" / f"{part}.json")
    assert [q.text for q in given.questions] == ["Who was the last Governor"] * 2
