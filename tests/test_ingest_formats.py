"""Ingest of every format from files the tests write: exact names, ids, idempotence, appends,
malformed lines (IngestError naming file:line, store unchanged) and --skip-bad counts."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import duckdb
import pytest

from ari.base.errors import IngestError, StoreError
from tkg_store.ingest import ingest
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity

TRICKY = [
    "Armed_Gang_(Palestinian_Territory,_Occupied)",
    "Defense_/_Security_Ministry_(Denmark)",
    "Militant_(Xinjiang\xa0Uyghur)",
    'Antony_Harold_Curties_"Tony"_Windsor',
    "Political_Parties_(Cote_d'Ivoire)",
    "AT&T",
    "Recep_Tayyip_Erdoğan",
]


def write_multitq(root: Path, lines: list[str], id_maps: bool = True) -> Path:
    kg = root / "kg"
    kg.mkdir(parents=True, exist_ok=True)
    (kg / "full.txt").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    if id_maps:
        fields = [line.split("\t") for line in lines]
        entities = sorted({f[0] for f in fields} | {f[2] for f in fields}, reverse=True)  # not first-seen order
        relations = sorted({f[1] for f in fields}, reverse=True)
        (kg / "entity2id.json").write_text(json.dumps({e: i for i, e in enumerate(entities)}), encoding="utf-8")
        (kg / "relation2id.json").write_text(json.dumps({r: i for i, r in enumerate(relations)}), encoding="utf-8")
    return root


def multitq_lines() -> list[str]:
    return [
        f"{TRICKY[0]}\tPraise_or_endorse\tMahmoud_Abbas\t2005-01-01",
        f"{TRICKY[1]}\tMake_a_visit\t{TRICKY[2]}\t2006-03-04",
        f"{TRICKY[3]}\tCriticize_or_denounce\t{TRICKY[4]}\t2010-12-31",
        f"{TRICKY[5]}\tSign_formal_agreement\t{TRICKY[6]}\t2015-06-15",
        f"{TRICKY[6]}\tSign_formal_agreement\t{TRICKY[5]}\t2015-06-15",
    ]


def dump(db: Path) -> dict:
    """Every row of every table, to compare a store before and after a failed ingest."""
    with duckdb.connect(str(db), read_only=True) as con:
        tables = [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables ORDER BY 1").fetchall()]
        return {t: sorted(map(repr, con.execute(f'SELECT * FROM "{t}"').fetchall())) for t in tables}


def test_multitq_round_trips_names_and_uses_official_ids(tmp_path: Path) -> None:
    root = write_multitq(tmp_path / "multitq", multitq_lines())
    db = tmp_path / "kg.duckdb"
    summary = ingest("multitq", root, db)
    assert (summary.facts_added, summary.entities_added, summary.relations_added) == (5, 8, 4)
    official = json.loads((root / "kg" / "entity2id.json").read_text(encoding="utf-8"))
    with duckdb.connect(str(db), read_only=True) as con:
        assert dict(con.execute("SELECT name, id FROM entities").fetchall()) == official
    with TKGStore.open(db) as store:
        assert set(TRICKY) <= set(store.entity_names())
        assert store.display(TRICKY[2]) == "Militant (Xinjiang\xa0Uyghur)"
        assert store.relation_text("Make_a_visit") == "Make a visit"
        [fact] = store.facts(head=TRICKY[1])
        assert (fact.tail, fact.start, fact.end, fact.granularity) == (TRICKY[2], date(2006, 3, 4), date(2006, 3, 4), Granularity.DAY)
        meta = store.meta()
        assert meta["source"] == "multitq" and meta["facts"] == "5"
        assert (meta["time_start"], meta["time_end"]) == ("2005-01-01", "2015-06-15")


def test_ingest_is_idempotent_and_appends(tmp_path: Path) -> None:
    root = write_multitq(tmp_path / "multitq", multitq_lines())
    db = tmp_path / "kg.duckdb"
    ingest("multitq", root, db)
    before = dump(db)
    again = ingest("multitq", root, db)
    assert (again.facts_added, again.entities_added, again.relations_added, again.facts) == (0, 0, 0, 5)
    after = dump(db)
    assert {t: rows for t, rows in after.items() if t != "meta"} == {t: rows for t, rows in before.items() if t != "meta"}
    extra = tmp_path / "extra.tsv"
    extra.write_text(f"New_Entity\tMake_a_visit\t{TRICKY[0]}\t2016-02\n{TRICKY[0]}\tPraise_or_endorse\tMahmoud_Abbas\t2005-01-01\n", encoding="utf-8")
    appended = ingest("tsv", extra, db)
    assert (appended.facts_added, appended.entities_added, appended.relations_added, appended.facts) == (1, 1, 0, 6)
    with TKGStore.open(db) as store:
        assert store.meta()["source"] == "multitq,tsv"
        [fact] = store.facts(head="New_Entity")
        assert (fact.start, fact.end, fact.granularity) == (date(2016, 2, 1), date(2016, 2, 29), Granularity.MONTH)
        assert len(json.loads(store.meta()["ingests"])) == 3


def test_tsv_granularities_intervals_and_header(tmp_path: Path) -> None:
    path = tmp_path / "kg.tsv"
    path.write_bytes(
        b"head\trelation\ttail\ttime\r\n"
        b"A_(B,_C)\tRel\tD\t2005\r\n"
        b"A_(B,_C)\tRel\tD\t2005-07\r\n"
        b"A_(B,_C)\tRel\tD\t2005-07-09\r\n"
        b"\r\n"
        b"E\tRel\tD\t2001-03\t2004\n"
        b"E\tRel\tF\t\t1999-05-02\n"
        b"E\tRel\tG\t1999-05-02\t\n"
    )
    db = tmp_path / "kg.duckdb"
    assert ingest("tsv", path, db).facts_added == 6
    with TKGStore.open(db) as store:
        got = {(f.tail, f.start, f.end, f.granularity) for f in store.facts(relation="Rel")}
    assert got == {
        ("D", date(2005, 1, 1), date(2005, 12, 31), Granularity.YEAR),
        ("D", date(2005, 7, 1), date(2005, 7, 31), Granularity.MONTH),
        ("D", date(2005, 7, 9), date(2005, 7, 9), Granularity.DAY),
        ("D", date(2001, 3, 1), date(2004, 12, 31), Granularity.YEAR),  # the coarser of the two stated times
        ("F", None, date(1999, 5, 2), Granularity.DAY),
        ("G", date(1999, 5, 2), None, Granularity.DAY),
    }


def write_cron(root: Path, facts: str, splits: bool = False) -> Path:
    kg = root / "kg"
    kg.mkdir(parents=True)
    if splits:
        lines = facts.splitlines(keepends=True)
        (kg / "train.txt").write_text("".join(lines[:-1]), encoding="utf-8")
        (kg / "test.txt").write_text(lines[-1], encoding="utf-8")
    else:
        (kg / "full.txt").write_text(facts, encoding="utf-8")
    (kg / "wd_id2entity_text.txt").write_text("Q42\tDouglas Adams\nQ5\tFC Barcelona, S.A.D. (club)\nQ7\tNiño\xa0Town\n", encoding="utf-8")
    (kg / "wd_id2relation_text.txt").write_text("P54\tmember of sports team\nP39\tposition held\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("splits", [False, True])
def test_cronquestions_years_open_ends_and_texts(tmp_path: Path, splits: bool) -> None:
    facts = "Q42\tP54\tQ5\t1990\t1995\nQ42\tP39\tQ7\t2001\t\nQ7\tP39\tQ42\t\t1850\nQ99\tP54\tQ5\t987\t987\n"
    root = write_cron(tmp_path / "cron", facts, splits)
    db = tmp_path / "kg.duckdb"
    summary = ingest("cronquestions", root, db)
    assert (summary.facts_added, summary.entities) == (4, 4)
    with TKGStore.open(db) as store:
        assert store.display("Q5") == "FC Barcelona, S.A.D. (club)"
        assert store.display("Q7") == "Niño\xa0Town"
        assert store.display("Q99") == "Q99"  # no text: the id stands for itself
        assert store.relation_text("P54") == "member of sports team"
        assert store.find_entities("douglas adams") == ["Q42"]
        got = {(f.head, f.relation, f.tail, f.start, f.end, f.granularity) for f in store.facts()}
    year = Granularity.YEAR
    assert got == {
        ("Q42", "P54", "Q5", date(1990, 1, 1), date(1995, 12, 31), year),
        ("Q42", "P39", "Q7", date(2001, 1, 1), None, year),
        ("Q7", "P39", "Q42", None, date(1850, 12, 31), year),
        ("Q99", "P54", "Q5", date(987, 1, 1), date(987, 12, 31), year),
    }


BAD_CASES = [
    # (format, good lines before, bad line, expected message part)
    ("multitq", "A\tR\tB\t2005-01-01", "A\tR\tB", "expected 4 tab-separated fields"),
    ("multitq", "A\tR\tB\t2005-01-01", "A\tR\tB\t2005-02-30", "no such date"),
    ("multitq", "A\tR\tB\t2005-01-01", "A\tR\tB\t2005-01", "MultiTQ events are days"),
    ("multitq", "A\tR\tB\t2005-01-01", "A\t \tB\t2005-01-01", "empty relation name"),
    ("tsv", "A\tR\tB\t2005", "\tR\tB\t2005", "empty head name"),
    ("tsv", "A\tR\tB\t2005", "A\tR\tB\t05/03/2005", "bad time"),
    ("tsv", "A\tR\tB\t2005", "A\tR\tB\t2006\t2005", "ends before it starts"),
    ("tsv", "A\tR\tB\t2005", "A\tR\tB\t2005\t2006\textra", "expected 4 or 5"),
    ("cronquestions", "Q1\tP1\tQ2\t1990\t1991", "Q1\tP1\tQ2\t19x0\t1991", "bad year"),
    ("cronquestions", "Q1\tP1\tQ2\t1990\t1991", "Q1\tP1", "expected 5 tab-separated fields"),
    ("cronquestions", "Q1\tP1\tQ2\t1990\t1991", "Q1\tP1\t\t1990\t1991", "empty tail name"),
]


def write_dataset(root: Path, fmt: str, lines: list[str]) -> tuple[Path, Path]:
    """The path to ingest and the facts file inside it."""
    if fmt == "tsv":
        root.mkdir(parents=True, exist_ok=True)
        path = root / "facts.tsv"
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        return path, path
    kg = root / "kg"
    kg.mkdir(parents=True, exist_ok=True)
    (kg / "full.txt").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return root, kg / "full.txt"


@pytest.mark.parametrize(("fmt", "good", "bad", "message"), BAD_CASES)
def test_malformed_line_stops_and_leaves_store_unchanged(tmp_path: Path, fmt: str, good: str, bad: str, message: str) -> None:
    db = tmp_path / "kg.duckdb"
    existing = tmp_path / "existing.tsv"
    existing.write_text("Old\tRel\tOther\t2001-02-03\n", encoding="utf-8")
    ingest("tsv", existing, db)
    before = dump(db)
    path, facts_file = write_dataset(tmp_path / "data", fmt, [good, bad, good.replace("A", "C").replace("Q1", "Q3")])
    with pytest.raises(IngestError) as error:
        ingest(fmt, path, db)
    assert f"{facts_file}:2:" in str(error.value) and message in str(error.value)
    assert dump(db) == before
    fresh = tmp_path / "fresh.duckdb"
    with pytest.raises(IngestError):
        ingest(fmt, path, fresh)
    assert not fresh.exists(), "a failed ingest must not leave a new store behind"
    skipped = ingest(fmt, path, db, skip_bad=True)
    assert (skipped.skipped_lines, skipped.facts_added) == (1, 2)
    assert message in skipped.skipped_examples[0]


def test_failure_while_writing_rolls_back(tmp_path: Path) -> None:
    """A failure after the writes began (new names already inserted, then the facts fail) changes nothing."""
    from tkg_store.ingest import read_dataset, write_kg

    db = tmp_path / "kg.duckdb"
    ingest("multitq", write_multitq(tmp_path / "a", multitq_lines()), db)
    before = dump(db)
    parsed = read_dataset("multitq", write_multitq(tmp_path / "b", ["New\tRel\tOther\t2010-01-01"]))
    parsed.granularities[0] = "fortnight"  # not a granularity: the fact phase fails after the names phase
    with pytest.raises(KeyError):
        write_kg(parsed, db)
    assert dump(db) == before


def test_not_utf8_and_missing_files(tmp_path: Path) -> None:
    path = tmp_path / "bad.tsv"
    path.write_bytes(b"A\tR\tB\t2005\nA\xff\tR\tB\t2006\n")
    with pytest.raises(IngestError, match=r"bad.tsv:2: not valid UTF-8"):
        ingest("tsv", path, tmp_path / "kg.duckdb")
    with pytest.raises(IngestError, match="full.txt not found"):
        ingest("multitq", tmp_path / "nowhere", tmp_path / "kg.duckdb")
    with pytest.raises(IngestError, match="expected full.txt or train/valid/test.txt"):
        (tmp_path / "cron" / "kg").mkdir(parents=True)
        ingest("cronquestions", tmp_path / "cron", tmp_path / "kg.duckdb")
    assert not (tmp_path / "kg.duckdb").exists()


def test_refuses_a_duckdb_file_that_is_not_a_store(tmp_path: Path) -> None:
    db = tmp_path / "other.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE unrelated (x INTEGER)")
        con.execute("INSERT INTO unrelated VALUES (1)")
    path, _ = write_dataset(tmp_path / "data", "tsv", ["A\tR\tB\t2005"])
    with pytest.raises(StoreError, match="not an ARI KG store"):
        ingest("tsv", path, db)
    assert dump(db) == {"unrelated": ["(1,)"]}


def test_open_ended_facts_keep_the_kg_range_open(tmp_path: Path) -> None:
    """A fact with a start and no end is still true: a later question is inside the KG, not outside it."""
    from agents.analysis.times import read_times
    from ari.cli.kg import kg_info
    from tkg_store.temporal import OPEN_END, OPEN_START, describe_range

    path = tmp_path / "kg.tsv"
    path.write_text("Angela_Merkel\tMake_a_visit\tChina\t2005-03-01\t2005-03-02\n"
                    "Angela_Merkel\tHold_office\tGermany\t2005-11-22\t\n", encoding="utf-8")
    db = tmp_path / "kg.duckdb"
    summary = ingest("tsv", path, db)
    assert summary.time_range is not None and summary.time_range.end == OPEN_END
    with TKGStore.open(db) as store:
        span = store.time_range()
        assert (span.start, span.end) == (date(2005, 3, 1), OPEN_END)
        assert [m.time.overlaps(span.start, span.end) for m in read_times("Who held office in Germany in 2015?").found] == [True]
        assert [m.time.overlaps(span.start, span.end) for m in read_times("Who visited China in 2001?").found] == [False]
        assert describe_range(span) == "from 2005-03-01 on (open-ended facts)"
        info = kg_info(store)
        assert info["time_range"] == {"start": "2005-03-01", "end": None}
        assert (info["meta"]["time_start"], info["meta"]["time_end"]) == ("2005-03-01", "open")
    closed = tmp_path / "closed.tsv"
    closed.write_text("A\tR\tB\t\t1999-05-02\nA\tR\tC\t2001\n", encoding="utf-8")
    with TKGStore.open(ingest("tsv", closed, tmp_path / "c.duckdb") and tmp_path / "c.duckdb") as store:
        span = store.time_range()
        assert (span.start, span.end) == (OPEN_START, date(2001, 12, 31))
        assert describe_range(span) == "up to 2001-12-31 (facts with no start)"


@pytest.mark.parametrize("block", [3, 17, 1 << 24])
def test_lines_are_read_a_block_at_a_time_exactly_and_names_held_once(tmp_path: Path, monkeypatch, block: int) -> None:
    """A byte-order mark, CRLF endings, blank lines, a line separator inside a name and a last line
    with no ending come through as a whole-file read gave them, whatever the block size (a block
    ends only after a whole line, longer lines are gathered); a bad byte is reported at its line;
    each distinct name is one string however many facts name it."""
    from tkg_store.ingest import lines
    from tkg_store.ingest.tsv import read

    monkeypatch.setattr(lines, "BLOCK", block)
    path = tmp_path / "kg.tsv"
    path.write_bytes("\ufeffIran\tConsult\tChina\t2005\r\n\nChina\tConsult\tIran\u2028Army\t2006\nIran\tConsult\tChina\t2007".encode())
    assert list(lines.read_lines(path)) == [
        (1, "Iran\tConsult\tChina\t2005"), (3, "China\tConsult\tIran\u2028Army\t2006"), (4, "Iran\tConsult\tChina\t2007")]
    bad = tmp_path / "bad.tsv"
    bad.write_bytes(b"A\tR\tB\t2005\n\nA\tR\tB\t2006\nA\xff\tR\tB\t2007\n")
    with pytest.raises(IngestError, match=r"bad.tsv:4: not valid UTF-8"):
        list(lines.read_lines(bad))
    parsed = read(path)
    assert parsed.heads == ["Iran", "China", "Iran"] and parsed.tails == ["China", "Iran\u2028Army", "China"]
    assert parsed.heads[0] is parsed.heads[2]  # two lines' 'Iran': one string
    assert parsed.tails[0] is parsed.heads[1] and parsed.relations[0] is parsed.relations[2]


def test_a_runs_gold_qids_are_shown_as_the_store_displays_them(tmp_path: Path) -> None:
    from benchmarks.loaders.types import Question
    from benchmarks.plan import _gold_display

    root = write_cron(tmp_path / "cron", "Q42\tP54\tQ5\t1990\t1995\n")
    db = tmp_path / "kg.duckdb"
    ingest("cronquestions", root, db)
    asked = [Question(qid="1", text="Which team did Douglas Adams play for first", answers=["Q5"], answer_type="entity"),
             Question(qid="2", text="When did Douglas Adams join FC Barcelona", answers=["1990"], answer_type="time")]
    shown = _gold_display(db, asked)
    assert shown("Q5") == "FC Barcelona, S.A.D. (club)"
    assert shown("1990") == "1990"  # a time is no entity: left as it is
