"""How often the relation reader reads everyday verbs right, wrong or "not sure" (issue 24).

The phrases (`benchmarks/data/everyday_verbs.json`) are general English written for this bench, a few per ICEWS event
type, each with X for the other party. Each is put into two questions about a pair the KG records for the relation
(the pair whose object is a plain name and has most such facts, and the next with another object), so the relation is
among the candidates and only the wording decides. A reading is right when the first relation is the phrase's or one
English does not tell apart from it (`also`), unsure when the analysis flags it (`unsure_relation`, an unrecorded act,
or words left unread: the judge abstains on each), else wrong. Phrases are split by whether the lexicon learned every
content word of the verb phrase ("seen") or not ("unseen").

    ARI_RELATION_LEXICON=lexicon_shard0.json python -m benchmarks.verb_bench --db new.duckdb [--out FILE] [--show]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.relations import verb_phrase
from agents.analysis.synonyms import content_word
from agents.analysis.types import QuestionAnalysis
from ari.base.embedding import get_embedder
from benchmarks.results_io import write_json
from tkg_store.store import TKGStore

VERBS = Path(__file__).parent / "data" / "everyday_verbs.json"
TEMPLATES = ("Who {p} in {year}?", "Which actor {p} first?")


def pairs(store: TKGStore, relation: str, many: int = 2) -> list[tuple[str, int]]:
    """(object as written, a year it happened) for the `many` plain-named objects with most facts of `relation`."""
    by_tail: Counter[str] = Counter()
    year: dict[str, int] = {}
    for fact in store.facts(relation=relation):
        if "(" not in fact.tail and "Citizen" not in fact.tail and fact.start is not None:
            by_tail[fact.tail] += 1
            year.setdefault(fact.tail, fact.start.year)
    return [(store.display(tail), year[tail]) for tail, _ in by_tail.most_common(many)]


def outcome(analysis: QuestionAnalysis, accepted: set[str]) -> str:
    """right | wrong | unsure for one question's reading."""
    if analysis.unsure_relation or analysis.query.unsupported or analysis.unaccounted:
        return "unsure"
    first = analysis.relations[0][0] if analysis.relations else None
    return "right" if first in accepted else "wrong"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--out", help="JSON of the figures and every reading")
    parser.add_argument("--show", action="store_true", help="print each wrong or unsure reading")
    args = parser.parse_args()
    store = TKGStore.open(args.db)
    analyzer = QuestionAnalyzer(store, get_embedder())
    lexicon = analyzer.lexicon.counts if analyzer.lexicon is not None else {}
    items = []
    for relation, entry in json.loads(VERBS.read_text(encoding="utf-8"))["relations"].items():
        accepted = {relation, *entry.get("also", ())}
        for tail, year in pairs(store, relation):
            for phrase in entry["phrases"]:
                words = [w for w in verb_phrase(phrase.replace("X", " ")).split() if content_word(w)]
                seen = all(w in lexicon for w in words)
                for template in TEMPLATES:
                    question = template.format(p=phrase.replace("X", tail), year=year)
                    items.append({"question": question, "relation": relation, "accepted": sorted(accepted), "phrase": phrase, "seen": seen})
    analyses = []
    for start in range(0, len(items), 256):
        analyses += analyzer.analyze_batch([i["question"] for i in items[start : start + 256]])
    rows: dict[str, Counter[str]] = {"all": Counter(), "seen": Counter(), "unseen": Counter()}
    for item, analysis in zip(items, analyses):
        item["read"] = analysis.relations[0][0] if analysis.relations else None
        item["outcome"] = outcome(analysis, set(item["accepted"]))
        item["why"] = analysis.unsure_relation or analysis.query.unsupported or analysis.unaccounted
        for key in ("all", "seen" if item["seen"] else "unseen"):
            rows[key][item["outcome"]] += 1
        if args.show and item["outcome"] != "right":
            print(f"{item['outcome']:6} {item['relation'][:30]:30} -> {str(item['read'])[:40]:40} | {item['question']}")
    figures = {k: {"questions": sum(c.values()), **{o: c[o] for o in ("right", "wrong", "unsure")}} for k, c in rows.items()}
    print("| phrases | questions | right | wrong | unsure |\n| --- | --- | --- | --- | --- |")
    for key, f in figures.items():
        print(f"| {key} | {f['questions']} | {f['right']} | {f['wrong']} | {f['unsure']} |")
    if args.out:
        write_json(Path(args.out), {"figures": figures, "items": items}, indent=1)


if __name__ == "__main__":
    main()
