"""A check tried and dropped: a noun phrase after a determiner or possessive, headed by a word of the KG's sector-role
names, that no mention covers would name a party the linker could not identify. Counts the right and wrong answers it
would refuse in results folders (run on the learning split's rewrites: it refused more right answers than wrong ones).
Usage: party_check.py RESULTS.jsonl.gz ..."""
import gzip
import json
import re
import sys

from agents.analysis import QuestionAnalyzer
from agents.analysis.sectors import content_words
from ari.base.embedding import get_embedder
from tkg_store.store import TKGStore

an = QuestionAnalyzer(TKGStore.open("/work/s11m/store/new.duckdb", read_only=True), get_embedder())
vocab = an.entity_linker._role_vocabulary
DET = r"(?:the|its|their|his|her|our|own|\{E\d+\}'s|\{E\d+\}s')"
NP = re.compile(rf"\b{DET}\s+((?:[a-z]+\s+){{0,2}}[a-z]+)\b")
ASKED = re.compile(r"\b(?:which|what|whose|any|some|each|every|other)\s+$")


def check(masked: str) -> str | None:
    for m in NP.finditer(masked):
        head = m.group(1).split()[-1]
        if not ASKED.search(masked[: m.start()]) and content_words(head) and content_words(head) <= vocab:
            return m.group(0)
    return None


tot: dict[str, int] = {}
for f in sys.argv[1:]:
    rows = [json.loads(line) for line in gzip.open(f, "rt")]
    for r, a in zip(rows, an.analyze_batch([r["question"] for r in rows])):
        if not r["abstained"] and (hit := check(a.masked)):
            kind = "right" if r["hit1"] else "wrong"
            tot[kind] = tot.get(kind, 0) + 1
            print(kind, "|", hit, "|", a.masked[:120])
print("TOTAL", tot)
