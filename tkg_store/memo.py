"""A bounded memo for read-only queries the agent repeats, owned by one store.

An agent asks for the same entity's neighbourhood at every step, and a dataset's questions share
hub entities and the KG's time range. Stores are read-only while agents run, so answers can be
kept; the memo is bounded (least recently used first out), hangs off its store
(`TKGStore.memo`) and is emptied by `TKGStore.reload()`, so it never outlives the facts it read.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from tkg_store.store import TKGStore

T = TypeVar("T")
MEMO_SIZE = 4096  # entries: the neighbourhoods, candidate blocks and lookups of a few hundred entities


class Memo:
    """Least-recently-used values by key, at most `size` of them."""

    def __init__(self, size: int = MEMO_SIZE) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, object] = OrderedDict()

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """`build()` the first time `key` is asked, the kept value after that."""
        hit = self._values.get(key)
        if hit is None:
            hit = self._values[key] = build()
            if len(self._values) > self.size:
                self._values.popitem(last=False)
        else:
            self._values.move_to_end(key)
        return hit  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self._values)


def memoised(store: "TKGStore", key: Hashable, build: Callable[[], T]) -> T:
    """`build()` the first time `key` is asked of `store` since it was opened or reloaded."""
    return store.memo.get(key, build)
