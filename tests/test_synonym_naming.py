"""A word's general-English synonym names relations as the KG's own questions read that synonym."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.analysis.relations import RelationLexicon
from agents.shapes import naming_by_synonym
from tests.bench_support import build_store
from tkg_store.store import TKGStore

FACTS = [
    ("Ann", "Praise_or_endorse", "Xland", "2010-03-01"),
    ("Bob", "Appeal_for_diplomatic_cooperation_(such_as_policy_support)", "Xland", "2010-03-02"),
    ("Cid", "Rally_support_on_behalf_of", "Xland", "2010-03-03"),
    ("Dee", "Make_a_visit", "Xland", "2010-03-04"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    with TKGStore.open(build_store(Path(tmp_path_factory.mktemp("syn")) / "kg.duckdb", FACTS)) as opened:
        yield opened


def test_a_synonym_the_learning_questions_use_is_read_as_they_use_it(store: TKGStore) -> None:
    lexicon = RelationLexicon()
    for _ in range(3):
        lexicon.add(["supported"], ["Praise_or_endorse"])
    # "backed" -> "supported": the questions that said "supported" asked for praise
    assert naming_by_synonym(store, "backed", lexicon) == {"Praise_or_endorse"}
    # without them, the names holding "support" are what the synonym names
    assert naming_by_synonym(store, "backed") == {"Appeal_for_diplomatic_cooperation_(such_as_policy_support)", "Rally_support_on_behalf_of"}
    assert naming_by_synonym(store, "trip", lexicon) == {"Make_a_visit"}  # "visited", which the lexicon never credited
