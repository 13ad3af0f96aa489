"""Entity roles: which KG names play E1, E2... in a question (by order of mention).

Abstract programs and methodologies speak of roles, never of entities; this is the one place that
decides the mapping, so the agent, the program search and the memory agree on it.
"""

from __future__ import annotations

from actions.templates import Action, entities_of, relation_of
from agents.analysis.clause_roles import REFERENCE, clause_roles
from agents.analysis.types import QuestionAnalysis
from ari.base.config import LinkingConfig


def entity_roles(analysis: QuestionAnalysis | None, per_mention: int | None = None) -> dict[str, str]:
    """KG name -> "E<i>" for the candidates of each mention. A mention's best candidate plays its
    role even when an earlier mention lists it lower ("the Indigenous People of Thailand ...
    Thailand": Thailand is E2); otherwise the first mention wins a shared name."""
    roles: dict[str, str] = {}
    if analysis is None:
        return roles
    for index, mention in enumerate(analysis.entities):
        if mention.candidates:
            roles.setdefault(mention.candidates[0][0], f"E{index + 1}")
    for index, mention in enumerate(analysis.entities):
        for name, _score in mention.candidates[:per_mention]:
            roles.setdefault(name, f"E{index + 1}")
    return roles


def reference_role(analysis: QuestionAnalysis | None) -> str | None:
    """The role ("E2") of the entity a before / after cue points at ("who last criticised {E1}
    before {E2} did"): its event is the reference, not the asked one. Role order puts it last;
    None when the wording points at no entity ("before 2013") or names only that one."""
    if analysis is None or analysis.cue not in ("before", "after") or len(analysis.entities) < 2:
        return None
    last = len(analysis.entities)
    return f"E{last}" if clause_roles(analysis.masked).get(last) == REFERENCE else None


ACTED_PER_MENTION = LinkingConfig.acted_per_mention  # candidates of each mention the agent acts from


def current_entities(analysis: QuestionAnalysis | None, per_mention: int = ACTED_PER_MENTION) -> list[str]:
    """The entities the agent acts from: the best few candidates of every mention, in role order."""
    if analysis is None:
        return []
    names: list[str] = []
    for mention in analysis.entities:
        names += [n for n, _ in mention.candidates[:per_mention] if n not in names]
    return names


def binding_scorer(
    analysis: QuestionAnalysis | None, relation_floor: float = 0.5, named: frozenset[str] = frozenset()
) -> "BindingScorer":
    """How well an action's entities and relation fit the question: a function of the action,
    None when its relation falls below `relation_floor` of the best relation (the question is not
    about that relation), unless the relation is one of `named` (the wording names it: "praise" for
    Praise_or_endorse), which scores as if at the floor. The question's entity and relation scores
    are looked up once: the planner scores hundreds of candidate bindings per question."""
    return BindingScorer(analysis, relation_floor, named)


class BindingScorer:
    """`binding_scorer`'s function, with its two parts apart for callers that score many lookups
    of one entity (the program search): `entities_fit(names) + relation_fit(relation)` is the score."""

    def __init__(self, analysis: QuestionAnalysis | None, relation_floor: float, named: frozenset[str]) -> None:
        self.entities: dict[str, float] = {}
        for mention in analysis.entities if analysis is not None else []:
            for name, value in mention.candidates:
                self.entities[name] = max(self.entities.get(name, 0.0), value)
        self.ranked = dict(analysis.relations) if analysis is not None and analysis.relations else None
        self.best = max(self.ranked.values()) if self.ranked else 0.0
        self.relation_floor = relation_floor
        self.named = named
        self._fits: dict[str, float | None] = {}

    def entities_fit(self, names: list[str]) -> float:
        # mean, not sum: a lookup naming two entities is not better bound than one naming one
        return sum(self.entities.get(e, 0.0) for e in names) / max(1, len(names))

    def relation_fit(self, relation: str) -> float | None:
        """The relation's share of the best relation's score (0.0 when no relation is ranked), None
        below the floor; once per relation. When every ranked relation scores 0 (the wording is
        near none of them: "come into power" for 'position held'), each ranked one fits alike."""
        if self.ranked is None:
            return 0.0
        if relation not in self._fits:
            if self.best > 0:
                fit = self.ranked.get(relation, 0.0) / self.best
            else:
                fit = 1.0 if relation in self.ranked else 0.0
            if fit < self.relation_floor and relation in self.named:
                fit = self.relation_floor
            self._fits[relation] = None if fit < self.relation_floor else fit
        return self._fits[relation]

    def __call__(self, action: Action) -> float | None:
        names = entities_of(action)
        relation = relation_of(action)
        value = self.entities_fit(names)
        if isinstance(relation, str) and self.ranked is not None:
            fit = self.relation_fit(relation)
            if fit is None:
                return None
            value += fit
        return value
