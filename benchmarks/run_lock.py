"""One writer per run directory: an exclusive lock on `<out>/.lock` for as long as a run writes there.

The lock is the kernel's (flock), so it is released the moment its process ends, however it ends: a
lock file left by a killed run is stale by construction and the next run simply takes it. The file
holds the holder's pid and start time, only to name it in the refusal.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from ari.base.errors import UsageError

LOCK = ".lock"


@contextmanager
def run_lock(out_dir: Path) -> Iterator[None]:
    """Hold `out_dir`'s lock while the block runs; refuse at once when another process holds it."""
    path = Path(out_dir) / LOCK
    handle = path.open("a+", encoding="utf-8")
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(f"another run is writing to {out_dir} ({_holder(path)}); wait for it or use another --out") from None
        handle.seek(0)
        handle.truncate()
        started = datetime.now(UTC).isoformat(timespec="seconds")
        handle.write(json.dumps({"pid": os.getpid(), "started": started}) + "\n")
        handle.flush()
        yield
    finally:
        handle.close()  # closing releases the lock; the file stays, harmless to the next run


def _holder(path: Path) -> str:
    try:
        holder = json.loads(path.read_text(encoding="utf-8"))
        return f"pid {holder['pid']}, started {holder['started']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "holder unknown"
