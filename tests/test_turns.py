"""The turn of questions in flight (agents.turns): first come, first served, and the pool's order."""

from __future__ import annotations

import threading

from agents.turns import Turns, in_flight, waiting


def test_the_turn_goes_to_the_questions_in_the_order_they_asked():
    turns, order = Turns(), []

    def ask(name: str) -> None:
        turns.acquire()
        order.append(name)
        turns.release()

    turns.acquire()
    threads: list[threading.Thread] = []
    for name in "abc":
        thread = threading.Thread(target=ask, args=(name,))
        thread.start()
        threads.append(thread)
        while turns.queued < len(threads):  # each asks only once the one before it waits
            threading.Event().wait(0.001)
    turns.release()
    for thread in threads:
        thread.join(timeout=20)
    assert order == ["a", "b", "c"]


def test_the_pool_gives_results_in_order_and_a_waiting_item_lets_another_run():
    """Item 0 waits (turn given away) until item 1 has run: with the turn held through the wait,
    item 1 could never start."""
    ran_1 = threading.Event()
    turns = Turns()

    def solve(item: int) -> int:
        if item == 0:
            with waiting():
                assert ran_1.wait(timeout=20)
        if item == 1:
            ran_1.set()
        return item * 10

    assert list(in_flight(range(5), solve, workers=2, turns=turns)) == [0, 10, 20, 30, 40]
