"""A question that cannot be read (a lone surrogate from a JSON file, bytes that are not UTF-8 from
argv) is that question's problem: refused where it enters, or answered on its own, never the end of
its batch (the tokenizer, SQLite and results.jsonl cannot encode it)."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from ari.base.errors import DatasetError
from ari.base.text import question_problem, readable, unreadable
from benchmarks.loaders import get_loader
from tkg_store.demo import demo_questions

GOOD = demo_questions()[0]  # "Who was the last to criticise Iran before Pervez Musharraf did?"


def test_unreadable_names_what_and_where():
    assert unreadable("Who visited China in 2009?") is None
    assert unreadable("Who\ud800?") == "a lone surrogate U+D800 at character 4"
    assert unreadable("Who \udcff?") == "invalid UTF-8 byte 0xff at character 5"  # surrogateescape of 0xff
    assert unreadable("a\x00b") == "a NUL character at character 2"
    assert unreadable(None) == "expected text, got NoneType"
    assert readable("Who\ud800 \x00?") == "Who\ufffd \ufffd?"


def test_one_rule_for_what_a_question_may_be():
    # `ari ask` (a usage error), the question loaders (a malformed record) and `ari serve` (422) use it
    assert question_problem("Who visited China in 2009?") is None
    assert question_problem(" \t") == "is empty"
    assert question_problem("x" * 2001) == "is longer than 2000 characters (2001)"
    assert question_problem("Who\x00?") == "cannot be read: a NUL character at character 4"
    assert question_problem(7) == "cannot be read: expected text, got int"


def test_a_lone_surrogate_in_a_questions_file_is_that_record_s_error(tmp_path):
    records = [GOOD, dict(GOOD, quid=2, question="Who visited \\ud800 China?"), dict(GOOD, quid=3)]
    path = tmp_path / "q.json"
    path.write_text("[" + ",".join(json.dumps(r) if i != 1 else json.dumps(r).replace("\\\\ud800", "\\ud800")
                                   for i, r in enumerate(records)) + "]", encoding="utf-8")
    assert "\ud800" in json.loads(path.read_text())[1]["question"]  # the file holds a real lone surrogate
    with pytest.raises(DatasetError, match=r"record 1 is not a MultiTQ question \(question text cannot be read: "
                                            r"a lone surrogate U\+D800 at character 13\); --skip-bad"):
        get_loader("multitq").load(path)
    loaded = get_loader("multitq").load(path, skip_bad=True)
    assert [q.qid for q in loaded.questions] == ["1", "3"] and loaded.skipped == 1


@pytest.mark.parametrize(("text", "why"), [("Who\x00 visited China?", "cannot be read: a NUL character at character 4"),
                                         ("  ", "is empty")], ids=["NUL", "blank"])
def test_a_questions_file_refuses_the_record_ari_serve_refuses(tmp_path, text, why):
    path = tmp_path / "q.json"
    path.write_text(json.dumps([GOOD, dict(GOOD, quid=2, question=text)]), encoding="utf-8")
    with pytest.raises(DatasetError, match=re.escape(f"record 1 is not a MultiTQ question (question text {why})")):
        get_loader("multitq").load(path)


@pytest.fixture(scope="module")
def agent(demo_store_file, tmp_path_factory):
    from agents.agent import Agent
    from ari.base.config import AgentConfig
    from memory import Memory, bundled_memory_path
    from tkg_store.store import TKGStore

    copy = tmp_path_factory.mktemp("memory") / "demo-memory.sqlite"
    shutil.copyfile(bundled_memory_path(), copy)
    with Memory.open(copy, create=False) as memory, TKGStore.open(demo_store_file) as store:
        yield Agent(store, memory, AgentConfig(decider="offline"))


def test_an_unreadable_question_does_not_fail_its_batch(agent):
    results = agent.ask_many([GOOD["question"], "Who visited \ud800 China?", "\udcff\udcfe", GOOD["question"]])
    assert len(results) == 4
    assert results[0].answer == results[3].answer == GOOD["answers"][0]
    assert "\ud800" not in results[1].question and "\ufffd" in results[1].question
    assert results[2].abstained and results[2].reason
    json.dumps([r.to_dict() for r in results], ensure_ascii=False).encode("utf-8")  # each result can be written
