"""Alias mentions for the linking benchmark: the names people use for KG entities, made from the KG's
own names by a fixed, general procedure (not by the linker's code, so the bench can disagree with it).

For a seeded sample of entities with at least MIN_FACTS facts (the ones people talk about):
- people (two to four capitalised words, no parentheses): the surname, in its case and lower-cased,
  when the entity is the best-known bearer of it (most facts; a reader says "Merkel" for Angela Merkel);
  the full name lower-cased; first + last for names of three words or more;
- organisations of two or more capitalised words (no parentheses): the acronym, upper-cased and as
  "the <acronym>" lower-cased, when no better-known entity has the same initials;
- sector roles `Role_(Country)`: "the <demonym> <role>" and "<country>'s <role>", lower-cased;
- countries: the name lower-cased;
- typos: a full name whose surname (seven letters or more) lost its second-to-last letter.
Each mention is put in a few neutral carrier questions; the gold entity must be among the candidates
of some mention of the question.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict

from agents.analysis.demonyms import COUNTRY_ALIASES

MIN_FACTS = 20
PER_KIND = 300
CARRIERS = ("Who criticised {m} in 2010?", "Which country did {m} visit last?", "When did {m} first sign an agreement with Iran?")
_QUALIFIED = re.compile(r"^(?P<role>.+?) \((?P<country>[^()]+)\)$")
_ORG_WORDS = ("Ministry", "Party", "Council", "Union", "Government", "Police", "Court", "Army", "Forces", "Bank",
              "Organization", "Organisation", "Commission", "Committee", "Agency", "Office", "Front", "Movement",
              "Association", "Federation", "Assembly", "Parliament", "Fund", "Group", "University", "News",
              "Department", "Authority", "League", "Congress", "Company", "Corporation", "Institute", "Times", "Forum",
              "Cartel", "Airways", "Airlines", "Telegraph", "Post", "Democracy", "Rebel", "Rebels", "Shell")  # fmt: skip


def alias_mentions(store, seed: int = 0, per_kind: int = PER_KIND) -> list[dict]:
    """[{kind, mention, gold, question}] for a seeded sample of the store's entities."""
    counts = store.entity_fact_counts()
    names = sorted(n for n in store.entity_names() if counts.get(n, 0) >= MIN_FACTS)
    displays = {n: store.display(n) for n in store.entity_names()}
    exact = {d.lower() for d in displays.values()}
    demonym = {c: a[0] for c, a in COUNTRY_ALIASES.items() if a}
    countries = {d for d in displays.values() if d in demonym}
    place_words = {w for c, a in COUNTRY_ALIASES.items() for text in (c, *a) for w in text.split()}
    people, orgs, sectors = [], [], []
    for name in names:
        display = displays[name]
        words = display.split()
        match = _QUALIFIED.match(display)
        if match:
            if match.group("country") in demonym:
                sectors.append(name)
        elif "(" in display or any(c.isdigit() for c in display) or display in countries:
            continue
        elif 2 <= len(words) <= 4 and all(w[:1].isupper() for w in words) and not any(w in _ORG_WORDS or w in place_words for w in words):
            people.append(name)
        elif len(words) >= 2 and any(w in _ORG_WORDS for w in words):
            orgs.append(name)
    best_bearer: dict[str, str] = {}
    for name in sorted(people, key=lambda n: -counts[n]):
        best_bearer.setdefault(displays[name].split()[-1].lower(), name)
    initials: dict[str, list[str]] = defaultdict(list)
    for name in store.entity_names():
        words = [w for w in re.split(r"[\s\-/]+", displays[name]) if w and w[0].isupper()]
        if len(words) >= 2 and "(" not in displays[name]:
            initials["".join(w[0] for w in words).lower()].append(name)

    rng = random.Random(seed)
    out: list[dict] = []

    def add(kind: str, mention: str, gold: str) -> None:
        carrier = CARRIERS[len(out) % len(CARRIERS)]
        out.append({"kind": kind, "mention": mention, "gold": gold, "question": carrier.format(m=mention)})

    for name in rng.sample(people, min(per_kind, len(people))):
        words = displays[name].split()
        surname = words[-1]
        if best_bearer.get(surname.lower()) == name and surname.lower() not in exact and len(surname) >= 4:
            add("surname", surname, name)
            add("surname lower-case", surname.lower(), name)
            if len(surname) >= 7:  # one slip: a letter left out ("Musharaf")
                add("full name with a typo", f"{' '.join(words[:-1])} {surname[:-2] + surname[-1]}", name)
        add("full name lower-case", displays[name].lower(), name)
        if len(words) >= 3:
            add("first and last", f"{words[0]} {surname}", name)
    for name in rng.sample(orgs, min(per_kind, len(orgs))):
        words = [w for w in re.split(r"[\s\-/]+", displays[name]) if w and w[0].isupper()]
        key = "".join(w[0] for w in words).lower()
        rivals = initials.get(key, [])
        if len(key) >= 2 and max(rivals, key=lambda n: counts.get(n, 0)) == name and key not in exact:
            add("acronym", key.upper(), name)
            add("acronym lower-case", f"the {key}", name)
    for name in rng.sample(sectors, min(per_kind, len(sectors))):
        match = _QUALIFIED.match(displays[name])
        if match is None:  # never: sectors are the names this pattern matched
            continue
        role, country = match.group("role").lower(), match.group("country")
        add("demonym + sector", f"the {demonym[country].lower()} {role}", name)
        add("possessive sector", f"{country.lower()}'s {role}", name)
    for name in sorted(n for n in names if displays[n] in countries):
        add("country lower-case", displays[name].lower(), name)
    return out


def alias_recall(analyzer, mentions: list[dict]) -> dict:
    """Recall of the gold entity among the candidates, overall and per alias kind."""
    analyses = analyzer.analyze_batch([m["question"] for m in mentions], rank_relations=False)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    misses: list[dict] = []
    for mention, analysis in zip(mentions, analyses):
        candidates = [n for m in analysis.entities for n, _ in m.candidates]
        tops = [m.best for m in analysis.entities]
        found, top = mention["gold"] in candidates, mention["gold"] in tops
        for group in ("all", mention["kind"]):
            totals[group][0] += 1
            totals[group][1] += found
            totals[group][2] += top
        if not found and len(misses) < 30:
            misses.append({**mention, "linked": [(m.text, m.candidates[:2]) for m in analysis.entities]})
    table = {g: {"n": n, "recall": hit / n, "top1": top / n} for g, (n, hit, top) in sorted(totals.items())}
    return {"table": table, "sample_misses": misses}
