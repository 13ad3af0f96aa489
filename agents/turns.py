"""Questions that advance independently while the agent's code runs one question at a time.

With an LLM behind an endpoint, the agent runs each question through the graph on its own thread, so
a question never waits for the slowest question of a lockstep step. Only the question holding the
*turn* runs the agent's code; a question waiting on its LLM reply gives the turn away (`waiting()`
around the request) and takes it back when the reply is in. So one question's CPU work overlaps the
others' waits, as in an event loop, and the agent's parts (the store's memos, the memory's caches,
the analyzer) are never used by two questions at once and need no locks of their own. Python runs
one thread's bytecode at a time anyway, so serialising the agent's code costs no parallelism worth
having.

`in_flight` is the pool that keeps them coming: a question starts as soon as one finishes (never in
waves: a batch's last questions would run with fewer in flight), and results come out in the order
the questions went in.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")
_END = object()  # what `next` gives once the items run out

# the turn the current question holds (a context variable: it follows the question into any thread
# that runs its graph nodes)
_held: ContextVar[threading.Lock | None] = ContextVar("ari_turn", default=None)


class Turns:
    """The turn shared by the questions of one pool."""

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


def in_flight(items: Iterable[T], solve: Callable[[T], R], workers: int, turns: Turns, ahead: int | None = None) -> Iterator[R]:
    """`solve(item)` for every item, `workers` at a time on their own threads, each holding `turns`'
    turn while it runs; the results in the items' order.

    A new item starts whenever one finishes, as long as it is at most `ahead` items (default four
    times `workers`) past the oldest item whose result is not yet out, so one slow item never stops
    the pool and the results held back behind it stay bounded. Items are drawn from `items` only as
    they start, under the turn (drawing may run the agent's code: a prefetch). An exception from
    `solve` comes out in the item's place; the items not started by then never start."""
    ahead = max(workers, ahead if ahead is not None else 4 * workers)
    source = iter(items)
    started: deque[Future[R]] = deque()
    done = threading.Semaphore(0)  # one release per finished item: the feeder wakes as soon as one ends

    def alone(item: T) -> R:
        try:
            with turns.turn():
                return solve(item)
        finally:
            done.release()

    pool = ThreadPoolExecutor(workers, thread_name_prefix="ari-question")
    running = 0
    exhausted = False
    try:
        while True:
            while not exhausted and running < workers and len(started) < ahead:
                with turns.turn():
                    item = next(source, _END)
                if item is _END:
                    exhausted = True
                    break
                started.append(pool.submit(alone, item))  # type: ignore[arg-type]
                running += 1
            while started and started[0].done():
                yield started.popleft().result()
            if not started and exhausted:
                return
            done.acquire()  # until the next item finishes
            running -= 1
    finally:
        pool.shutdown(cancel_futures=True)  # after an exception (or the consumer stopping), nothing new starts
