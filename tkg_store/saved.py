"""Data derived from a store's contents, saved beside it so that the next process reads it back.

A cold `ari ask` pays for every per-store table the layers above build from the KG (the linker's
name tables, for one, cost more to build than the question takes to answer). `saved(store, what,
build, sources)` keeps such a table in memory (`TKGStore.derived`) and in a file beside the DuckDB
file (or under ARI_HOME when that folder is read-only), named by a stamp of the store's contents and
of the source files of the code that builds it: after an ingest, or an edit of that code, the file
no longer matches and the table is built again.

The store's stamp is its files' size and modification time (DuckDB rewrites the file, or its
write-ahead log, on every change) with its row counts; a store held only in memory gets no file.

The file is a pickle of plain containers only (dict, list, tuple, set, frozenset, str, int, float,
bool, None): the reader refuses every other constructor, so a stray or hostile file cannot make it
run code, and a damaged one is rebuilt, never trusted.
"""

from __future__ import annotations

import gc
import hashlib
import io
import os
import pickle
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TypeVar, cast

from ari.base.config import ari_home
from tkg_store.store import TKGStore

T = TypeVar("T")
FORMAT = 1  # bump when the file layout itself changes


def saved(store: TKGStore, what: str, build: Callable[[], T], sources: Sequence[ModuleType | Path] = ()) -> T:
    """`build()`'s result for this store: from memory, else from its file, else built and saved.

    `what` names the table (a file-name-safe word); `sources` are the modules whose code (and the
    data files whose words) decide its contents, so editing them invalidates the file. The result must be plain containers."""
    return store.derived(("saved", what), lambda: _read_or_build(store, what, build, sources))


def store_stamp(store: TKGStore) -> str | None:
    """What identifies the store's current contents; None for a store with no file."""
    path = Path(str(store.path))
    if not path.is_file():
        return None
    parts = [str(path.resolve())]
    for file in (path, path.with_name(path.name + ".wal")):
        try:
            info = file.stat()
            parts.append(f"{info.st_size}:{info.st_mtime_ns}")
        except FileNotFoundError:
            parts.append("-")
    parts.append(str(sorted(store.counts().items())))
    return "|".join(parts)


def cache_file(store: TKGStore, name: str) -> Path:
    """`<db>.<name>` beside the store, or under ARI_HOME when the store's folder cannot be written."""
    db = Path(str(store.path)).resolve()
    if os.access(db.parent, os.W_OK):
        return db.with_name(f"{db.name}.{name}")
    digest = hashlib.sha1(str(db).encode()).hexdigest()[:12]
    return ari_home() / "vectors" / f"{db.stem}-{digest}-{name}"


def _read_or_build(store: TKGStore, what: str, build: Callable[[], T], sources: Sequence[ModuleType | Path]) -> T:
    stamp = store_stamp(store)
    if stamp is None:
        return build()
    key = hashlib.sha1(f"{FORMAT}|{what}|{stamp}|{_code_digest(sources)}".encode()).hexdigest()
    path = cache_file(store, f"{what}-{key[:12]}.pkl")
    found = _read(path, key)
    if found is not None:
        return cast(T, found)  # what `build` made when the file was written (the key says so)
    value = build()
    _write(path, key, value)
    _remove_stale(cache_file(store, f"{what}-*.pkl"), path)
    return value


def _remove_stale(pattern: Path, kept: Path) -> None:
    """Files of the same table for earlier contents or code: never read again, so not kept."""
    for old in pattern.parent.glob(pattern.name):
        if old != kept:
            try:
                old.unlink()
            except OSError:
                pass  # gone already (another process), or not ours to remove


def _code_digest(sources: Sequence[ModuleType | Path]) -> str:
    digest = hashlib.sha1()
    for source in sources:
        digest.update((source if isinstance(source, Path) else Path(str(source.__file__))).read_bytes())
    return digest.hexdigest()


class _PlainUnpickler(pickle.Unpickler):
    """Refuses every global: plain containers and scalars need none (pickle protocol >= 4)."""

    def find_class(self, module: str, name: str) -> object:
        raise pickle.UnpicklingError(f"refused {module}.{name}: a saved table holds plain containers only")


def _read(path: Path, key: str) -> object | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    was_enabled = gc.isenabled()
    gc.disable()  # the collector would only re-scan the new containers, which hold no cycles: half the time
    try:
        stored_key, value = _PlainUnpickler(io.BytesIO(data)).load()
    except Exception:  # noqa: BLE001 - damaged, foreign or truncated: rebuilt, never trusted
        return None
    finally:
        if was_enabled:
            # Paused, the collector still counts the new containers, and its first pass after
            # resuming scans them all (1 s after the 0.9 M containers of a 10M-fact KG's linker
            # tables): frozen, they are left out of every later pass. They live as long as the
            # process's store does, and hold no cycles to collect.
            gc.freeze()
            gc.enable()
    return value if stored_key == key else None


def _write(path: Path, key: str, value: object) -> None:
    try:
        data = pickle.dumps((key, value), protocol=5)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # two first runs at once must not share a file
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError):
        pass  # saving is an optimisation: a read-only disk means building again next time
