import json, sys
from pathlib import Path
def tot(p):
    s = json.load(open(p / "summary.json"))
    if "by_shape" in s:
        a = s["by_shape"]["all"]; u = s["by_shape"].get("unanswerable", {})
        return f"{a['right']:.3f}/{a['wrong']:.3f}/{a['abstained']:.3f} (unans abst {u.get('abstained', 0)*u.get('n', 0):.0f}/{u.get('n', 0)})"
    t = s["table"]["paraphrases"]
    return f"{t['hits_at_1']:.3f}/{t['wrong']:.3f}"
runs = {"start": ("/work/runs/s8b", "{}-new", "/work/runs/s9", "{}-start"), "new": ("/work/runs/s9", "{}-new", None, None)}
names = ["shapes-held", "shapes_h7-held", "shapes_h9-held", "shapes-dev", "shapes_h7-dev", "shapes_h9-dev", "rw-nine_styles-held", "rw-more_styles-held", "rw-invented_styles-held", "rw-w10_w11-held"]
cols = ["start", "new"] + sys.argv[1:]
print("| set | " + " | ".join(cols) + " |")
for n in names:
    row = []
    for c in cols:
        if c == "start":
            p = Path("/work/runs/s9") / f"{n}-start"
            if not p.exists(): p = Path("/work/runs/s8b") / f"{n}-new"
        elif c == "new":
            p = Path("/work/runs/s9") / f"{n}-new"
        else:
            p = Path("/work/runs/s9abl") / c / n
        row.append(tot(p) if (p / "summary.json").exists() else "-")
    print(f"| {n} | " + " | ".join(row) + " |")
