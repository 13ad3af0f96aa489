"""How a memory's database is opened: SQLite set up for several writers (or for reading only), a
server URL with timeouts, and database errors turned into one-line memory errors."""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from ari.base.errors import MemoryCorruptError, MemoryReadOnlyError, MemoryStoreError

_SQLITE_MAGIC = b"SQLite format 3\x00"
_BUSY_TIMEOUT_S = 60


def engine_for(target: str, create: bool, read_only: bool | None) -> tuple[Engine, str, bool]:
    """(engine, where, read_only) for a path or URL: SQLite set up for concurrent writers (or for
    reading only), a server with connect and statement timeouts."""
    if "://" in target:
        try:
            url = sa.engine.make_url(target)
        except sa.exc.ArgumentError:
            raise MemoryStoreError(f"not a database URL or path: {target}") from None
    else:
        url = sa.engine.URL.create("sqlite", database=str(Path(target).expanduser().resolve()))
    if url.get_backend_name() != "sqlite":
        where = url.render_as_string(hide_password=True)
        try:
            engine = sa.create_engine(url, pool_pre_ping=True, connect_args=_server_timeouts(url))
        except (ImportError, sa.exc.ArgumentError) as exc:
            raise MemoryStoreError(f"cannot open memory {where}: {exc}") from None
        return engine, where, bool(read_only)

    database = url.database or ""
    if database in ("", ":memory:"):
        raise MemoryStoreError("an in-memory SQLite database cannot hold a memory; give a file path")
    path = Path(database)
    _check_sqlite_file(path, create and not read_only)
    if read_only is None:
        read_only = path.exists() and not _writable(path)
    if read_only:
        return _read_only_sqlite(path), str(path), True
    engine = sa.create_engine(url, connect_args={"timeout": _BUSY_TIMEOUT_S})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record) -> None:  # noqa: ANN001
        dbapi_conn.isolation_level = None  # transactions are begun explicitly below
        cursor = dbapi_conn.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_S * 1000}")
        _switch_to_wal(cursor)
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if conn.get_execution_options().get("ari_write"):
            _begin_writing(conn, str(path))
        else:
            conn.exec_driver_sql("BEGIN")

    return engine, str(path), False


_LOCK_NOTICE_MS = 1000  # a writer that waits longer than this for the lock says so
_told_waiting: set[str] = set()  # the files it was said of, once per process


def _begin_writing(conn: Connection, where: str) -> None:
    """BEGIN IMMEDIATE: a writer takes the lock up front (a deferred transaction that upgrades to a
    write can fail with SQLITE_BUSY at once instead of waiting for the busy timeout). When another
    process holds the lock past a second, say so once on stderr, naming the file, and wait on."""
    raw = conn.connection.driver_connection
    assert raw is not None, "a connection being begun is open"
    raw.execute(f"PRAGMA busy_timeout = {_LOCK_NOTICE_MS}")
    try:
        raw.execute("BEGIN IMMEDIATE")
        return
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) and where not in _told_waiting:
            _told_waiting.add(where)
            print(f"waiting for the memory lock on {where}: another process is writing to it "
                  f"(giving up after {_BUSY_TIMEOUT_S} s)", file=sys.stderr, flush=True)
    finally:
        raw.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_S * 1000}")
    conn.exec_driver_sql("BEGIN IMMEDIATE")  # the full wait; its failure is a database error as any other


def _writable(path: Path) -> bool:
    """Whether this process may write the file and create its side files (-wal, -shm) beside it."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)


def _read_only_sqlite(path: Path) -> Engine:
    """An engine that only reads: SQLite's read-only mode, no WAL switch, no lock taken for writing.

    When the folder is not writable either, SQLite could not create the shared-memory file a WAL
    database needs, so the file is opened as immutable (nobody may be writing it then anyway).
    """
    from urllib.parse import quote

    flags = "mode=ro" + ("" if os.access(path.parent, os.W_OK | os.X_OK) else "&immutable=1")
    uri = f"file:{quote(str(path))}?{flags}"
    engine = sa.create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, timeout=_BUSY_TIMEOUT_S, check_same_thread=False))

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record) -> None:  # noqa: ANN001
        dbapi_conn.isolation_level = None

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN")

    return engine


# A server that accepts a connection and never answers must not hang a command: libpq gives up
# connecting after this long, and the server cancels any one statement running longer.
PG_CONNECT_TIMEOUT_S = 10
PG_STATEMENT_TIMEOUT_S = 300


def _server_timeouts(url: sa.engine.URL) -> dict:
    if url.get_backend_name() != "postgresql":
        return {}
    options = url.query.get("options", "")
    options = options if isinstance(options, str) else " ".join(options)
    if "statement_timeout" not in options:
        options = f"{options} -c statement_timeout={PG_STATEMENT_TIMEOUT_S * 1000}".strip()
    given = url.query.get("connect_timeout")  # the URL's own wins
    timeout = PG_CONNECT_TIMEOUT_S if not given else int(given if isinstance(given, str) else given[0])
    return {"connect_timeout": timeout, "options": options}


def _switch_to_wal(cursor) -> None:  # noqa: ANN001
    """PRAGMA journal_mode = WAL, retried: while another process switches a new file, SQLite
    answers "database is locked" at once, without waiting for the busy timeout."""
    deadline = time.monotonic() + _BUSY_TIMEOUT_S
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _check_sqlite_file(path: Path, create: bool) -> None:
    """Refuse, without touching it, anything at `path` that is not a SQLite database."""
    if path.is_dir():
        raise MemoryStoreError(f"{path} is a directory, not a memory file")
    if path.exists():
        with path.open("rb") as handle:
            head = handle.read(len(_SQLITE_MAGIC))
        if head and head != _SQLITE_MAGIC:
            raise MemoryStoreError(f"{path} is not an ARI memory (not a SQLite database)")
    elif not create:
        raise MemoryStoreError(f"no memory at {path}")
    else:
        path.parent.mkdir(parents=True, exist_ok=True)


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    with engine.connect() as conn:
        conn.execution_options(ari_write=True)
        with conn.begin():
            yield conn


_DAMAGE = ("malformed", "not a database", "could not decode", "corrupt")


def fault(exc: Exception, where: str, doing: str) -> MemoryStoreError:
    """A database error as one line: damage names the file and `ari memory check`, a refused write
    says the memory is read-only."""
    line = first_line(exc)
    lowered = line.lower()
    if any(word in lowered for word in _DAMAGE):
        return MemoryCorruptError(
            f"memory {where} is damaged ({line}); run `ari memory check --memory {where}` (--repair copies out what is readable)"
        )
    if "readonly" in lowered or "read-only" in lowered:
        return MemoryReadOnlyError(f"memory {where} is read-only ({line}): nothing can be recorded in it")
    return MemoryStoreError(f"cannot {doing} memory {where}: {line}")


def first_line(exc: Exception) -> str:
    orig = getattr(exc, "orig", None) or exc
    return str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
