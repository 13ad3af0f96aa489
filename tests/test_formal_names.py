"""Names written in full or formally (more given names, initials, a peerage, an honorific, a quoted
nickname, a club's initials written out), linked to the shorter names an interval KG holds them by."""

from __future__ import annotations

import pytest

from agents.analysis.aliases import club_forms, fuller_name
from agents.analysis.entities import EntityLinker
from tests.bench_support import build_store
from tkg_store.store import TKGStore


@pytest.mark.parametrize(("written", "own", "same"), [
    ("ian richard kyle paisley", "ian paisley", True),  # more given names
    ("frederick d haldane", "duncan haldane", True),  # a given name as its initial
    ("e h land", "edwin h land", True),  # initials for the KG's given names
    ("ian paisley", "ian paisley", False),  # the name itself: an exact match, not this rule
    ("obama merkel", "angela merkel", False),  # the KG's given name is missing
    ("ian kyle paisley", "ian smith", False),  # another surname
    ("paisley", "ian paisley", False),  # a surname alone is another rule's
    ("kyle ian paisley", "ian kyle paisley", False),  # given names out of order
])
def test_a_name_written_in_full_is_the_shorter_name(written: str, own: str, same: bool) -> None:
    assert fuller_name(written.split(), own.split()) is same


def test_a_club_s_initials_are_written_out_or_left_out() -> None:
    assert club_forms("Hellas Verona F.C.") == ["hellas verona football club", "hellas verona fc", "hellas verona"]
    assert club_forms("Bradford City A.F.C.") == ["bradford city association football club", "bradford city afc", "bradford city"]
    assert club_forms("Arsenal") == [] and club_forms("F.C.") == []


ROWS = [
    ("Ian Paisley", "position held", "Member of the Northern Ireland Assembly", "1998", "2011"),
    ("Edwin H. Land", "award received", "National Medal of Science", "1967", "1967"),
    ("Rex Harrison", "spouse", "Lilli Palmer", "1943", "1957"),
    ("Yehudi Menuhin", "award received", "Royal Philharmonic Society Gold Medal", "1962", "1962"),
    ("George Barnes", "position held", "Secretary of State for Work and Pensions", "1916", "1917"),
    ("Kevin Richardson", "member of sports team", "Barnsley F.C.", "1998", "1999"),
    ("Angela Merkel", "position held", "Chancellor of Germany", "2005", "2021"),
    ("Clive Soley, Baron Soley", "position held", "Chairman of the Labour Party", "1997", "2001"),
]


@pytest.fixture(scope="module")
def linker(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - EntityLinker over an open store
    db = build_store(tmp_path_factory.mktemp("formal_names") / "kg.duckdb", ROWS)
    with TKGStore.open(db) as store:
        yield EntityLinker(store)


def _linked(linker: EntityLinker, question: str) -> list[tuple[str, str | None]]:
    return [(m.text, m.candidates[0][0] if m.candidates else None) for m in linker.link(question)]


@pytest.mark.parametrize(("question", "expected"), [
    ("When did Ian Richard Kyle Paisley first become Member of the Northern Ireland Assembly?",
     [("Ian Richard Kyle Paisley", "Ian Paisley"), ("Member of the Northern Ireland Assembly", "Member of the Northern Ireland Assembly")]),
    ("Which was the last award E.H. Land got", [("E.H. Land", "Edwin H. Land")]),
    ("What is the first award that Yehudi Menuhin, Baron Menuhin received", [("Yehudi Menuhin, Baron Menuhin", "Yehudi Menuhin")]),
    ('What year did Sir Reginald Carey "Rex" Harrison marry for the first time', [('Sir Reginald Carey "Rex" Harrison', "Rex Harrison")]),
    ("Who was the first to hold the post of Her Majesty's Secretary of State for Work and Pensions",
     [("Her Majesty's Secretary of State for Work and Pensions", "Secretary of State for Work and Pensions")]),
    ("When did Kevin Richardson first play for Barnsley Football Club", [("Kevin Richardson", "Kevin Richardson"), ("Barnsley Football Club", "Barnsley F.C.")]),
    ("When did Kevin Richardson first play for Barnsley", [("Kevin Richardson", "Kevin Richardson"), ("Barnsley", "Barnsley F.C.")]),
])
def test_a_formal_name_links_the_kg_s_name(linker: EntityLinker, question: str, expected: list) -> None:
    assert _linked(linker, question) == expected


@pytest.mark.parametrize("question", [
    "When did Obama Merkel first become Chancellor of Germany?",  # an unknown given name is no formal style
    "When did Angela Merkel and Baron Smith first meet?",  # a peerage not after a comma is a name of its own
    "What did Her Majesty say to Angela Merkel?",  # the crown itself, not its style before an office
])
def test_an_unknown_name_beside_a_known_one_stays_unknown(linker: EntityLinker, question: str) -> None:
    assert any(entity is None for _, entity in _linked(linker, question))
