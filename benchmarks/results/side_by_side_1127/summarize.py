"""Side-by-side figures, sixth session: start = 3caff24, new = merged main; runs under /work/runs/s6 (final.sh)."""
import json
import sys
from pathlib import Path

R = Path("/work/runs/s6")


def summary(name: str) -> dict:
    return json.load(open(R / name / "summary.json"))


def side_row(side: str) -> dict:
    row: dict = {}
    d = summary(f"dev-{side}")
    row["dev"] = (round(d["hits_at_1"], 4), d["abstained"])
    ne = summary(f"noevent-{side}")
    row["noevent"] = {k: round(ne[k], 3) for k in ("abstain_recall", "abstain_precision", "false_unknown_rate")}
    pa = summary(f"para-{side}")["table"]
    row["paraphrases"] = {k: (round(v["hits_at_1"], 3), round(v["wrong"], 3)) for k, v in pa.items() if "/" not in k}
    for s in ("nine_styles", "more_styles", "invented_styles"):
        for part in ("dev", "held"):
            t = summary(f"rw-{s}-{part}-{side}")["table"]
            row[f"{s}-{part}"] = {k: (round(v["hits_at_1"], 3), round(v["wrong"], 3), round(v["ratio_to_original"], 2)) for k, v in t.items() if "/" not in k}
    for name in ("shapes", "shapes_h5"):
        for part in ("dev", "held"):
            shaped = summary(f"{name}-{part}-{side}")["by_shape"]
            row[f"{name}-{part}"] = {k: (round(v["right"], 3), round(v["wrong"], 3), round(v["abstained"], 3)) for k, v in shaped.items()}
    for part in ("dev", "held"):
        rs = [json.loads(line) for line in open(R / f"unseen-{part}-{side}" / "results.jsonl")]
        row[f"unseen-{part}"] = {"n": len(rs), "right": sum(r["hit1"] for r in rs),
                                 "wrong": sum((not r["hit1"]) and not r["abstained"] for r in rs), "abstained": sum(r["abstained"] for r in rs)}
    return row


out = {side: side_row(side) for side in sys.argv[2:] or ("start", "new")}
json.dump(out, open(sys.argv[1], "w"), indent=1)
for key in next(iter(out.values())):
    print(key)
    for side, row in out.items():
        print(f"  {side}:", row.get(key))
