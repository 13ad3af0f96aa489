"""Wrong rewrites of the dev halves whose reading differs from their original's (entities, first relation, pattern and
cue): the kinds of failure by the stage that differs. Usage: linkdiff.py RUN_FOLDER (written by hrun18.sh)."""
import glob
import gzip
import json
import sys

from agents.analysis import QuestionAnalyzer
from ari.base.embedding import get_embedder
from tkg_store.store import TKGStore

run = sys.argv[1]
pairs = []
for f in sorted(glob.glob(f"{run}/rw-*/results.jsonl.gz")) + [f"{run}/para/results.jsonl.gz"]:
    rows = [json.loads(line) for line in gzip.open(f, "rt")]
    orig = {r["source_quid"]: r for r in rows if r.get("style") == "original"}
    for r in rows:
        if r.get("style") != "original" and not r["hit1"] and not r["abstained"] and r["source_quid"] in orig:
            pairs.append((f.split("/")[-2], r, orig[r["source_quid"]]))
an = QuestionAnalyzer(TKGStore.open("/work/s11m/store/new.duckdb", read_only=True), get_embedder())
for s, r, o in pairs:
    a, b = an.analyze(r["question"]), an.analyze(o["question"])
    ea, eb = sorted(str(e.best) for e in a.entities), sorted(str(e.best) for e in b.entities)
    ra, rb = (a.relations[0][0] if a.relations else ""), (b.relations[0][0] if b.relations else "")
    tag = ("ENT " if ea != eb else "") + ("REL " if ra != rb else "") + ("CUE " if (a.pattern, a.cue) != (b.pattern, b.cue) else "")
    print(f"{s:22s} {tag:12s} {r['question'][:110]!r}\n      ents {ea} vs {eb} | rel {ra} vs {rb} | "
          f"{a.pattern},{a.cue} vs {b.pattern},{b.cue} | ans {r['answer']} gold {r['gold'][:2]}")
