"""The stage table: for each wrong answer of a diag.py dump, the stage whose choice made it wrong and the signals the
reading had, as Markdown rows (stage | wrong | writers | signals). Automatic and rough: "direction" is an answer on
the other side of the act than the gold (the before / after reference is not checked), "program or time constraint"
is what no other test names.

    python benchmarks/results/wrong_s20/stages.py DUMP.jsonl [...] [--drop CHANGED.json]   # CHANGED: tally.py output"""

from __future__ import annotations

import collections
import json
import sys

from tkg_store.learned import country_names
from tkg_store.store import TKGStore

STORE = TKGStore.open("/work/s11m/store/new.duckdb")
COUNTRIES = country_names(STORE)
QUALIFIER, FUZZY = "most active sectors", "closest"


def kg(name: str) -> str:
    return name.replace(" ", "_")


def signals(r: dict, names: list[str]) -> list[str]:
    """What the reading knew it was unsure of."""
    found = []
    for e in r.get("ents", []):
        tied = len(e["c"]) > 1 and e["c"][0][1] - e["c"][1][1] < 0.05
        found += ["bare country"] if QUALIFIER in e["why"] else ["fuzzy link"] if e["why"].startswith(FUZZY) else ["tied link"] if tied else []
    rels = r.get("rels", [])
    if len(rels) > 1 and rels[0][1] - rels[1][1] < 0.3:
        found.append("close relations")
    if r.get("atype") == "time" and len(names) == 1:
        found.append("one party for a time")
    return found


def sides(entity: str, relation: str) -> tuple[set[str], set[str]]:
    """Heads of (?, relation, entity) and tails of (entity, relation, ?)."""
    return {f.head for f in STORE.facts(None, relation, entity)}, {f.tail for f in STORE.facts(entity, relation, None)}


def stage(r: dict) -> str:
    """The stage whose choice made the answer wrong."""
    ents = [e for e in r.get("ents", []) if e["c"]]
    names = list(dict.fromkeys(e["c"][0][0] for e in ents))
    gold, answer, rels = {kg(g) for g in r["gold"] or []}, kg(r["answer"] or ""), [n for n, _ in r.get("rels", [])]
    if any(QUALIFIER in e["why"] for e in ents):
        return "link: bare country read as a sector"
    if any(e["why"].startswith(FUZZY) for e in ents):
        return "link: fuzzy"
    if r.get("atype") == "time":
        return "constraint dropped: a party unlinked" if len(names) == 1 else "time answer: program or time constraint"
    if names and rels:
        heads, tails = sides(names[0], rels[0])
        if (answer in tails and gold & heads and not gold & tails) or (answer in heads and gold & tails and not gold & heads):
            return "direction of the act (or the reference)"
        if not gold & (heads | tails) and any(gold & set().union(*sides(names[0], other)) for other in rels[1:3]):
            return "relation"
    if "country" in r["q"].lower() and answer in COUNTRIES and not gold & COUNTRIES:
        return "gold of another kind than asked ('which country')"
    return "program or time constraint"


def main(dumps: list[str], dropped: set[str]) -> None:
    rows: dict[str, list] = collections.defaultdict(lambda: [0, set(), collections.Counter()])
    for path in dumps:
        for line in open(path):
            r = json.loads(line)
            hit = r["base_hit"] if r["answer"] == r["base_answer"] else r["answer"] in (r["gold"] or [])
            if r["set"] == "dev" or r["abst"] or hit or r["q"] in dropped:
                continue
            names = list(dict.fromkeys(e["c"][0][0] for e in r.get("ents", []) if e["c"]))
            row = rows[stage(r)]
            row[0] += 1
            row[1].add(r["set"].removeprefix("rw-"))
            row[2][", ".join(signals(r, names)) or "none"] += 1
    for name, (count, writers, said) in sorted(rows.items(), key=lambda kv: -kv[1][0]):
        print(f"| {name} | {count} | {len(writers)} | {'; '.join(f'{k}: {v}' for k, v in said.most_common())} |")


if __name__ == "__main__":
    args = sys.argv[1:]
    drop: set[str] = set()
    if "--drop" in args:
        changed = json.load(open(args[args.index("--drop") + 1]))
        drop = {c["question"] for s in changed.values() for c in s["changed"] if c["after"].startswith("abstained")}
        args = args[:args.index("--drop")]
    main(args, drop)
