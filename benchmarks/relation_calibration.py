"""Calibrating the relation reading (issue 24): when is the first relation read a guess?

Training material is the learning split only (MultiTQ dev shard 0/2, `benchmarks.relation_reader_data` items with the
relations each question's answer is reached through), read out of sample: the split is cut in two by quid, a lexicon
is learned on one half (as `agents.lexicon_learning` learns it) and the other half is read with it, as written and in
automatic rewrites (a verb of the act replaced by a rarer WordNet verb whose plainer words name it: "criticised" ->
"castigated"), so the reader meets words it never saw as it does in use. Each reading's signals
(`RelationLinker.signals`) and whether its first relation is credited train a logistic regression, on the readings
whose verb phrase has a word no table knows (of known words the lexicon's learned reading stands). A reading is in
doubt where it is more likely wrong than right (below 0.5); the break-even cut-off (flagged readings as often wrong as
right on this material) is printed beside it for comparison. Nothing is fitted on the verb bench or an evaluation set.

    ARI_RELATION_LEXICON=lexicon_shard0.json python -m benchmarks.relation_calibration --db new.duckdb \
        --items relation_reader_items.json --out agents/analysis/data/relation_calibration.json
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.relations import RelationLinker, predicate_ngrams, verb_phrase
from agents.analysis.synonyms import SynonymMap, content_word, wordnet_verbs
from ari.base.calibration import RELATION_SIGNALS, Calibration
from ari.base.embedding import get_embedder
from benchmarks.results_io import write_json
from benchmarks.selection import shard_of
from tkg_store.relation_lexicon import RelationLexicon
from tkg_store.store import TKGStore

SEED = 17
CUT_OFF = 0.5  # in doubt where more likely wrong than right
ABOUT = "P(first relation right | RelationLinker.signals), fitted by benchmarks/relation_calibration.py on the learning split only"
_ENDINGS = (("ied", "y", "ied"), ("ed", "", "ed"), ("ing", "", "ing"), ("es", "", "es"), ("s", "", "s"))


def half_lexicon(items: list[dict]) -> RelationLexicon:
    """A lexicon learned from `items` as `learn_relation_lexicon` learns one (masked n-grams -> credited relations)."""
    lexicon = RelationLexicon()
    for item in items:
        lexicon.add(predicate_ngrams(item["masked"]), item["gold"])
    lexicon.prune(1.0)
    return lexicon


def rarer_verbs() -> dict[str, list[str]]:
    """Plain verb -> the WordNet verbs that name it among their plainer words ("criticize": castigate, ...)."""
    table: dict[str, list[str]] = defaultdict(list)
    for verb, plainer in wordnet_verbs()["verbs"].items():
        if " " not in verb:
            for plain in plainer:
                table[plain].append(verb)
    return table


def inflect(lemma: str, like: str) -> str:
    """`lemma` with the ending of `like` ("castigate", "criticised" -> "castigated"), crudely."""
    for ending, _, added in _ENDINGS:
        if like.endswith(ending):
            return (lemma[:-1] if lemma.endswith("e") and added[0] in "ei" else lemma) + added
    return lemma


def rewrites(items: list[dict], rng: random.Random, table: dict[str, list[str]]) -> list[dict]:
    """Each item with one verb of its verb phrase replaced by a rarer verb naming it (items without one are left out)."""
    forms = wordnet_verbs()["forms"]
    out = []
    for item in items:
        words = [w for w in verb_phrase(item["masked"]).split() if content_word(w)]
        options = []
        for word in words:
            bases = [forms.get(word, word)] + [word[: -len(e)] + b for e, b, _ in _ENDINGS if word.endswith(e)] + [word[: -len(e)] + "e" for e, _, _ in _ENDINGS if word.endswith(e)]
            found = next((table[b] for b in bases if b in table), [])
            options += [(word, inflect(v, word)) for v in found]
        if options:
            old, new = rng.choice(options)
            masked, text = (re.sub(rf"\b{old}\b", new, item[k], count=1) for k in ("masked", "text"))
            out.append({**item, "masked": masked, "text": text, "set": "auto_rewrite", "swap": f"{old}->{new}"})
    return out


def readings(linker: RelationLinker, items: list[dict]) -> list[dict]:
    """Each item's first relation, whether it is credited, its signals and today's `unsure`."""
    vectors = linker.vectors_of([linker.vector_text(i["text"]) for i in items])
    rows = []
    for item, vector in zip(items, vectors):
        ranked = linker.rank(item["text"], item["candidates"], vector)
        if not ranked:
            continue
        signals = linker.signals(item["masked"], ranked, vector)
        rows.append({"set": item["set"], "question": item.get("question", ""), "first": ranked[0][0], "right": ranked[0][0] in item["gold"],
                     "signals": signals, "unsure": linker.unsure(item["masked"], ranked, vector) is not None})
    return rows


def fit(rows: list[dict]) -> Calibration:
    """A logistic regression of P(first relation right | signals), in doubt where more likely wrong than right (0.5)."""
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=1.0, max_iter=5000).fit([r["signals"] for r in rows], [r["right"] for r in rows])
    weights = tuple(round(float(w), 4) for w in model.coef_[0])
    return Calibration(RELATION_SIGNALS, weights, round(float(model.intercept_[0]), 4), CUT_OFF)


def break_even(calibration: Calibration, rows: list[dict]) -> float:
    """For comparison: the highest cut-off below which the flagged readings hold at least as many wrong as right ones."""
    scored = sorted((calibration.probability(r["signals"]), r["right"]) for r in rows)
    best, wrong, right = 0.0, 0, 0
    for p, ok in scored:
        right, wrong = right + ok, wrong + (not ok)
        best = p if wrong >= right else best
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--items", required=True, help="benchmarks.relation_reader_data output (learning, learning_rewrites)")
    parser.add_argument("--out", help="the calibration (weights and cut-off) as JSON")
    parser.add_argument("--rows", help="every reading with its signals, as JSON")
    args = parser.parse_args()
    items = json.loads(Path(args.items).read_text(encoding="utf-8"))
    learning = [i for i in items if i["set"] == "learning" and i["candidates"]]
    rng, table = random.Random(SEED), rarer_verbs()
    store = TKGStore.open(args.db)
    embedder = get_embedder()
    base = QuestionAnalyzer(store, embedder).relation_linker
    rows: list[dict] = []
    for half in (0, 1):
        taught = [i for i in learning if shard_of(i["quid"], 4) // 2 != half]  # the split is shard 0 of 2: 0 or 2 of 4
        read = [i for i in learning if shard_of(i["quid"], 4) // 2 == half]
        lexicon = half_lexicon(taught)
        synonyms = SynonymMap({g: sum(row.values()) for g, row in lexicon.counts.items() if " " not in g}, embedder)  # as the analyser builds it
        linker = RelationLinker(store, embedder, lexicon, base.config, base.judge, synonyms, base.texts)
        rows += readings(linker, read + rewrites(read, rng, table))
        print(f"halves read: {half + 1}, readings so far: {len(rows)}", flush=True)
    rows = [r for r in rows if r["signals"][-1] > 0]  # the readings it is applied to: a word no table knows
    calibration = fit(rows)
    for name in sorted({r["set"] for r in rows}):
        mine = [r for r in rows if r["set"] == name]
        flagged = [r for r in mine if calibration.doubts(r["signals"])]
        print(f"{name}: {len(mine)} readings, right {sum(r['right'] for r in mine)}; flagged {len(flagged)} "
              f"(right {sum(r['right'] for r in flagged)}); unsure by RelationLinker.unsure {sum(r['unsure'] for r in mine)} (right {sum(r['right'] for r in mine if r['unsure'])})")
    print("weights", calibration.weights, "intercept", calibration.intercept, "break-even cut-off", round(break_even(calibration, rows), 3))
    if args.out:
        write_json(Path(args.out), {"_about": ABOUT, **asdict(calibration)}, indent=1)
    if args.rows:
        write_json(Path(args.rows), rows, indent=0)


if __name__ == "__main__":
    main()
