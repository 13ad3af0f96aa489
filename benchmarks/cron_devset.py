"""A CronQuestions development set on Wikidata12k: the complex *valid* questions whose official gold
Wikidata12k reproduces exactly, split into a `tune` and a `check` part.

    python -m benchmarks.cron_devset --cron ../shared/data/cronquestions --wd12k ../shared/data/wikidata12k \
        --out /tmp/cron_wd12k   # writes tune.json, check.json (outside the repo: they hold dataset text)

The rule. A complex valid question is kept when all of these hold:
1. every entity and relation it is annotated with (`entities`, `relations`) is in the Wikidata12k the
   store holds: `facts_named.tsv` rows whose head and tail are named in CronQuestions' name file
   (the rows of `wd12k_named.tsv`), less the rows whose interval ends before it starts (`ari ingest tsv
   --skip-bad` skips them);
2. its paraphrase (what ARI is asked) has no unfilled template slot such as `{tail2}`;
3. the gold computed from those facts by the template's semantics below equals the official answer
   set, and is not empty.

The semantics are CronQuestions' (its generator splits each interval into one fact per year, so an
interval holds in every year from its start to its end; a fact with one open end holds in its known
year only). `r` is the question's one relation; "the facts of X" are the facts with X in the role the
annotation gives it:
- first / last (`adj`): the tails of the head's facts (or the heads of the tail's, or the time of the
  (head, tail) facts) that hold in the earliest year (first) or the latest year (last); all ties;
- before / after (`type`, with `head` and `tail`): for position held (head held tail), the holders of
  tail, other than head, whose holding starts latest while ending no later than head's first start
  (before), or starts earliest no earlier than head's last end (after); for a team or an employer
  (head played for / worked at tail), the head's other tails chosen the same way around head's
  holding of tail;
- during (`time_join`, with `head` and `tail`, no `tail2`): every entity with a fact (·, r, tail)
  that holds in some year head's (head, r, tail) facts hold (head included, as the official answers do).
Questions about an event (`event_head`) never pass rule 1: Wikidata12k holds no event entities.

The split: a question is in `check` when sha256 of its uniq_id (decimal) is odd, else in `tune`. Tune
and learn only on `tune`. The complex test questions are never read here.

The answers are written as the store's entity names (wd12k_named.tsv names, "Name (Qid)" where a name
is shared) so `ari bench run cronquestions --questions` compares them with what ARI answers, and so is
each annotated entity in the official `question` field, which writes it as its KG name (the setting of
CronKGQA and its successors, `--gold-annotations`: the entities are given, not linked); every other
field is the official record's (sets as sorted lists). The kept uniq_ids are printed to
`--ids` (small, no dataset text), with the commands that learn a memory and measure on the set.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.loaders.safe_pickle import load_plain_pickle


@dataclass(frozen=True)
class Fact:
    head: str
    relation: str
    tail: str
    first: int  # the earliest year it holds
    last: int  # the latest year it holds


class Facts:
    """Wikidata12k's facts by (relation, head) and (relation, tail), in Qids."""

    def __init__(self, facts: Iterable[Fact]) -> None:
        self.by_head: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        self.by_tail: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        self.entities: set[str] = set()
        self.relations: set[str] = set()
        for fact in facts:
            self.by_head[(fact.relation, fact.head)].append(fact)
            self.by_tail[(fact.relation, fact.tail)].append(fact)
            self.entities.update((fact.head, fact.tail))
            self.relations.add(fact.relation)


def read_names(path: Path) -> dict[str, str]:
    names: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, _, text = line.partition("\t")
        if text:
            names[key] = text
    return names


def read_facts(path: Path, entity_names: dict[str, str], relation_names: dict[str, str]) -> list[Fact]:
    """The rows of facts_named.tsv that wd12k_named.tsv keeps and `ari ingest tsv --skip-bad` stores."""
    facts = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        head, relation, tail, start, end, _split = line.split("\t")
        if head not in entity_names or tail not in entity_names or relation not in relation_names:
            continue
        if not start and not end:
            continue
        first = int(start) if start else int(end)
        last = int(end) if end else int(start)
        if start and end and last < first:
            continue
        facts.append(Fact(head, relation, tail, first, last))
    return facts


def store_names(entity_names: dict[str, str], qids: Iterable[str]) -> dict[str, str]:
    """Qid -> the name wd12k_named.tsv gives it: the text, or "text (Qid)" where several Qids share it."""
    qids = set(qids)
    count: dict[str, int] = defaultdict(int)
    for qid in qids:
        count[entity_names[qid]] += 1
    return {qid: entity_names[qid] if count[entity_names[qid]] == 1 else f"{entity_names[qid]} ({qid})" for qid in qids}


def _extreme(facts: list[Fact], adj: str) -> list[Fact]:
    """The facts that hold in the earliest (first) or the latest (last) year."""
    if adj == "first":
        year = min(f.first for f in facts)
        return [f for f in facts if f.first == year]
    year = max(f.last for f in facts)
    return [f for f in facts if f.last == year]


def _before_after(others: list[Fact], side: str, anchor: list[Fact], key) -> set:  # noqa: ANN001 - Fact -> str
    """The nearest of `others` before the anchor's first year or after its last one."""
    if side == "before":
        bound = min(f.first for f in anchor)
        fits = [f for f in others if f.last <= bound]
        if not fits:
            return set()
        best = max(f.first for f in fits)
        return {key(f) for f in fits if f.first == best}
    bound = max(f.last for f in anchor)
    fits = [f for f in others if f.first >= bound]
    if not fits:
        return set()
    best = min(f.first for f in fits)
    return {key(f) for f in fits if f.first == best}


def gold(record: dict, kg: Facts) -> set | None:
    """The answer set Wikidata12k gives the record by its template's semantics; None when its shape
    is not one this rule computes."""
    note = record["annotation"]
    (relation,) = record["relations"]
    kind, answer_type = record["type"], record["answer_type"]
    head, tail = note.get("head"), note.get("tail")
    if "event_head" in note or "tail2" in note:
        return None
    if kind == "first_last":
        if head and tail:
            facts = [f for f in kg.by_head.get((relation, head), []) if f.tail == tail]
        elif head:
            facts = kg.by_head.get((relation, head), [])
        else:
            facts = kg.by_tail.get((relation, tail), [])
        if not facts:
            return set()
        chosen = _extreme(facts, note["adj"])
        if answer_type == "time":
            return {chosen[0].first if note["adj"] == "first" else chosen[0].last}
        return {f.tail if head else f.head for f in chosen}
    if kind == "before_after" and head and tail:
        anchor = [f for f in kg.by_head.get((relation, head), []) if f.tail == tail]
        if not anchor:
            return set()
        if relation == "P39":
            holders = [f for f in kg.by_tail.get((relation, tail), []) if f.head != head]
            return _before_after(holders, note["type"], anchor, lambda f: f.head)
        others = [f for f in kg.by_head.get((relation, head), []) if f.tail != tail]
        return _before_after(others, note["type"], anchor, lambda f: f.tail)
    if kind == "time_join" and head and tail:
        years = {y for f in kg.by_head.get((relation, head), []) if f.tail == tail for y in range(f.first, f.last + 1)}
        return {f.head for f in kg.by_tail.get((relation, tail), []) if any(y in years for y in range(f.first, f.last + 1))}
    return None


def keep(record: dict, kg: Facts) -> bool:
    """Rule 1-3 of the module docstring."""
    if not set(record["entities"]) <= kg.entities or not set(record["relations"]) <= kg.relations:
        return False
    if len(record["relations"]) != 1:
        return False
    text = (record.get("paraphrases") or [record["question"]])[0]
    if "{" in text:
        return False
    computed = gold(record, kg)
    official = set(record["answers"])
    return bool(computed) and computed == official


def part_of(uniq_id: object) -> str:
    """tune or check, by the parity of sha256 of the uniq_id."""
    digest = hashlib.sha256(str(uniq_id).encode()).digest()
    return "check" if digest[-1] % 2 else "tune"


_QID = re.compile(r"\bQ\d+\b")


def to_json(record: dict, names: dict[str, str]) -> dict:
    out = {key: sorted(value, key=str) if isinstance(value, (set, frozenset)) else value for key, value in record.items()}
    out["question"] = _QID.sub(lambda qid: names.get(qid.group(), qid.group()), record["question"])
    if record["answer_type"] == "entity":
        out["answers"] = sorted(names[a] for a in record["answers"])
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cron", type=Path, default=Path("../shared/data/cronquestions"))
    parser.add_argument("--wd12k", type=Path, default=Path("../shared/data/wikidata12k"))
    parser.add_argument("--out", type=Path, required=True, help="folder for tune.json and check.json (keep it out of the repo)")
    parser.add_argument("--ids", type=Path, default=None, help="also write the kept uniq_ids per part here (JSON)")
    args = parser.parse_args(argv)
    entity_names = read_names(args.cron / "kg" / "wd_id2entity_text.txt")
    relation_names = read_names(args.cron / "kg" / "wd_id2relation_text.txt")
    facts = read_facts(args.wd12k / "facts_named.tsv", entity_names, relation_names)
    kg = Facts(facts)
    names = store_names(entity_names, kg.entities)
    records = load_plain_pickle(args.cron / "questions" / "complex_valid.pickle")
    if not isinstance(records, list):
        raise SystemExit(f"{args.cron}: complex_valid.pickle holds no list of question records")
    parts: dict[str, list[dict]] = {"tune": [], "check": []}
    for record in records:
        if keep(record, kg):
            parts[part_of(record["uniq_id"])].append(to_json(record, names))
    args.out.mkdir(parents=True, exist_ok=True)
    for part, kept in parts.items():
        (args.out / f"{part}.json").write_text(json.dumps(kept, ensure_ascii=False, indent=0), encoding="utf-8")
    summary = {part: _counts(kept) for part, kept in parts.items()}
    print(f"{len(facts)} facts; kept {sum(len(p) for p in parts.values())} of {len(records)} complex valid questions")
    print(json.dumps(summary, indent=1))
    if args.ids is not None:
        args.ids.write_text(json.dumps({part: sorted(r["uniq_id"] for r in kept) for part, kept in parts.items()}) + "\n", encoding="utf-8")
    _print_commands(args.out, args.wd12k)


def _counts(kept: list[dict]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for record in kept:
        counts[f"{record['type']}/{record['answer_type']}"] += 1
    return {"total": len(kept), **dict(sorted(counts.items()))}


def _print_commands(out: Path, wd12k: Path) -> None:
    work = out.parent  # where benchmarks.cron_wd12k keeps the store beside the dev set
    db, gen = work / "wd12k.duckdb", work / "generated.sqlite"
    print("\nThe store (a fact with one stated year holds in that year, as CronQuestions reads it), a memory")
    print("learned on the tune part, and both parts measured (benchmarks.cron_wd12k runs these and saves the figures):")
    print(f"  ari ingest tsv {wd12k / 'wd12k_named.tsv'} --skip-bad --open-ends point --db {db}")
    print(f"  ari memory learn --dataset cronquestions --questions {out / 'tune.json'} --search --db {db} --memory tune-mem.sqlite")
    print(f"  ari bench run cronquestions --questions {out / 'check.json'} --db {db} --memory tune-mem.sqlite --out runs/cron-check")
    print("A memory generated from the KG alone, measured on the same parts:")
    print(f"  ari memory learn --generate 150 --db {db} --memory {gen} && "
          f"python -m benchmarks.cron_wd12k --work {work} --memory {gen} --name generated")

if __name__ == "__main__":
    main()
