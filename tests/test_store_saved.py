"""Tables derived from a store are saved beside it and read back by the next process; a change of
the store's contents, or a damaged or hostile file, makes them built again, never served stale."""

from __future__ import annotations

import pickle
import shutil
from datetime import date
from pathlib import Path

import ari.base.text
from agents.analysis.entities import EntityLinker, linker_tables
from tkg_store.saved import cache_file, saved
from tkg_store.schema import rebuild_layout
from tkg_store.store import TKGStore, normalize_name
from tkg_store.temporal import Granularity


def _copy(demo_store_file: Path, tmp_path: Path) -> Path:
    path = tmp_path / "kg.duckdb"
    shutil.copyfile(demo_store_file, path)
    return path


def _saved_files(path: Path, what: str) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.{what}-*.pkl"))


def test_a_table_is_built_once_and_read_back_by_a_new_store(demo_store_file: Path, tmp_path: Path) -> None:
    path = _copy(demo_store_file, tmp_path)
    builds: list[int] = []

    def build() -> dict:
        builds.append(1)
        return {"names": sorted(store.entity_names()), "sizes": (1, 2.5, None), "keys": frozenset({"a"})}

    with TKGStore.open(path, read_only=True) as store:
        first = saved(store, "names", build, [ari.base.text])
        assert saved(store, "names", build, [ari.base.text]) is first  # kept in memory too
    assert len(_saved_files(path, "names")) == 1
    with TKGStore.open(path, read_only=True) as store:
        assert saved(store, "names", build, [ari.base.text]) == first
    assert len(builds) == 1


def test_new_facts_make_the_table_built_again(demo_store_file: Path, tmp_path: Path) -> None:
    path = _copy(demo_store_file, tmp_path)
    with TKGStore.open(path, read_only=True) as store:
        before = linker_tables(store)
    with TKGStore.open(path, read_only=False) as store:
        con = store.connection
        eid = con.execute("SELECT max(id) + 1 FROM entities").fetchone()[0]
        con.execute("INSERT INTO entities VALUES (?, ?, ?, ?)", [eid, "Zorblax_Quux", "Zorblax Quux", normalize_name("Zorblax Quux")])
        relation, tail = con.execute("SELECT relation, tail FROM facts LIMIT 1").fetchone()
        con.execute("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?)", [eid, relation, tail, date(2010, 1, 1), date(2010, 1, 1), Granularity.DAY.value])
        rebuild_layout(con)
        store.reload()
        after = linker_tables(store)  # the same process, after reload(): the new name is there
        assert "zorblax quux" in after["tables"]["by_key"] and "zorblax quux" not in before["tables"]["by_key"]
    with TKGStore.open(path, read_only=True) as store:  # a new process: the file of the old contents is not used
        assert "zorblax quux" in linker_tables(store)["tables"]["by_key"]
        mentions = EntityLinker(store).link("Whom did Zorblax Quux visit?")
        assert any(m.candidates and m.candidates[0][0] == "Zorblax_Quux" for m in mentions)
    assert len(_saved_files(path, "linker-tables")) == 1  # the file of the old contents is removed


def test_a_damaged_or_hostile_file_is_rebuilt_not_trusted(demo_store_file: Path, tmp_path: Path) -> None:
    path = _copy(demo_store_file, tmp_path)
    with TKGStore.open(path, read_only=True) as store:
        good = linker_tables(store)
    [file] = _saved_files(path, "linker-tables")
    key, _ = pickle.loads(file.read_bytes())

    class Boom:
        def __reduce__(self):  # noqa: ANN204 - what a hostile file would hold: a call on load
            return (Path.touch, (tmp_path / "pwned",))

    for content in (b"not a pickle", pickle.dumps((key, Boom())), pickle.dumps(("another key", good))):
        file.write_bytes(content)
        with TKGStore.open(path, read_only=True) as store:
            assert linker_tables(store) == good
        assert not (tmp_path / "pwned").exists()


def test_a_folder_that_cannot_be_written_saves_under_ari_home(demo_store_file: Path, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    path = _copy(demo_store_file, tmp_path)
    monkeypatch.setenv("ARI_HOME", str(tmp_path / "home"))
    monkeypatch.setattr("tkg_store.saved.os.access", lambda *_args: False)  # as a read-only folder answers
    with TKGStore.open(path, read_only=True) as store:
        assert cache_file(store, "x.pkl").parent == tmp_path / "home" / "vectors"
        linker_tables(store)
    assert not _saved_files(path, "linker-tables")
    assert list((tmp_path / "home").rglob("*linker-tables-*.pkl"))


def test_an_edited_data_file_makes_the_table_built_again(demo_store_file: Path, tmp_path: Path) -> None:
    path = _copy(demo_store_file, tmp_path)
    words = tmp_path / "words.json"
    words.write_text('["a"]')
    with TKGStore.open(path, read_only=True) as store:
        assert saved(store, "words", lambda: words.read_text(), [words]) == '["a"]'
    words.write_text('["a", "b"]')
    with TKGStore.open(path, read_only=True) as store:  # a new process: the file of the old words is not used
        assert saved(store, "words", lambda: words.read_text(), [words]) == '["a", "b"]'
