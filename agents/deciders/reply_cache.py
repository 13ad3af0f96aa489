"""An on-disk cache of LLM replies (SQLite), so that reruns and resumed runs cost nothing and give
the same replies.

A reply is keyed by the model, the exact messages and every setting that changes a reply
(`LLMConfig.sampling()`); only successful replies are stored, so a failure is retried next time.
Several worker processes may share one file (WAL journal, a busy timeout); threads share one
connection behind a lock.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path

from ari.base.config import ari_home
from ari.base.errors import UsageError

_SCHEMA = """CREATE TABLE IF NOT EXISTS replies (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    text TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL
)"""


def default_cache_path() -> Path:
    return ari_home() / "llm-cache.sqlite"


def cache_key(model: str, messages: list[dict], sampling: dict) -> str:
    payload = json.dumps([model, messages, sampling], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class ReplyCache:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise UsageError(f"cannot open the LLM reply cache {self.path}: {exc}") from None
        self._lock = threading.Lock()

    @classmethod
    def open(cls, setting: str | None) -> "ReplyCache | None":
        """The cache a `LLMConfig.cache` setting names: "default", a path, or None for no cache."""
        if setting is None:
            return None
        return cls(default_cache_path() if setting == "default" else setting)

    def get(self, key: str) -> tuple[str, int, int] | None:
        """(text, prompt tokens, completion tokens) of a stored reply, or None."""
        with self._lock:
            row = self._conn.execute(
                "SELECT text, prompt_tokens, completion_tokens FROM replies WHERE key = ?", (key,)
            ).fetchone()
        return (row[0], int(row[1]), int(row[2])) if row else None

    def put(self, key: str, model: str, text: str, prompt_tokens: int, completion_tokens: int) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO replies (key, model, text, prompt_tokens, completion_tokens) VALUES (?, ?, ?, ?, ?)",
                (key, model, text, prompt_tokens, completion_tokens),
            )

    def close(self) -> None:
        with self._lock:
            self._conn.close()
