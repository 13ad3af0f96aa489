"""A learned relation reader (issue 24): multinomial logistic regression over the bundled MiniLM's vector of
a question's verb phrase, trained on the learning split's wordings and general-English text about each relation.

Training examples, each a (phrase, relation, weight):
- the verb phrases (`agents.analysis.relations.verb_phrase`) of learning-split questions, credited to the
  relations their answers are reached through (`credited_relations`); the weight of a phrase is the square root
  of its credit, so the templates' few verbs do not drown the rest;
- each relation's name made into English (`agents.relation_wording`: base and past), its name's text and its
  description's sentences (`agents/analysis/data/multitq_relation_descriptions.json`);
- rewrites without network: each learning phrase with a word the synonyms table lists (`data/synonyms.json`:
  "criticised" -> "slammed", "hit out") replaced by each of its synonyms.

Reading restricts the probabilities to the question's candidate relations; alone, the benchmark says "not sure"
when the first relation's CAMEO group holds less than a floor of them. Not wired into the agent: see
benchmarks/results/relation_reader/README.md.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.relation_wording import kg_verbs, relation_wording
from ari.base.embedding import Embedder
from tkg_store.relation_texts import RelationTexts

SYNONYMS = Path(__file__).parents[1] / "agents" / "analysis" / "data" / "synonyms.json"
NAME_WEIGHT = 3.0  # each relation's own name and description sentences, beside a learned phrase's sqrt(credit)


@dataclass(frozen=True)
class Example:
    phrase: str
    relation: str
    weight: float


def learned_examples(pairs: Iterable[tuple[str, Iterable[str]]]) -> list[Example]:
    """(verb phrase, credited relations) of learning questions -> one example per distinct (phrase, relation):
    the phrase's weight, the square root of its questions, shared by the relations in proportion to their credit."""
    credit: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for phrase, relations in pairs:
        relations = sorted(set(relations))
        for relation in relations:
            if phrase:
                credit[phrase][relation] += 1.0 / len(relations)
    examples = []
    for phrase, row in sorted(credit.items()):
        total = sum(row.values())
        examples += [Example(phrase, r, math.sqrt(total) * c / total) for r, c in sorted(row.items())]
    return examples


def relation_examples(texts: RelationTexts) -> list[Example]:
    """Each relation's name as English (base and past), its name's text and its description's sentences."""
    verbs = kg_verbs(texts.texts)
    examples = []
    for relation, sentences in sorted(texts.texts.items()):
        wording = relation_wording(relation, verbs)
        for text in dict.fromkeys([wording.base, wording.past, *sentences]):
            examples.append(Example(text.lower().rstrip("."), relation, NAME_WEIGHT))
    return examples


def synonym_rewrites(examples: list[Example], table: dict[str, list[str]] | None = None) -> list[Example]:
    """Each example whose phrase holds a word the synonyms table lists, that word replaced by each of its
    synonyms (the example's weight shared among them, at least a quarter of it each)."""
    table = table if table is not None else json.loads(SYNONYMS.read_text(encoding="utf-8"))["synonyms"]
    rewrites = []
    for example in examples:
        words = example.phrase.split()
        for at, word in enumerate(words):
            others = table.get(word, [])
            for other in others:
                phrase = " ".join([*words[:at], other, *words[at + 1 :]])
                rewrites.append(Example(phrase, example.relation, example.weight * max(0.25, 1.0 / len(others))))
    return rewrites


@dataclass(frozen=True)
class LearnedReader:
    relations: tuple[str, ...]
    weights: np.ndarray  # (relations, dimensions)
    bias: np.ndarray  # (relations,)

    def probabilities(self, vector: np.ndarray, candidates: list[str]) -> dict[str, float]:
        """The softmax restricted to the candidates the reader knows ({} when it knows none)."""
        row = {r: i for i, r in enumerate(self.relations)}
        rows = [row[c] for c in candidates if c in row]
        logits = self.weights[rows] @ vector + self.bias[rows]
        p = np.exp(logits - logits.max()) if rows else logits
        return dict(zip((c for c in candidates if c in row), (p / p.sum()).tolist()))

    def save(self, path: Path) -> None:
        np.savez_compressed(path, relations=np.array(self.relations), weights=self.weights.astype(np.float16), bias=self.bias)

    @classmethod
    def load(cls, path: Path) -> LearnedReader:
        with np.load(path) as data:
            return cls(tuple(str(r) for r in data["relations"]), data["weights"].astype(np.float32), data["bias"].astype(np.float32))


def fit_reader(examples: list[Example], embedder: Embedder, penalty: float = 1e-4,
               vectors: dict[str, np.ndarray] | None = None) -> LearnedReader:
    """Fit on `examples` (phrases embedded once; `vectors` a cache shared between fits): one row per distinct
    phrase, its target the distribution of its examples' weights over relations, its weight their sum;
    softmax cross-entropy with an L2 `penalty` per unit of row weight, minimised by L-BFGS."""
    from scipy.optimize import minimize

    vectors = vectors if vectors is not None else {}
    phrases = sorted({e.phrase for e in examples})
    relations = sorted({e.relation for e in examples})
    embed(embedder, phrases, vectors)
    at, column = {p: i for i, p in enumerate(phrases)}, {r: i for i, r in enumerate(relations)}
    target = np.zeros((len(phrases), len(relations)))
    for e in examples:
        target[at[e.phrase], column[e.relation]] += e.weight
    weight = target.sum(axis=1)
    target /= weight[:, None]
    x = np.hstack([np.stack([vectors[p] for p in phrases]).astype(np.float64), np.ones((len(phrases), 1))])  # last column: bias
    lam = penalty * weight.sum()

    def loss(flat: np.ndarray) -> tuple[float, np.ndarray]:
        w = flat.reshape(x.shape[1], len(relations))
        logits = x @ w
        logits -= logits.max(axis=1, keepdims=True)
        log_p = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        value = -float((weight[:, None] * target * log_p).sum()) + lam * float((w[:-1] ** 2).sum())
        grad = x.T @ (weight[:, None] * (np.exp(log_p) - target))
        grad[:-1] += 2 * lam * w[:-1]
        return value, grad.ravel()

    found = minimize(loss, np.zeros(x.shape[1] * len(relations)), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    w = found.x.reshape(x.shape[1], len(relations))
    return LearnedReader(tuple(relations), w[:-1].T.astype(np.float32).copy(), w[-1].astype(np.float32))


def group_read(reader: LearnedReader, vector: np.ndarray, candidates: list[str], groups: dict[str, str]) -> tuple[str | None, float]:
    """The reader's first relation among the candidates and the probability its CAMEO group holds (None, 0: none known)."""
    p = reader.probabilities(vector, candidates)
    if not p:
        return None, 0.0
    first = max(sorted(p), key=p.__getitem__)
    return first, sum(v for r, v in p.items() if groups.get(r, r) == groups.get(first, first))


def embed(embedder: Embedder, phrases: Iterable[str], vectors: dict[str, np.ndarray]) -> None:
    """Embed the phrases `vectors` lacks into it (unit vectors, as the embedder returns them)."""
    new = sorted({p for p in phrases if p not in vectors})
    for start in range(0, len(new), 512):
        chunk = new[start : start + 512]
        vectors.update(zip(chunk, embedder.embed_batch(chunk)))
