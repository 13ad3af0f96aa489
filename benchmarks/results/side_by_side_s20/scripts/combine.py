"""Check the writers' files against their sources and write the set (all) and its dev half."""
import json
from collections import Counter

recs = []
for w in ("w45", "w46"):
    src = {s["source_quid"]: s for s in json.load(open(f"{w}_sources.json"))}
    out = json.load(open(f"{w}_rewrites.json"))
    styles = Counter(r["style"] for r in out)
    assert len(out) == 96 and len(styles) == 2 and set(styles.values()) == {48}, (w, len(out), styles)
    seen = set()
    for r in out:
        s = src[r["source_quid"]]
        for k in ("answers", "answer_type", "time_level", "qtype", "qlabel", "part"):
            assert r[k] == s[k], (w, r["quid"], k)
        assert r["original"] == s["question"] and r["question"].strip() != s["question"].strip(), r["quid"]
        assert r["quid"] == f'{r["source_quid"]}-{r["style"]}' and r["writer"] == w, r["quid"]
        assert (r["source_quid"], r["style"]) not in seen
        seen.add((r["source_quid"], r["style"]))
    recs += out
    print(w, dict(styles))
json.dump(recs, open("rw_w45_w46_all.json", "w"), indent=1, ensure_ascii=False)
dev = [r for r in recs if r["part"] == "dev"]
json.dump(dev, open("rw_w45_w46.json", "w"), indent=1, ensure_ascii=False)
print(len(recs), "all,", len(dev), "dev")
