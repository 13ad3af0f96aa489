"""getDuring, "who held Y while X did" over interval facts: its semantics against a brute-force reading
year by year, the program on a real store against the development set's own rule for CronQuestions'
time_join, the query that asks for it, and the questions a store generates of that shape."""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

import pytest

from actions.context import ActionContext
from actions.items import Item
from actions.programs import Program
from actions.semantics import during
from actions.templates import GetDuring, bound_step
from agents.analysis.query import read_query
from agents.generate import generate
from benchmarks.cron_devset import Fact as DevFact
from benchmarks.cron_devset import Facts, gold
from tkg_store.ingest import POINT, ingest
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity

YEAR = Granularity.YEAR
FIRST_YEAR, LAST_YEAR = 1950, 2030  # every fixture year lies inside


def _item(name: str, start: int | None, end: int | None) -> Item:
    return Item(name, date(start, 1, 1) if start else None, date(end, 12, 31) if end else None, YEAR)


def _years(start: int | None, end: int | None) -> set[int]:
    """The years an item holds in, read plainly: an open end holds on to the end of time."""
    if start is None and end is None:
        return set()
    return set(range(start or FIRST_YEAR, (end or LAST_YEAR) + 1))


def _random_span(rng: random.Random) -> tuple[int | None, int | None]:
    start = rng.randrange(1960, 2020)
    kind = rng.random()
    if kind < 0.1:
        return None, start  # an open start
    if kind < 0.2:
        return start, None  # an open end
    if kind < 0.25:
        return None, None  # no time at all
    return start, start + rng.randrange(0, 6)


def test_during_keeps_exactly_the_items_whose_years_meet_a_reference_s() -> None:
    rng = random.Random(7)
    for _ in range(300):
        spans = [_random_span(rng) for _ in range(rng.randrange(1, 8))]
        references = [_random_span(rng) for _ in range(rng.randrange(0, 3))]
        items = [_item(f"E{k}", *span) for k, span in enumerate(spans)]
        held = set().union(*(_years(*r) for r in references)) if references else set()
        expected = [i for i, span in zip(items, spans) if _years(*span) & held]
        assert during(items, [_item(None, *r) for r in references]) == expected  # type: ignore[arg-type]


def test_during_on_day_points_keeps_the_reference_s_day() -> None:
    day = Item("A", date(2009, 1, 2), date(2009, 1, 2))
    other = Item("B", date(2009, 1, 3), date(2009, 1, 3))
    assert during([day, other], [Item(None, date(2009, 1, 2), date(2009, 1, 2))]) == [day]


ROWS = [  # (head, relation, tail, start, end) as `ari ingest tsv` reads them
    ("Kevin Richardson", "member of sports team", "Barnsley F.C.", "1998", "1999"),
    ("Kevin Richardson", "member of sports team", "Barnsley F.C.", "2003", "2004"),  # a second spell
    ("Neil Redfearn", "member of sports team", "Barnsley F.C.", "1991", "1998"),
    ("Darren Barnard", "member of sports team", "Barnsley F.C.", "1999", "2002"),
    ("Bruce Dyer", "member of sports team", "Barnsley F.C.", "2000", "2002"),
    ("Mike Sheron", "member of sports team", "Barnsley F.C.", "2003", ""),  # one stated year: that year only
    ("Craig Hignett", "member of sports team", "Barnsley F.C.", "1970", "1971"),
    ("Kevin Richardson", "member of sports team", "Aston Villa F.C.", "1991", "1995"),
    ("Dwight Yorke", "member of sports team", "Aston Villa F.C.", "1989", "1998"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - an open TKGStore
    folder = tmp_path_factory.mktemp("during")
    path = folder / "kg.tsv"
    path.write_text("".join("\t".join(row) + "\n" for row in ROWS), encoding="utf-8")
    ingest("tsv", path, folder / "kg.duckdb", open_ends=POINT)
    with TKGStore.open(Path(folder / "kg.duckdb")) as opened:
        yield opened


def _run(store: TKGStore, program: str, bindings: dict[str, object]) -> list[Item]:
    context = ActionContext(results=[], times=[], granularity=YEAR, answer_type="entity", actions=[])
    for step in Program.parse(program).steps:
        action = bound_step(step, bindings)
        context = context.with_result(action.execute(store, context), action)
    return context.results[-1]


@pytest.mark.parametrize(("player", "team"), [("Kevin Richardson", "Barnsley F.C."), ("Kevin Richardson", "Aston Villa F.C."),
                                               ("Neil Redfearn", "Barnsley F.C."), ("Craig Hignett", "Barnsley F.C.")])
def test_the_program_gives_the_development_set_s_time_join_gold(store: TKGStore, player: str, team: str) -> None:
    program = "getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getDuring(#2, #1) -> answer(#3)"
    answered = {i.entity for i in _run(store, program, {"E1": team, "E2": player, "R": "member of sports team"})}
    facts = Facts(DevFact(h, r, t, int(s or e), int(e or s)) for h, r, t, s, e in ROWS)
    record = {"annotation": {"head": player, "tail": team}, "relations": {"member of sports team"}, "type": "time_join",
              "answer_type": "entity"}
    assert answered == gold(record, facts)
    assert player in answered  # the official answers hold the player himself


def test_get_during_renders_and_reads_back() -> None:
    action = GetDuring(2, 1)
    assert action.render() == "getDuring(#2, #1)" == action.abstract({})
    assert Program.parse("getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getDuring(#2, #1) -> answer(#3)").operations >= {"during"}


@pytest.mark.parametrize(("masked", "asked"), [
    ("Who played for {E1} while {E2} did?", True),
    ("Who was a member of {E1} during the time that {E2} was?", True),
    ("Who played for {E1} during {T1}?", False),  # "during" a date is a time constraint
    ("Who played for {E1} in the same year as {E2}?", False),  # a same-period join
])
def test_while_asks_for_the_answers_held_during_the_other_s_event(masked: str, asked: bool) -> None:
    query = read_query(masked, masked, masked.count("{T"), [(0, 1)] * masked.count("{E"))
    assert query.during is asked
    assert ("during" in query.operations()) is asked


def test_a_store_generates_while_questions_only_from_facts_that_last(store: TKGStore, tmp_path: Path) -> None:
    made = generate(store, 6, seed=0, shapes=("during",))
    assert made and all(" while " in g.gold.text and "during" in g.program.operations for g in made)
    for g in made:  # the gold is every other holder whose years meet the named one's
        player = g.gold.text.split(" while ")[1].removesuffix(" did?")
        team = next(t for t in ("Barnsley F.C.", "Aston Villa F.C.") if t in g.gold.text)
        answered = {i.entity for i in _run(store, g.program.render(), {"E1": team, "E2": player, "R": "member of sports team"})}
        assert set(g.gold.answers) == answered - {player, team}
    days = tmp_path / "days.tsv"  # day points: a same-period join asks this, no "while"
    days.write_text("".join(f"{h}\t{r}\t{t}\t2005-01-0{k % 9 + 1}\n" for k, (h, r, t, _, _) in enumerate(ROWS)), encoding="utf-8")
    ingest("tsv", days, tmp_path / "days.duckdb")
    with TKGStore.open(tmp_path / "days.duckdb") as points:
        assert generate(points, 6, seed=0, shapes=("during",)) == []


def test_before_and_after_a_holding_ask_for_the_holder_just_before_or_after(store: TKGStore) -> None:
    made = [g for g in generate(store, 12, seed=0, shapes=("before_after",)) if g.program.render().startswith("getTime(E2, R, E1) -> getHeadEntity")]
    assert made and all({"last", "before"} <= g.program.operations or {"first", "after"} <= g.program.operations for g in made)
    years = {(h, t): (int(s), int(e or s)) for h, _, t, s, e in ROWS if (h, t) != ("Kevin Richardson", "Barnsley F.C.") or s == "1998"}
    for g in made:
        cue = "before" if " before " in g.gold.text else "after"
        player = g.gold.text.split(f" {cue} ")[1].removesuffix("?").removesuffix(" did")
        team = next(t for t in ("Barnsley F.C.", "Aston Villa F.C.") if t in g.gold.text)
        first_start, first_end = years[(player, team)]  # the named holder's first holding
        others = {h: span for (h, t), span in years.items() if t == team and h != player}
        if cue == "before":
            fits = {h: span for h, span in others.items() if span[0] < first_start}
            best = max((span[1], span[0]) for span in fits.values())
            expected = {h for h, span in fits.items() if (span[1], span[0]) == best}
        else:
            fits = {h: span for h, span in others.items() if span[0] > first_end}
            earliest = min(span[0] for span in fits.values())
            expected = {h for h, span in fits.items() if span[0] == earliest}
        assert set(g.gold.answers) == expected, g.gold.text
