"""ARI's hand-written time patterns against the maintained parser `dateparser`, on question text.

For each question: the times each finds (as ISO strings at the stated granularity, dateparser's
as days), whether they agree, and the time taken; then the phrases issue 12 names (decades,
seasons, "early 2008", impossible dates). dateparser is not a dependency of ARI: install it where
you run this (`pip install dateparser`, or put it on PYTHONPATH).

    python -m benchmarks.time_parsing --questions dev.json --shard 0/2 --limit 1000 --out benchmarks/results/time_parsing
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from agents.analysis.times import read_times
from benchmarks.loaders import get_loader
from benchmarks.results_io import write_json
from benchmarks.selection import parse_shard, take_shard

PHRASES = [
    "Who criticised Iran in the 1850s?",
    "Who criticised Iran in the spring of 2008?",
    "Who criticised Iran in early 2008?",
    "Who criticised Iran on 2007-02-29?",
    "Who criticised Iran on 2012-13-45?",
    "Who criticised Iran on 31 April 2010?",
    "Who criticised Iran in November 2014?",
]


def ours(text: str) -> tuple[list[str], list[str]]:
    found, unreadable, _ = read_times(text)
    return [str(t.time) for t in found], unreadable


def theirs(text: str) -> list[str]:
    from dateparser.search import search_dates

    found = search_dates(text, languages=["en"], settings={"PREFER_DAY_OF_MONTH": "first"}) or []
    return [day.date().isoformat() for _, day in found]


def agree(our: list[str], their: list[str]) -> bool:
    """The same times, ours read at our granularity (dateparser gives days: a month reads as its 1st)."""
    if len(our) != len(their):
        return False
    return all(t.startswith(o) or (len(o) == 4 and t[:4] == o) for o, t in zip(our, their))


def measure(texts: list[str]) -> dict:
    started = time.perf_counter()
    mine = [ours(t) for t in texts]
    ours_s = time.perf_counter() - started
    started = time.perf_counter()
    other = [theirs(t) for t in texts]
    theirs_s = time.perf_counter() - started
    agreeing = sum(agree(m[0], o) for m, o in zip(mine, other))
    differences = [
        {"question": t, "ari": m[0], "ari_unreadable": m[1], "dateparser": o}
        for t, m, o in zip(texts, mine, other) if not agree(m[0], o)
    ]
    return {
        "questions": len(texts),
        "agree": agreeing,
        "ari_ms_per_question": round(1000 * ours_s / max(1, len(texts)), 4),
        "dateparser_ms_per_question": round(1000 * theirs_s / max(1, len(texts)), 3),
        "differences_sample": differences[:15],
        "phrases": [{"question": p, "ari": ours(p)[0], "ari_unreadable": ours(p)[1], "dateparser": theirs(p)} for p in PHRASES],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--shard", default="0/2")
    parser.add_argument("--limit", type=int, default=1000)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    questions = take_shard(get_loader("multitq").load(args.questions).questions, parse_shard(args.shard))
    report = measure([q.text for q in questions[: args.limit]])
    print(json.dumps({k: v for k, v in report.items() if k != "differences_sample"}, indent=1, ensure_ascii=False))
    if args.out:
        write_json(args.out.with_suffix(".json"), report, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
