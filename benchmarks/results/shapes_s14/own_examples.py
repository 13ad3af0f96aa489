"""Answer each line of a file of questions (own examples) with the shape memory: own_examples.py FILE OUT.json.

Run with PYTHONPATH set to the code to measure; writes {question: answer or "abstained: reason"}."""
import json
import os
import shutil
import sys
import tempfile

os.environ.pop("ARI_RELATION_LEXICON", None)  # the shape sets run without it (s13 hrun.sh)
memory = os.path.join(tempfile.mkdtemp(), "m.sqlite")
shutil.copy("/work/s11m/final.sqlite", memory)
from ari.api import build_agent  # noqa: E402

agent, _, _ = build_agent("/work/s11m/store/new.duckdb", memory)
answers = {}
for line in open(sys.argv[1], encoding="utf-8"):
    question = line.strip()
    if question and not question.startswith("#"):
        result = agent.ask(question)
        answers[question] = f"abstained: {result.reason}" if result.abstained else ", ".join(result.answers[:6])
json.dump(answers, open(sys.argv[2], "w", encoding="utf-8"), indent=1, ensure_ascii=False)
