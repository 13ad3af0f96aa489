"""How ARI's processes end: TERM handled as Ctrl-C is, and worker processes that die with their parent.

`sigterm_as_interrupt` is what every `ari` command runs under (`ari.cli.run`): SIGTERM raises
`Terminated`, a KeyboardInterrupt, so whatever keeps its work on Ctrl-C (a bench run's answered
questions and summary, a learning run's recorded questions, an ingest's untouched store) does so on
TERM too; the CLI then says `terminated` and exits 143 (128 + SIGTERM).

`interruptions_reported_once` keeps a library's own log of that interrupt off stderr: the CLI's one
line is the report.

`die_with_parent` is the first thing a worker process does (the bench runner's and the learner's
pools): a worker that outlived a killed parent would keep the store open, and its lock with it.
`worker_context` is where those workers come from.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from multiprocessing import forkserver
from multiprocessing.context import BaseContext
from types import FrameType

TERMINATED_EXIT_CODE = 128 + signal.SIGTERM


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: raised in the main thread, where Ctrl-C's KeyboardInterrupt would be."""


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM raises `Terminated` in the main thread (off it, nothing changes:
    Python runs signal handlers in the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: FrameType | None) -> None:
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class _NotAnInterruption(logging.Filter):
    """Passes every record but one logged with a KeyboardInterrupt (Ctrl-C or `Terminated`) that its
    logger caught and raised again."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info is not None and isinstance(record.exc_info[1], KeyboardInterrupt))


@contextmanager
def interruptions_reported_once() -> Iterator[None]:
    """While the block runs, Python's last-resort log handler (stderr, where no logging is set up)
    drops records of an interrupt. SQLAlchemy's pool logs "Exception during reset or similar" with
    the whole traceback when Ctrl-C or TERM lands while it hands a connection back, then raises the
    interrupt on: the CLI reports it in one line, and the work is kept as on any interrupt."""
    handler = logging.lastResort
    if handler is None:
        yield
        return
    dropping = _NotAnInterruption()
    handler.addFilter(dropping)
    try:
        yield
    finally:
        handler.removeFilter(dropping)


def die_with_parent() -> None:
    """In a multiprocessing worker: end this process as soon as its parent ends, however it ends
    (kill -9 included). Linux has the kernel send SIGKILL (PR_SET_PDEATHSIG); everywhere, a thread
    waits on the parent's sentinel (a pipe that closes when the parent dies) and exits. A parent
    already gone (before the watch began) ends the worker at once."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    if sys.platform.startswith("linux"):
        _kill_on_parent_death()
    threading.Thread(target=_exit_after, args=(parent,), name="die-with-parent", daemon=True).start()


def _kill_on_parent_death() -> None:
    import ctypes

    pr_set_pdeathsig = 1
    try:
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # the watching thread still ends the worker


def _exit_after(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # returns when the parent's end of the pipe closes: the parent has ended
    os._exit(1)


_THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def worker_context(preload: Sequence[str], threads: int) -> BaseContext:
    """Where worker processes come from. A fork server where the platform has one: it imports
    `preload` once and each worker is forked from it with those modules loaded, where spawn
    imports them again in every worker (the agent's take a second and a half of CPU). Never a fork
    of the caller: DuckDB or torch threads may run there. The server starts here, with numeric
    libraries limited to `threads` each, which its workers inherit; a server already running (an
    earlier pool of this process) is reused as it is. Spawn elsewhere. The workers are the server's
    children: their CPU time is not in this process's RUSAGE_CHILDREN (nor in `time`'s figure)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(preload))
    added = {name: value for name, value in _thread_limits(threads).items() if name not in os.environ}
    os.environ.update(added)
    try:
        forkserver.ensure_running()
    finally:
        for name in added:
            os.environ.pop(name, None)
    return context


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, which a container or `taskset` may
    narrow below the machine's count): how many workers or threads share the work."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def threads_per_worker(workers: int) -> int:
    """Each of `workers` processes' share of the cores, for its numeric libraries (at least one)."""
    return max(1, usable_cores() // workers)


def limit_threads(threads: int) -> None:
    """In a spawned worker, before numeric libraries load: their share of the cores only."""
    for name, value in _thread_limits(threads).items():
        os.environ.setdefault(name, value)


def blas_on_one_thread() -> None:
    """Before numpy is first imported: its OpenBLAS starts with one thread, unless the environment
    names a count. OpenBLAS starts its pool at import, a thread per core, and each thread spins
    about 0.1 s before it sleeps: 1.8 s of CPU on 16 cores for a pool a single question never uses
    (the numpy embedder limits BLAS to one thread as soon as it loads, `ari.base.minilm`), paid by
    every cold `ari ask` (benchmarks/results/gpu_check_1129). Too late once numpy is loaded."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _thread_limits(threads: int) -> dict[str, str]:
    return {**{name: str(threads) for name in _THREAD_VARIABLES}, "TOKENIZERS_PARALLELISM": "false"}
