"""A bounded per-store memo for read-only queries the agent repeats.

An agent asks for the same entity's neighbourhood at every step, and a dataset's questions share
hub entities and the KG's time range. Stores are read-only while agents run, so answers can be
kept; the memo is bounded (least recently used first out) and dies with its store.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from tkg_store.store import TKGStore

T = TypeVar("T")
MEMO_SIZE = 1024  # entries: the neighbourhoods and candidate blocks of a few hundred entities

_MEMOS: "weakref.WeakKeyDictionary[TKGStore, OrderedDict]" = weakref.WeakKeyDictionary()


def memoised(store: "TKGStore", key: Hashable, build: Callable[[], T]) -> T:
    """`build()` the first time `key` is asked of `store`, the kept value after that."""
    memo = _MEMOS.setdefault(store, OrderedDict())
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = build()
        if len(memo) > MEMO_SIZE:
            memo.popitem(last=False)
    else:
        memo.move_to_end(key)
    return hit

