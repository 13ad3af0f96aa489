"""Faithful answers: an answer survives only if a KG fact states it the way the question asks.

Whatever program produced the answers, each is checked against the question's analysis and the
store alone:

* type: a "who"/"which country" question never gets a time, a "when"/"which month" one never an
  entity;
* relation: some fact links the answer (or, for a time answer, the question's entities) to a
  question entity through a relation the question may be asking about, or the relation stating the
  same event from the other side (`tkg_store.learned.mirror_relations`); "may be asking about" is the relation
  linker's `plausible` (a shared word, or a fair share of the lexicon's posterior), and where
  that cannot tell (the wording names no relation), the question's own best-ranked relation;
* role: each linked entity stands in that fact where the question puts it: the subject of the
  asked clause as the fact's head, its object as the tail (`agents.analysis.clause_roles`); a
  mirror relation states the event with the roles swapped, a symmetric relation (one whose facts
  the KG states both ways, `symmetric_relations`) in either, and a one-way relation
  (`one_way_relations`: its two sides hold two kinds of entity) in the side its kind takes; an entity a temporal cue points at
  ("before X") is the reference event's, not the asked one's, and does not anchor the answer;
* time, at its granularity: inside a stated time ("in November 2014" = inside that month),
  strictly before / after it, or between two stated times;
* reference event: when a before / after cue points at another entity ("who last criticised North
  Korea before China did"), the answer's fact is strictly before / after the first fact that states
  the same event with that entity in the answer's place (China criticising North Korea), within the
  time the question states, if any ("... before China did in 2013"); the question means what it
  says, whatever direction a benchmark's gold follows. When no such fact exists, no answer is
  right, and the reason names the missing event;
* first / last: the answer's fact is the earliest / latest of the facts that meet the other
  constraints, with the question's entity in the same role.

A same-period reference to another event ("the same month as X visited Y") is not checked here:
which event is meant is the program's reading. When no answer survives, the verdict names what is
missing and the nearest facts that do exist.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import cast

from agents.analysis.clause_roles import OBJECT, REFERENCE, SUBJECT, clause_roles, head_role, voice_roles
from agents.analysis.cues import time_before_cue
from agents.analysis.referents import pronoun_anchor
from agents.analysis.types import QuestionAnalysis
from agents.roles import ACTED_PER_MENTION, reference_role
from tkg_store.learned import country_names, mirror_relations, qualifier_of
from tkg_store.store import Fact, TKGStore
from tkg_store.temporal import Granularity, TimeSpan, format_time, parse_time, when_text

NEAREST = 3  # facts shown as evidence when abstaining
_ISO_TIME = re.compile(r"^\d{4}(?:-\d{2}(?:-\d{2})?)?$")


@dataclass(frozen=True)
class Verdict:
    """The answers that survive, in their order; when none does, why, with the nearest facts."""

    answers: list[str]
    reason: str | None = None
    evidence: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TimeConstraint:
    """What the question states about the answer's time: a test of a fact's interval."""

    operator: str  # "in" | "before" | "after" | "between"
    span: TimeSpan

    def admits(self, fact: Fact) -> bool:
        start = fact.start if fact.start is not None else fact.end
        end = fact.end if fact.end is not None else fact.start
        if start is None or end is None:
            return False
        if self.operator == "before":
            return start < self.span.start
        if self.operator == "after":
            return start > self.span.end
        return start <= self.span.end and end >= self.span.start  # "in" and "between": overlap

    @property
    def window(self) -> TimeSpan:
        """A span every admitted fact overlaps (for narrowing a lookup; `admits` decides)."""
        if self.operator == "before":
            return TimeSpan(date.min, date.fromordinal(max(1, self.span.start.toordinal() - 1)), Granularity.DAY)
        if self.operator == "after":
            return TimeSpan(date.fromordinal(min(date.max.toordinal(), self.span.end.toordinal() + 1)), date.max, Granularity.DAY)
        return self.span

    def __str__(self) -> str:
        if self.operator == "between":
            return f"between {format_time(self.span.start, Granularity.DAY)} and {format_time(self.span.end, Granularity.DAY)}"
        return f"{self.operator} {self.span}"


def time_constraint(analysis: QuestionAnalysis) -> TimeConstraint | None:
    """The stated time the answer's fact must meet; None when the question states none (or refers
    to another event's time, which the program resolves)."""
    times = [t.time for t in analysis.times]
    if not times:
        return None
    cue = analysis.cue
    # the typed query reads a window ("from September until October") whatever its first cue word ("until")
    if (cue == "between" or analysis.query.window) and len(times) >= 2:
        lo, hi = min(times[:2]), max(times[:2], key=lambda t: t.end)
        return TimeConstraint("between", TimeSpan(lo.start, max(lo.end, hi.end), Granularity.DAY))
    if cue in ("before", "after"):
        return TimeConstraint(cue, times[-1])
    placed = next((c for c in analysis.cues if c in ("before", "after")), None)
    if placed is not None and cue in ("first", "last"):
        # "when, before 2009, did X last ...": the answer is before that time, and its extreme is checked apart
        return TimeConstraint(placed, times[-1])
    if cue is None or cue in ("first", "last"):
        return TimeConstraint("in", times[0])
    return None  # same_day / same_month / same_year: the reference is an event


def is_time_answer(answer: str) -> bool:
    return bool(_ISO_TIME.match(answer))


class AnswerCheck:
    """The constraints of one question, checked answer by answer (see the module docstring)."""

    def __init__(
        self,
        store: TKGStore,
        analysis: QuestionAnalysis,
        plausible: Callable[[str, set[str]], bool | None] | None = None,
        kind: frozenset[str] | None = None,
        referred_relations: frozenset[str] = frozenset(),
        acts: dict[int, str] | None = None,
    ) -> None:
        self.store = store
        self.referred_relations = referred_relations  # the relations the words of the event referred to name (none: any asked)
        self.analysis = analysis
        self.plausible = plausible
        self.kind = kind  # the entities of the asked kind ("which country": the KG's countries), None: any
        self.mirrors = mirror_relations(store)
        linked = [(number, m) for number, m in enumerate(analysis.entities, start=1) if m.candidates]
        self.mentions = [[n for n, _ in m.candidates[:ACTED_PER_MENTION]] for _, m in linked]
        # a passive's roles are read off its voice where the clause leaves them open ("the last praised by {E1}": the doer);
        # `acts`, the parties of an act said by its noun, outrank both ("for a {E1} visit to {E2}": {E1} the visitor)
        roles = voice_roles(analysis.masked).read | {n: r for n, r in clause_roles(analysis.masked).items() if r is not None} | (acts or {})
        self.roles = [roles.get(number) for number, _ in linked]  # parallel to `mentions`
        self.pronoun = pronoun_anchor(analysis.masked)  # the asked event's party, said by a pronoun ("who criticized him")
        self.numbers = [number for number, _ in linked]
        # "before China did": China's event dates the answers, and a stated time dates that event
        referred = reference_role(analysis)
        self.referred = [n for n, _ in analysis.entities[int(referred[1:]) - 1].candidates[:ACTED_PER_MENTION]] if referred else []
        self.reference_time = TimeConstraint("in", analysis.times[0].time) if referred and analysis.times else None
        # a time right before the cue places the answers as well ("which countries recognised X in {T1} after {E2} did")
        placed = referred and analysis.times and time_before_cue(analysis.masked)
        self.constraint = TimeConstraint("in", analysis.times[0].time) if placed else None if referred else time_constraint(analysis)
        self.kept = self._kept_places() if referred else {}
        self.ordinal = next((c for c in analysis.cues if c in ("first", "last")), None)
        # the extreme is only checked against a time the check knows: a same-period one is the program's reading
        if self.ordinal and analysis.cue not in (None, "first", "last") and self.constraint is None and not referred:
            self.ordinal = None
        self._reference_spans: dict[tuple[str, str, bool, str], TimeSpan | None] = {}
        self._head_role: dict[str, str | None] = {}
        self._asked: dict[str, bool] = {}
        self._wanted: dict[tuple[str, str, bool, str | None, str | None], date | None] = {}
        self._survives: dict[str, bool] = {}

    # -- the parts of the test --------------------------------------------------------------
    def asks_relation(self, relation: str) -> bool:
        """Whether the question may be about `relation` (or a mirror of it)."""
        if self.plausible is None:
            return True
        if relation not in self._asked:
            family = {relation} | set(self.mirrors.get(relation, ()))
            verdict = self.plausible(self.analysis.masked, family)
            if verdict is None:  # the wording names no relation: the question's best-ranked one
                ranked = self.analysis.relations
                verdict = not ranked or bool(family & {r for r, score in ranked if score >= ranked[0][1]})
            self._asked[relation] = verdict
        return self._asked[relation]

    def refers_to(self, relation: str | None) -> bool:
        """Whether the event the question refers to may be of `relation`: one its own words name ("after {E2}
        broke off relations with {E1}, whom did {E1} sign deals with"; "after {E1} was arrested, who criticized him", of the
        one party named), else one the question asks ("before {E2} did")."""
        if relation is None or not (self.referred or self.referred_relations):
            return True
        if not self.referred_relations:
            return self.asks_relation(relation)
        return bool(({relation} | set(self.mirrors.get(relation, ()))) & self.referred_relations)

    def head_role(self, relation: str) -> str | None:
        """`head_role` of this question, kept per relation."""
        if relation not in self._head_role:
            self._head_role[relation] = head_role(self.store, self.analysis.masked, relation)
        return self._head_role[relation]

    def in_role(self, fact: Fact, anchor: str, role: str | None) -> bool:
        """Whether `anchor` stands in `fact` where the question puts it (True when either may)."""
        if role not in (SUBJECT, OBJECT):
            return True
        head_role = self.head_role(fact.relation)
        return head_role is None or (fact.head == anchor) == (role == head_role)

    def anchors(self) -> list[tuple[list[str], str | None]]:
        """(candidates, role) of the mentions an entity answer must be linked to: all but those a
        temporal cue points at (another event's), unless only those were linked."""
        if self.pronoun is not None:  # the party a pronoun stands for, in the pronoun's role; none when it may be either
            numbers, role, person = self.pronoun
            # a person's pronoun stands for no country nor a sector of one ("him": not China)
            numbers = [n for n in numbers if n in self.numbers]
            numbers = [n for n in numbers if not (person and len(numbers) > 1 and self._country_or_sector(self.numbers.index(n)))]
            return [(self.mentions[self.numbers.index(numbers[0])], role)] if len(numbers) == 1 else []
        pairs = list(zip(self.mentions, self.roles))
        asked = [(m, r) for m, r in pairs if r != REFERENCE]
        return asked or pairs

    def _country_or_sector(self, index: int) -> bool:
        name = self.mentions[index][0] if self.mentions[index] else ""
        return name in country_names(self.store) or qualifier_of(name) is not None

    def fits(self, fact: Fact, referred: str | None = None, anchor: str | None = None) -> bool:
        return self.admits(fact, referred, anchor) and self.asks_relation(fact.relation)

    def admits(self, fact: Fact, referred: str | None = None, anchor: str | None = None) -> bool:
        """Whether `fact` is at the time the question asks: the time it states, or, when a cue
        points at another entity's event, strictly before / after the first fact of that event
        with `referred` (one of the referenced mention's candidates) in the place of the answer
        and `anchor` (else the fact's entity that keeps its place) in its own."""
        if referred is None:
            return self.constraint is None or self.constraint.admits(fact)
        kept_here = {anchor} if anchor in self.kept else {fact.head, fact.tail} & self.kept.keys()
        for kept in kept_here:
            span = self._reference_span(fact.relation, kept, fact.head == kept, referred)
            if span is not None and TimeConstraint(cast(str, self.analysis.cue), span).admits(fact):
                return True
        return False

    def references(self) -> list[str | None]:
        """The referenced mention's candidates, each dating the answers by its own event; [None]
        when the question points at no entity's event."""
        found: list[str | None] = list(self.referred)
        return found or [None]

    def _kept_places(self) -> dict[str, str | None]:
        """Entity -> its role, for the mentions that keep their place in the event a cue points at:
        the answer's anchors; for a time answer, the participant other than the subject, whose
        place the referenced entity takes ("when did X visit Y after Z did": Z visited Y)."""
        pairs = [(m, r) for m, r in zip(self.mentions, self.roles) if r != REFERENCE]
        # an event of its own act ("when did X visit Y after he criticised Z") may keep either participant: its clause said which
        if self.analysis.answer_type == "time" and any(r == SUBJECT for _, r in pairs) and len(pairs) > 1 and not self.referred_relations:
            pairs = [(m, r) for m, r in pairs if r != SUBJECT]
        return {name: role for names, role in pairs for name in names}

    def _reference_span(self, relation: str, kept: str, kept_is_head: bool, referred: str) -> TimeSpan | None:
        """The time of the first fact of the event a cue points at, as the answer's `relation`
        fact with `kept` on its side states it, and `referred` on the other (None: no such fact)."""
        key = (relation, kept, kept_is_head, referred)
        if key not in self._reference_spans:
            events = [e for r in sorted(self._event_relations(relation)) for e in self._family(r, kept, kept_is_head, referred)]
            events = [e for e in events if self.reference_time is None or self.reference_time.admits(e)]
            self._reference_spans[key] = _first_span(events)
        return self._reference_spans[key]

    def _event_relations(self, relation: str) -> frozenset[str]:
        """The relations the referred event may be of, for an answer of `relation`: its own, unless the words of that
        event name others ("after {E1} granted asylum to {E2}, which countries did {E1} visit": asylum granted)."""
        return frozenset({relation}) if not self.referred_relations or self.refers_to(relation) else self.referred_relations

    def _family(self, relation: str, anchor: str, anchor_is_head: bool, other: str | None = None) -> list[Fact]:
        """Facts of `relation`'s family with `anchor` where it stands in a `relation` fact (a
        mirror states the event the other way round), and `other` (when given) on the other side."""
        facts = []
        for member in {relation} | set(self.mirrors.get(relation, ())):
            if (member == relation) == anchor_is_head:
                facts += self.store.facts(head=anchor, relation=member, tail=other)
            else:
                facts += self.store.facts(head=other, relation=member, tail=anchor)
        return facts

    def _peers(self, fact: Fact, anchor: str, pair: bool, referred: str | None) -> list[Fact]:
        """Facts of the same relation family with `anchor` in the same role as in `fact` (and,
        when `pair`, with the same other entity) at the asked time (`admits`)."""
        anchor_is_head = fact.head == anchor
        other = fact.tail if anchor_is_head else fact.head
        peers = self._family(fact.relation, anchor, anchor_is_head)
        if self.kind is not None:  # "which country ... last": the last of the facts with a country, a sector's is no peer
            peers = [f for f in peers if (f.tail if anchor_is_head else f.head) in self.kind]
        if pair:
            peers = [f for f in peers if other in (f.head, f.tail)]
        return [f for f in peers if self.admits(f, referred, anchor)]

    def _extreme(self, fact: Fact, anchor: str, pair: bool = False, referred: str | None = None) -> bool:
        """Whether `fact` is the first / last of its peers (by its start day; last: by the
        latest day it holds, as `actions.semantics.last`)."""
        if self.ordinal is None:
            return True
        anchor_is_head = fact.head == anchor
        other = (fact.tail if anchor_is_head else fact.head) if pair else None
        key = (fact.relation, anchor, anchor_is_head, other, referred)  # what `_peers` depends on
        if key not in self._wanted:  # every candidate answer meets the same peers
            days = [d for f in self._peers(fact, anchor, pair, referred) if (d := self._held(f)) is not None]
            self._wanted[key] = (min(days) if self.ordinal == "first" else max(days)) if days else None
        wanted = self._wanted[key]
        return wanted is None or self._held(fact) == wanted

    def _held(self, fact: Fact) -> date | None:
        """The day that places a fact for this question: its start, or under "last" the latest
        day it holds (an interval is held in each of its years: "the last year X was Y" is its end;
        an open end is held still, after every stated day)."""
        if self.ordinal == "last" and fact.start is not None:
            return fact.end or date.max
        return _day(fact)

    # -- answers ------------------------------------------------------------------------------
    def supports_entity(self, answer: str) -> bool:
        window = self.constraint.window if self.constraint else None
        for name in self.store.entities_displayed(answer) or [answer]:  # answers are compared as displayed
            for anchors, role in self.anchors():
                for anchor in anchors:
                    if anchor == name:
                        continue
                    # only the relations the question may ask about: two busy entities share thousands of facts
                    for relation in self._likely_first(self.store.relations_between(name, anchor)):
                        if not self.asks_relation(relation):
                            continue
                        facts = self.store.facts(name, relation, anchor, within=window) + self.store.facts(anchor, relation, name, within=window)
                        facts = [f for f in facts if self.in_role(f, anchor, role)]
                        for referred in self.references():
                            if any(self.fits(f, referred, anchor) and self._extreme(f, anchor, referred=referred) for f in facts):
                                return True
        return False

    def _likely_first(self, relations: set[str]) -> list[str]:
        """The question's best-ranked two relations first (most answers are settled by them,
        without the KG-wide posterior the other relations may need), then by name."""
        top = {r for r, _ in self.analysis.relations[:2]}
        return sorted(relations, key=lambda r: (r not in top, r))

    def supports_time(self, answer: str) -> bool:
        try:
            span = parse_time(answer)
        except Exception:
            return False
        pair = len(self.mentions) >= 2
        for anchor, facts in self._time_facts(span):
            inside = [f for f in facts if (day := self._held(f)) is not None and span.contains(day)]
            for referred in self.references():
                if any(self.fits(f, referred) and self._extreme(f, anchor, pair, referred) for f in inside):
                    return True
        return False

    def _time_facts(self, span: TimeSpan) -> Iterable[tuple[str, list[Fact]]]:
        """(anchor, facts inside `span` with the mentions in their roles) whose times may answer:
        between the first two mentions, else of the first."""
        if len(self.mentions) >= 2:
            for one in self.mentions[0]:
                for other in self.mentions[1]:
                    facts = self.store.facts(head=one, tail=other, within=span) + self.store.facts(head=other, tail=one, within=span)
                    yield one, [f for f in facts if self.in_role(f, one, self.roles[0]) and self.in_role(f, other, self.roles[1])]
        elif self.mentions:
            for one in self.mentions[0]:
                facts = self.store.facts(head=one, within=span) + self.store.facts(tail=one, within=span)
                yield one, [f for f in facts if self.in_role(f, one, self.roles[0])]

    def survives(self, answer: str) -> bool:
        if answer not in self._survives:  # the planner and the audit ask of the same answers
            if self.analysis.answer_type == "time":
                self._survives[answer] = is_time_answer(answer) and self.supports_time(answer)
            else:
                self._survives[answer] = not is_time_answer(answer) and self.supports_entity(answer)
        return self._survives[answer]

    # -- abstaining ---------------------------------------------------------------------------
    def missing_reference(self) -> str | None:
        """Why no answer can be right when the event a cue points at never happened ("before China
        did", and no fact states that China criticised North Korea); None when it did, or when the
        question points at no such event."""
        if not self.referred:
            return None
        for kept, role in self.kept.items():
            for other in self.referred:
                for linking in filter(self.refers_to, self.store.relations_between(kept, other)):
                    facts = self.store.facts(kept, linking, other) + self.store.facts(other, linking, kept)
                    if any(self.in_role(f, kept, role) and (self.reference_time is None or self.reference_time.admits(f)) for f in facts):
                        return None
        relation = next((r for r, _ in self.analysis.relations if self.refers_to(r)), None) or min(self.referred_relations, default=None)
        kept, role = next(iter(self.kept.items()))
        names = [self.store.display(kept), self.store.display(self.referred[0])]
        when = f" {self.reference_time}" if self.reference_time else ""
        if relation is None or role not in (SUBJECT, OBJECT) or self.head_role(relation) is None or self.referred_relations:  # its roles are its clause's
            through = f"'{self.store.relation_text(relation)}'" if relation else "the asked relation"
            return f"the event the question refers to is not in the KG: no fact of {through} links {names[1]} and {names[0]}{when}"
        head, tail = names if role == self.head_role(relation) else names[::-1]
        return f"the event the question refers to is not in the KG: no fact states that {head} {self.store.relation_text(relation)} {tail}{when}"

    def reason(self, answers: list[str], relation: str | None) -> str:
        """What is missing, in one line."""
        if answers and all(is_time_answer(a) == (self.analysis.answer_type != "time") for a in answers):
            asked = "a time" if self.analysis.answer_type == "time" else "an entity"
            return f"the question asks for {asked}, but the only answers found were {', '.join(answers[:3])}"
        about = " and ".join(self.store.display(m[0]) for m in self.mentions[:2]) or "the question's entities"
        through = f"'{self.store.relation_text(relation)}'" if relation else "the asked relation"
        when = f" {self.constraint}" if self.constraint else ""
        return f"no fact of {through} involving {about}{when} supports an answer"

    def asked_relation(self, candidates: Iterable[str | None]) -> str | None:
        """The first of `candidates` the question may be asking about (for wording the reason)."""
        return next((r for r in candidates if r is not None and self.asks_relation(r)), None)

    def nearest(self, relation: str | None, limit: int = NEAREST) -> list[str]:
        """The facts closest to what was asked: of the first entity (with the second, if any),
        through the asked relation family, nearest to the stated time; an event stated from both
        sides (a visit made and hosted) is shown once."""
        if not self.mentions:
            return []
        anchor = self.mentions[0][0]
        family = {relation} | set(self.mirrors.get(relation, ())) if relation else None
        other = self.mentions[1][0] if len(self.mentions) >= 2 else None
        if family is None:
            facts = self.store.facts(head=anchor) + self.store.facts(tail=anchor)
        else:
            facts = [f for r in sorted(family) for f in self.store.facts(head=anchor, relation=r) + self.store.facts(relation=r, tail=anchor)]
        facts = [f for f in facts if _day(f) is not None and (other is None or other in (f.head, f.tail))]
        if self.constraint is not None:
            middle = self.constraint.span.start
            facts.sort(key=lambda f: (abs((cast(date, _day(f)) - middle).days), f.relation != relation))  # dated: kept above
        else:
            facts.sort(key=lambda f: (_day(f), f.relation == relation), reverse=True)  # most recent first
        shown: list[str] = []
        events: set[tuple] = set()
        for fact in facts:
            event = (frozenset((fact.head, fact.tail)), _day(fact), frozenset({fact.relation} | self.mirrors.get(fact.relation, set())))
            if event in events:
                continue
            events.add(event)
            shown.append(self.describe(fact))
            if len(shown) >= limit:
                break
        return shown

    def describe(self, fact: Fact) -> str:
        when = when_text(fact.start, fact.end, fact.granularity)
        return f"{self.store.display(fact.head)} {self.store.relation_text(fact.relation)} {self.store.display(fact.tail)}{when}"


def check_answers(
    store: TKGStore,
    analysis: QuestionAnalysis | None,
    answers: list[str],
    plausible: Callable[[str, set[str]], bool | None] | None = None,
    relation: str | None = None,
    check: AnswerCheck | None = None,
) -> Verdict:
    """Keep the answers some fact states as the question asks; `relation` (the asked relation as
    the solver read it, or None) only words the reason and picks the evidence when none is kept.
    `check`: the question's check built earlier (by the planner), with the verdicts it has kept."""
    if analysis is None or not answers or not analysis.entities:
        return Verdict(list(answers))
    check = check or AnswerCheck(store, analysis, plausible)
    kept = [a for a in answers if check.survives(a)]
    if kept:
        return Verdict(kept)
    relation = check.asked_relation([relation] + [r for r, _ in analysis.relations])
    return Verdict([], check.missing_reference() or check.reason(answers, relation), check.nearest(relation))


def nearest_facts(
    store: TKGStore,
    analysis: QuestionAnalysis | None,
    plausible: Callable[[str, set[str]], bool | None] | None = None,
    relation: str | None = None,
) -> list[str]:
    """The facts nearest to what the question asks (for an abstention found no answer at all)."""
    if analysis is None or not analysis.entities:
        return []
    check = AnswerCheck(store, analysis, plausible)
    return check.nearest(check.asked_relation([relation] + [r for r, _ in analysis.relations]))


def _day(fact: Fact) -> date | None:
    return fact.start if fact.start is not None else fact.end


def _first_span(facts: list[Fact]) -> TimeSpan | None:
    """The interval of the earliest-starting fact, as a before / after step takes its reference
    (`actions.semantics.reference_span`); None when no fact has a time."""
    timed = [f for f in facts if _day(f) is not None]
    if not timed:
        return None
    first = min(timed, key=lambda f: (cast(date, _day(f)), f.end or date.max))
    start = cast(date, _day(first))
    return TimeSpan(start, first.end or start, first.granularity)
