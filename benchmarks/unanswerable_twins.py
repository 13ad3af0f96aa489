"""Unanswerable questions with answerable twins from the same templates (issue 12).

Each kind rewrites an answerable question twice, once so that no fact answers it and once so that
facts do (its twin, labelled with the answers those facts give); a system that answers by relaxing
the question fails the first, one that abstains too eagerly fails the second:

- `no_event_time`: "Who <R> X in <period>?" (one entity, one stated month or day, an entity
  answer): the period moves to one inside the KG where X has facts but none through the
  question's relation (or its mirror) in X's role; the twin moves it to a period where some exist.
- `no_event_pair`: "When did X <R> Y?" (two entities, a time answer): Y becomes an entity X is
  linked with, but never through the question's relation or its mirror (either direction); the
  twin's Y is linked with X through it, in the same role.
- `unreadable_time`: the stated time becomes a date that does not exist ("31 April 2010",
  "2010-13") or a vague period ("early 2010", "the spring of 2010"); the twin is the question as
  it was.
- `not_a_question`: a bare name, the question without its interrogative phrase, (for "Who ..."
  questions) the statement its first gold answer makes, or (for "When did ..." questions) the
  yes/no question "Did ...?"; the twin is the question as it was. A question without its
  interrogative phrase that is a definite description ("the first to condemn Iraq", left of "Who
  was the first to condemn Iraq?") is no fragment but a search-box query for its referent
  (`agents.analysis.question_form`): that wording is not offered.

No kind uses a question whose gold facts put its entity in the role opposite to the one its
wording gives it ("In which year did Ethiopia praise Y?" answered from "Y praised Ethiopia": MultiTQ
has such questions, and a twin labelled from those facts asks what they do not state; found on dev
shard 0/2, where the answer check's role test abstained on 4 such no_event twins; `unreadable_time`
and `not_a_question` twins, the source question with its own gold, are held to the same test:
`benchmarks.twin_audit` flagged such twins on shard 0/2). Neither no_event kind uses
one whose name is written as the possessor of another ("the Ministry of Agriculture of Vietnam"):
the question is about the ministry, and a twin labelled from Vietnam's facts would be answerable
only by misreading it (found on dev shard 0/2: 7 of the 18 twins the agent abstained on were such).

The question's relation is read from the KG and checked against the wording: of the relations
of the facts that link a gold answer to the question's entity (at the stated time), the commonest
whose text shares the most content words with the question without its names ("Human Rights
Watch" names no relation); a question where none does is not used. A
period or entity counts as having no matching fact only when no relation that shares a word with
the question (nor the gold-linking relations, nor their mirrors) has one.
Times are rewritten in one of several wordings (rng), the same for a question and its twin.
"""

from __future__ import annotations

import calendar
import random
import re
from collections import Counter
from datetime import date

from agents.analysis.clause_roles import OBJECT, REFERENCE, SUBJECT, clause_roles, head_role
from agents.analysis.question_form import DESCRIPTION, INTERROGATIVE
from agents.analysis.sectors import content_words
from agents.analysis.times import read_times
from agents.faithfulness import TimeConstraint
from ari.base.text import share_a_word
from benchmarks.loaders.types import Question
from tkg_store.learned import mirror_relations
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity, TimeSpan, span_of

TWIN_KINDS = ("no_event_time", "no_event_pair", "unreadable_time", "not_a_question")
MIN_DEGREE = 20  # a replacement entity has at least this many facts ("known")
_MONTH_NAMES = [calendar.month_name[m] for m in range(1, 13)]
_INTERROGATIVE = re.compile(
    r"^(?:.*?\b)?(?:who|whom|when|which\s+\w+|what\s+\w+|in\s+which\s+\w+|on\s+which\s+\w+)"
    r"(?:\s+(?:did|does|do|was|were|is|has|had|have))?\s+",
    re.IGNORECASE,
)

# "When did X visit Y?", "In which year did X ...?" -> "Did X visit Y?": whether, not when
_WHEN_DID = re.compile(r"^(?:when|(?:in\s+)?(?:which|what)\s+(?:year|month|day|date))\s+did\s+(?P<rest>[^?]+)\?$", re.IGNORECASE)
# "the Ministry of Agriculture of Vietnam", "the citizens of Iraq": a name written after "of" names
# whom something else belongs to; the question is about that something (often itself a KG entity,
# Agriculture_/_Fishing_/_Forestry_Ministry_(Vietnam)), not the name.
_POSSESSOR = re.compile(r"\bof\s+(?:the\s+)?$", re.IGNORECASE)


def shared_words(text: str, relation_text: str) -> int:
    """How many content words of a relation's text the wording shares (by their first five letters)."""
    prefixes = {w[:5] for w in content_words(text) if len(w) >= 4}
    return sum(1 for w in content_words(relation_text) if len(w) >= 4 and w[:5] in prefixes)


def possessor(text: str, mention) -> bool:  # noqa: ANN001 (benchmarks.unanswerable.Mention)
    """Whether `mention` is written as the possessor of another name ("... of Vietnam")."""
    return bool(_POSSESSOR.search(text[: mention.start]))


def _wording(text: str, mentions: list) -> str:  # noqa: ANN001 (benchmarks.unanswerable.Mention)
    """The question without its names: "Human Rights Watch" says nothing about which relation is
    asked (it shares words with Accuse_of_human_rights_abuses; found on dev shard 0/2)."""
    for mention in sorted(mentions, key=lambda m: -m.start):
        text = text[: mention.start] + " " + text[mention.end :]
    return text


def month_wording(day: date, style: int) -> str:
    name = _MONTH_NAMES[day.month - 1]
    return (f"{name} {day.year}", f"{name[:3]} {day.year}", f"{day.year}-{day.month:02d}", f"{name}, {day.year}")[style % 4]


def day_wording(day: date, style: int) -> str:
    name = _MONTH_NAMES[day.month - 1]
    return (f"{day.day} {name} {day.year}", f"{name} {day.day}, {day.year}", day.isoformat(), f"{name[:3]} {day.day}, {day.year}")[style % 4]


def wording(span: TimeSpan, style: int) -> str:
    if span.granularity is Granularity.DAY:
        return day_wording(span.start, style)
    if span.granularity is Granularity.MONTH:
        return month_wording(span.start, style)
    return str(span.start.year)


_CUE_BEFORE_TIME = re.compile(r"\b(before|prior\s+to|until|after|since|following)\s+(?:the\s+)?$", re.IGNORECASE)


def _stated_constraint(question: Question) -> TimeConstraint | None:
    """What a question stating one time says of its answer's fact ("in", "before" or "after" that
    time, as the answer check reads it); None when it states no time or several."""
    times = read_times(question.text).found
    if len(times) != 1:
        return None
    cue = _CUE_BEFORE_TIME.search(question.text[: times[0].span[0]])
    if cue is None:
        return TimeConstraint("in", times[0].time) if question.qtype in ("equal", "first_last") else None
    word = cue.group(1).lower()
    return TimeConstraint("before" if word in ("before", "until") or word.startswith("prior") else "after", times[0].time)


def _masked(text: str, mentions: list) -> str:  # noqa: ANN001 (benchmarks.unanswerable.Mention)
    """The question with its mentions as {E1}, {E2}, ... (as the analysis masks them)."""
    for number, mention in sorted(enumerate(mentions, start=1), key=lambda m: -m[1].start):
        text = text[: mention.start] + f"{{E{number}}}" + text[mention.end :]
    return text


def _role_of_first(text: str, mentions: list) -> str | None:  # noqa: ANN001 (benchmarks.unanswerable.Mention)
    return clause_roles(_masked(text, mentions)).get(1)


class TwinMaker:
    """Rewrites answerable questions into (unanswerable, answerable twin) pairs, one kind at a time."""

    def __init__(self, store: TKGStore, finder, rng: random.Random, min_degree: int = MIN_DEGREE) -> None:  # noqa: ANN001
        self.store = store
        self.finder = finder
        self.rng = rng
        self.min_degree = min_degree  # a replacement entity has at least this many neighbours ("known")
        self.mirrors = mirror_relations(store)
        self.kg_range = store.time_range()
        names: dict[str, str] = {}
        for name in store.entity_names():
            names.setdefault(store.display(name), name)
        self.by_display = names
        self._named: dict[str, set[str]] = {}

    def make(self, kind: str, question: Question) -> tuple[tuple[str, list[str], str], tuple[str, list[str]]] | None:
        """((unanswerable text, [], detail), (twin text, twin gold)) or None when `question` does not suit."""
        return getattr(self, kind)(question)

    # -- helpers ------------------------------------------------------------------------------
    def _role_facts(self, entity: str, relation: str, as_head: bool, within: TimeSpan | None = None):
        """Facts of `relation` with `entity` in the given role, and mirror facts stating the same."""
        facts = self.store.facts(head=entity, relation=relation, within=within) if as_head else self.store.facts(relation=relation, tail=entity, within=within)
        for mirror in self.mirrors.get(relation, ()):
            facts += self.store.facts(relation=mirror, tail=entity, within=within) if as_head else self.store.facts(head=entity, relation=mirror, within=within)
        return facts

    def _against_wording(self, text: str, mentions: list, relation: str, as_head: bool) -> bool:  # noqa: ANN001 (Mention)
        """Whether the wording puts the first mention in the other role than `as_head` in a
        `relation` fact (`agents.analysis.clause_roles.head_role`: the clause's subject is the head of the
        relation it names, a mirror swaps, "receive" turns around, a symmetric relation takes either)."""
        masked = _masked(text, mentions)
        role, of_head = clause_roles(masked).get(1), head_role(self.store, masked, relation)
        if role not in (SUBJECT, OBJECT) or of_head is None:
            return False
        return (role == of_head) != as_head

    def _gold_against_wording(self, question: Question) -> bool:
        """Whether the question's own gold is no answer to its wording: no fact links a gold answer
        to the question's first name (at its stated time, before or after it where it says so), or
        every such fact puts that name in the role opposite to the wording's (`_against_wording`). Kept as a twin, such a question is labelled with answers no
        fact states as it asks ("Before May 2005, which country praised Ethiopia?" labelled
        Government (Sudan) from "Ethiopia praised Government (Sudan)"; "With which country did
        China sign formal agreements on 8 March 2010?" labelled Vietnam from Thailand's agreement;
        found on dev shard 0/2 with `benchmarks.twin_audit`). Every linking fact counts, of any
        relation: "support" shares a word with Express_intent_to_engage_in_diplomatic_cooperation_
        (such_as_policy_support) while MultiTQ's "Which country was the first to support Ethiopia
        in 2006?" is answered by Praise_or_endorse, in the wording's roles. A question whose gold
        is linked to its second name only (the first is a reference: "After Y, who visited X?")
        is kept."""
        mentions = self.finder.find(question.text)
        if not mentions or any(possessor(question.text, m) for m in mentions[:2]):
            return False
        first = mentions[0].entity
        if question.answer_type == "time":
            if len(mentions) < 2:
                return False
            other = mentions[1].entity
            facts = [
                f for f in self.store.facts(head=first, tail=other) + self.store.facts(head=other, tail=first)
                if f.start is not None and any(f.start.isoformat().startswith(a) for a in question.answers)
            ]
        else:
            stated = _stated_constraint(question)
            facts = [f for f in self._gold_facts(first, question.answers) if stated is None or stated.admits(f)]
            if not facts:
                if len(mentions) == 1 and _role_of_first(question.text, mentions) == REFERENCE:
                    return False  # "After China, who ...": the name the gold belongs to was not found
                linked = any(self._gold_facts(m.entity, question.answers) for m in mentions[1:2])
                return not linked  # no fact links a gold answer to the question's names
        if not facts:
            return True
        linking = {(f.relation, f.head == first) for f in facts}
        return all(self._against_wording(question.text, mentions, relation, as_head) for relation, as_head in linking)

    def _gold_facts(self, entity: str, answers) -> list:  # noqa: ANN001 (answers: a sequence of displays)
        """Facts linking `entity` to a gold answer, either way."""
        facts = []
        for answer in answers:
            name = self.by_display.get(answer)
            if name is not None:
                facts += self.store.facts(head=entity, tail=name) + self.store.facts(head=name, tail=entity)
        return facts

    def _others(self, facts, entity: str) -> list[str]:
        return sorted({self.store.display(f.tail if f.head == entity else f.head) for f in facts})

    def _worded(self, found: Counter, text: str) -> tuple[tuple[str, bool], set[str]] | None:
        """The commonest (relation, role) whose relation the wording names, and the relations the
        question may be about (those found, those the wording names, and their mirrors)."""
        shared = {key: shared_words(text, self.store.relation_text(key[0])) for key in found}
        worded = sorted((key for key in found if shared[key]), key=lambda key: (-shared[key], -found[key], key))
        if not worded:
            return None
        if self._named.get(text) is None:
            self._named[text] = {r for r in self.store.relation_names() if share_a_word(content_words(text), content_words(self.store.relation_text(r)))}
        family = set(self._named[text]) | {r for r, _ in found}
        for relation in list(family):
            family |= self.mirrors.get(relation, set())
        return worded[0], family

    def _asked_relation(self, entity: str, answers: list[str], within: TimeSpan | None) -> Counter:
        """(relation, entity is head) of the facts linking `entity` to a gold answer, counted."""
        found: Counter[tuple[str, bool]] = Counter()
        for answer in answers:
            name = self.by_display.get(answer)
            if name is None:
                continue
            for fact in self.store.facts(head=entity, tail=name, within=within):
                found[(fact.relation, True)] += 1
            for fact in self.store.facts(head=name, tail=entity, within=within):
                found[(fact.relation, False)] += 1
        return found

    def _periods(self, like: TimeSpan) -> list[TimeSpan]:
        """Periods of `like`'s granularity inside the KG, within two years of it, in random order."""
        spans: list[TimeSpan] = []
        kg_range = self.kg_range
        if kg_range is None:  # a KG without facts has no period
            return spans
        day = max(kg_range.start, date(like.start.year - 2, 1, 1))
        last = min(kg_range.end, date(like.start.year + 2, 12, 31))
        while day <= last:
            span = span_of(day, like.granularity)
            if span != like and span.start <= kg_range.end:
                spans.append(span)
            day = span.end.fromordinal(span.end.toordinal() + 1)
        self.rng.shuffle(spans)
        return spans

    # -- kinds --------------------------------------------------------------------------------
    def no_event_time(self, question: Question):
        if question.answer_type != "entity" or question.qtype != "equal":
            return None
        mentions = self.finder.find(question.text)
        times = read_times(question.text).found
        if len(mentions) != 1 or len(times) != 1 or times[0].time.granularity is Granularity.YEAR:
            return None
        if possessor(question.text, mentions[0]):
            return None
        entity, stated = mentions[0].entity, times[0]
        asked = self._worded(self._asked_relation(entity, list(question.answers), stated.time), _wording(question.text, mentions))
        if asked is None:
            return None
        (relation, as_head), family = asked
        if self._against_wording(question.text, mentions, relation, as_head):
            return None
        empty = full = None
        for period in self._periods(stated.time):
            matching = self._role_facts(entity, relation, as_head, period)
            around = self.store.facts(head=entity, within=period) + self.store.facts(tail=entity, within=period)
            if not matching and empty is None and around and not any(f.relation in family for f in around):
                empty = period
            elif matching and full is None:
                full = (period, self._others(matching, entity))
            if empty is not None and full is not None:
                break
        if empty is None or full is None:
            return None
        style = self.rng.randrange(4)
        start, end = stated.span

        def put(span: TimeSpan) -> str:
            return question.text[:start] + wording(span, style) + question.text[end:]

        detail = f"no '{relation}' fact with {entity} as {'head' if as_head else 'tail'} in {empty}"
        return (put(empty), [], detail), (put(full[0]), full[1])

    def no_event_pair(self, question: Question):
        if question.answer_type != "time" or question.qtype != "equal":
            return None
        mentions = self.finder.find(question.text)
        if len(mentions) != 2 or read_times(question.text).found or any(possessor(question.text, m) for m in mentions):
            return None
        first, second = mentions[0].entity, mentions[1].entity
        found: Counter[tuple[str, bool]] = Counter(
            (f.relation, f.head == first) for f in self.store.facts(head=first, tail=second) + self.store.facts(head=second, tail=first)
            if f.start is not None and any(f.start.isoformat().startswith(a) for a in question.answers)
        )
        asked = self._worded(found, _wording(question.text, mentions))
        if asked is None:
            return None
        (relation, as_head), family = asked
        if self._against_wording(question.text, mentions, relation, as_head):
            return None
        linked: dict[str, list] = {}
        for fact in self.store.facts(head=first) + self.store.facts(tail=first):
            other = fact.tail if fact.head == first else fact.head
            if other not in (first, second):
                linked.setdefault(other, []).append(fact)
        degree = {n: len(self.store.neighbourhood(n)) for n in linked}
        known = sorted(n for n in linked if degree[n] >= self.min_degree and self.store.display(n)[:1].isupper())
        self.rng.shuffle(known)
        never = next((n for n in known if not any(f.relation in family for f in linked[n])), None)
        level = Granularity(question.time_level) if question.time_level in ("day", "month", "year") else Granularity.DAY
        twin = None
        for name in known:
            matching = [f for f in self._role_facts(first, relation, as_head) if name in (f.head, f.tail)]
            if matching:
                twin = (name, sorted({str(span_of(f.start, level)) for f in matching if f.start is not None}))
                break
        if never is None or twin is None:
            return None
        at = mentions[1]

        def put(name: str) -> str:
            return question.text[: at.start] + self.store.display(name) + question.text[at.end :]

        detail = f"{first} and {never} are linked, never through '{relation}' (nor a relation the wording names)"
        return (put(never), [], detail), (put(twin[0]), twin[1])

    def unreadable_time(self, question: Question):
        times = read_times(question.text).found
        if len(times) != 1 or self._gold_against_wording(question):
            return None
        stated = times[0]
        year, month = stated.time.start.year, stated.time.start.month
        if stated.time.granularity is Granularity.YEAR:
            phrase = self.rng.choice((f"early {year}", f"late {year}", f"the spring of {year}", f"mid-{year}", f"the end of {year}"))
        else:
            short = next((m for m in (4, 6, 9, 11) if m >= month), 11)
            phrase = self.rng.choice((f"31 {_MONTH_NAMES[short - 1]} {year}", f"{year}-13", f"{year}-{month:02d}-32", f"30 February {year}"))
        start, end = stated.span
        text = question.text[:start] + phrase + question.text[end:]
        return (text, [], f"{stated.text!r} -> {phrase!r}"), (question.text, list(question.answers))

    def not_a_question(self, question: Question):
        mentions = self.finder.find(question.text)
        if not mentions or self._gold_against_wording(question):
            return None
        choices = [("bare name", mentions[0].text)]
        fragment = _INTERROGATIVE.sub("", question.text, count=1).rstrip("?").strip()
        if fragment and fragment != question.text.rstrip("?").strip() and not INTERROGATIVE.search(fragment) and not DESCRIPTION.search(fragment):
            choices.append(("fragment", fragment))
        if question.text.startswith("Who ") and question.answers and question.answer_type == "entity":
            choices.append(("statement", question.answers[0] + " " + question.text[4:].rstrip("?").strip() + "."))
        when_did = _WHEN_DID.match(question.text.strip())
        if when_did and not INTERROGATIVE.search(when_did.group("rest")):
            choices.append(("yes/no", f"Did {when_did.group('rest').strip()}?"))
        form, text = self.rng.choice(choices)
        return (text, [], form), (question.text, list(question.answers))
