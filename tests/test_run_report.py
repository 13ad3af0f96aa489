"""Run reports and run comparisons, drawn from small run directories written here."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from benchmarks.compare import changed_questions, load_runs, write_comparison
from benchmarks.report import figure, run_records, write_report
from benchmarks.runner import write_summary
from memory.plots import text_outside_figure

RUN_INFO = {"dataset": "multitq", "questions_file": "fixture.json", "split": None}


def record(qid: int, qtype: str, right: bool, abstained: bool = False, answerable: bool = True,
           kind: str | None = None, reason: str | None = None, confidence: float = 1.0) -> dict:
    gold = ["Kenya"] if answerable else []
    answers = [] if abstained else ["Kenya" if right else "Japan"]
    return {
        "qid": str(qid), "question": f"question {qid}", "gold": gold, "answer_type": "entity", "time_level": "day",
        "qtype": qtype, "qlabel": "Single", "answerable": answerable, "unanswerable_reason": kind,
        "answer": answers[0] if answers else None, "answers": answers, "abstained": abstained, "reason": reason,
        "steps": 2, "llm_calls": 0, "tokens": 0, "elapsed_s": 0.01, "confidence": 0.0 if abstained else confidence,
        "hit1": bool(answers) and right and answerable, "hit10": bool(answers) and right and answerable,
    }


def run_dir(path, records: list[dict]):  # noqa: ANN001, ANN201
    path.mkdir()
    (path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (path / "run.json").write_text(json.dumps(RUN_INFO))
    return path, write_summary(path, None, RUN_INFO)


def mixed_records(flip: set[int] = frozenset()) -> list[dict]:
    """Answerable questions of three types, some wrong, and unanswerable ones of two kinds."""
    records = [record(i, ("equal", "first_last", "before_last")[i % 3], (i % 4 != 0) != (i in flip),
                      confidence=0.5 + (i % 5) / 10) for i in range(1, 25)]
    records += [record(100 + i, "equal", True, abstained=True, answerable=False, kind="time_outside_kg",
                       reason="the KG covers 2005-01-01 to 2015-12-31; the question asks about 2031") for i in range(4)]
    records += [record(200 + i, "first_last", True, abstained=i < 3, answerable=False, kind="entity_not_in_kg",
                       reason="the KG has no entity named 'Atlantis'" if i < 3 else None) for i in range(4)]
    records.append(record(300, "equal", True, abstained=True, reason="no fact links Kenya and Japan"))
    return records


def titles(fig) -> list[str]:  # noqa: ANN001
    return [ax.get_title() for ax in fig.axes]


def test_report_of_a_run_with_unanswerable_questions_has_every_panel(tmp_path):
    path, summary = run_dir(tmp_path / "mixed", mixed_records())
    fig = figure(summary, run_records(path))
    assert len(fig.axes) == 5
    hits, risk, abstention, kinds, reasons = fig.axes
    assert hits.get_title().startswith("Hits@1 and Hits@10") and [t.get_text() for t in hits.get_legend().get_texts()] == ["Hits@1", "Hits@10"]
    assert [t.get_text() for t in hits.get_xticklabels()] == ["all\nn=25", "before_last\nn=8", "equal\nn=9", "first_last\nn=8"]
    assert risk.get_title().startswith("Risk-coverage (AURC") and len(risk.lines[0].get_xdata()) == 20
    assert [t.get_text() for t in abstention.get_xticklabels()] == ["precision", "recall", "F1", "false-unknown\nrate"]
    assert [t.get_text() for t in kinds.get_yticklabels()] == ["entity_not_in_kg", "time_outside_kg", "answerable"]
    assert {t.get_text(): int(p.get_width()) for t, p in zip(reasons.get_yticklabels(), reasons.patches)} == {
        "time outside the KG": 4, "an unknown name": 3, "entities never linked": 1}
    assert text_outside_figure(fig) == []


def test_report_without_unanswerable_questions_has_hits_and_risk_only(tmp_path):
    path, summary = run_dir(tmp_path / "plain", [record(i, "equal", i % 2 == 0) for i in range(1, 11)])
    fig = figure(summary, run_records(path))
    assert [t.split(" ")[0] for t in titles(fig)] == ["Hits@1", "Risk-coverage"]
    assert text_outside_figure(fig) == []


def test_write_report_writes_an_offline_html_page_beside_the_png(tmp_path):
    path, summary = run_dir(tmp_path / "mixed", mixed_records())
    written = write_report(path, summary)
    assert [p.name for p in written] == ["report.md", "report.png", "report.html"]
    page = (path / "report.html").read_text()
    assert "<svg" in page and "Reasons the agent gave for abstaining" in page and "<h2>By unanswerable_reason</h2>" in page
    assert not re.search(r"<script|<link|\ssrc=", page)


def test_changed_questions_and_the_comparison_picture(tmp_path):
    a, _ = run_dir(tmp_path / "a", mixed_records())
    b, _ = run_dir(tmp_path / "b", mixed_records(flip={4, 5}))
    c, _ = run_dir(tmp_path / "c", mixed_records(flip={8}))
    runs = load_runs([a, b, c])
    changed = changed_questions(runs)
    assert [(x["qid"], [r["correct"] for r in x["runs"]]) for x in changed] == [
        ("4", [False, True, False]), ("5", [True, False, True]), ("8", [False, False, True])]
    written = write_comparison(runs, tmp_path / "out")
    assert [p.name for p in written] == ["compare.png", "compare.md", "changed.jsonl"]
    assert len((tmp_path / "out" / "changed.jsonl").read_text().splitlines()) == 3
    assert "- B against A: 1 now right, 1 now wrong" in (tmp_path / "out" / "compare.md").read_text()
    from benchmarks.compare import figure as compare_figure

    fig = compare_figure(runs, changed)
    top, bottom = fig.axes
    assert len(top.patches) == 3 * 4 and len(bottom.patches) == 2 * 4  # runs x (all + three types)
    assert [t.get_text() for t in bottom.get_legend().get_texts()] == [
        "B - A: now right 1, now wrong 1 (questions)", "C - A: now right 1, now wrong 0 (questions)"]
    assert text_outside_figure(fig) == []


def test_compare_cli_lists_changed_questions_and_writes_the_picture(tmp_path):
    a, _ = run_dir(tmp_path / "a", mixed_records())
    b, _ = run_dir(tmp_path / "b", mixed_records(flip={4}))
    done = subprocess.run([sys.executable, "-m", "ari", "bench", "compare", str(a), str(b), "--out", str(tmp_path / "o")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "changed questions: 1" in done.stdout and "4 [first_last] question 4  =>  A ✗ Japan | B ✓ Kenya" in done.stdout
    assert (tmp_path / "o" / "compare.png").read_bytes()[:4] == b"\x89PNG"
