"""Names people write otherwise, on Wikidata12k: how often the linker reads an entity that CronQuestions' own
questions name by another name than the KG's ("President of the Argentine Nation" for President of Argentina,
"Quebec Prime Minister" for Premier of Quebec), with the table of names learned from those questions switched
off, so that what is measured is what reading brings to a name never seen.

    python -m benchmarks.cron_names_bench --cron ../shared/data/cronquestions --wd12k ../shared/data/wikidata12k \
        --ids IDS --db STORE --out benchmarks/results/NAME

The pairs: every complex *valid* question less the development set's check part (`--ids`, from
`benchmarks.cron_devset`), as `benchmarks.learn_aliases` reads them: the words of its paraphrase in each
template slot, against the KG name of the slot's entity, where the two differ (case and spacing aside) and the
entity is in the store; one question per (words, entity). A pair is right when a mention over those words links
the entity first, wrong when such a mention links another, none when no mention covers them. The check part's
and the test split's questions are never read.

A second, plain measure: every single-slot template of the same questions filled with a KG name of the slot's
role (seeded), where the name is written as the KG writes it: the mention must link it and nothing else.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from ari.base.text import normalize_name
from benchmarks.cron_devset import read_names
from benchmarks.learn_aliases import renamed_slots, store_name
from benchmarks.loaders.safe_pickle import load_plain_pickle


def renamed_pairs(records: list[dict], labels: dict[str, str], kg: set[str]) -> list[dict]:
    """(question, words, entity) where the question names a store entity otherwise (module docstring)."""
    named = Counter(normalize_name(label) for label in labels.values())
    pairs, seen = [], set()
    for text, words, qid in renamed_slots(records, labels):
        if (name := store_name(qid, labels, named)) in kg and (words, name) not in seen:
            seen.add((words, name))
            pairs.append({"question": text, "words": words, "entity": name})
    return pairs


def filled_templates(records: list[dict], relations: dict[str, str], facts: list[tuple[str, str, str]], seed: int) -> list[dict]:
    """Each distinct single-slot template filled with a seeded KG name of its slot's role (module docstring)."""
    heads, tails = defaultdict(set), defaultdict(set)
    for head, relation, tail in facts:
        heads[relation].add(head)
        tails[relation].add(tail)
    rng, out, seen = random.Random(seed), [], set()
    for record in records:
        template = record["template"]
        slots = [s for s in ("{head}", "{tail}") if s in template]
        if len(slots) != 1 or template.count("{") != 1 or len(record["relations"]) != 1 or template in seen:
            continue
        relation = relations.get(next(iter(record["relations"])), "")
        pool = sorted((heads if slots[0] == "{head}" else tails).get(relation, ()))
        names = [n for n in pool if " (Q" not in n]  # a namesake's KG name is no name a person writes
        if names:
            seen.add(template)
            name = rng.choice(names)
            out.append({"question": template.replace(slots[0], name), "words": name, "entity": name})
    return out


@contextmanager
def without_learned_names() -> Iterator[None]:
    """The linker with no table of learned names (the switch this measure needs; ARI always reads them)."""
    import agents.analysis.aliases as aliases
    import agents.analysis.entities as entities

    with mock.patch.object(aliases, "LEARNED_TABLES", ()), mock.patch.object(entities, "LEARNED_TABLES", ()):
        yield


def score(db: Path, items: list[dict]) -> tuple[dict[str, int], list[dict]]:
    """right / wrong / none per item (module docstring), with what each question's mentions linked."""
    from agents.analysis import QuestionAnalyzer
    from ari.base.embedding import get_embedder
    from tkg_store.store import TKGStore

    with TKGStore.open(db, read_only=True) as store:
        analyzer = QuestionAnalyzer(store, get_embedder())
        counts: Counter[str] = Counter()
        rows = []
        for item, analysis in zip(items, analyzer.analyze_batch([i["question"] for i in items])):
            words = item["words"].lower()
            over = [m for m in analysis.entities if words in m.text.lower() or m.text.lower() in words]
            kind = "right" if item["entity"] in [m.best for m in over] else "wrong" if over else "none"
            counts[kind] += 1
            rows.append({**item, "kind": kind, "linked": [[m.text, m.best] for m in analysis.entities]})
    return dict(counts), rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cron", type=Path, required=True)
    parser.add_argument("--wd12k", type=Path, required=True)
    parser.add_argument("--ids", type=Path, required=True, help="benchmarks.cron_devset's --ids file: its check part is left out")
    parser.add_argument("--db", type=Path, required=True, help="a store of wd12k_named.tsv (`ari ingest tsv`); a copy is read")
    parser.add_argument("--out", type=Path, required=True, help="folder for names.json (figures only)")
    parser.add_argument("--rows", type=Path, default=None, help="also write each question's reading here (dataset text: keep it out of the repo)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    held = {str(uid) for uid in json.loads(args.ids.read_text(encoding="utf-8"))["check"]}
    loaded = load_plain_pickle(args.cron / "questions" / "complex_valid.pickle")
    if not isinstance(loaded, list):
        raise SystemExit("complex_valid.pickle: expected a list of records")
    records = [r for r in loaded if isinstance(r, dict) and str(r.get("uniq_id")) not in held]
    labels = read_names(args.cron / "kg" / "wd_id2entity_text.txt")
    relations = read_names(args.cron / "kg" / "wd_id2relation_text.txt")
    facts = [tuple(line.split("\t")[:3]) for line in (args.wd12k / "wd12k_named.tsv").read_text(encoding="utf-8").splitlines()]
    kg = {name for head, _, tail in facts for name in (head, tail)}
    pairs = renamed_pairs(records, labels, kg)
    filled = filled_templates(records, relations, facts, args.seed)
    with tempfile.TemporaryDirectory() as work:  # a copy: the store's side tables are built for this linker alone
        db = Path(work) / args.db.name
        shutil.copy(args.db, db)
        with without_learned_names():
            renamed, renamed_rows = score(db, pairs)
            plain, plain_rows = score(db, filled)
    figures = {"renamed": {"n": len(pairs), **renamed}, "as_the_kg_writes": {"n": len(filled), **plain}, "seed": args.seed}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "names.json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    if args.rows is not None:
        args.rows.write_text(json.dumps(renamed_rows + plain_rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
