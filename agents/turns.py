"""Questions that advance independently while the agent's code runs one question at a time.

With an LLM behind an endpoint, `Agent.ask_many` runs each question through the graph on its own
thread, so a question never waits for the slowest question of a lockstep step. Only the question
holding the *turn* runs the agent's code; a question waiting on its LLM reply gives the turn away
(`waiting()` around the request) and takes it back when the reply is in. So one question's CPU work
overlaps the others' waits, as in an event loop, and the agent's parts (the store's memos, the
memory's caches, the analyzer) are never used by two questions at once and need no locks of their
own. Python runs one thread's bytecode at a time anyway, so serialising the agent's code costs no
parallelism worth having.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# the turn the current question holds (a context variable: it follows the question into any thread
# that runs its graph nodes)
_held: ContextVar[threading.Lock | None] = ContextVar("ari_turn", default=None)


class Turns:
    """The turn of the questions of one `ask_many` call."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Run the body holding the turn (between its waits)."""
        with self._lock:
            token = _held.set(self._lock)
            try:
                yield
            finally:
                _held.reset(token)


@contextmanager
def waiting() -> Iterator[None]:
    """Around a blocking wait on something outside the agent (an LLM request): the turn, when this
    question holds one, goes to another question meanwhile. Without a turn it does nothing."""
    lock = _held.get()
    if lock is None:
        yield
        return
    lock.release()
    try:
        yield
    finally:
        lock.acquire()
