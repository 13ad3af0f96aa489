"""The learned relation reader (benchmarks/relation_reader_model.py): its training examples and its readings."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np

from benchmarks.relation_reader_model import Example, LearnedReader, fit_reader, group_read, learned_examples, synonym_rewrites


class WordEmbedder:
    """A phrase as the normalised sum of fixed random vectors of its words: shared words, near vectors."""

    name = "words"
    dim = 32

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        rows = []
        for text in texts:
            v = sum(np.random.default_rng(zlib.crc32(w.encode())).normal(size=32) for w in text.split())
            rows.append(np.asarray(v, dtype=np.float32) / np.linalg.norm(v))
        return np.stack(rows)


def test_a_phrase_weighs_the_root_of_its_questions_shared_by_its_relations() -> None:
    examples = learned_examples([("visit", ["Make_a_visit", "Host_a_visit"]), ("criticised", ["Criticize"])] * 4)
    weights = {(e.phrase, e.relation): e.weight for e in examples}
    assert weights == {("visit", "Host_a_visit"): 1.0, ("visit", "Make_a_visit"): 1.0, ("criticised", "Criticize"): 2.0}


def test_a_listed_word_is_rewritten_by_each_synonym_keeping_the_relation() -> None:
    rewrites = synonym_rewrites([Example("criticised sharply", "Criticize", 2.0)], {"criticised": ["slammed", "hit out"]})
    assert {(e.phrase, e.relation) for e in rewrites} == {("slammed sharply", "Criticize"), ("hit out sharply", "Criticize")}
    assert all(e.weight == 1.0 for e in rewrites)


GROUPS = {"Criticize": "11", "Praise": "05", "Visit": "04"}


def _reader() -> LearnedReader:
    examples = [Example(p, r, 1.0) for p, r in [("criticised", "Criticize"), ("denounced", "Criticize"), ("praised", "Praise"),
                                                 ("commended", "Praise"), ("visited", "Visit"), ("toured", "Visit")]]
    return fit_reader(examples, WordEmbedder(), penalty=0.001)


def test_the_reader_names_the_relation_of_a_learned_word_and_only_among_the_candidates(tmp_path: Path) -> None:
    reader = _reader()
    vector = WordEmbedder().embed_batch(["denounced"])[0]
    first, mass = group_read(reader, vector, ["Praise", "Criticize", "Visit"], GROUPS)
    assert first == "Criticize" and mass > 0.5
    assert group_read(reader, vector, ["Praise", "Visit"], GROUPS)[0] != "Criticize"
    assert reader.probabilities(vector, ["Unknown"]) == {}
    reader.save(tmp_path / "reader.npz")
    again = LearnedReader.load(tmp_path / "reader.npz")
    assert group_read(again, vector, ["Praise", "Criticize"], GROUPS)[0] == "Criticize"


def test_a_phrase_between_two_acts_gets_no_sure_reading() -> None:
    vector = WordEmbedder().embed_batch(["criticised praised"])[0]
    assert group_read(_reader(), vector, ["Praise", "Criticize"], GROUPS)[1] < 0.9
