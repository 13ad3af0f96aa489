"""What a relation is read by: its name and, when known, a description of the act, with its group.

A relation's name alone ("Make a visit") is far, for an embedding model, from the everyday verbs
people use for the act ("flew to", "toured"); a short description ("Travel to another country or
person. Go on a trip to, arrive in ...") is near them. A descriptions file maps a relation name to
its `description` (sentences, each embedded on its own: a question's verb phrase is compared with
the name and each sentence, best match counting) and its `group` (relations of one group do not
differ in meaning: a reading torn between two of them is not unsure). A relation the file does not
describe is read by its name, in a group of its own; a KG without a file is read by its names.

The file is chosen per store: $ARI_RELATION_DESCRIPTIONS when set, else one the reader bundles for
the store's dataset (`<source>_relation_descriptions.json`: `agents/analysis/data` has MultiTQ's).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ari.base.embedding import Embedder
from ari.base.errors import UsageError
from tkg_store.name_vectors import text_vectors
from tkg_store.store import TKGStore

_SENTENCE_END = re.compile(r"(?<=\.)\s+")


@dataclass(frozen=True)
class RelationTexts:
    """Each relation's texts (its name's text first, then its description's sentences) and group."""

    texts: dict[str, tuple[str, ...]]
    groups: dict[str, str]

    def group(self, relation: str) -> str:
        return self.groups.get(relation, relation)


def read_relation_texts(store: TKGStore, path: Path | None) -> RelationTexts:
    """The store's relations read by `path`'s descriptions (None: by their names alone). A name the
    file gives that the store lacks is ignored: a file may describe a dataset's every relation."""
    described: dict[str, dict] = {}
    if path is not None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            described = data["relations"]
        except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
            raise UsageError(f"cannot read relation descriptions {path}: {exc}") from None
        if not isinstance(described, dict) or not all(isinstance(v, dict) for v in described.values()):
            raise UsageError(f"{path}: 'relations' must map each relation name to {{'group': ..., 'description': ...}}")
    texts, groups = {}, {}
    for relation in sorted(store.relation_names()):
        entry = described.get(relation, {})
        sentences = [s.strip() for s in _SENTENCE_END.split(str(entry.get("description", ""))) if s.strip()]
        texts[relation] = (store.relation_text(relation), *sentences)
        if "group" in entry:
            groups[relation] = str(entry["group"])
    return RelationTexts(texts, groups)


def default_relation_texts(store: TKGStore, bundled: Path) -> RelationTexts:
    """$ARI_RELATION_DESCRIPTIONS when set, else the file in `bundled` for the store's dataset, else names."""
    configured = os.environ.get("ARI_RELATION_DESCRIPTIONS")
    source = store.meta().get("source", "")
    path = Path(configured) if configured else bundled / f"{source}_relation_descriptions.json" if source else None
    if path is not None and not configured and not path.exists():
        path = None
    return store.derived(("relation_texts", str(path)), lambda: read_relation_texts(store, path))


@dataclass(frozen=True)
class RelationTextVectors:
    """Row i of `matrix` embeds one text of relation `relations[owner[i]]`; rows of a relation are
    contiguous, starting at `starts`."""

    relations: list[str]
    matrix: np.ndarray
    starts: np.ndarray

    def similarities(self, vector: np.ndarray) -> np.ndarray:
        """cosine(vector, relation) for each of `relations`: the best of its texts."""
        return np.maximum.reduceat(self.matrix @ vector, self.starts)


def relation_text_vectors(store: TKGStore, embedder: Embedder, texts: RelationTexts) -> RelationTextVectors:
    """Embeddings of every relation's texts, cached beside the store (`name_vectors.text_vectors`)."""
    relations = sorted(texts.texts)
    flat = [text for relation in relations for text in texts.texts[relation]]
    sizes = [len(texts.texts[relation]) for relation in relations]
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    return RelationTextVectors(relations, text_vectors(store, embedder, "relation-texts", flat), starts)
