"""Prototype, not built: in "WH did SUBJECT VERB ...", a subject that is a noun phrase with no linked name names a doer the linker
missed ("what year did the pentagon first praise {E1}"). Counts the right and wrong answers it would refuse."""
import gzip
import json
import re
import sys

from agents.analysis import QuestionAnalyzer
from ari.base.embedding import get_embedder
from tkg_store.store import TKGStore

an = QuestionAnalyzer(TKGStore.open("/work/s11m/store/new.duckdb", read_only=True), get_embedder())
SUBJ = re.compile(r"\b(?:did|does|do)\s+(?P<np>(?:the|its|their|his|her)\s+(?:own\s+)?[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2}?)\s+"
                  r"(?:first\s+|last\s+|ever\s+|also\s+|again\s+|initially\s+|finally\s+)?(?P<verb>[a-z]+)\b(?!\s*\{E)")
tot: dict[str, int] = {}
for f in sys.argv[1:]:
    rows = [json.loads(line) for line in (gzip.open(f, "rt") if f.endswith(".gz") else open(f))]
    for r, a in zip(rows, an.analyze_batch([r["question"] for r in rows])):
        if r["abstained"]:
            continue
        m = SUBJ.search(a.masked)
        if m:
            kind = "right" if r["hit1"] else "wrong"
            tot[kind] = tot.get(kind, 0) + 1
            print(kind, "|", m.group(0), "|", a.masked[:120])
print("TOTAL", tot)
