"""Side-by-side figures: start = 5141388 (accuracy rows: /work/runs/s3/*-new, the same code and memories;
invented styles: /work/runs/s4/*-start), new = merged main (/work/runs/s4/*-new)."""
import json
import sys
from pathlib import Path

S3, S4 = Path("/work/runs/s3"), Path("/work/runs/s4")
def where(side, name):
    if side == "start":
        return (S4 if "invented" in name else S3) / name.replace("SIDE", "new" if "invented" not in name else "start")
    return S4 / name.replace("SIDE", "new")
out = {}
for side in ("start", "new"):
    row = {}
    ne = json.load(open(where(side, "noevent-SIDE") / "summary.json"))
    row["noevent"] = {k: round(ne[k], 3) for k in ("abstain_recall", "abstain_precision", "false_unknown_rate")}
    pa = json.load(open(where(side, "para-SIDE") / "summary.json"))["table"]
    row["paraphrases"] = {k: (round(v["hits_at_1"], 3), round(v["wrong"], 3)) for k, v in pa.items() if "/" not in k}
    for s in ("nine_styles", "more_styles", "invented_styles"):
        for part in ("dev", "held"):
            p = where(side, f"rw-{s}-{part}-SIDE") / "summary.json"
            if not p.exists():
                continue
            t = json.load(open(p))["table"]
            row[f"{s}-{part}"] = {k: (round(v["hits_at_1"], 3), round(v["wrong"], 3), round(v["ratio_to_original"], 2)) for k, v in t.items() if "/" not in k}
    for part in ("dev", "held"):
        p = (S3 if side == "start" else S4) / f"shapes-{part}-new" / "summary.json"
        if p.exists():
            b = json.load(open(p))["by_shape"]
            row[f"shapes-{part}"] = {k: (round(v["right"], 3), round(v["wrong"], 3), round(v["abstained"], 3)) for k, v in b.items()}
    out[side] = row
json.dump(out, open(sys.argv[1], "w"), indent=1)
for key in out["new"]:
    print(key)
    print("  start:", out["start"].get(key))
    print("  new:  ", out["new"].get(key))
