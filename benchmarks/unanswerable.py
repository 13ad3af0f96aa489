"""Questions the KG cannot support, built from answerable ones, each labelled with why.

Three ways to take the support away (reasons as written to `unanswerable_reason`):
- `time_outside_kg`: the question's stated year moves outside the KG's time range (a "before" time
  moves before the range, an "after" time after it, so the rewritten question has no facts).
- `entity_not_in_kg`: a mentioned entity is replaced by a plausible made-up name the store lacks.
- `facts_hidden`: a derived store is written without any fact touching the question's mentioned
  entities (the entities stay, their facts go); such records name that store in `db`.
and, each with an answerable twin from the same template (see benchmarks/unanswerable_twins.py),
`no_event_time`, `no_event_pair`, `unreadable_time` and `not_a_question`.
Mentions are found by matching the store's display names in the question (longest match first,
case-sensitive, possessives excluded). Everything is deterministic for a given seed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ari.base.errors import StoreError, UsageError
from benchmarks.loaders.types import Question
from benchmarks.results_io import write_json
from benchmarks.unanswerable_twins import TWIN_KINDS, TwinMaker
from tkg_store.hidden import write_hidden_store
from tkg_store.store import TKGStore
from tkg_store.temporal import OPEN_END, OPEN_START

DEFAULT_KINDS = ("time_outside_kg", "entity_not_in_kg", "facts_hidden")
KINDS = DEFAULT_KINDS + TWIN_KINDS
MAX_NAME_TOKENS = 10

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
# A stated time: "14 January 2007", "January 2007", "2007-01-14", "2007-01" or "2007".
_TIME = re.compile(
    rf"(?P<time>(?:(?P<day>\d{{1,2}})\s+)?(?:(?P<month>{_MONTHS})\s+)?(?P<year>\d{{4}})(?P<iso>-\d{{2}}(?:-\d{{2}})?)?)\b"
)
_DIRECTION = re.compile(r"\b(before|after|since|until|prior)\b", re.IGNORECASE)
_SYLLABLES = ("va", "lor", "ten", "mi", "ka", "dor", "sel", "ru", "bri", "to", "nar", "esh", "qui", "zan", "vel", "or")
_ENDINGS = ("ia", "land", "stan", "ora", "mark")


@dataclass
class Mention:
    entity: str  # KG name
    text: str  # as written in the question
    start: int
    end: int


@dataclass
class UnanswerableSet:
    records: list[dict]
    hidden_entities: list[str] = field(default_factory=list)
    hidden_db: Path | None = None
    hidden_facts: int = 0


# -- finding what a question mentions --------------------------------------------------------

class MentionFinder:
    """Finds entity display names inside question text (longest match first)."""

    def __init__(self, store: TKGStore) -> None:
        self._by_display: dict[str, str] = {}
        for name in store.entity_names():
            display = store.display(name)
            if display[:1].isupper() or display[:1].isdigit():
                self._by_display.setdefault(display, name)

    def find(self, text: str) -> list[Mention]:
        tokens = [(m.group(), m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        found: list[Mention] = []
        taken: set[int] = set()
        spans = []
        for i in range(len(tokens)):
            for j in range(i + 1, min(len(tokens), i + MAX_NAME_TOKENS) + 1):
                start, end = tokens[i][1], tokens[j - 1][2]
                phrase = text[start:end]
                while phrase and phrase[-1] in "?,.;:!":
                    phrase, end = phrase[:-1], end - 1
                if phrase.endswith("'s") or phrase.endswith("’s"):
                    continue  # "Taiwan's Ministry ...": the possessive is rarely the entity asked about
                if phrase in self._by_display:
                    spans.append((end - start, start, end, phrase))
        for _length, start, end, phrase in sorted(spans, key=lambda s: (-s[0], s[1])):
            if any(k in taken for k in range(start, end)):
                continue
            taken.update(range(start, end))
            found.append(Mention(self._by_display[phrase], phrase, start, end))
        return sorted(found, key=lambda m: m.start)


# -- the three rewrites ------------------------------------------------------------------------

def move_time(text: str, first_year: int | None, last_year: int | None, rng: random.Random) -> tuple[str, str] | None:
    """The question with its stated year moved outside [first_year, last_year], and what changed.
    A bound that is None is open (open-ended facts): no time lies beyond it."""
    match = _TIME.search(text)
    if match is None or (first_year is None and last_year is None):
        return None
    year = int(match.group("year"))
    if not 1000 <= year <= 2999:
        return None
    direction = _DIRECTION.findall(text[max(0, match.start("time") - 30) : match.start("time")])
    word = direction[-1].lower() if direction else ""
    offset = rng.randint(2, 12)
    if first_year is None or last_year is None:  # only the closed side has times outside it
        new_year = last_year + offset if first_year is None else first_year - offset  # type: ignore[operator]
    elif word in ("before", "until", "prior"):
        new_year = first_year - offset
    elif word in ("after", "since"):
        new_year = last_year + offset
    else:
        new_year = first_year - offset if rng.random() < 0.5 else last_year + offset
    leap_day = match.group("day") == "29" and match.group("month") == "February" or (match.group("iso") or "").endswith("-02-29")
    while leap_day and not (new_year % 4 == 0 and (new_year % 100 != 0 or new_year % 400 == 0)):
        new_year += 1 if last_year is not None and new_year > last_year else -1
    start, end = match.span("year")
    return text[:start] + f"{new_year:04d}" + text[end:], f"year {year} -> {new_year}"


def made_up_name(display: str, store: TKGStore, rng: random.Random) -> str:
    """A name shaped like `display` (place, person, or "Role (Country)") that the store lacks."""
    for _ in range(200):
        def word(ending: str = "") -> str:
            return ("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))) + ending).capitalize()

        if "(" in display:
            candidate = re.sub(r"\(([^)]*)\)", lambda _: f"({word(rng.choice(_ENDINGS))})", display, count=1)
        elif " " in display:
            candidate = f"{word()} {word()}"
        else:
            candidate = word(rng.choice(_ENDINGS))
        if not store.find_entities(candidate, limit=1) and not store.has_entity(candidate.replace(" ", "_")):
            return candidate
    raise UsageError(f"could not invent a name absent from the store for {display!r}")


# -- building the set --------------------------------------------------------------------------

def make_unanswerable(
    questions: Sequence[Question],
    store: TKGStore,
    per_kind: int,
    seed: int = 0,
    kinds: Sequence[str] = DEFAULT_KINDS,
    max_hidden_degree: int = 300,
) -> UnanswerableSet:
    """Up to `per_kind` rewritten questions of each kind (each source question used at most once).

    `facts_hidden` records list the entities whose facts the derived store must drop; write that
    store with `write_hidden_store` and the set's `hidden_entities`."""
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise UsageError(f"unknown unanswerable kind(s) {', '.join(unknown)} (known: {', '.join(KINDS)})")
    span = store.time_range()
    if span is None:
        raise StoreError(f"{store.path} has no facts")
    rng = random.Random(seed)
    order = [q for q in questions if q.answerable]
    rng.shuffle(order)
    finder = MentionFinder(store)
    degrees = store.entity_fact_counts() if "facts_hidden" in kinds else {}
    used: set[str] = set()
    records: list[dict] = []
    hidden: set[str] = set()
    twins = TwinMaker(store, finder, rng) if set(kinds) & set(TWIN_KINDS) else None
    for kind in kinds:
        made = 0
        for question in order:
            if made >= per_kind:
                break
            if question.qid in used:
                continue
            if kind in TWIN_KINDS:
                if twins is None:
                    raise RuntimeError("a twin kind without its TwinMaker")  # built above whenever one is asked for
                pair = twins.make(kind, question)
                if pair is None:
                    continue
                (text, _, detail), (twin_text, twin_gold) = pair
                used.add(question.qid)
                records.append(_record(question, kind, text, detail))
                records.append(_twin_record(question, kind, twin_text, twin_gold))
                made += 1
                continue
            rewrite = _rewrite(kind, question, store, finder, degrees, span, rng, max_hidden_degree)
            if rewrite is None:
                continue
            text, detail, hide = rewrite
            hidden.update(hide)
            used.add(question.qid)
            records.append(_record(question, kind, text, detail))
            made += 1
    return UnanswerableSet(records, sorted(hidden))


def _rewrite(kind, question, store, finder, degrees, span, rng, max_hidden_degree):  # noqa: ANN001, ANN202
    """(new text, detail, entities to hide) or None when this question does not suit `kind`."""
    if kind == "time_outside_kg":
        first = None if span.start == OPEN_START else span.start.year
        moved = move_time(question.text, first, None if span.end == OPEN_END else span.end.year, rng)
        if moved is None:
            return None
        text, change = moved
        return text, f"{change} (KG covers {span.start}..{span.end})", []
    mentions = finder.find(question.text)
    if not mentions:
        return None
    if kind == "entity_not_in_kg":
        mention = max(mentions, key=lambda m: (len(m.text), -m.start))
        name = made_up_name(mention.text, store, rng)
        text = question.text[: mention.start] + name + question.text[mention.end :]
        return text, f"{mention.text!r} -> {name!r} (not in the KG)", []
    entities = sorted({m.entity for m in mentions})
    if any(degrees.get(e, 0) > max_hidden_degree for e in entities):
        return None
    hidden_facts = sum(degrees.get(e, 0) for e in entities)
    return question.text, f"{hidden_facts} facts of {', '.join(entities)} hidden", entities


def _record(question: Question, kind: str, text: str, detail: str) -> dict:
    record = {
        "quid": f"{question.qid}-{kind}",
        "question": text,
        "answers": [],
        "answer_type": question.answer_type,
        "time_level": question.time_level,
        "qtype": question.qtype,
        "qlabel": question.qlabel,
        "answerable": False,
        "unanswerable_reason": kind,
        "unanswerable_detail": detail,
        "source_quid": question.qid,
        "source_question": question.text,
        "source_answers": list(question.answers),
    }
    return record


def _twin_record(question: Question, kind: str, text: str, answers: list[str]) -> dict:
    """The answerable twin of a `kind` rewrite: the same template, with facts that answer it."""
    record = _record(question, kind, text, "answerable twin")
    record.update(quid=f"{question.qid}-{kind}-twin", answers=list(answers), answerable=True, unanswerable_reason=None)
    return record


def build(
    questions: Sequence[Question],
    db: Path,
    out: Path,
    per_kind: int,
    seed: int = 0,
    kinds: Sequence[str] = DEFAULT_KINDS,
    hidden_db: Path | None = None,
    max_hidden_degree: int = 300,
) -> UnanswerableSet:
    """Make the set from the store at `db`, write the hidden-facts store, and write `out` (JSON)."""
    with TKGStore.open(db) as store:
        result = make_unanswerable(questions, store, per_kind, seed, kinds, max_hidden_degree)
    if result.hidden_entities:
        hidden_db = Path(hidden_db) if hidden_db else Path(out).with_suffix(".hidden.duckdb")
        result.hidden_facts = write_hidden_store(db, hidden_db, result.hidden_entities)
        result.hidden_db = hidden_db
        for record in result.records:
            if record["unanswerable_reason"] == "facts_hidden":
                record["db"] = str(hidden_db)
    write_json(Path(out), result.records, indent=1, ensure_ascii=False)
    return result
