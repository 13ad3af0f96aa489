"""Names learned from labelled questions: which words of a question stand for which entity, the rules
that keep a name, and the linker reading a learned name only in a store of the KG it was learned on."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.analysis.aliases import learned_aliases
from agents.analysis.entities import EntityLinker
from benchmarks.learn_aliases import learned_names
from memory.names import slot_surfaces
from tkg_store.ingest import POINT, ingest
from tkg_store.store import TKGStore


def test_the_words_in_each_slot_are_read_from_the_template() -> None:
    assert slot_surfaces("Which is the last award {head} got", "Which is the last award King of Hip Hop got") == {"head": "King of Hip Hop"}
    assert slot_surfaces("Who held {tail} after {head}", "Who held Mayor of Rome after Walter Veltroni") == {"tail": "Mayor of Rome", "head": "Walter Veltroni"}
    assert slot_surfaces("When did {head} first win", "Which award did Eminem first win") is None  # not the template filled in
    assert slot_surfaces("no slot here", "no slot here") is None


def _question(template: str, text: str, **annotation: str) -> dict:
    return {"template": template, "paraphrases": [text], "annotation": annotation}


LABELS = {"Q1": "Eminem", "Q2": "Hakeem Olajuwon", "Q3": "Minister of Foreign Affairs", "Q4": "Minister of Foreign Affairs", "Q5": "Dr. Dre"}


def test_a_name_is_kept_when_every_use_means_one_entity_and_it_is_no_kg_name() -> None:
    records = [
        _question("What did {head} win last", "What did King of Hip Hop win last", head="Q1"),
        _question("What did {head} win first", "What did Slim Shady win first", head="Q1"),
        _question("What did {head} win first", "What did Slim Shady win first", head="Q1"),
        _question("What did {head} win first", "What did The Doctor win first", head="Q5"),
        _question("What did {head} win first", "What did The Doctor win first", head="Q2"),  # used for two: a guess
        _question("What did {head} win first", "What did Eminem win first", head="Q1"),  # the KG's own name
        _question("What did {head} win first", "What did Dr. Dre win first", head="Q1"),  # another entity's KG name
        _question("Who was the first {tail}", "Who was the first Danish Minister of Foreign Affairs", tail="Q4"),
    ]
    assert learned_names(records, LABELS) == {
        "King of Hip Hop": "Eminem",
        "Slim Shady": "Eminem",
        # a label several entities share is written as a store of the KG writes a namesake
        "Danish Minister of Foreign Affairs": "Minister of Foreign Affairs (Q4)",
    }


ROWS = [
    ("Eminem", "award received", "Grammy Award for Best Rap Album", "2001", "2001"),
    ("Eminem", "award received", "Academy Award for Best Original Song", "2003", "2003"),
    ("Hakeem Olajuwon", "member of sports team", "Houston Rockets", "1984", "2001"),
]


def _store(folder: Path, rows: list[tuple[str, ...]]) -> Path:
    (folder / "kg.tsv").write_text("".join("\t".join(row) + "\n" for row in rows), encoding="utf-8")
    ingest("tsv", folder / "kg.tsv", folder / "kg.duckdb", open_ends=POINT)
    return folder / "kg.duckdb"


def _linked(store: TKGStore, question: str) -> list[list[str]]:
    return [[name for name, _ in mention.candidates] for mention in EntityLinker(store).link(question)]


def test_a_learned_name_links_its_entity_in_a_store_of_its_kg(tmp_path: Path) -> None:
    with TKGStore.open(_store(tmp_path, ROWS)) as store:
        assert learned_aliases(store, set(store.entity_names()))["king of hip hop"] == "Eminem"
        assert ["Eminem"] in _linked(store, "Which is the last award King of Hip Hop got?")
        assert ["Hakeem Olajuwon"] in _linked(store, "Which team did Little Moses play for first?")


@pytest.mark.parametrize("relation", ["Make_a_visit", "worksAt"])
def test_a_store_of_another_kg_reads_no_learned_name(tmp_path: Path, relation: str) -> None:
    # the same entity names, but relations the table's KG does not have: its questions never spoke of this KG
    rows = [(head, relation, tail, start, end) for head, _, tail, start, end in ROWS]
    with TKGStore.open(_store(tmp_path, rows)) as store:
        assert learned_aliases(store, set(store.entity_names())) == {}
        assert all("Eminem" not in names for names in _linked(store, "Which is the last award King of Hip Hop got?"))
