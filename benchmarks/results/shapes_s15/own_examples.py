"""Answer each line of a file of questions (own examples) with the shape memory: own_examples.py FILE OUT.json.

Run with PYTHONPATH set to the code to measure; writes {question: answer or "abstained: reason"}."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile


def main(questions: str, out: str) -> None:
    os.environ.pop("ARI_RELATION_LEXICON", None)  # the shape sets run without it (/work/s13/hrun.sh)
    memory = os.path.join(tempfile.mkdtemp(), "m.sqlite")
    shutil.copy("/work/s11m/final.sqlite", memory)
    from ari.api import build_agent

    agent, _, _ = build_agent("/work/s11m/store/new.duckdb", memory)
    answers = {}
    for line in open(questions, encoding="utf-8"):
        question = line.strip()
        if question and not question.startswith("#"):
            result = agent.ask(question)
            answers[question] = f"abstained: {result.reason}" if result.abstained else ", ".join(result.answers[:6])
    with open(out, "w", encoding="utf-8") as f:
        json.dump(answers, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
