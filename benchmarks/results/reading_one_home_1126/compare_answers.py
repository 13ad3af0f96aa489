"""Compare two runs' answers question by question (results.jsonl or .gz); keys by qid + question text."""
import gzip, json, sys, os
def load(d):
    p = d + "/results.jsonl"
    f = open(p) if os.path.exists(p) else gzip.open(p + ".gz", "rt")
    out = {}
    for l in f:
        r = json.loads(l); out[(str(r.get("qid")), r.get("question"))] = r
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
keys = [k for k in a if k in b]
diff = [k for k in keys if (a[k].get("answers"), a[k].get("abstained")) != (b[k].get("answers"), b[k].get("abstained"))]
print(len(keys), "compared;", len(diff), "answers differ")
quiet = len(sys.argv) > 3
for k in diff[:40]:
    if quiet:
        print(k[0], a[k].get("hit1"), "->", b[k].get("hit1"))
    else:
        print(k[0], k[1][:110], "|", a[k].get("answers", [])[:2], a[k].get("hit1"), "->", b[k].get("answers", [])[:2], b[k].get("hit1"))
