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
from itertools import islice
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

# the turn the current question holds (a context variable: it follows the question into any thread
# that runs its graph nodes)
_held: ContextVar[Turns | None] = ContextVar("ari_turn", default=None)


class Turns:
    """The turn shared by the questions of one pool, handed over first come, first served: a reply
    that came in early is worked on early, and no question starves behind others that keep coming
    back (a plain lock lets the last to ask win as often as not)."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._busy = False
        self._waiters: deque[threading.Lock] = deque()

    @property
    def queued(self) -> int:
        """Questions waiting for the turn."""
        with self._mutex:
            return len(self._waiters)

    def acquire(self) -> None:
        with self._mutex:
            if not self._busy:
                self._busy = True
                return
            waiter = threading.Lock()
            waiter.acquire()
            self._waiters.append(waiter)
        waiter.acquire()  # until `release` hands the turn over

    def release(self) -> None:
        with self._mutex:
            if self._waiters:
                self._waiters.popleft().release()  # the turn passes on, still taken
            else:
                self._busy = False

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Run the body holding the turn (between its waits)."""
        self.acquire()
        token = _held.set(self)
        try:
            yield
        finally:
            _held.reset(token)
            self.release()


@contextmanager
def waiting() -> Iterator[None]:
    """Around a blocking wait on something outside the agent (an LLM request): the turn, when this
    question holds one, goes to another question meanwhile. Without a turn it does nothing."""
    turns = _held.get()
    if turns is None:
        yield
        return
    turns.release()
    try:
        yield
    finally:
        turns.acquire()


def in_flight(items: Iterable[T], solve: Callable[[T], R], workers: int, turns: Turns, ahead: int | None = None) -> Iterator[R]:
    """`solve(item)` for every item, `workers` at a time on their own threads, each holding `turns`'
    turn while it runs; the results in the items' order.

    A new item starts whenever one finishes, as long as it is at most `ahead` items (default four
    times `workers`) past the oldest item whose result is not yet out, so one slow item never stops
    the pool and the results held back behind it stay bounded. Items are drawn from `items` as they
    are needed, `workers` at a time and under the turn (drawing may run the agent's code: a prefetch
    for the lot). An exception from `solve` comes out in the item's place; the items not started by
    then never start."""
    ahead = max(workers, ahead if ahead is not None else 4 * workers)
    source = iter(items)
    drawn: deque[T] = deque()  # drawn, not yet started
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
            while running < workers and len(started) < ahead:
                if not drawn and not exhausted:  # a pool's worth at a time: one wait for the turn, one prefetch
                    with turns.turn():
                        drawn.extend(islice(source, workers))
                    exhausted = len(drawn) < workers
                if not drawn:
                    break
                started.append(pool.submit(alone, drawn.popleft()))
                running += 1
            while started and started[0].done():
                yield started.popleft().result()
            if not started and not drawn and exhausted:
                return
            done.acquire()  # until the next item finishes
            running -= 1
    finally:
        pool.shutdown(cancel_futures=True)  # after an exception (or the consumer stopping), nothing new starts
