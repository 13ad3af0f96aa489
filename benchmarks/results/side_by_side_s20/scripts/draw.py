"""Draw 48 sources per new writer (w45, w46) from dev shard 1/2's benchmark sample, unused by earlier sets."""
import glob
import json
import random

used = set()
for f in glob.glob("/work/main/benchmarks/data/multitq_*.json") + glob.glob("/work/main/benchmarks/data/*diagnostic*.json"):
    try:
        d = json.load(open(f))
    except Exception:
        continue
    recs = d if isinstance(d, list) else d.get("questions", d.get("items", []))
    for r in recs:
        if isinstance(r, dict):
            for k in ("source_quid", "quid", "qid", "source_qid"):
                if k in r:
                    used.add(str(r[k]).split("-")[0])
rows = [json.loads(line) for line in open("/work/runs/r1/dev/results.jsonl")]
pool = [r for r in rows if r["qid"] not in used]
print(len(rows), "sample", len(used), "used", len(pool), "pool")
rng = random.Random(1129)
rng.shuffle(pool)
for i, w in enumerate(("w45", "w46")):
    out = []
    for j, r in enumerate(pool[i * 48 : (i + 1) * 48]):
        out.append({"source_quid": r["qid"], "question": r["question"], "answers": r["gold"], "answer_type": r["answer_type"],
                    "time_level": r["time_level"], "qtype": r["qtype"], "qlabel": r["qlabel"], "part": "dev" if j % 2 == 0 else "held"})
    json.dump(out, open(f"/work/s20/writers/{w}_sources.json", "w"), indent=1)
