"""Write the bundled demo KG (demo_kg.tsv) and its questions (demo_questions.json), deterministically.

    python -m tkg_store.demo.generate        # rewrites both files next to this module

Facts are ICEWS-style (names and relations exactly as MultiTQ writes them) with day, month and
year times in 2005..2015. Questions follow the official MultiTQ schema and phrasing, several of
every qtype; each gold answer is computed here by brute force over the generated facts, with the
rules of actions/semantics.py (before = started before the reference's first day, after = started
after its last day, first/last by start, a multi-fact reference is its earliest fact). A question
is kept only when its answer is unambiguous: no ties, and the same whether an interval is compared
by its first or its last day.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from tkg_store.temporal import Granularity, format_time, span_of, stated_span

SEED = 20240611
HERE = Path(__file__).parent
FIRST_DAY, LAST_DAY = date(2005, 1, 1), date(2015, 12, 31)

PEOPLE = [
    "Pervez_Musharraf", "Mahmoud_Ahmadinejad", "Barack_Obama", "Hu_Jintao", "Manmohan_Singh",
    "Condoleezza_Rice", "Ban_Ki-moon", "Angela_Merkel", "Vladimir_Putin", "Nuri_al-Maliki",
    "Recep_Tayyip_Erdoğan", "Abdullah_Gül", "Shinzo_Abe", "John_Kerry", "Jack_Straw", "Yukiya_Amano",
]
COUNTRIES = [
    "Iran", "China", "Japan", "Iraq", "Pakistan", "India", "United_States", "Russia", "Belgium",
    "Denmark", "Malaysia", "Thailand", "South_Korea", "Kuwait", "Egypt", "Turkey", "Germany", "France",
]
ROLES = [
    "Defense_/_Security_Ministry_(Denmark)", "Citizen_(Belgium)", "Armed_Gang_(Palestinian_Territory,_Occupied)",
    "Foreign_Affairs_(Japan)", "Member_of_Parliament_(Thailand)", "Media_Personnel_(China)",
    "Military_Wing_(Lord's_Resistance_Army)", "Militant_(Xinjiang\xa0Uyghur)", "Police_(Kenya)",
    "Head_of_Government_(Peru)", 'Antony_Harold_Curties_"Tony"_Windsor',
]
HUBS = ["Iran", "China", "Iraq", "Japan", "Pakistan", "Thailand"]

# relation -> (base verb phrase, past verb phrase); MultiTQ phrases relations as plain verbs.
RELATIONS: dict[str, tuple[str, str]] = {
    "Criticize_or_denounce": ("criticise", "criticised"),
    "Make_a_visit": ("visit", "visited"),
    "Host_a_visit": ("host", "hosted"),
    "Express_intent_to_meet_or_negotiate": ("express the intention to meet with", "expressed the intention to meet with"),
    "Sign_formal_agreement": ("sign a formal agreement with", "signed a formal agreement with"),
    "Praise_or_endorse": ("praise", "praised"),
    "Make_statement": ("make a statement about", "made a statement about"),
    "Consult": ("consult", "consulted"),
    "Accuse": ("accuse", "accused"),
    "Make_an_appeal_or_request": ("make an appeal to", "made an appeal to"),
    "Engage_in_negotiation": ("negotiate with", "negotiated with"),
    "Express_intent_to_cooperate": ("express the intention to cooperate with", "expressed the intention to cooperate with"),
}
RELATION_WEIGHTS = [9, 8, 3, 5, 3, 6, 5, 3, 3, 2, 2, 3]

# The README example: planted so that its answer is one clear entity.
README_QUESTION = "Who was the last to criticise Iran before Pervez Musharraf did?"
PLANTED = [
    ("Condoleezza_Rice", "Criticize_or_denounce", "Iran", "2007-10-18"),
    ("Pervez_Musharraf", "Criticize_or_denounce", "Iran", "2007-11-05"),
    ("Angela_Merkel", "Criticize_or_denounce", "Iran", "2007-09-24"),
    ("Iran", "Criticize_or_denounce", "Pakistan", "2007-11-12"),
    ("Pakistan", "Sign_formal_agreement", "China", "2005"),
    ("India", "Sign_formal_agreement", "Japan", "2015"),
]


@dataclass(frozen=True)
class Fact:
    head: str
    relation: str
    tail: str
    start: date
    end: date
    granularity: Granularity
    stated: str  # the time as written in the TSV


# -- facts -------------------------------------------------------------------------------------
def generate_facts(rng: random.Random, count: int = 420) -> list[Fact]:
    facts: dict[tuple, Fact] = {}
    for head, relation, tail, stated in PLANTED:
        fact = _fact(head, relation, tail, stated)
        facts[(head, relation, tail, fact.start, fact.end)] = fact
    actors = PEOPLE + COUNTRIES + ROLES
    relations = list(RELATIONS)
    while len(facts) < count:
        relation = rng.choices(relations, RELATION_WEIGHTS)[0]
        tail = rng.choice(HUBS) if rng.random() < 0.7 else rng.choice(COUNTRIES + PEOPLE)
        head = rng.choice(actors)
        if head == tail or (relation == "Criticize_or_denounce" and tail == "Iran" and head == "Pervez_Musharraf"):
            continue
        if facts and rng.random() < 0.15:
            # Another actor doing the same on the same day, as news events cluster (same-period questions need it).
            twin = rng.choice(sorted(facts.values(), key=lambda f: (f.start, f.head, f.relation, f.tail)))
            relation, tail, stated = twin.relation, twin.tail, twin.stated
            if head == tail:
                continue
        else:
            day = FIRST_DAY + timedelta(days=rng.randrange((LAST_DAY - FIRST_DAY).days + 1))
            level = rng.choices([Granularity.DAY, Granularity.MONTH, Granularity.YEAR], [82, 12, 6])[0]
            stated = format_time(day, level)
        fact = _fact(head, relation, tail, stated)
        if _spoils_readme(fact):
            continue
        facts.setdefault((head, relation, tail, fact.start, fact.end), fact)
    return sorted(facts.values(), key=lambda f: (f.start, f.end, f.head, f.relation, f.tail))


def _fact(head: str, relation: str, tail: str, stated: str) -> Fact:
    span = stated_span(*(int(p) for p in stated.split("-")))
    return Fact(head, relation, tail, span.start, span.end, span.granularity, stated)


def _spoils_readme(fact: Fact) -> bool:
    """Keep the README example's window (Rice's criticism .. Musharraf's) free of other critics of Iran."""
    return (
        fact.relation == "Criticize_or_denounce"
        and fact.tail == "Iran"
        and fact.end >= date(2007, 10, 1)
        and fact.start <= date(2007, 11, 30)
    )


# -- phrasing ----------------------------------------------------------------------------------
def display(name: str) -> str:
    return name.replace("_", " ")


def mention(name: str, rng: random.Random) -> str:
    """How a question names an entity: "the Media Personnel of China" for role entities, as MultiTQ does."""
    text = display(name)
    if text.endswith(")") and " (" in text and rng.random() < 0.5:
        role, _, qualifier = text[:-1].partition(" (")
        return f"the {role} of {qualifier}"
    return text


_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


def time_phrase(day: date, level: Granularity, rng: random.Random) -> str:
    if level is Granularity.DAY:
        return rng.choice([f"on {day.day} {_MONTHS[day.month - 1]} {day.year}", f"on {day.isoformat()}"])
    if level is Granularity.MONTH:
        return rng.choice([f"in {_MONTHS[day.month - 1]} {day.year}", f"in {day.year}-{day.month:02d}"])
    return f"in {day.year}"


# -- brute-force solver (the semantics of actions/semantics.py, written out independently) -------
def matching(facts: list[Fact], relation: str, head: str | None = None, tail: str | None = None) -> list[Fact]:
    return [f for f in facts if f.relation == relation and (head is None or f.head == head) and (tail is None or f.tail == tail)]


def earliest(facts: list[Fact]) -> Fact:
    return min(facts, key=lambda f: (f.start, f.end))


def unique_extreme(candidates: list[Fact], latest: bool) -> Fact | None:
    """The one candidate strictly first (or last) by start AND by end; None when tied or overlapping."""
    if not candidates:
        return None
    pick = max if latest else min
    by_start = pick(candidates, key=lambda f: (f.start, f.end))
    by_end = pick(candidates, key=lambda f: (f.end, f.start))
    if by_start != by_end:
        return None
    for other in candidates:
        if other is by_start:
            continue
        if (latest and other.end >= by_start.start) or (not latest and other.start <= by_start.end):
            return None
    return by_start


# -- questions ---------------------------------------------------------------------------------
# (facts, rng) -> a question record or None; the makers listed with a time level also take it
Maker = Callable[..., dict | None]


def q_equal_entity(facts: list[Fact], rng: random.Random, level: Granularity | None = None) -> dict | None:
    anchor = rng.choice(facts)
    level = level or rng.choice(list(Granularity))
    if anchor.granularity.rank > level.rank:
        return None
    span = span_of(anchor.start, level)
    found = [f for f in matching(facts, anchor.relation, tail=anchor.tail) if f.start <= span.end and f.end >= span.start]
    if any(f.granularity.rank > level.rank for f in found):
        return None  # a coarser fact only overlaps the period: ambiguous
    answers = sorted({display(f.head) for f in found})
    if not 1 <= len(answers) <= 5:
        return None
    past = RELATIONS[anchor.relation][1]
    text = f"Who {past} {mention(anchor.tail, rng)} {time_phrase(anchor.start, level, rng)}?"
    return _record(text, answers, "entity", level, "equal", "Single")


def q_equal_time(facts: list[Fact], rng: random.Random) -> dict | None:
    anchor = rng.choice(facts)
    if len(matching(facts, anchor.relation, anchor.head, anchor.tail)) != 1:
        return None
    level = anchor.granularity.coarser(rng.choice(list(Granularity)))
    base = RELATIONS[anchor.relation][0]
    lead = {Granularity.DAY: "When", Granularity.MONTH: "In which month", Granularity.YEAR: "In which year"}[level]
    text = f"{lead} did {mention(anchor.head, rng)} {base} {mention(anchor.tail, rng)}?"
    return _record(text, [format_time(anchor.start, level)], "time", level, "equal", "Single")


def q_before_after(facts: list[Fact], rng: random.Random) -> dict | None:
    anchor = rng.choice(facts)
    level = rng.choice(list(Granularity))
    span = span_of(anchor.start, level)
    after = rng.random() < 0.5
    candidates = matching(facts, anchor.relation, tail=anchor.tail)
    kept = [f for f in candidates if (f.start > span.end if after else f.end < span.start)]
    if after:
        straddling = [f for f in candidates if f.start <= span.end < f.end]
    else:
        straddling = [f for f in candidates if f.start < span.start <= f.end]
    if straddling:
        return None  # starts on the right side but overlaps the reference: ambiguous
    answers = sorted({display(f.head) for f in kept})
    if not 1 <= len(answers) <= 5:
        return None
    word = "after" if after else "before"
    past = RELATIONS[anchor.relation][1]
    when = time_phrase(anchor.start, level, rng).split(" ", 1)[1]
    text = rng.choice(
        [f"Who {past} {mention(anchor.tail, rng)} {word} {when}?", f"{word.capitalize()} {when}, who {past} {mention(anchor.tail, rng)}?"]
    )
    return _record(text, answers, "entity", level, "before_after", "Single")


def q_first_last_entity(facts: list[Fact], rng: random.Random) -> dict | None:
    anchor = rng.choice(facts)
    latest = rng.random() < 0.5
    word = "last" if latest else "first"
    base = RELATIONS[anchor.relation][0]
    if rng.random() < 0.6:
        candidates = matching(facts, anchor.relation, tail=anchor.tail)
        winner = unique_extreme(candidates, latest)
        asked_head = True
        text = f"Who was the {word} to {base} {mention(anchor.tail, rng)}?"
    else:
        candidates = matching(facts, anchor.relation, head=anchor.head)
        winner = unique_extreme(candidates, latest)
        asked_head = False
        text = f"Who did {mention(anchor.head, rng)} {base} {word}?"
    if winner is None or len(candidates) < 2:
        return None
    answer = winner.head if asked_head else winner.tail
    return _record(text, [display(answer)], "entity", Granularity.DAY, "first_last", "Single")


def q_first_last_time(facts: list[Fact], rng: random.Random) -> dict | None:
    anchor = rng.choice(facts)
    pair = matching(facts, anchor.relation, anchor.head, anchor.tail)
    latest = rng.random() < 0.5
    winner = unique_extreme(pair, latest) if len(pair) >= 2 else None
    if winner is None:
        return None
    level = winner.granularity.coarser(rng.choice(list(Granularity)))
    word = "last" if latest else "first"
    base = RELATIONS[anchor.relation][0]
    lead = {Granularity.DAY: "When", Granularity.MONTH: "In which month", Granularity.YEAR: "In which year"}[level]
    text = f"{lead} did {mention(anchor.head, rng)} {word} {base} {mention(anchor.tail, rng)}?"
    return _record(text, [format_time(winner.start, level)], "time", level, "first_last", "Single")


def q_equal_multi(facts: list[Fact], rng: random.Random, level: Granularity | None = None) -> dict | None:
    ref = rng.choice(facts)
    if len(matching(facts, ref.relation, ref.head, ref.tail)) != 1:
        return None
    level = level or rng.choice(list(Granularity))
    if ref.granularity.rank > level.rank:
        return None
    period = span_of(ref.start, level)
    found = [f for f in matching(facts, ref.relation, tail=ref.tail) if f.head != ref.head and f.start <= period.end and f.end >= period.start]
    if any(f.granularity.rank > level.rank for f in found):
        return None
    answers = sorted({display(f.head) for f in found})
    if not 1 <= len(answers) <= 4:
        return None
    same = {Granularity.DAY: "on the same day as", Granularity.MONTH: "in the same month as", Granularity.YEAR: "in the same year as"}[level]
    past = RELATIONS[ref.relation][1]
    text = f"Who {past} {mention(ref.tail, rng)} {same} {mention(ref.head, rng)}?"
    return _record(text, answers, "entity", level, "equal_multi", "Multiple")


def q_after_first(facts: list[Fact], rng: random.Random) -> dict | None:
    return _relative(facts, rng, latest=False)


def q_before_last(facts: list[Fact], rng: random.Random) -> dict | None:
    return _relative(facts, rng, latest=True)


def _relative(facts: list[Fact], rng: random.Random, latest: bool, ref: Fact | None = None) -> dict | None:
    """after_first / before_last: the first after (last before) the reference entity did the same."""
    ref = ref or rng.choice(facts)
    reference = earliest(matching(facts, ref.relation, ref.head, ref.tail))
    others = matching(facts, ref.relation, tail=ref.tail)
    if latest:
        side = [f for f in others if f.start < reference.start]
        if any(f.end >= reference.start for f in side):
            return None
    else:
        side = [f for f in others if f.start > reference.end]
        if any(f.end > reference.end for f in others if f not in side):
            return None
    winner = unique_extreme(side, latest)
    if winner is None or winner.head == ref.head:
        return None
    base = RELATIONS[ref.relation][0]
    tail, who = mention(ref.tail, rng), mention(ref.head, rng)
    if latest:
        text = f"Who was the last to {base} {tail} before {who} did?"
        return _record(text, [display(winner.head)], "entity", Granularity.DAY, "before_last", "Multiple")
    text = rng.choice([f"Who was the first to {base} {tail} after {who}?", f"After {who}, who was the first to {base} {tail}?"])
    return _record(text, [display(winner.head)], "entity", Granularity.DAY, "after_first", "Multiple")


def readme_question(facts: list[Fact]) -> dict:
    ref = next(f for f in facts if (f.head, f.relation, f.tail) == ("Pervez_Musharraf", "Criticize_or_denounce", "Iran"))
    record = _relative(facts, random.Random(0), latest=True, ref=ref)
    assert record is not None, "the README example must have an unambiguous answer"
    record["question"] = README_QUESTION
    return record


def unanswerable(facts: list[Fact]) -> list[dict]:
    """Questions whose gold answer set is empty: unknown entity, time outside the KG, no linking fact."""
    linked = {(f.head, f.relation, f.tail) for f in facts}
    assert ("Citizen_(Belgium)", "Sign_formal_agreement", "Japan") not in linked
    assert not matching(facts, "Make_a_visit", tail="Atlantis")
    return [
        _record("Who visited Atlantis in 2009?", [], "entity", Granularity.YEAR, "equal", "Single"),
        _record("Who was the last to praise Wakanda before Iran did?", [], "entity", Granularity.DAY, "before_last", "Multiple"),
        _record("Who visited China in March 2019?", [], "entity", Granularity.MONTH, "equal", "Single"),
        _record("Who criticised Iran in 1998?", [], "entity", Granularity.YEAR, "equal", "Single"),
        _record("When did Citizen (Belgium) sign a formal agreement with Japan?", [], "time", Granularity.DAY, "equal", "Single"),
    ]


def _record(question: str, answers: list[str], answer_type: str, level: Granularity, qtype: str, qlabel: str) -> dict:
    return {
        "quid": 0,
        "question": question,
        "answers": answers,
        "answer_type": answer_type,
        "time_level": level.value,
        "qtype": qtype,
        "qlabel": qlabel,
    }


_D, _M, _Y = Granularity.DAY, Granularity.MONTH, Granularity.YEAR

# One entry per question to make: the maker, and the time level it must use (None: any).
MAKERS: list[tuple[Maker, Granularity | None]] = [
    *[(q_equal_entity, level) for level in (_D, _D, _M, _M, _Y)],
    *[(q_equal_time, None)] * 5,
    *[(q_before_after, None)] * 6,
    *[(q_first_last_entity, None)] * 4,
    *[(q_first_last_time, None)] * 5,
    *[(q_equal_multi, level) for level in (_D, _D, _M, _M, _Y, _Y)],
    *[(q_after_first, None)] * 6,
    *[(q_before_last, None)] * 5,
]


def new_question(maker: Callable, level: Granularity | None, facts: list[Fact], rng: random.Random, seen: set[str]) -> dict | None:
    """The first question `maker` draws (at `level`) that is unambiguous and not in `seen`; None when
    20,000 draws find none."""
    for _ in range(20000):
        record = maker(facts, rng, level) if level else maker(facts, rng)
        if record is not None and record["question"] not in seen:
            return record
    return None


def generate_questions(facts: list[Fact], rng: random.Random) -> list[dict]:
    questions = [readme_question(facts)]
    seen = {questions[0]["question"]}
    for maker, level in MAKERS:
        record = new_question(maker, level, facts, rng, seen)
        if record is None:
            raise AssertionError(f"{maker.__name__}: cannot find an unambiguous question at level {level}")
        seen.add(record["question"])
        questions.append(record)
    questions += unanswerable(facts)
    for quid, record in enumerate(questions, start=1):
        record["quid"] = quid
    return questions


def write(directory: Path = HERE) -> tuple[Path, Path]:
    rng = random.Random(SEED)
    facts = generate_facts(rng)
    questions = generate_questions(facts, rng)
    tsv = directory / "demo_kg.tsv"
    tsv.write_text("".join(f"{f.head}\t{f.relation}\t{f.tail}\t{f.stated}\n" for f in facts), encoding="utf-8")
    qfile = directory / "demo_questions.json"
    qfile.write_text(json.dumps(questions, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return tsv, qfile


if __name__ == "__main__":
    for path in write():
        print(path)
