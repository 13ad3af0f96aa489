"""Side-by-side figures: start = 116df93 (accuracy rows: /work/runs/s4/*-new, the fourth session's runs of the same
code and memories; this session's own sets: /work/runs/s5/*-start), new = merged main (/work/runs/s5/*-new)."""
import json
import sys
from pathlib import Path

S4, S5 = Path("/work/runs/s4"), Path("/work/runs/s5")
OWN = ("unseen-", "shapesh5-")
def where(side, name):
    if side == "start":
        return S5 / name.replace("SIDE", "start") if name.startswith(OWN) else S4 / name.replace("SIDE", "new")
    return S5 / name.replace("SIDE", "new")
def outcome(p):
    s = json.load(open(p / "summary.json"))
    return s
out = {}
for side in ("start", "new"):
    row: dict[str, object] = {}
    d = outcome(where(side, "dev-SIDE"))
    row["dev"] = (round(d["hits_at_1"], 4), d["abstained"])
    ne = outcome(where(side, "noevent-SIDE"))
    row["noevent"] = {k: round(ne[k], 3) for k in ("abstain_recall", "abstain_precision", "false_unknown_rate")}
    pa = outcome(where(side, "para-SIDE"))["table"]
    row["paraphrases"] = {k: (round(v["hits_at_1"], 3), round(v["wrong"], 3)) for k, v in pa.items() if "/" not in k}
    for s in ("nine_styles", "more_styles", "invented_styles"):
        for part in ("dev", "held"):
            p = where(side, f"rw-{s}-{part}-SIDE")
            t = outcome(p)["table"]
            row[f"{s}-{part}"] = {k: (round(v["hits_at_1"], 3), round(v["wrong"], 3), round(v["ratio_to_original"], 2)) for k, v in t.items() if "/" not in k}
    for name in ("shapes", "shapesh5"):
        for part in ("dev", "held"):
            s = outcome(where(side, f"{name}-{part}-SIDE"))
            row[f"{name}-{part}"] = {k: (round(v["right"], 3), round(v["wrong"], 3), round(v["abstained"], 3)) for k, v in s["by_shape"].items()}
    for part in ("dev", "held"):
        rs = [json.loads(line) for line in open(where(side, f"unseen-{part}-SIDE") / "results.jsonl")]
        row[f"unseen-{part}"] = {"n": len(rs), "right": sum(r["hit1"] for r in rs), "wrong": sum((not r["hit1"]) and not r["abstained"] for r in rs), "abstained": sum(r["abstained"] for r in rs)}
    out[side] = row
json.dump(out, open(sys.argv[1], "w"), indent=1)
for key in out["new"]:
    print(key)
    print("  start:", out["start"].get(key))
    print("  new:  ", out["new"].get(key))
