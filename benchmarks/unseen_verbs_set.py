"""Write the unseen-verbs question set (benchmarks/data/multitq_unseen_verbs.json).

Each question asks about a MultiTQ event type with a verb or phrasal verb whose content words the
relation lexicon learned on dev shard 0/2 never saw ("Who did Iran pour scorn on in March 2010?").
The verbs were written from general English before any code used them; the facts and the golds
come from the store. A question is kept only when a different relation of the same entity (in the
same month, or of the same pair) gives a different answer, so reading the relation matters. The
set is split 50/50 into dev and held at random (fixed seed).

    python -m benchmarks.unseen_verbs_set --db /work/base/multitq.duckdb \
        --lexicon /work/base/lexicon_shard0.json [--out benchmarks/data/multitq_unseen_verbs.json]
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import defaultdict
from pathlib import Path

import duckdb

OUT = Path(__file__).parent / "data" / "multitq_unseen_verbs.json"
SEED = 24
MONTHS = "January February March April May June July August September October November December".split()

# relation -> (base form, past form) of verb phrases; {Y} is the object. Written from general English.
VERBS: dict[str, list[tuple[str, str]]] = {
    "Criticize_or_denounce": [("pour scorn on {Y}", "poured scorn on {Y}"), ("pillory {Y}", "pilloried {Y}")],
    "Make_a_visit": [("fly to {Y}", "flew to {Y}"), ("journey to {Y}", "journeyed to {Y}")],
    "Host_a_visit": [("welcome {Y}", "welcomed {Y}"), ("roll out the red carpet for {Y}", "rolled out the red carpet for {Y}")],
    "Praise_or_endorse": [("salute {Y}", "saluted {Y}"), ("compliment {Y}", "complimented {Y}")],
    "Make_an_appeal_or_request": [("implore {Y}", "implored {Y}"), ("beseech {Y}", "beseeched {Y}")],
    "Express_intent_to_meet_or_negotiate": [("show eagerness to sit down with {Y}", "showed eagerness to sit down with {Y}")],
    "Engage_in_negotiation": [("haggle with {Y}", "haggled with {Y}"), ("bargain with {Y}", "bargained with {Y}")],
    "Sign_formal_agreement": [("seal an accord with {Y}", "sealed an accord with {Y}")],
    "Accuse": [("point the finger at {Y}", "pointed the finger at {Y}")],
    "Threaten": [("vow retaliation against {Y}", "vowed retaliation against {Y}")],
    "Use_conventional_military_force": [("wage war on {Y}", "waged war on {Y}")],
    "Reject": [("brush off {Y}", "brushed off {Y}")],
    "Investigate": [("scrutinise {Y}", "scrutinised {Y}")],
    "Make_optimistic_comment": [("strike a hopeful note about {Y}", "struck a hopeful note about {Y}")],
    "Make_pessimistic_comment": [("voice despair about {Y}", "voiced despair about {Y}")],
    "Provide_humanitarian_aid": [("ship relief supplies to {Y}", "shipped relief supplies to {Y}")],
    "Arrest,_detain,_or_charge_with_legal_action": [("round up {Y}", "rounded up {Y}")],
    "Consult": [("confer with {Y}", "conferred with {Y}")],
    "Express_intent_to_cooperate": [("pledge to collaborate with {Y}", "pledged to collaborate with {Y}")],
    "Engage_in_diplomatic_cooperation": [("forge closer ties with {Y}", "forged closer ties with {Y}")],
    "Make_empathetic_comment": [("commiserate with {Y}", "commiserated with {Y}")],
    "Provide_economic_aid": [("bankroll {Y}", "bankrolled {Y}")],
    "Impose_embargo,_boycott,_or_sanctions": [("slap sanctions on {Y}", "slapped sanctions on {Y}")],
    "Reduce_relations": [("downgrade ties with {Y}", "downgraded ties with {Y}")],
    "Coerce": [("bully {Y}", "bullied {Y}")],
    "Apologize": [("apologise to {Y}", "apologised to {Y}")],
}
_WORD = re.compile(r"[a-z]+")
_FUNCTION = frozenset("a an the to on with about for at off up of against".split())


def unseen_words(phrase: str, known: set[str]) -> list[str]:
    """The phrase's content words the lexicon saw (must be none)."""
    return [w for w in _WORD.findall(phrase.replace("{Y}", "")) if w not in _FUNCTION and w in known]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--lexicon", required=True)
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    known = {w for gram in json.loads(Path(args.lexicon).read_text())["counts"] for w in gram.split()}
    for relation, phrases in VERBS.items():
        for base, past in phrases:
            seen = unseen_words(base, known) + unseen_words(past, known)
            if seen:
                raise SystemExit(f"{relation}: {base!r} has words the lexicon saw: {seen}")
    con = duckdb.connect(args.db, read_only=True)
    top = [r[0] for r in con.sql(
        "select e.display from facts f join entities e on e.id = f.head group by 1 order by count(*) desc limit 150").fetchall()]
    facts = con.execute(
        "select h.display, r.name, t.display, f.start_day from facts f join entities h on h.id = f.head"
        " join entities t on t.id = f.tail join relations r on r.id = f.relation"
        " where h.display in (select unnest(?)) and t.display in (select unnest(?))", [top, top]).fetchall()
    by_month: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))  # (head, yyyy-mm) -> rel -> tails
    heads_month: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))  # (tail, yyyy-mm) -> rel -> heads
    pair_first: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)  # (head, tail) -> rel -> first day
    for head, relation, tail, day in facts:
        if head == tail:
            continue
        month = day.isoformat()[:7]
        by_month[(head, month)][relation].add(tail)
        heads_month[(tail, month)][relation].add(head)
        first = pair_first[(head, tail)]
        first[relation] = min(first.get(relation, "9999"), day.isoformat())
    rng = random.Random(SEED)
    records = []
    for relation, phrases in VERBS.items():
        for index, (base, past) in enumerate(phrases):
            kinds = ["object", "subject", "first"] if len(phrases) == 1 else (["object", "first"] if index == 0 else ["subject"])
            for kind in kinds:
                record = _question(rng, relation, base, past, kind, by_month, heads_month, pair_first)
                if record is not None:
                    records.append(record)
    rng.shuffle(records)
    for i, record in enumerate(records):
        record["quid"] = f"uv{i:03d}"
        record["part"] = "dev" if i % 2 == 0 else "held"
    Path(args.out).write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(records)} questions, {len({r['relation'] for r in records})} relations -> {args.out}")


def _month(month: str) -> str:
    return f"{MONTHS[int(month[5:]) - 1]} {month[:4]}"


def _question(rng, relation, base, past, kind, by_month, heads_month, pair_first) -> dict | None:  # noqa: ANN001
    """One question of `kind` whose gold differs from every other relation's answer there."""
    if kind == "first":
        pairs = sorted(p for p, rels in pair_first.items() if relation in rels and len(rels) >= 3)
        rng.shuffle(pairs)
        for head, tail in pairs:
            rels = pair_first[(head, tail)]
            if sum(1 for r, d in rels.items() if d != rels[relation]) >= 2:
                text = f"When did {head} first {base.format(Y=tail)}?"
                return _record(text, [rels[relation]], "time", "day", "first_last", relation)
        return None
    table = by_month if kind == "object" else heads_month
    keys = sorted(k for k, rels in table.items() if relation in rels and len(table[k][relation]) <= 3)
    rng.shuffle(keys)
    for entity, month in keys:
        rels = table[(entity, month)]
        gold = rels[relation]
        if sum(1 for r, found in rels.items() if r != relation and not found & gold) >= 2:
            if kind == "object":
                verb = re.sub(r"\s*\{Y\}", "", base)
                text = f"Who did {entity} {verb} in {_month(month)}?"
            else:
                text = f"Who {past.format(Y=entity)} in {_month(month)}?"
            return _record(text, sorted(gold), "entity", "month", "equal", relation)
    return None


def _record(text: str, answers: list[str], answer_type: str, level: str, qtype: str, relation: str) -> dict:
    return {"question": text, "answers": answers, "answer_type": answer_type, "time_level": level, "qtype": qtype,
            "qlabel": "Single", "relation": relation}


if __name__ == "__main__":
    main()
