"""Dump an analysis signature per question (masked, entities, times, typing, query, relations) for before/after diffs."""
import json, sys, glob, os
sys.path.insert(0, os.getcwd())
from ari.base.embedding import get_embedder
from tkg_store.store import TKGStore
from agents.analysis import QuestionAnalyzer
import agents.analysis.analyzer as an

def corpus():
    qs = []
    for f in sorted(glob.glob("benchmarks/data/*.json")):
        d = json.load(open(f))
        if isinstance(d, dict):
            d = d["questions"]
        for x in d:
            if isinstance(x, dict) and x.get("part") == "held": continue
            if isinstance(x, dict):
                qs.append(x.get("question") or x.get("q"))
                if x.get("original"): qs.append(x["original"])
            else:
                qs.append(x)
    for x in json.load(open("benchmarks/data/shapes/dev.json")):
        qs.append(x["question"])
    dev = json.load(open("/work/shared/data/multitq/questions/dev.json"))
    qs += [x["question"] for x in dev[:4000]]
    seen = set(); out = []
    for q in qs:
        if isinstance(q, dict): q = q.get("question") or q.get("text")
        if q and q not in seen: seen.add(q); out.append(q)
    return out

def main(db, out):
    store = TKGStore.open(db)
    analyzer = QuestionAnalyzer(store, get_embedder())
    qs = corpus()
    pre = {}
    orig = an.rewrite
    def rec(masked):
        pre.setdefault(masked, 0); return orig(masked)
    an.rewrite = rec
    res = {}
    for i in range(0, len(qs), 256):
        for q, a in zip(qs[i:i+256], analyzer.analyze_batch(qs[i:i+256])):
            res[q] = dict(masked=a.masked, ents=[m.best for m in a.entities], unl=[m.text for m in a.unlinked],
                times=[(t.text, str(t.time)) for t in a.times], at=a.answer_type, tl=str(a.time_level), pat=a.pattern,
                cue=a.cue, cues=a.cues, q=repr(a.query), rels=[r for r, _ in a.relations[:3]], gram=a.grammar,
                unread=a.unreadable_times)
    json.dump(res, open(out, "w"), indent=0)
    json.dump(sorted(pre), open(out + ".premasked", "w"))
    print(len(qs), "questions")

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
