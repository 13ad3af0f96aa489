"""The relation lexicon's statistics: learned n-gram -> relation evidence, read back as a naive-Bayes posterior.

It counts and weighs strings it is given and reads no English: which n-grams a question has, and which
relations its answer was reached through, are the reader's (`agents.analysis.relations.predicate_ngrams`,
`learn_relation_lexicon`).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ari.base.errors import UsageError
from tkg_store.store import TKGStore

LEXICON_FORMAT = 1
_SMOOTHING = 0.1


@dataclass
class RelationLexicon:
    """Learned n-gram -> relation evidence (fractional counts)."""

    counts: dict[str, dict[str, float]] = field(default_factory=dict)
    relation_totals: dict[str, float] = field(default_factory=dict)  # credited questions per relation
    gram_totals: dict[str, float] = field(default_factory=dict)  # credited n-grams per relation
    questions: int = 0
    meta: dict[str, Any] = field(default_factory=dict)
    _terms: _PosteriorTerms | None = field(default=None, init=False, repr=False, compare=False)

    def add(self, grams: Iterable[str], relations: Iterable[str]) -> None:
        relations = sorted(set(relations))
        if not relations:
            return
        self._terms = None
        share = 1.0 / len(relations)
        self.questions += 1
        grams = set(grams)
        for gram in grams:
            row = self.counts.setdefault(gram, {})
            for relation in relations:
                row[relation] = row.get(relation, 0.0) + share
        for relation in relations:
            self.relation_totals[relation] = self.relation_totals.get(relation, 0.0) + share
            self.gram_totals[relation] = self.gram_totals.get(relation, 0.0) + share * len(grams)

    def prune(self, min_count: float) -> None:
        """Drop n-gram/relation cells credited less than `min_count` (smoothing covers them); keeps files small."""
        kept = ((gram, {r: v for r, v in row.items() if v >= min_count}) for gram, row in self.counts.items())
        self.counts = {gram: row for gram, row in kept if row}
        self._terms = None

    def posterior(
        self, grams: list[str], candidates: list[str], weights: Mapping[str, float] | None = None
    ) -> dict[str, float] | None:
        """P(relation | n-grams) over the candidates (None: no n-gram ever seen): naive Bayes with
        additive smoothing, each n-gram weighted by `weights` (1 when not given)."""
        if (logs := self.log_posterior(grams, candidates, weights)) is None:
            return None
        probabilities = np.exp(logs - logs.max())
        probabilities /= probabilities.sum()
        return dict(zip(candidates, probabilities.tolist()))

    def log_posterior(
        self, grams: list[str], candidates: list[str], weights: Mapping[str, float] | None = None
    ) -> np.ndarray | None:
        """The unnormalised log posterior, by candidate. Most cells are empty, so the sum over n-grams is
        `sum(w) * log(s / denominator(r))` plus a correction from the few cells each n-gram credits."""
        known = [g for g in set(grams) if g in self.counts]
        if not known or not candidates:
            return None
        share = [1.0 if weights is None else weights.get(g, 1.0) for g in known]
        terms = self._terms = self._terms or _PosteriorTerms(self)
        rows = terms.rows(candidates)
        logs = terms.log_prior[rows] - math.log(terms.total + _SMOOTHING * len(candidates))
        logs += sum(share) * (math.log(_SMOOTHING) - terms.log_denominator[rows])
        logs += np.add.reduce([w * terms.lift(gram, self.counts[gram]) for gram, w in zip(known, share)])[rows]
        return logs

    # -- files ------------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        data = {
            "format": LEXICON_FORMAT,
            "questions": self.questions,
            "meta": self.meta,
            "relation_totals": {r: round(v, 4) for r, v in sorted(self.relation_totals.items())},
            "gram_totals": {r: round(v, 4) for r, v in sorted(self.gram_totals.items())},
            "counts": {g: {r: round(v, 4) for r, v in sorted(row.items())} for g, row in sorted(self.counts.items())},
        }
        Path(path).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> RelationLexicon:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise UsageError(f"cannot read relation lexicon {path}: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != LEXICON_FORMAT:
            raise UsageError(f"{path} is not a relation lexicon (format {LEXICON_FORMAT})")
        return cls(data["counts"], data["relation_totals"], data["gram_totals"], int(data.get("questions", 0)), data.get("meta", {}))


class _PosteriorTerms:
    """The parts of `RelationLexicon.posterior` that depend on the lexicon alone, computed once per
    lexicon state (the posterior runs several times a question, over every relation of the KG).
    Arrays by relation row; the last row stands for every relation the lexicon never credited."""

    def __init__(self, lexicon: RelationLexicon) -> None:
        self.total = sum(lexicon.relation_totals.values()) or 1.0
        known = sorted(set(lexicon.relation_totals) | set(lexicon.gram_totals))
        self._row = {r: i for i, r in enumerate(known)}
        vocabulary = max(len(lexicon.counts), 1)
        priors = np.array([lexicon.relation_totals.get(r, 0.0) for r in known] + [0.0])
        grams = np.array([lexicon.gram_totals.get(r, 0.0) for r in known] + [0.0])
        self.log_prior = np.log(priors + _SMOOTHING)  # log(questions credited to the relation + s)
        self.log_denominator = np.log(grams + _SMOOTHING * vocabulary)  # log(n-grams credited + s * vocabulary)
        self._lifts: dict[str, np.ndarray] = {}

    def rows(self, relations: list[str]) -> np.ndarray:
        unknown = len(self._row)
        return np.array([self._row.get(r, unknown) for r in relations], dtype=np.int64)

    def lift(self, gram: str, counts: dict[str, float]) -> np.ndarray:
        """log((count + s) / s) for every relation (by row; 0 where the n-gram credits none)."""
        if (found := self._lifts.get(gram)) is None:
            if len(self._lifts) > 65536:
                self._lifts.clear()
            found = np.zeros(len(self._row) + 1)
            for relation, count in counts.items():
                found[self._row.get(relation, len(self._row))] = math.log(count + _SMOOTHING) - math.log(_SMOOTHING)
            found[-1] = 0.0
            self._lifts[gram] = found
        return found


def chosen_lexicon(store: TKGStore, bundled: Path) -> RelationLexicon | None:
    """$ARI_RELATION_LEXICON when set (e.g. one learned on a training share only, for a fair evaluation),
    else `bundled` (the reader's lexicon for the store's dataset), when it exists and fits the store:
    every relation it credits is one of the store's."""
    configured = os.environ.get("ARI_RELATION_LEXICON")
    path = Path(configured) if configured else bundled
    if not path.exists():
        return None
    return store.derived(("default_lexicon", str(path)), lambda: _fitting(store, path))


def _fitting(store: TKGStore, path: Path) -> RelationLexicon | None:
    lexicon = RelationLexicon.load(path)
    return lexicon if set(lexicon.relation_totals) <= set(store.relation_names()) else None
