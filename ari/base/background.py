"""Work started on a daemon thread now and taken later, its error raised in the taker's thread.

Used where Python work and GIL-free work (DuckDB, numpy, ONNX Runtime) can share two cores: opening
a store while the agent is imported (`ari.api.StoreOpening`), building the linker's name tables while
the names are embedded (`agents.tables`). A daemon thread: Ctrl-C or TERM never waits for it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Background(Generic[T]):
    """`work()` on a daemon thread named `name`, from now on."""

    def __init__(self, work: Callable[[], T], name: str) -> None:
        self._value: T | None = None
        self._failure: BaseException | None = None

        def run() -> None:
            try:
                self._value = work()
            except BaseException as failure:  # noqa: BLE001 - raised in the taker's thread by result()
                self._failure = failure

        self._thread = threading.Thread(target=run, name=name, daemon=True)
        self._thread.start()

    def result(self) -> T:
        """What `work()` returned, once it has; what it raised is raised here."""
        self._thread.join()
        if self._failure is not None:
            raise self._failure
        return self._value  # type: ignore[return-value]  # set when work() returned

    def value(self) -> T | None:
        """What `work()` returned, once it has; None where it raised."""
        self._thread.join()
        return self._value
