"""The rewrite benchmark's bookkeeping: parts kept apart, wrong answers told from abstentions."""

import json
from pathlib import Path

from benchmarks.paraphrase_bench import load_sets, markdown, summarise


def _record(quid: str, style: str, part: str) -> dict:
    return {"quid": f"{quid}-{style}", "source_quid": quid, "style": style, "part": part, "question": f"Who visited {quid}?",
            "answers": ["Iran"], "answer_type": "entity", "time_level": "day", "qtype": "equal", "qlabel": "Single"}


def test_only_the_asked_part_is_loaded(tmp_path: Path) -> None:
    rewrites = tmp_path / "rewrites.json"
    rewrites.write_text(json.dumps([_record("1", "keyword", "dev"), _record("2", "keyword", "held")]))
    dev = tmp_path / "dev.json"
    dev.write_text(json.dumps([{**_record(q, "x", "-"), "quid": q, "question": f"Who visited {q} first?"} for q in ("1", "2")]))
    originals, rewritten = load_sets([rewrites], dev, "dev")
    assert [q.extra["source_quid"] for q in rewritten] == ["1"]
    assert [q.qid for q in originals] == ["1"]
    _, both = load_sets([rewrites], dev, "all")
    assert len(both) == 2


def test_a_wrong_answer_is_not_an_abstention() -> None:
    rows = [
        {"style": "original", "qtype": "equal", "hit1": True, "abstained": False},
        {"style": "original", "qtype": "equal", "hit1": True, "abstained": False},
        {"style": "keyword", "qtype": "equal", "hit1": False, "abstained": True},
        {"style": "keyword", "qtype": "equal", "hit1": False, "abstained": False},
    ]
    table = summarise(rows)["table"]
    assert table["keyword"]["wrong"] == 0.5
    assert table["keyword"]["hits_at_1"] == 0.0
    assert table["original"]["wrong"] == 0.0
    assert table["paraphrases/equal"]["n"] == 2


def test_a_group_whose_originals_got_none_right_is_reported_without_a_ratio() -> None:
    rows = [
        {"style": "original", "qtype": "equal", "hit1": False, "abstained": True},
        {"style": "keyword", "qtype": "equal", "hit1": True, "abstained": False},
    ]
    summary = summarise(rows)
    assert summary["table"]["keyword"]["ratio_to_original"] is None
    report = markdown(summary, {"git_commit": "c", "db": "d", "memory": "m", "relation_lexicon": "l", "questions_per_second": 1.0})
    assert "| all | 0.000 (n=1) | 1.000 (-) |" in report
