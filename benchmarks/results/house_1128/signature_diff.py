"""Which questions two analysis signatures (`house_1127/analysis_signature.py`) read differently, and how:
`python signature_diff.py BEFORE.json AFTER.json [N]` prints the count and the first N changed questions."""

from __future__ import annotations

import json
import sys


def main(before: str, after: str, shown: int = 8) -> None:
    a, b = json.load(open(before)), json.load(open(after))
    changed = [q for q in a if a[q] != b.get(q)]
    print(len(a), "questions,", len(changed), "changed")
    for q in changed[:shown]:
        print("Q:", q)
        for field in a[q]:
            if a[q][field] != b[q].get(field):
                print("  ", field, ":", str(a[q][field])[:300], "->", str(b[q].get(field))[:300])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 8)
