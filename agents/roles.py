"""Entity roles: which KG names play E1, E2... in a question (by order of mention).

Abstract programs and methodologies speak of roles, never of entities; this is the one place that
decides the mapping, so the agent, the program search and the memory agree on it.
"""

from __future__ import annotations

from agents.analysis.types import QuestionAnalysis


def entity_roles(analysis: QuestionAnalysis | None, per_mention: int | None = None) -> dict[str, str]:
    """KG name -> "E<i>" for the candidates of each mention (first mention wins a shared name)."""
    roles: dict[str, str] = {}
    if analysis is None:
        return roles
    for index, mention in enumerate(analysis.entities):
        for name, _score in mention.candidates[:per_mention]:
            roles.setdefault(name, f"E{index + 1}")
    return roles


def current_entities(analysis: QuestionAnalysis | None, per_mention: int = 2) -> list[str]:
    """The entities the agent acts from: the best few candidates of every mention, in role order."""
    if analysis is None:
        return []
    names: list[str] = []
    for mention in analysis.entities:
        names += [n for n, _ in mention.candidates[:per_mention] if n not in names]
    return names


def entity_score(analysis: QuestionAnalysis | None, name: str) -> float:
    """The linking score of `name` for the mention that proposed it (0 if none did)."""
    if analysis is None:
        return 0.0
    return max((s for m in analysis.entities for n, s in m.candidates if n == name), default=0.0)


def relation_fit(analysis: QuestionAnalysis | None, relation: str) -> float | None:
    """The relation's linking score relative to the best relation (1.0 = best; None: no ranking)."""
    if analysis is None or not analysis.relations:
        return None
    ranked = dict(analysis.relations)
    best = max(ranked.values())
    return ranked.get(relation, 0.0) / best if best > 0 else 0.0


def binding_score(analysis: QuestionAnalysis | None, action, relation_floor: float = 0.5) -> float | None:
    """How well an action's entities and relation fit the question; None when its relation falls
    below `relation_floor` of the best relation (the question is not about that relation)."""
    entities = [v for f in ("head", "tail") if isinstance(v := getattr(action, f, None), str)]
    relation = getattr(action, "relation", None)
    # mean, not sum: a lookup naming two entities is not better bound than one naming one
    score = sum(entity_score(analysis, e) for e in entities) / max(1, len(entities))
    if isinstance(relation, str):
        fit = relation_fit(analysis, relation)
        if fit is not None:
            if fit < relation_floor:
                return None
            score += fit
    return score
