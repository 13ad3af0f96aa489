"""Side-by-side figures, tenth session: start = 4032dfe (older sets: /work/runs/s9/*-new, the runs of 7a63d58, whose
answers 4032dfe keeps; the new sets w19_w20 and the unrecorded-act probes: /work/runs/s10/*-start), new = merged main
(/work/runs/s10/*-new). Held parts are printed as totals per set and style only."""
import gzip
import json
import sys
from pathlib import Path

S9 = Path("/work/runs/s9")
S10 = Path("/work/runs/s10")


def folder(name: str, side: str) -> Path:
    if side == "start" and not (S10 / f"{name}-start").exists():
        return S9 / f"{name}-new"
    return S10 / f"{name}-{side}"


def summary(name: str, side: str) -> dict:
    return json.load(open(folder(name, side) / "summary.json"))


def results(name: str, side: str) -> list[dict]:
    path = folder(name, side) / "results.jsonl"
    return [json.loads(line) for line in (open(path) if path.exists() else gzip.open(f"{path}.gz", "rt"))]


def side_row(side: str) -> dict:
    row: dict = {}
    d = summary("dev", side)
    row["dev"] = (round(d["hits_at_1"], 4), d["abstained"])
    ne = summary("noevent", side)
    row["noevent"] = {k: round(ne[k], 3) for k in ("abstain_recall", "abstain_precision", "false_unknown_rate", "hits_at_1")}
    pa = summary("para", side)["table"]
    row["paraphrases"] = {k: (round(v["hits_at_1"], 3), round(v["wrong"], 3)) for k, v in pa.items() if "/" not in k}
    for s in ("nine_styles", "more_styles", "invented_styles", "w10_w11", "w19_w20"):
        for part in ("dev", "held"):
            t = summary(f"rw-{s}-{part}", side)["table"]
            row[f"{s}-{part}"] = {k: (round(v["hits_at_1"], 3), round(v["wrong"], 3), round(v["ratio_to_original"], 2)) for k, v in t.items() if "/" not in k}
    for name in ("shapes", "shapes_h5", "shapes_h7", "shapes_h9"):
        for part in ("dev", "held"):
            shape_run = summary(f"{name}-{part}", side)
            row[f"{name}-{part}"] = {k: (round(v["right"], 3), round(v["wrong"], 3), round(v["abstained"], 3)) for k, v in shape_run["by_shape"].items()}
    for name in ("unseen-dev", "unseen-held", "probe-w17-dev", "probe-w17-held", "probe-w18-dev", "probe-w18-held"):
        rs = results(name, side)
        right = sum(bool(r["hit1"]) and not r["abstained"] and r.get("answerable", True) for r in rs)
        row[name] = {"n": len(rs), "right": right, "wrong": sum(not r["abstained"] for r in rs) - right, "abstained": sum(r["abstained"] for r in rs)}
    return row


out = {side: side_row(side) for side in sys.argv[2:] or ("start", "new")}
json.dump(out, open(sys.argv[1], "w"), indent=1)
for key in next(iter(out.values())):
    print(key)
    for side, row in out.items():
        print(f"  {side}:", row.get(key))
