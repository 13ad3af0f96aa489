"""Counts asked with one window in many wordings, each against the brute-force count of the KG file (inclusive ends).

windows.py OUT.json [HEAD RELATION TAIL "VERB PHRASE"]; FRONT=1 puts the window first. Run with PYTHONPATH set to the code
to measure; writes {question: [verdict, gold, answer or reason]}."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile

import pandas as pd

KG = "/work/shared/data/multitq/kg/full.txt"
W = [  # phrase, from, to (None: should abstain)
("over the course of 2010", "2010-01-01", "2010-12-31"),
("throughout 2010", "2010-01-01", "2010-12-31"),
("in the course of 2010", "2010-01-01", "2010-12-31"),
("all through 2010", "2010-01-01", "2010-12-31"),
("across 2010", "2010-01-01", "2010-12-31"),
("for the whole of 2010", "2010-01-01", "2010-12-31"),
("during the whole of 2010", "2010-01-01", "2010-12-31"),
("in the whole of 2010", "2010-01-01", "2010-12-31"),
("during the entirety of 2010", "2010-01-01", "2010-12-31"),
("in all of 2010", "2010-01-01", "2010-12-31"),
("within 2010", "2010-01-01", "2010-12-31"),
("from 2009 to 2011", "2009-01-01", "2011-12-31"),
("from 2009 through 2011", "2009-01-01", "2011-12-31"),
("in 2009-2011", "2009-01-01", "2011-12-31"),
("between 2009 and 2011", "2009-01-01", "2011-12-31"),
("from 2009 until 2011", "2009-01-01", "2011-12-31"),
("from March to May 2010", "2010-03-01", "2010-05-31"),
("from March until May 2010", "2010-03-01", "2010-05-31"),
("March through May 2010", "2010-03-01", "2010-05-31"),
("in March-May 2010", "2010-03-01", "2010-05-31"),
("in March and April 2010", "2010-03-01", "2010-04-30"),
("between March 3 and May 5, 2010", "2010-03-03", "2010-05-05"),
("from 3 March to 5 May 2010", "2010-03-03", "2010-05-05"),
("from the 3rd of March to the 5th of May 2010", "2010-03-03", "2010-05-05"),
("between the 1st and the 15th of March 2010", "2010-03-01", "2010-03-15"),
("in the first half of 2010", "2010-01-01", "2010-06-30"),
("in H1 2010", "2010-01-01", "2010-06-30"),
("in the second quarter of 2010", "2010-04-01", "2010-06-30"),
("in Q2 2010", "2010-04-01", "2010-06-30"),
("in the first three months of 2010", "2010-01-01", "2010-03-31"),
("in the last three months of 2010", "2010-10-01", "2010-12-31"),
("in the final quarter of 2010", "2010-10-01", "2010-12-31"),
("over the first half of 2010", "2010-01-01", "2010-06-30"),
("during the first half of 2010", "2010-01-01", "2010-06-30"),
("in the 2000s", "2000-01-01", "2009-12-31"),
("during the 2010s", "2010-01-01", "2019-12-31"),
("from January 2010 onwards", "2010-01-01", "2099-12-31"),
("from 2012 on", "2012-01-01", "2099-12-31"),
("since the start of 2012", "2012-01-01", "2099-12-31"),
("on or after 1 March 2010", "2010-03-01", "2099-12-31"),
("on or before 1 March 2010", "1900-01-01", "2010-03-01"),
("no later than March 2010", "1900-01-01", "2010-03-31"),
("prior to March 2010", "1900-01-01", "2010-02-28"),
("in the period from March to May 2010", "2010-03-01", "2010-05-31"),
("in the months March to May 2010", "2010-03-01", "2010-05-31"),
("between 2010 and 2011 inclusive", "2010-01-01", "2011-12-31"),
("in 2010 and 2011", "2010-01-01", "2011-12-31"),
("from mid-2010 to 2011", None, None),
("in early 2010", None, None),
("in the spring of 2010", None, None),
("in the late 2000s", None, None),
]


def main(out: str, head: str, relation: str, tail: str, verb: str) -> None:
    os.environ.pop("ARI_RELATION_LEXICON", None)  # the shape sets run without it (/work/s15/hrun.sh)
    facts = pd.read_csv(KG, sep="\t", names=["h", "r", "t", "d"], dtype=str)
    facts = facts[(facts.h == head) & (facts.r == relation) & (facts.t == tail)]
    memory = os.path.join(tempfile.mkdtemp(), "m.sqlite")
    shutil.copy("/work/s11m/final.sqlite", memory)
    from ari.api import build_agent

    agent, _, _ = build_agent("/work/s11m/store/new.duckdb", memory)
    front = bool(os.environ.get("FRONT"))
    questions = [f"{p[0].upper() + p[1:]}, how many times did {verb}?" if front else f"How many times did {verb} {p}?" for p, _, _ in W]
    found = {}
    for (_, low, high), question, result in zip(W, questions, agent.ask_many(questions)):
        gold = None if low is None else str(facts[(facts.d >= low) & (facts.d <= high)].d.nunique())
        got = None if result.abstained else result.answers[0]
        verdict = "right" if got == gold else "abstained" if got is None else "wrong"
        found[question] = [verdict, gold, got if got is not None else f"abstained: {result.reason}"]
        print(f"{verdict:9} {question} gold={gold} got={found[question][2]}")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(found, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    args = sys.argv[2:] or ["Barack_Obama", "Criticize_or_denounce", "Iran", "Barack Obama criticize Iran"]
    main(sys.argv[1], *args)
