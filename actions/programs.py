"""Abstract programs: the entity-free form of an action sequence, parsed and rendered here only.

An abstract step names a template and its arguments by role: `E1`, `E2` (the question's entities,
`E?` one it does not mention), `R` (the relation; `R2` that of an event the question refers to by an act of its own), `T`, `T1`, `T2` (the question's times) and `#k`
(the result of step k, 1-based):

    getTime(E1, R, E2) -> getHeadEntity(E2, R) -> getAfter(#2, #1) -> getFirst(#3) -> answer(#4)

This is the vocabulary shared by the actions (`Action.abstract(roles)` renders with `render_step`),
the program search, the planner, the memory (which stores programs as their step texts) and the
prompts. Everything a planner reads off a program (its temporal operations, the roles it binds,
its dated variant, whether its joins keep their entity in place) is a property of `Program`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

ARROW = " -> "
LOOKUPS = frozenset({"getHeadEntity", "getTailEntity", "getTime", "getRelation"})
OPERATION_OF = {
    "getBefore": "before", "getAfter": "after", "getFirst": "first", "getLast": "last", "getBetween": "between", "getDuring": "during",
    "getNth": "nth", "getNthLast": "nth", "getMost": "most", "getLeast": "least",
    "count": "count", "exists": "exists", "ofType": "type", "exclude": "exclude",
    "includes": "exists",  # a yes / no too: whether a named entity is among the results
}
"""The operation each list operation performs (a lookup joined on #k performs "same")."""
LIST_OPERATIONS = frozenset(OPERATION_OF)


def render_step(template: str, args: Sequence[str]) -> str:
    """The one text form of a step: `getAfter(#2, #1)` (an unparsed text stays as it was)."""
    if not args and not template.isidentifier():
        return template
    return f"{template}({', '.join(args)})"


@dataclass(frozen=True, slots=True)
class AbstractStep:
    template: str
    args: tuple[str, ...]

    @staticmethod
    def parse(text: str) -> AbstractStep:
        return _parse_step(text.strip())

    def render(self) -> str:
        return render_step(self.template, self.args)

    __str__ = render

    @property
    def is_lookup(self) -> bool:
        return self.template in LOOKUPS

    @property
    def is_list_operation(self) -> bool:
        return self.template in LIST_OPERATIONS

    @property
    def reads(self) -> tuple[int, ...]:
        """The earlier steps this step reads (`#k` arguments)."""
        return tuple(int(a[1:]) for a in self.args if a.startswith("#") and a[1:].isdigit())

    @property
    def roles(self) -> frozenset[str]:
        """The question entities it names (`E1`, `E2` ...; `E?` is no role)."""
        return frozenset(a for a in self.args if a.startswith("E") and a[1:].isdigit())

    @property
    def times(self) -> frozenset[str]:
        """The question times it constrains by (`T`, `T1`, `T2`)."""
        return frozenset(a for a in self.args if a == "T" or (a.startswith("T") and a[1:].isdigit()))

    @property
    def uses_time(self) -> bool:
        return bool(self.times)

    @property
    def joins(self) -> int | None:
        """The step a same-period lookup joins on (`getHeadEntity(E1, R, #1)` -> 1), else None."""
        at = _TIME_ARGUMENT.get(self.template)
        if at is not None and len(self.args) == at + 1 and self.args[at].startswith("#"):
            return int(self.args[at][1:])
        return None

    @property
    def operation(self) -> str | None:
        """The operation it performs: before, after, between, first, last, same (a join); nth, most,
        least, count, exists, type, exclude."""
        return "same" if self.joins is not None else OPERATION_OF.get(self.template)


_TIME_ARGUMENT = {"getHeadEntity": 2, "getTailEntity": 2, "getTime": 3, "getRelation": 2}
"""Where a lookup's optional time argument (`T`, or `#k` for a same-period join) sits."""


@lru_cache(maxsize=8192)
def _parse_step(text: str) -> AbstractStep:
    name, bracket, rest = text.partition("(")
    if not bracket or not rest.endswith(")") or not name.isidentifier():
        return AbstractStep(text, ())  # not a step of ours: kept as an opaque name
    args = tuple(a.strip() for a in rest[:-1].split(",") if a.strip())
    return AbstractStep(name, args)


@dataclass(frozen=True)
class Program:
    """A sequence of abstract steps; hashable, so programs key dictionaries and caches."""

    steps: tuple[AbstractStep, ...]

    @staticmethod
    def parse(program: str | Iterable[str] | Program) -> Program:
        """From "a -> b", or a sequence of step texts (as the memory stores them)."""
        if isinstance(program, Program):
            return program
        texts = program.split(ARROW.strip()) if isinstance(program, str) else program
        return _parse_program(tuple(t.strip() for t in texts if t.strip()))

    def render(self) -> str:
        return ARROW.join(self.texts)

    __str__ = render

    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def _hash(self) -> int:
        # remembered: the planner and the methodology matching put a question's ~150 programs in
        # sets and dicts, and hashing the steps anew walks every step's dataclass each time
        return hash(self.steps)

    @cached_property
    def texts(self) -> tuple[str, ...]:
        """The step texts, as stored in the memory and shown in traces."""
        return tuple(step.render() for step in self.steps)

    def __iter__(self) -> Iterator[AbstractStep]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __getitem__(self, index: int) -> AbstractStep:
        return self.steps[index]

    @cached_property
    def operations(self) -> frozenset[str]:
        """The temporal operations it performs."""
        return frozenset(op for step in self.steps if (op := step.operation) is not None)

    @cached_property
    def roles(self) -> frozenset[str]:
        """The entity roles it binds: a question that mentions fewer entities cannot bind it."""
        return frozenset().union(*(step.roles for step in self.steps))

    @cached_property
    def uses_time(self) -> bool:
        return any(step.uses_time for step in self.steps)

    @cached_property
    def mentioned(self) -> frozenset[str]:
        """What of the question it uses: entity roles and times."""
        return self.roles.union(*(step.times for step in self.steps))

    @cached_property
    def has_dead_steps(self) -> bool:
        """Whether some step's result is never read by a later one (the last step is the answer)."""
        read = {k for step in self.steps for k in step.reads}
        return any(k not in read for k in range(1, len(self.steps)))

    def dated(self) -> Program | None:
        """The program with its answer lookup (the last entity lookup without a time) restricted to
        the question's time; None when it already uses a time or has no such lookup.

        "Who first criticised Iraq in 2006?" fits the cluster of "Who first criticised Iraq?" except
        for the year: the methodology need not have seen the dated form of every program."""
        return self._dated  # remembered: every dated question asks it of every methodology program

    @cached_property
    def _dated(self) -> Program | None:
        if self.uses_time:
            return None
        # a getTime between two entities is the answer lookup too ("when did X visit Y for the third
        # time in 2015"), unless it places another step's answers in time (a before / after / same reference)
        timed = not self.operations & {"before", "after", "same"}
        for index in range(len(self.steps) - 1, -1, -1):
            step = self.steps[index]
            undated = len(step.args) == 2 and step.args[1] == "R" and step.args[0] in step.roles
            between_two = timed and step.template == "getTime" and len(step.args) == 3 and step.args[1] == "R" and step.roles >= {step.args[0], step.args[2]}
            if (step.template in ("getHeadEntity", "getTailEntity") and undated) or between_two:
                restricted = AbstractStep(step.template, (*step.args, "T"))
                return _parse_program(tuple(t.render() for t in (*self.steps[:index], restricted, *self.steps[index + 1 :])))
        return None

    def placed(self, operation: str | None, times: tuple[str, ...] = ()) -> Program | None:
        """The program with its answer lookup (the last lookup, not a same-period join) freed of its
        time and, with `operation` (getBefore, getAfter, getBetween), followed by that step over
        `times`: "how many times in {T}" becomes "how many times between {T1} and {T2}" or "ever"
        (operation None). None when there is nothing to change: no such lookup, a lookup with no
        time to drop (operation None), or a program that already places its answers in time."""
        return _placed(self, operation, times)

    def excluding(self, role: str) -> Program | None:
        """The program with `exclude(#k, role)` before what it computes over its answers: "apart from
        {E2}" carried out by a program the memory holds without it; "apart from {E2} and {E3}" by
        two. None when it names `role` already (excluded or elsewhere), or looks nothing up first."""
        return None if role in self.roles else self._filtered("exclude", role)

    def of_type(self, kind: str) -> Program | None:
        """The program with `ofType(#k, kind)` before what it computes over its answers: "which
        country ... first" is the first country. None when it keeps a kind already or looks nothing up first."""
        return None if "type" in self.operations else self._filtered("ofType", kind)

    def _filtered(self, template: str, argument: str) -> Program | None:
        """`template(#k, argument)` inserted before the first step that picks among the answers (the first,
        last, n-th, most or least, a count, an exclusion) or answers them."""
        picks = ("first", "last", "nth", "most", "least", "count", "exclude")
        index = next((i for i, s in enumerate(self.steps) if s.operation in picks or s.template == "answer"), 0)
        return _inserted(self, index, AbstractStep(template, (f"#{index}", argument))) if index else None

    def ranked_periods(self, extreme: str, period: str) -> Program | None:
        """The program with the periods of the times it answers ranked by their days (`getMost(#k, year)` before its
        answer; `extreme`: most, least): "which year did {E1} visit {E2} the most" is "when did {E1} visit {E2}" with
        its days counted per year. None when it picks among its answers or makes a value of them already."""
        if self.operations & {"first", "last", "nth", "most", "least", "count", "exists"} or not self.steps or self.steps[-1].template != "answer":
            return None
        k = len(self.steps) - 1
        return _inserted(self, k, AbstractStep(f"get{extreme.title()}", (f"#{k}", period))) if k else None

    def first_referred(self, end: str) -> Program | None:
        """The program with the event its before / after refers to (a getTime step it reads) narrowed to that event's
        first or last day (`end`: getFirst, getLast): "after {E1}'s first trip to {E2}, how many ..." counts from the
        first such trip, not from any. None when it refers to no event that way, or picks an end or an n-th already."""
        if self.operations & {"first", "last", "nth"}:
            return None
        for step in self.steps:
            if step.operation in ("before", "after") and len(step.reads) == 2 and self.steps[(k := step.reads[1]) - 1].template == "getTime":
                return _inserted(self, k, AbstractStep(end, (f"#{k}",)))
        return None

    def bounded_again(self) -> Program | None:
        """The program whose answers, placed before (after) a time or an event by one step, are also placed after
        (before) a time `T` by the next: "after {T1} but before {T2}", "after {T1}, before her first trip to {E2}" bound
        the answers at both ends, each bound read as a single one is. None unless one step places them so."""
        placing = [k for k, s in enumerate(self.steps, 1) if s.operation in ("before", "after")]
        if len(placing) != 1:
            return None
        other = "getAfter" if self.steps[placing[0] - 1].operation == "before" else "getBefore"
        return _inserted(self, placing[0], AbstractStep(other, (f"#{placing[0]}", "T")))

    @cached_property
    def consistent_joins(self) -> bool:
        """Whether every same-period join keeps its entity where the referenced getTime had it.

        After getTime(E2, R, E1) (E1 the tail), "who else did R to E1 that day" is
        getHeadEntity(E1, R, #1): E1 stays the tail. getTailEntity(E1, R, #1) asks what E1 did to
        others, which answers the question only when R happens to be symmetric."""
        for step in self.steps:
            reference = step.joins
            if reference is None or step.template == "getTime" or not 1 <= reference <= len(self.steps):
                continue
            referenced = self.steps[reference - 1]
            if referenced.template != "getTime" or len(referenced.args) not in (3, 4):
                continue
            head, _relation, tail = referenced.args[:3]
            entity = step.args[0]
            if entity == tail and step.template != "getHeadEntity":
                return False
            if entity == head and entity != tail and step.template != "getTailEntity":
                return False
        return True

    @cached_property
    def consistent_references(self) -> bool:
        """Whether every before / after that refers to an event (a getTime step) reads that event as
        the wording does, the entity the cue points at being the program's last role.

        "Who last criticised {E1} before {E2} did?" refers to E2 criticising E1: the referenced
        entity stands in the event where the answer stands in the answer's lookup, and the other
        entity keeps its place: getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getBefore(#2, #1).
        getTime(E1, R, E2) -> getHeadEntity(E2, R) asks who last criticised E2 before E1 did, the
        question reversed. A time answer ("when did {E1} visit {E2} after {E3} did") keeps one
        participant of its getTime in place and puts the referenced entity in the other's."""
        reference = max(self.roles, key=lambda role: int(role[1:]), default=None)
        return all(_keeps_places(event, lookup, reference) for event, lookup in self._events_referred_to())

    def _events_referred_to(self) -> Iterator[tuple[AbstractStep, AbstractStep]]:
        """(the getTime step, the answer's lookup) of each before / after that refers to an event."""
        for step in self.steps:
            if step.operation not in ("before", "after") or len(step.args) != 2:
                continue
            event, lookup = self._source(step.args[1]), self._source(step.args[0])
            if event is not None and lookup is not None and event.template == "getTime" and len(event.args) >= 3:
                yield event, lookup

    def _source(self, argument: str) -> AbstractStep | None:
        """The lookup a `#k` argument reads, through the list operations between."""
        seen: set[int] = set()
        while argument.startswith("#") and argument[1:].isdigit() and 1 <= (k := int(argument[1:])) <= len(self.steps):
            step = self.steps[k - 1]
            if step.is_lookup:
                return step
            if k in seen or not step.args:
                return None
            seen.add(k)
            argument = step.args[0]
        return None

    def referring_apart(self) -> Program | None:
        """The program with the event a before / after refers to read through a relation of its own, `R2`: "which
        countries did {E1} visit after it granted asylum to {E2}" is the program of "... after {E2}" whose referred
        event is another act than the asked one. None when it refers to no event."""
        events = {event for event, _ in self._events_referred_to() if event.args[1] == "R"}
        if not events:
            return None
        return _parse_program(tuple(
            AbstractStep(s.template, (s.args[0], "R2", *s.args[2:])).render() if s in events else s.render() for s in self.steps
        ))

    def dated_event(self) -> Program | None:
        """The program with the event a before / after refers to (its getTime step) restricted to
        the question's time; None when it uses a time already or refers to no event.

        "Who last criticised {E1} before {E2} did in 2013?": the time dates E2's criticism, the
        reference, not the answer's (`dated` restricts the answer's lookup)."""
        return self._dated_event  # remembered: see `dated`

    @cached_property
    def _dated_event(self) -> Program | None:
        if self.uses_time:
            return None
        events = {event for event, _ in self._events_referred_to()}
        for index, step in enumerate(self.steps):
            if step in events and len(step.args) == 3:
                restricted = AbstractStep(step.template, (*step.args, "T"))
                return _parse_program(tuple(t.render() for t in (*self.steps[:index], restricted, *self.steps[index + 1 :])))
        return None


@lru_cache(maxsize=16384)  # the audit asks it of every guide of every question: programs are few
def _placed(program: Program, operation: str | None, times: tuple[str, ...]) -> Program | None:
    if program.operations & {"before", "after", "between", "same"}:
        return None
    index = next((i for i in range(len(program.steps) - 1, -1, -1) if program.steps[i].is_lookup), None)
    if index is None:
        return None
    lookup = program.steps[index]
    freed = AbstractStep(lookup.template, tuple(a for a in lookup.args if a not in lookup.times))
    if operation is None and freed == lookup:
        return None
    added = (AbstractStep(operation, (f"#{index + 1}", *times)),) if operation else ()
    shift = len(added)
    # the steps after read the lookup through the added step: every #k from the lookup on moves on
    later = tuple(AbstractStep(s.template, tuple(_shifted(a, index, shift) for a in s.args)) for s in program.steps[index + 1 :])
    return _parse_program(tuple(t.render() for t in (*program.steps[:index], freed, *added, *later)))


def _keeps_places(event: AbstractStep, lookup: AbstractStep, reference: str | None) -> bool:
    """`Program.consistent_references` for one event and the lookup whose results it dates."""
    head, _relation, tail = event.args[:3]
    if reference is None or reference not in (head, tail, *lookup.args):
        return True  # neither is about the referenced entity: nothing to read the wrong way round
    if lookup.template in ("getHeadEntity", "getTailEntity"):
        anchor = lookup.args[0]
        answer_is_head = lookup.template == "getHeadEntity"
        return anchor != reference and (head, tail) == ((reference, anchor) if answer_is_head else (anchor, reference))
    if lookup.template == "getTime" and len(lookup.args) >= 3:
        asked_head, _, asked_tail = lookup.args[:3]
        return reference not in (asked_head, asked_tail) and (head == asked_head or tail == asked_tail)
    return True


def _inserted(program: Program, after: int, step: AbstractStep) -> Program:
    """`program` with `step` inserted after its step `after` (1-based): the later steps read the new step where they
    read step `after`, and every later #k moves on by one."""
    later = tuple(AbstractStep(s.template, tuple(_shifted(a, after - 1, 1) for a in s.args)) for s in program.steps[after:])
    return _parse_program(tuple(t.render() for t in (*program.steps[:after], step, *later)))


def _shifted(argument: str, after: int, by: int) -> str:
    """A `#k` argument renumbered for `by` steps inserted after step `after` (others unchanged)."""
    if argument.startswith("#") and argument[1:].isdigit() and int(argument[1:]) > after:
        return f"#{int(argument[1:]) + by}"
    return argument


@lru_cache(maxsize=8192)
def _parse_program(texts: tuple[str, ...]) -> Program:
    return Program(tuple(_parse_step(t) for t in texts))


def asked_operations(cues: Iterable[str]) -> frozenset[str]:
    """The temporal operations a question's cue words ask for ("same_month" -> a same-period join),
    in the vocabulary of `Program.operations`."""
    return frozenset("same" if cue.startswith("same") else cue for cue in cues)


def describe_step(step: AbstractStep | str) -> str:
    """An abstract step in words: "getAfter(#2, #1)" -> "Keep the results of step 2 that come after ..."."""
    step = AbstractStep.parse(step) if isinstance(step, str) else step
    arg = [*step.args, "", "", ""]

    def when(value: str) -> str:
        if not value:
            return ""
        if value.startswith("#"):
            return f" in the same period as the time found in step {value[1:]}"
        return f" at the question's time {value}"

    def ref(value: str) -> str:
        return f"the earliest time found in step {value[1:]}" if value.startswith("#") else f"the question's time {value}"

    def source(value: str) -> str:
        return f"step {value[1:]}" if value.startswith("#") else value

    def ranked() -> str:
        return f"{arg[1]}s" if arg[1] else "entities"

    phrases = {
        "getHeadEntity": lambda: f"Find who or what did R to {arg[0]}{when(arg[2])}.",
        "getTailEntity": lambda: f"Find who or what {arg[0]} did R to{when(arg[2])}.",
        "getTime": lambda: f"Find when {arg[0]} did R to {arg[2]}{when(arg[3])}.",
        "getRelation": lambda: f"Find what happened between {arg[0]} and {arg[1]}{when(arg[2])}: the relations of the facts linking them.",
        "getBefore": lambda: f"Keep the results of {source(arg[0])} that come strictly before {ref(arg[1])}.",
        "getAfter": lambda: f"Keep the results of {source(arg[0])} that come strictly after {ref(arg[1])}.",
        "getBetween": lambda: f"Keep the results of {source(arg[0])} between {arg[1]} and {arg[2]}, inclusive.",
        "getDuring": lambda: f"Keep the results of {source(arg[0])} that held while some result of {source(arg[1])} held.",
        "getFirst": lambda: f"Keep the earliest result(s) of {source(arg[0])}.",
        "getLast": lambda: f"Keep the latest result(s) of {source(arg[0])}.",
        "getNth": lambda: f"Keep the result(s) of {source(arg[0])} on its {arg[1]}-th earliest day.",
        "getNthLast": lambda: f"Keep the result(s) of {source(arg[0])} on its {arg[1]}-th latest day.",
        "getMost": lambda: f"Keep the {ranked()} of {source(arg[0])} on the most days.",
        "getLeast": lambda: f"Keep the {ranked()} of {source(arg[0])} on the fewest days.",
        "count": lambda: f"Count the distinct {arg[1]} of {source(arg[0])}.",
        "exists": lambda: f"Say Yes when {source(arg[0])} found anything, else No.",
        "ofType": lambda: f"Keep the results of {source(arg[0])} that are a {arg[1]}.",
        "exclude": lambda: f"Keep the results of {source(arg[0])} other than {arg[1]}.",
        "includes": lambda: f"Say Yes when {arg[1]} is among the results of {source(arg[0])}, else No.",
        "answer": lambda: f"Answer with the entities of {source(arg[0])}, or its times at the question's granularity.",
    }
    phrase = phrases.get(step.template)
    return phrase() if phrase is not None and step.args else f"Apply {step.render()}."
