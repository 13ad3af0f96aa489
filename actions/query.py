"""The typed query: what a question asks and every constraint it states beyond MultiTQ's six shapes, as a
program must carry them out (`Query.admits`). The reader fills it in (`agents.analysis.query.read_query`);
nothing here reads the question.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from actions.programs import Program

ASKS = ("entity", "time", "number", "yesno", "relation")
VALUE_ASKS = ("number", "yesno", "relation")  # asked as a value (a count, yes / no, relations), not an entity or a time
SHAPES = ("six", "count", "yesno", "list", "most", "relations", "window", "nth", "unanswerable")


@dataclass(frozen=True)
class Query:
    """What a question asks and the constraints it states beyond the analysis's event pattern."""

    asks: str = "entity"  # one of ASKS
    is_list: bool = False  # every answer is asked for, not one
    entity_type: str | None = None  # "country": only country entities answer
    count: str | None = None  # asks == "number": "days" (occasions) or "entities" (distinct ones)
    ordinal: int | None = None  # the n-th (n >= 2; first and last are the analysis's cue)
    from_end: bool = False  # the n-th from the end ("second to last")
    extreme: str | None = None  # "most" | "least" often
    period: str | None = None  # with an extreme, a time asked: the period ranked ("year", "month": "which year ... the most")
    window: bool = False  # the question's two times bound a window, both ends included
    excluded: tuple[int, ...] = ()  # entity roles (1-based, role order) the answers must not be ("apart from X")
    during: bool = False  # the answers held while another entity's event held ("while X did")
    unsupported: str | None = None  # what the KG cannot represent, in words; then nothing answers
    attribute: tuple[str, ...] = ()  # the noun asked of an entity with no verb ("the wife of X"): the judge asks the KG if it names a relation
    identity: bool = False  # "Who was the {E1} in {T1}?": who an actor is or who held an office, which no event states
    ranked: int | None = None  # asks == "yesno": the entity role it places first, last or n-th ("Was {E1} the first to ...?")

    @property
    def shape(self) -> str:
        """The question's shape: one of SHAPES ("six": MultiTQ's six template shapes)."""
        order = (
            ("unanswerable", self.unsupported), ("count", self.asks == "number"), ("yesno", self.asks == "yesno"),
            ("relations", self.asks == "relation"), ("most", self.extreme), ("nth", self.ordinal), ("list", self.is_list),
            ("window", self.window),
        )
        return next((shape for shape, stated in order if stated), "six")

    def operations(self) -> frozenset[str]:
        """The operations a program must perform to carry out this query's own constraints."""
        return self._operations

    @cached_property
    def _operations(self) -> frozenset[str]:
        # kept: `admits` asks it for each of a memory's few hundred programs
        stated = (
            ("count", self.asks == "number"), ("exists", self.asks == "yesno"), ("relation", self.asks == "relation"),
            (self.extreme, self.extreme), ("nth", self.ordinal), ("between", self.window), ("exclude", self.excluded),
            ("during", self.during),
        )
        wanted = {operation for operation, on in stated if operation and on}
        if self.entity_type and (wanted or self.is_list):
            # in MultiTQ's six shapes "which country" keeps the benchmark's reading, whose golds
            # are often a country's sector or leader; in every other shape it is a country
            wanted.add("type")
        return frozenset(wanted)

    def admits(self, program: Program) -> bool:
        """Whether `program` performs the query's own operations and no other of them (a window may
        also be kept by a program of the six shapes), with its literals: the unit counted and the
        roles excluded."""
        done = (program.operations & _OWN) | ({"relation"} if program.steps and program.steps[0].template == "getRelation" else set())
        wanted = self.operations()
        if not wanted <= done or not (done - {"between"}) <= wanted:
            return False
        # "Was X the first to ...?" is asked of X among the first: no other yes / no answers it, nor it another
        if self.ranked is not None and not program.operations & {"first", "last", "nth"}:
            return False
        # a ranking of entities answers no "which year ... the most", nor a ranking of years a "who ... the most"
        if any(s.template in ("getMost", "getLeast") and s.args[1:] != ((self.period,) if self.period else ()) for s in program.steps):
            return False
        if any(s.template == "includes" and s.args[1:] != (f"E{self.ranked}",) for s in program.steps) or (
            self.ranked is not None and not any(s.template == "includes" for s in program.steps)
        ):
            return False
        if "count" in done or "exclude" in done:
            excluded = {f"E{r}" for r in self.excluded}
            if "exclude" in done and {s.args[1] for s in program.steps if s.template == "exclude" and s.args[1:]} != excluded:
                return False  # every entity excluded, and no other
            for step in program.steps:
                if step.template == "count" and step.args[1:] != (self.count,):
                    return False
                if step.template == "exclude" and step.args[1:] and step.args[1] not in excluded:
                    return False
        return True


_OWN = frozenset({"count", "exists", "most", "least", "nth", "between", "type", "exclude", "during"})
"""The operations (`AbstractStep.operation`) the query reads; the others are the question typing's."""
