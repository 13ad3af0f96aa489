import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
n = 0
for q in a:
    if q in b and a[q] != b[q]:
        n += 1
        if n <= int(sys.argv[3]) if len(sys.argv) > 3 else 30:
            print("Q:", q)
            for k in a[q]:
                if a[q][k] != b[q].get(k): print("   ", k, ":", a[q][k], "->", b[q].get(k))
print(n, "changed of", len(a))
