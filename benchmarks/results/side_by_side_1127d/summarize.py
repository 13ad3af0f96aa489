"""Side-by-side figures, ninth session: start = c0eacff (older sets: /work/runs/s8b/*-new, the 0f0df56 runs whose
answers c0eacff keeps; shapes_h9 and shapes_h8_diag: /work/runs/s9/*-start), new = merged main (/work/runs/s9/*-new)."""
import json
import sys
from pathlib import Path

S8B = Path("/work/runs/s8b")
S9 = Path("/work/runs/s9")


def folder(name: str, side: str) -> Path:
    if side == "start" and not (S9 / f"{name}-start").exists():
        return S8B / f"{name}-new"
    return S9 / f"{name}-{side}"


def summary(name: str, side: str) -> dict:
    return json.load(open(folder(name, side) / "summary.json"))


def side_row(side: str) -> dict:
    row: dict = {}
    d = summary("dev", side)
    row["dev"] = (round(d["hits_at_1"], 4), d["abstained"])
    ne = summary("noevent", side)
    row["noevent"] = {k: round(ne[k], 3) for k in ("abstain_recall", "abstain_precision", "false_unknown_rate")}
    pa = summary("para", side)["table"]
    row["paraphrases"] = {k: (round(v["hits_at_1"], 3), round(v["wrong"], 3)) for k, v in pa.items() if "/" not in k}
    for s in ("nine_styles", "more_styles", "invented_styles", "w10_w11"):
        for part in ("dev", "held"):
            t = summary(f"rw-{s}-{part}", side)["table"]
            row[f"{s}-{part}"] = {k: (round(v["hits_at_1"], 3), round(v["wrong"], 3), round(v["ratio_to_original"], 2)) for k, v in t.items() if "/" not in k}
    for name in ("shapes", "shapes_h5", "shapes_h7", "shapes_h9"):
        for part in ("dev", "held"):
            shape_run = summary(f"{name}-{part}", side)
            row[f"{name}-{part}"] = {k: (round(v["right"], 3), round(v["wrong"], 3), round(v["abstained"], 3)) for k, v in shape_run["by_shape"].items()}
    for part in ("dev", "held"):
        rs = [json.loads(line) for line in open(folder(f"unseen-{part}", side) / "results.jsonl")]
        row[f"unseen-{part}"] = {"n": len(rs), "right": sum(r["hit1"] for r in rs),
                                 "wrong": sum((not r["hit1"]) and not r["abstained"] for r in rs), "abstained": sum(r["abstained"] for r in rs)}
    return row


out = {side: side_row(side) for side in sys.argv[2:] or ("start", "new")}
json.dump(out, open(sys.argv[1], "w"), indent=1)
for key in next(iter(out.values())):
    print(key)
    for side, row in out.items():
        print(f"  {side}:", row.get(key))
