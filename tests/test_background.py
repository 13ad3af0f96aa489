"""`Background`: work on a daemon thread, its value or its error taken in the caller's thread."""

from __future__ import annotations

import threading

import pytest

from ari.base.background import Background


def test_the_work_runs_on_its_own_daemon_thread_and_its_value_is_taken_later() -> None:
    ran_on: list[threading.Thread] = []

    def answer() -> int:
        ran_on.append(threading.current_thread())
        return 42

    work = Background(answer, "ari-test")
    assert work.result() == 42 and work.value() == 42
    assert ran_on[0] is not threading.current_thread() and ran_on[0].daemon and ran_on[0].name == "ari-test"


def test_what_the_work_raised_is_raised_by_result_and_value_is_none() -> None:
    def fail() -> int:
        raise ValueError("store is corrupt")

    work = Background(fail, "ari-test")
    with pytest.raises(ValueError, match="store is corrupt"):
        work.result()
    assert work.value() is None
