"""Top-K filtering of candidates by similarity to the question, with no model call per candidate.

A candidate's score is a weighted mix of cosines with the question vector and two word-level
signals (`actions.cues`), all computed from vectors cached once per store / embedder:
  relation  - cosine with the relation's name vector (ranked once per question through a FAISS
              index), plus the share of the relation's content words found in the question;
  entity    - the mean cosine of its entities' name vectors;
  template  - cosine with a short text per (template, kind of time argument), embedded once per
              embedder, plus a bonus when the question's cue words ask for it ("before", "first",
              "same month", "when" ...).
List operations and answers have no relation or entity of their own: they inherit those
components from the action that produced their source step (`ActionContext.actions`), or, when
that is unknown, the best relation / entity score among the candidates. So `getBefore(#1, T)`
ranks high exactly when step 1 was a good lookup and the question says "before".

Selection keeps the K best, with two guarantees: no abstract shape (`getTime(E, R, E)` ...)
takes more than `max_per_shape` places while other shapes wait, and the answer of the latest
result is always offered, so the agent can always stop.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from actions.context import ActionContext
from actions.cues import content_stems, cue_matches, question_cues, word_overlap
from actions.enumerate import Candidate
from actions.templates import Action, Answer, GetBetween, GetHeadEntity, GetTailEntity, GetTime, source_of
from ari.embedding import Embedder
from ari.vector_index import VectorIndex
from tkg_store.name_vectors import NameVectors, name_vectors
from tkg_store.store import TKGStore


@dataclass(frozen=True)
class Weights:
    relation: float = 0.35  # cosine(question, relation name)
    relation_words: float = 0.25  # share of the relation's words in the question
    entity: float = 0.1  # mean cosine(question, entity names)
    template: float = 0.3  # cosine(question, template text)
    cue: float = 0.15  # the question's cue words ask for this template


@dataclass(frozen=True, slots=True)
class ScoredCandidate:
    action: Action
    score: float
    size: int


# What each (template, time kind) asks; the template component compares the question with these.
TEMPLATE_TEXTS: dict[tuple[str, str], str] = {
    ("getHeadEntity", "none"): "who did this to them? which country or person did it?",
    ("getHeadEntity", "time"): "who did this to them on that date, in that month or in that year?",
    ("getHeadEntity", "join"): "who did this to them on the same day, in the same month or the same year?",
    ("getTailEntity", "none"): "to whom did they do this? which country or person was it done to?",
    ("getTailEntity", "time"): "to whom did they do this on that date, in that month or in that year?",
    ("getTailEntity", "join"): "to whom did they do this on the same day, in the same month or the same year?",
    ("getTime", "none"): "when did it happen? on what date, in which month or in which year?",
    ("getBefore", "time"): "before that date, earlier than, prior to",
    ("getBefore", "step"): "before them, earlier than they did, prior to",
    ("getAfter", "time"): "after that date, later than, following, since",
    ("getAfter", "step"): "after them, later than they did, following",
    ("getBetween", "time"): "between these two dates, from one time to another",
    ("getFirst", "none"): "the first, the earliest, for the first time",
    ("getLast", "none"): "the last, the latest, most recently, for the last time",
    ("answer", "none"): "what is the answer",
}
_KINDS = list(TEMPLATE_TEXTS)
_KIND_ROW = {kind: i for i, kind in enumerate(_KINDS)}


def kind_of(action: Action) -> tuple[str, str]:
    """(template, time kind) of an action: the key of its template text."""
    if isinstance(action, (GetHeadEntity, GetTailEntity)):
        time = action.time
        kind = "none" if time is None else "join" if isinstance(time, int) else "time"
    elif isinstance(action, GetBetween):
        kind = "time"
    elif hasattr(action, "reference"):
        kind = "step" if isinstance(action.reference, int) else "time"  # type: ignore[union-attr]
    else:
        kind = "none"
    return (action.template, kind)


def shape_of(action: Action) -> str:
    """The abstract shape used for diversity: entities all 'E', relations 'R', steps '#'."""
    template, kind = kind_of(action)
    return f"{template}:{kind}"


class CandidateFilter:
    """Scores and keeps the top-K candidates; build one per (store, embedder) and reuse it."""

    def __init__(self, store: TKGStore, embedder: Embedder, weights: Weights = Weights()) -> None:
        self.store = store
        self.embedder = embedder
        self.weights = weights
        self.names: NameVectors = name_vectors(store, embedder)
        self.relation_index = VectorIndex(self.names.relation_matrix)
        self.template_matrix = embedder.embed_batch([TEMPLATE_TEXTS[k] for k in _KINDS])

    def embed_question(self, question: str) -> np.ndarray:
        return self.embedder.embed_batch([question])[0]

    def relation_scores(self, question_vector: np.ndarray) -> dict[str, float]:
        """Cosine of the question with every relation, through the vector index."""
        scores, ids = self.relation_index.search(question_vector, self.relation_index.size)
        return {self.names.relations[i]: float(s) for s, i in zip(scores[0], ids[0]) if i >= 0}

    def score(
        self,
        question_vector: np.ndarray,
        candidates: Sequence[Candidate],
        context: ActionContext | None = None,
        text: str | None = None,
    ) -> list[ScoredCandidate]:
        """Every candidate scored, best first (ties: by rendering). `text` enables the word signals."""
        if not candidates:
            return []
        context = context or ActionContext()
        w = self.weights
        q = np.asarray(question_vector, dtype=np.float32).reshape(-1)
        relation_score = self.relation_scores(q)
        if text:
            stems = content_stems(text)
            for relation in {a.relation for a in (c.action for c in candidates) if hasattr(a, "relation")}:
                overlap = word_overlap(stems, self.store.relation_text(relation))
                relation_score[relation] = relation_score.get(relation, 0.0) + overlap * w.relation_words / w.relation
        cues = question_cues(text) if text else frozenset()
        template_score = self.template_matrix @ q
        for row, (template, kind) in enumerate(_KINDS):
            if cue_matches(template, kind, cues):
                template_score[row] += w.cue / w.template
        entity_score = self._entity_scores(q, candidates, context)
        best_relation = max(relation_score.values(), default=0.0)
        best_entity = max(entity_score.values(), default=0.0)
        scored = []
        for candidate in candidates:
            action = candidate.action
            lookup = _lookup_behind(action, context)
            if lookup is None:
                rel, ent = best_relation, best_entity
            else:
                rel = relation_score.get(lookup.relation, 0.0)
                names = _entities(lookup)
                ent = sum(entity_score.get(e, 0.0) for e in names) / len(names)
            value = w.relation * rel + w.entity * ent + w.template * float(template_score[_KIND_ROW[kind_of(action)]])
            scored.append(ScoredCandidate(action, value, candidate.size))
        scored.sort(key=lambda s: (-s.score, s.action.render()))
        return scored

    def _entity_scores(
        self, q: np.ndarray, candidates: Sequence[Candidate], context: ActionContext
    ) -> dict[str, float]:
        names = {e for c in candidates for e in _entities(c.action)}
        names |= {e for a in context.actions if a is not None for e in _entities(a)}
        rows = [(n, self.names.entity_row[n]) for n in names if n in self.names.entity_row]
        if not rows:
            return {}
        values = self.names.entity_matrix[[r for _, r in rows]] @ q
        return {name: float(v) for (name, _), v in zip(rows, values)}

    def filter(
        self,
        question: str | np.ndarray,
        candidates: Sequence[Candidate],
        context: ActionContext | None = None,
        top_k: int = 10,
        max_per_shape: int | None = None,
        text: str | None = None,
    ) -> list[ScoredCandidate]:
        """The top-K candidates, best first (see the module docstring for the two guarantees).

        `question` is the text or its vector; pass the text as `text` with a vector to keep the
        word signals. `max_per_shape` defaults to K - 2, so any abstract shape leaves at least two
        places to others when others exist; pass top_k for a plain top-K.
        """
        if isinstance(question, str):
            text = question if text is None else text
            q = self.embed_question(question)
        else:
            q = question
        ranked = self.score(q, candidates, context, text)
        return select(ranked, top_k, max(1, top_k - 2) if max_per_shape is None else max_per_shape)


def select(ranked: list[ScoredCandidate], top_k: int, max_per_shape: int) -> list[ScoredCandidate]:
    """The best `top_k`, at most `max_per_shape` per shape while others remain, latest answer kept."""
    if top_k <= 0:
        return []
    chosen: list[ScoredCandidate] = []
    overflow: list[ScoredCandidate] = []
    per_shape: dict[str, int] = {}
    for item in ranked:
        shape = shape_of(item.action)
        if per_shape.get(shape, 0) < max_per_shape:
            per_shape[shape] = per_shape.get(shape, 0) + 1
            chosen.append(item)
            if len(chosen) == top_k:
                break
        else:
            overflow.append(item)
    if len(chosen) < top_k:
        chosen += overflow[: top_k - len(chosen)]
    answers = [s for s in ranked if isinstance(s.action, Answer)]
    if answers:
        latest = max(answers, key=lambda s: s.action.source)
        if latest not in chosen:
            chosen = chosen[: top_k - 1] + [latest] if len(chosen) >= top_k else chosen + [latest]
    chosen.sort(key=lambda s: (-s.score, s.action.render()))
    return chosen


def _entities(action: Action) -> list[str]:
    if isinstance(action, GetTime):
        return [action.head, action.tail]
    if isinstance(action, GetHeadEntity):
        return [action.tail]
    if isinstance(action, GetTailEntity):
        return [action.head]
    return []


def _lookup_behind(action: Action, context: ActionContext, depth: int = 0) -> Action | None:
    """The KG lookup an action is or reads from (following list operations back through the steps)."""
    source = source_of(action)
    if source is None:
        return action
    if depth > 16:
        return None
    earlier = context.action(source)
    return None if earlier is None else _lookup_behind(earlier, context, depth + 1)


_FILTERS: "weakref.WeakKeyDictionary[TKGStore, dict[str, CandidateFilter]]" = weakref.WeakKeyDictionary()


def get_filter(store: TKGStore, embedder: Embedder) -> CandidateFilter:
    """The shared filter of a store and embedder (its vectors and index are built once)."""
    per_store = _FILTERS.setdefault(store, {})
    if embedder.name not in per_store:
        per_store[embedder.name] = CandidateFilter(store, embedder)
    return per_store[embedder.name]


def filter_candidates(
    store: TKGStore,
    embedder: Embedder,
    question: str | np.ndarray,
    candidates: Sequence[Candidate],
    context: ActionContext | None = None,
    top_k: int = 10,
    text: str | None = None,
) -> list[ScoredCandidate]:
    """Convenience: the shared filter's top-K (`AgentConfig.top_k`) for one question."""
    return get_filter(store, embedder).filter(question, candidates, context, top_k, text=text)


def roles_of(entities: Sequence[str]) -> Mapping[str, str]:
    """Abstract roles by order of mention: first entity E1, second E2, ..."""
    return {name: f"E{i}" for i, name in enumerate(dict.fromkeys(entities), start=1)}


__all__ = [
    "CandidateFilter",
    "ScoredCandidate",
    "TEMPLATE_TEXTS",
    "Weights",
    "filter_candidates",
    "get_filter",
    "kind_of",
    "roles_of",
    "select",
    "shape_of",
]
