"""Which relations share a word (`word_key`) of their name or description with WordNet's plainer words for each verb
phrase of the unseen-verbs set, and whether that singles out the phrase's own relation group (README, "Also tried").

    python benchmarks/results/wordnet_verbs/agreement_probe.py STORE OUT.json
"""

import json
import re
import sys
from collections import Counter

from agents.analysis.synonyms import content_word, plainer_words
from ari.base.text import STOP_WORDS, word_key
from benchmarks.unseen_verbs_set import VERBS
from tkg_store.store import TKGStore

DESCRIPTIONS = json.load(open("agents/analysis/data/multitq_relation_descriptions.json"))["relations"]


def keys(text: str) -> set[str]:
    return {word_key(w) for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 4 and w not in STOP_WORDS}


with TKGStore.open(sys.argv[1]) as store:
    relations = sorted(store.relation_names())
texts = {r: keys(r.replace("_", " ") + " " + DESCRIPTIONS.get(r, {}).get("description", "")) for r in relations}
group = {r: DESCRIPTIONS.get(r, {}).get("group", r) for r in relations}
rows = []
for relation, forms in VERBS.items():
    for _, past in forms:
        words = past.replace("{Y}", "").split()
        plainer = [p for i, w in enumerate(words) if content_word(w) for p in plainer_words(" ".join(words[i : i + 2])) or plainer_words(w)]
        found = {word_key(x) for p in plainer for x in p.split() if len(x) >= 4}
        groups = {group[r] for r in relations if found & texts[r]}
        verdict = "none" if not groups else "right" if groups == {group[relation]} else "among several" if group[relation] in groups else "wrong"
        rows.append({"phrase": " ".join(words), "relation": relation, "plainer": plainer, "groups": sorted(groups), "verdict": verdict})
json.dump(rows, open(sys.argv[2], "w"), indent=1)
print(Counter(r["verdict"] for r in rows))
