"""What an action may read besides the store: earlier results, the question's times, the answer form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from actions.items import Item
from actions.semantics import is_timed, period_of, reference_span
from tkg_store.temporal import Granularity, TimeSpan

if TYPE_CHECKING:
    from actions.templates import Action


@dataclass
class ActionContext:
    """The state one action executes in; step references are 1-based (#1 = results[0])."""

    results: list[list[Item]] = field(default_factory=list)
    """Results of the earlier steps, in order."""
    times: list[TimeSpan] = field(default_factory=list)
    """The question's times, in order of mention."""
    granularity: Granularity | None = None
    """The granularity the answer asks for (also the granularity of same-period joins)."""
    answer_type: str = "entity"
    """'entity' or 'time'."""
    actions: list[Action | None] = field(default_factory=list)
    """Optional: the action that produced each result (filtering scores list operations by it)."""
    _references: dict[int, TimeSpan | None] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Memo of `reference`: results do not change once recorded, and list operations ask often."""
    _kinds: dict[int, tuple[bool, bool]] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Memo of `timed` and `lasting`, for the same reason (a program search asks them of every branch)."""

    def result(self, step: int) -> list[Item]:
        """The result of step `step` (1-based); an unknown step is an empty result."""
        if 1 <= step <= len(self.results):
            return self.results[step - 1]
        return []

    def action(self, step: int) -> Action | None:
        if 1 <= step <= len(self.actions):
            return self.actions[step - 1]
        return None

    @property
    def join_granularity(self) -> Granularity:
        """Same-period joins use the answer's granularity, else the question time's, else days."""
        if self.granularity is not None:
            return self.granularity
        if self.times:
            return self.times[0].granularity
        return Granularity.DAY

    def reference(self, step: int) -> TimeSpan | None:
        """The earliest time of step `step`'s result (None when it has no time)."""
        if step not in self._references:
            self._references[step] = reference_span(self.result(step))
        return self._references[step]

    def timed(self, step: int) -> bool:
        """Whether some item of step `step`'s result has a time."""
        return self._kind(step)[0]

    def lasting(self, step: int) -> bool:
        """Whether some item of step `step`'s result holds over more than one day (an interval, an open end)."""
        return self._kind(step)[1]

    def _kind(self, step: int) -> tuple[bool, bool]:
        if step not in self._kinds:
            timed = [i for i in self.result(step) if is_timed(i)]
            self._kinds[step] = (bool(timed), any(i.start != i.end for i in timed))
        return self._kinds[step]

    def join_period(self, step: int) -> TimeSpan | None:
        """The day / month / year that a same-period join with step `step` matches."""
        reference = self.reference(step)
        return None if reference is None else period_of(reference, self.join_granularity)

    def with_result(self, items: list[Item], action: Action | None = None) -> "ActionContext":
        """A new context with one more step result appended."""
        actions = list(self.actions) + [None] * (len(self.results) - len(self.actions))
        extended = ActionContext(
            results=[*self.results, list(items)],
            times=list(self.times),
            granularity=self.granularity,
            answer_type=self.answer_type,
            actions=[*actions, action],
        )
        extended._references.update(self._references)
        extended._kinds.update(self._kinds)
        return extended
