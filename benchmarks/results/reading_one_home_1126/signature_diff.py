"""What the analysis read differently between two signatures of `analysis_signature.py`:
`python signature_diff.py A.json B.json [N shown]`."""

from __future__ import annotations

import json
import sys

if __name__ == "__main__":
    a, b = (json.load(open(p)) for p in sys.argv[1:3])
    shown = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    changed = [q for q in a if q in b and a[q] != b[q]]
    for q in changed[:shown]:
        print("Q:", q)
        for key in a[q]:
            if a[q][key] != b[q].get(key):
                print("   ", key, ":", a[q][key], "->", b[q].get(key))
    print(len(changed), "changed of", len(a))
