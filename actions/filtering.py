"""Top-K filtering of candidates by similarity to the question, with no model call per candidate.

A candidate's score is a weighted mix of cosines with the question vector and two word-level
signals, all computed from vectors cached once per store / embedder:
  relation  - cosine with the relation's name vector (ranked once per question through a FAISS
              index), plus the share of the relation's content words found in the question, or,
              when question analysis ranked relations, that score instead (`relation_hints`);
  entity    - the mean cosine of its entities' name vectors;
  template  - cosine with a short text per (template, kind of time argument), embedded once per
              embedder, plus a bonus when the question's cue words ask for it ("before", "first",
              "same month", "when" ...).
List operations and answers have no relation or entity of their own: they inherit those
components from the action that produced their source step (`ActionContext.actions`), or, when
that is unknown, the best relation / entity score among the candidates. So `getBefore(#1, T)`
ranks high exactly when step 1 was a good lookup and the question says "before".

A MiniLM embedding of a whole question barely moves with the single word "before" or "first", and
ranks relations by topic rather than by the verb ("visited" is closer to granting diplomatic
recognition than to making a visit): the two word signals correct that.

Selection keeps the K best, with two guarantees: no abstract shape (`getTime(E, R, E)` ...)
takes more than `max_per_shape` places while other shapes wait, and the answer of the latest
result is always offered, so the agent can always stop.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from actions.context import ActionContext
from actions.enumerate import Candidate, CandidatePool, LookupBlock
from actions.templates import (
    LOOKUP_TYPES,
    Action,
    Answer,
    GetBetween,
    GetHeadEntity,
    GetRelation,
    GetTailEntity,
    GetTime,
    Lookup,
    reference_of,
    source_of,
)
from ari.base.config import FilterConfig
from ari.base.embedding import Embedder
from ari.base.text import content_stems
from ari.base.vector_index import VectorIndex
from tkg_store.name_vectors import NameVectors, name_vectors, text_vectors
from tkg_store.store import TKGStore

Weights = FilterConfig  # the filter's score weights: one field each, documented in ari/base/config.py


@dataclass(frozen=True)
class QuestionScores:
    """Cosines of one question with every relation (by name), entity (by row, plus a trailing 0
    for unknown names) and template text (by `_KINDS` row)."""

    relations: dict[str, float]
    entities: EntityScores
    templates: np.ndarray
    relation_rows: np.ndarray  # `relations` by the filter's relation row, plus a trailing 0 for unknown names


class EntityScores:
    """Cosines of one question with the KG's entity names, by row, each computed when first read:
    a question's candidates name a few hundred of the KG's entities, and the product over every
    name took ~2 ms a question. The row past the last (`len - 1`) is 0: unknown names."""

    def __init__(self, matrix: np.ndarray, vector: np.ndarray) -> None:
        self._matrix, self._vector = matrix, vector
        self._values = np.full(len(matrix) + 1, np.nan)
        self._values[-1] = 0.0

    def __len__(self) -> int:
        return len(self._values)

    def __getitem__(self, rows: int | np.integer | np.ndarray) -> np.ndarray:
        values = self._values[rows]
        if not isinstance(rows, np.ndarray):  # one row
            if values != values:  # NaN: not computed yet
                self._compute(np.array([rows]))
                values = self._values[rows]
            return values
        missing = np.isnan(values)
        if missing.any():
            self._compute(np.unique(rows[missing]))
            values = self._values[rows]
        return values

    def _compute(self, rows: np.ndarray) -> None:
        self._values[rows] = _matvec(self._matrix[rows], self._vector)  # the same sums, row by row


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
    ("getTime", "time"): "when in that year or month did it happen? how many times did it happen then? did it happen then?",
    ("getTime", "join"): "when in the same period did it happen?",
    ("getRelation", "none"): "what happened between them? what did they do to each other?",
    ("getRelation", "time"): "what happened between them on that date, in that month or in that year?",
    ("getRelation", "join"): "what happened between them in the same period?",
    ("getNth", "none"): "the second, the third, for the second time",
    ("getNthLast", "none"): "the second to last, the penultimate, the third from last",
    ("getMost", "none"): "who did it most often, the most times, the most frequently",
    ("getLeast", "none"): "who did it least often, the fewest times, the least frequently",
    ("count", "none"): "how many times, how often, how many, the number of",
    ("exists", "none"): "did it happen? has it ever, is it true that, yes or no",
    ("ofType", "none"): "which country",
    ("exclude", "none"): "apart from, other than, except, besides, excluding",
    ("includes", "none"): "was it them? were they the first, the last, the one? yes or no",
    ("getDuring", "step"): "while they did, during the time they did, at the same time as them",
}
_KINDS = list(TEMPLATE_TEXTS)
_KIND_ROW = {kind: i for i, kind in enumerate(_KINDS)}
# a cue the question analysis read (`agents.analysis.cues.question_cues`) -> the template kind that answers it
CUE_TEMPLATES = {"before": "getBefore", "after": "getAfter", "first": "getFirst", "last": "getLast", "between": "getBetween", "asks_time": "getTime"}


def template_vectors(store: TKGStore, embedder: Embedder) -> np.ndarray:
    """Row i embeds the text of `_KINDS[i]`; cached beside the store with its name vectors."""
    return text_vectors(store, embedder, "templates", [TEMPLATE_TEXTS[k] for k in _KINDS]).copy()


def kind_of(action: Action) -> tuple[str, str]:
    """(template, time kind) of an action: the key of its template text."""
    if isinstance(action, (GetHeadEntity, GetTailEntity, GetTime, GetRelation)):
        time = action.time
        kind = "none" if time is None else "join" if isinstance(time, int) else "time"
    elif isinstance(action, GetBetween):
        kind = "time"
    elif (reference := reference_of(action)) is not None:
        kind = "step" if isinstance(reference, int) else "time"
    else:
        kind = "none"
    return (action.template, kind)


def shape_of(action: Action) -> str:
    """The shape used for diversity: template and kind of time argument ("getTime:none")."""
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
        self.template_matrix = template_vectors(store, embedder)
        self._block_rows: "weakref.WeakKeyDictionary[LookupBlock, tuple]" = weakref.WeakKeyDictionary()

    def embed_question(self, question: str) -> np.ndarray:
        return self.embedder.embed_batch([question])[0]

    def relation_scores(self, question_vector: np.ndarray) -> dict[str, float]:
        """Cosine of the question with every relation, through the vector index."""
        scores, ids = self.relation_index.search(question_vector, self.relation_index.size)
        return {self.names.relations[i]: float(s) for s, i in zip(scores[0], ids[0]) if i >= 0}

    def question_scores(
        self,
        question_vector: np.ndarray,
        text: str | None = None,
        relation_hints: Mapping[str, float] | None = None,
        *,
        cues: frozenset[str],
    ) -> QuestionScores:
        """What scoring a question's candidates needs, computed once per question (the agent keeps
        it for every step): its cosines with every relation, entity and template text, with the
        word signals folded in. `relation_hints` (relation -> score in [0, 1], the analysis's
        ranked relations) add to the relation cosines; without them, the share of each relation's
        content words found in `text` does. The question's `cues` (`agents.analysis.cues.question_cues`:
        "before", "first", "same", "asks_time" ...) add to the templates they ask for."""
        q = np.asarray(question_vector, dtype=np.float32).reshape(-1)
        w = self.weights
        relations = self.relation_scores(q)
        if relation_hints is not None:
            for relation, hint in relation_hints.items():
                if relation in relations:
                    relations[relation] += float(hint) * w.relation_words / w.relation
        elif text:
            stems = content_stems(text)
            for relation in relations:
                relations[relation] += word_overlap(stems, self.store.relation_text(relation)) * w.relation_words / w.relation
        templates = _matvec(self.template_matrix, q)
        for row, (name, kind) in enumerate(_KINDS):
            if cue_matches(name, kind, cues):
                templates[row] += w.cue / w.template
        entities = EntityScores(self.names.entity_matrix, q)
        relation_rows = np.array([relations.get(r, 0.0) for r in self.names.relations] + [0.0])
        return QuestionScores(relations, entities, templates, relation_rows)

    def values(self, scores: QuestionScores, candidates: Sequence[Candidate], context: ActionContext | None = None) -> np.ndarray:
        """The score of every candidate, in the candidates' order: lookup blocks with array
        arithmetic, the few list operations and answers one by one."""
        pool = CandidatePool.of(candidates)
        if not len(pool):
            return np.zeros(0, dtype=np.float32)
        context = context or ActionContext()
        w = self.weights
        relation_score, entity_all, template = scores.relations, scores.entities, scores.templates
        relation_all = scores.relation_rows

        parts: list[np.ndarray] = []
        best_entity = 0.0
        for index, block in enumerate(pool.blocks):
            relation_rows, anchor_row, other_rows = self._rows(block)
            entity = entity_all[anchor_row]
            if other_rows is not None:  # getTime: the mean of its two entities
                entity = (entity + entity_all[other_rows]) / 2
            values = w.relation * relation_all[relation_rows] + w.entity * entity + w.template * template[_KIND_ROW[kind_of(block.candidates[0].action)]]
            best_entity = max(best_entity, float(np.max(entity)))
            skip = pool.excluded.get(index)
            parts.append(np.delete(values, sorted(skip)) if skip else values)
        parts.append(self._extra_values(pool.extras, context, relation_score, entity_all, template, best_entity))
        return np.concatenate(parts)

    def keep(
        self, scores: QuestionScores, candidates: Sequence[Candidate], context: ActionContext | None = None, top_k: int = 10
    ) -> list[Candidate]:
        """The top-K candidates, best first (see the module docstring for the two guarantees): what
        the agent's filter node offers every decider. At most K - 2 places go to one shape while
        others wait."""
        return top(candidates, self.values(scores, candidates, context), top_k, max(1, top_k - 2))

    def _rows(self, block: LookupBlock) -> tuple[np.ndarray, int, np.ndarray | None]:
        """(relation rows, anchor entity row, other entity rows) of a block, cached with the filter."""
        rows = self._block_rows.get(block)
        if rows is None:
            unknown_relation, unknown_entity = len(self.names.relations), len(self.names.entities)
            relation_rows = np.array([self.names.relation_row.get(r, unknown_relation) for r in block.relations], dtype=np.int64)
            anchor = self.names.entity_row.get(block.entity, unknown_entity)
            others = None
            if block.template == "getTime":
                others = np.array([self.names.entity_row.get(o, unknown_entity) for o in block.others], dtype=np.int64)
            rows = self._block_rows[block] = (relation_rows, anchor, others)
        return rows

    def _extra_values(
        self,
        candidates: Sequence[Candidate],
        context: ActionContext,
        relation_score: Mapping[str, float],
        entity_all: EntityScores,
        template: np.ndarray,
        best_entity: float,
    ) -> np.ndarray:
        """Scores of candidates outside lookup blocks (list operations, answers, plain lists)."""
        w = self.weights
        entity_row = self.names.entity_row
        unknown = len(entity_all) - 1

        def entity(name: str) -> float:
            return float(entity_all[entity_row.get(name, unknown)])

        n = len(candidates)
        rel = [0.0] * n
        ent = [0.0] * n
        kinds = [0] * n
        inherited: list[int] = []
        for i, candidate in enumerate(candidates):
            action = candidate.action
            kinds[i] = _KIND_ROW[kind_of(action)]
            if isinstance(action, GetRelation):  # asks no relation: the mean of its two entities
                ent[i] = (entity(action.head) + entity(action.tail)) / 2
                continue
            lookup = _lookup_behind(action, context)
            if lookup is None:
                inherited.append(i)
                continue
            rel[i] = relation_score.get(lookup.relation, 0.0)
            names = _entities(lookup)
            ent[i] = sum(entity(e) for e in names) / len(names)
        if inherited:  # list operations whose source's action is unknown: assume the best lookup
            best_rel, best_ent = max(relation_score.values(), default=0.0), max([best_entity, *ent])
            for i in inherited:
                rel[i], ent[i] = best_rel, best_ent
        kind_scores = template[np.asarray(kinds, dtype=np.int64)]
        return w.relation * np.asarray(rel) + w.entity * np.asarray(ent) + w.template * kind_scores


def top(candidates: Sequence[Candidate], values: np.ndarray, top_k: int, max_per_shape: int) -> list[Candidate]:
    """The selection of `select` over scored candidates, without scoring objects for the rest:
    the best `top_k`, at most `max_per_shape` per shape while others remain, and the answer of
    the latest result always among them; best first."""
    if top_k <= 0 or not len(candidates):
        return []
    pool = CandidatePool.of(candidates)
    order = _order(values)
    chosen = _select_positions(order, _shape_ids(pool), top_k, max_per_shape)
    answers = [i for i, c in enumerate(pool.extras, len(pool) - len(pool.extras)) if type(c.action) is Answer]
    latest = max(answers, key=lambda i: pool[i].action.source, default=None)
    if latest is not None and latest not in chosen:
        chosen = chosen[: top_k - 1] + [latest] if len(chosen) >= top_k else chosen + [latest]
    kept = [Candidate(pool[i].action, pool[i].size, float(values[i])) for i in chosen]
    kept.sort(key=lambda s: (-s.score, s.action.render()))
    return kept


def _select_positions(order: np.ndarray, shapes: np.ndarray, top_k: int, max_per_shape: int) -> list[int]:
    """Positions (in rank order) of the first `top_k` items that are among the first
    `max_per_shape` of their shape, topped up with the best of the rest when too few are."""
    ranked_shapes = shapes[order]
    eligible = np.zeros(len(order), dtype=bool)
    for shape in np.unique(ranked_shapes):
        eligible[np.flatnonzero(ranked_shapes == shape)[:max_per_shape]] = True
    chosen = order[eligible][:top_k].tolist()
    if len(chosen) < top_k:
        chosen += order[~eligible][: top_k - len(chosen)].tolist()
    return chosen


def _shape_ids(pool: CandidatePool) -> np.ndarray:
    """An integer per candidate naming its shape (`shape_of`), blocks at once."""
    ids: dict[str, int] = {}
    parts = []
    for index, block in enumerate(pool.blocks):
        n = len(block) - len(pool.excluded.get(index, ()))  # a block's actions share one shape
        parts.append(np.full(n, ids.setdefault(shape_of(block.candidates[0].action), len(ids)), dtype=np.int64))
    parts.append(np.array([ids.setdefault(shape_of(c.action), len(ids)) for c in pool.extras], dtype=np.int64))
    return np.concatenate(parts)


def cue_matches(template: str, time_kind: str, cues: frozenset[str]) -> bool:
    """Whether an action of this (template, time kind) answers one of the question's cues."""
    if time_kind == "join":
        return "same" in cues
    return any(CUE_TEMPLATES.get(c) == template for c in cues)


def word_overlap(question_stems: frozenset[str], relation_text: str) -> float:
    """Share of the relation's content words (stemmed, `ari.base.text.stem`) that the question contains (0..1)."""
    stems = _relation_stems(relation_text)
    return len(stems & question_stems) / len(stems) if stems else 0.0


@lru_cache(maxsize=4096)
def _relation_stems(text: str) -> frozenset[str]:
    return content_stems(text)


def _matvec(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """matrix @ vector without BLAS: a multi-threaded OpenBLAS gemv measured 40x slower (20 ms for
    the MultiTQ entity matrix) on a busy 2-core machine; einsum stays under a millisecond."""
    return np.einsum("ij,j->i", matrix, vector)


def _order(values: np.ndarray) -> np.ndarray:
    """Indices best first; a stable sort keeps the enumeration order among equal scores."""
    return np.argsort(-values, kind="stable")


def _entities(action: Action) -> list[str]:
    if isinstance(action, GetTime):
        return [action.head, action.tail]
    if isinstance(action, GetHeadEntity):
        return [action.tail]
    if isinstance(action, GetTailEntity):
        return [action.head]
    return []


def _lookup_behind(action: Action, context: ActionContext, depth: int = 0) -> Lookup | None:
    """The KG lookup an action is or reads from (following list operations back through the steps)."""
    if isinstance(action, LOOKUP_TYPES):
        return action
    if depth > 16:
        return None
    source = source_of(action)  # a list operation or answer reads an earlier step; getRelation none
    earlier = None if source is None else context.action(source)
    return None if earlier is None else _lookup_behind(earlier, context, depth + 1)


def get_filter(store: TKGStore, embedder: Embedder, weights: FilterConfig = FilterConfig()) -> CandidateFilter:
    """The shared filter of a store, embedder and weights (`AgentConfig.filter`); its vectors and
    index are built once per store, kept on it and rebuilt after `store.reload()`."""
    return store.derived(("candidate_filter", embedder.name, weights),
                         lambda: CandidateFilter(store, embedder, weights))


def roles_of(entities: Sequence[str]) -> Mapping[str, str]:
    """Abstract roles by order of mention: first entity E1, second E2, ..."""
    return {name: f"E{i}" for i, name in enumerate(dict.fromkeys(entities), start=1)}


__all__ = [
    "CandidateFilter",
    "QuestionScores",
    "TEMPLATE_TEXTS",
    "Weights",
    "get_filter",
    "kind_of",
    "roles_of",
    "shape_of",
    "top",
]
