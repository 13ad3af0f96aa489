"""What question analysis hands to the rest of the agent: linked entities, times, relations, type."""

from __future__ import annotations

from dataclasses import dataclass, field

from actions.query import VALUE_ASKS, Query
from tkg_store.temporal import Granularity, TimeSpan

# The temporal patterns of MultiTQ, used as the question-type feature.
PATTERNS = ("equal", "before_after", "first_last", "equal_multi", "after_first", "before_last")


@dataclass
class EntityMention:
    """A span of the question linked to ranked KG entities (best first; empty: nothing close)."""

    text: str
    span: tuple[int, int]
    candidates: list[tuple[str, float]]  # (KG entity name, score in [0, 1])
    why: str = ""  # how the span was read and, when several entities fit, why the first was chosen

    @property
    def best(self) -> str | None:
        return self.candidates[0][0] if self.candidates else None


@dataclass
class TimeMention:
    """A time expression of the question, at the granularity it was written."""

    text: str
    span: tuple[int, int]
    time: TimeSpan
    other_reading: TimeSpan | None = None  # an all-number date either of whose numbers may be the month ("3/7/2009")


@dataclass
class QuestionAnalysis:
    """Everything the decider, the judge and the memory may use about a question."""

    question: str
    masked: str  # entities -> {E1}, {E2}..., times -> {T1}...: the entity-free form the memory clusters
    entities: list[EntityMention] = field(default_factory=list)  # linked mentions, in order of appearance
    times: list[TimeMention] = field(default_factory=list)
    relations: list[tuple[str, float]] = field(default_factory=list)  # ranked KG relations (best first)
    answer_type: str = "entity"  # "entity" | "time"
    time_level: Granularity | None = None  # answer granularity for time answers; else the comparison granularity
    pattern: str = "equal"  # one of PATTERNS
    cue: str | None = None  # before | after | first | last | same_day | same_month | same_year | between
    cues: list[str] = field(default_factory=list)  # every temporal cue found (e.g. ["after", "first"])
    unlinked: list[EntityMention] = field(default_factory=list)  # name-like spans no entity is close to
    unreadable_times: list[str] = field(default_factory=list)  # time-like phrases that cannot be read
    beyond_times: list[str] = field(default_factory=list)  # years past any calendar date ("in 99999")
    grammar: list[str] = field(default_factory=list)  # grammar rules that rewrote `masked` (agents.analysis.grammar)
    grammar_dropped: str = ""  # content words the rewrite dropped (a folded clause's verb phrase): still read for relations
    unsure_relation: str | None = None  # why the relation read is a guess (`RelationLinker.unsure`): the judge abstains
    unaccounted: str | None = None  # words the reading leaves unread (`agents.analysis.accounting`): the judge abstains
    asked_kind: str | None = None  # "which academy": a kind only an answer's name can tell (`agents.analysis.query.asked_kind`)
    query: Query = field(default_factory=Query)  # what is asked and the constraints beyond the six shapes (`agents.analysis.query`)

    @property
    def asked_type(self) -> str:
        """What the answer is: entity or time (the question typing), or a value the query asks (number, yesno, relation)."""
        return self.query.asks if self.query.asks in VALUE_ASKS else self.answer_type
