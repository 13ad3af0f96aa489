"""Load a pickle that may only contain plain data.

A pickle is a program: loading one can call any importable function (os.system included). The
dataset pickles we read hold only lists, dicts, sets, strings and numbers, so `find_class`, the
one door through which a pickle reaches code, admits just those builtin container and scalar types.

Even those can be asked to build far more than the file holds: a few bytes call `bytearray(2**40)`,
or `str()` of a list of a million references to one long string. So each allowed type is handed out
wrapped in a check of what the call would build, against one budget for the whole load; the wrapper
is a function, not a type, so it can only be called (REDUCE), never used as a class (NEWOBJ).

Nor does a pickle need any call to describe far more than it holds: its memo lets one list be
referenced again and again, nested ("a billion laughs": a 1.5 KB file whose data, spelled out,
never ends). What reads the questions spells every reference out, so after the load the data's
expanded size (every element reached, shared ones once per reference) is counted against the same
budget, in time linear in the file (each shared object's size is counted once and reused).
"""

from __future__ import annotations

import builtins
import pickle
from collections.abc import Callable
from pathlib import Path

from ari.base.errors import DatasetError

_ALLOWED = frozenset(
    {"set", "frozenset", "list", "dict", "tuple", "str", "int", "float", "bool", "complex", "bytes", "bytearray"}
)
BUDGET_BASE = 4 * 2**20  # items/bytes one load may build or spell out, plus ...
BUDGET_PER_FILE_BYTE = 8  # ... this many per byte of the file (plain data needs about one; CronQuestions 1.5)
_SCALARS = (int, float, complex, bool, type(None))


class RestrictedUnpickler(pickle.Unpickler):
    """An Unpickler that refuses every global except plain builtin containers and scalars, and any
    call of those that would build more than the load's budget allows."""

    def __init__(self, file, source: str, budget: int = BUDGET_BASE) -> None:  # noqa: ANN001 - a binary file object
        super().__init__(file)
        self._source = source
        self.budget = budget  # what is left to build

    def find_class(self, module: str, name: str) -> Callable:
        if module in ("builtins", "__builtin__") and name in _ALLOWED:
            return self._bounded(getattr(builtins, name))
        raise DatasetError(f"refusing to load {module}.{name} from {self._source}: pickles can run code")

    def _bounded(self, kind: type) -> Callable:
        def build(*args: object) -> object:
            size = _built_size(kind, args)
            if size > self.budget:
                shown = "unbounded size" if size == _UNBOUNDED else f"{size:,} items"
                raise DatasetError(
                    f"refusing to build {kind.__name__} of {shown} from {self._source}: "
                    "more than a plain-data pickle of its size can hold"
                )
            self.budget -= size
            return kind(*args)

        return build


_UNBOUNDED = 2**63


def _built_size(kind: type, args: tuple) -> int:
    """About how many items (bytes, characters, elements) `kind(*args)` builds."""
    if not args:
        return 0
    first = args[0]
    if kind in (bytes, bytearray) and isinstance(first, int):
        return max(0, first)  # bytes(n): n zero bytes out of one small int
    if kind is str and not isinstance(first, (str, bytes, bytearray, *_SCALARS)):
        return _UNBOUNDED  # str(container): its repr, as long as every reference it holds spelled out
    try:
        return len(first)  # type: ignore[arg-type]
    except TypeError:
        return 1


def load_plain_pickle(path: Path) -> object:
    """The plain data stored in a pickle file; DatasetError for anything else or a damaged file."""
    path = Path(path)
    if not path.is_file():
        raise DatasetError(f"no pickle file at {path}")
    budget = BUDGET_BASE + BUDGET_PER_FILE_BYTE * path.stat().st_size
    with path.open("rb") as handle:
        try:
            data = RestrictedUnpickler(handle, str(path), budget).load()
        except DatasetError:
            raise
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError, KeyError) as exc:
            raise DatasetError(f"{path}: not a readable pickle ({type(exc).__name__}: {exc})") from None
    if expanded_size(data, budget) > budget:
        raise DatasetError(
            f"refusing {path}: its data, with every shared reference spelled out, is more than {budget:,} items "
            "(more than a plain-data pickle of its size can hold)"
        )
    return data


def expanded_size(data: object, limit: int) -> int:
    """Items of `data` counted as a tree (a container 1 plus its elements', a dict's keys and values,
    a string or bytes its length, anything else 1), each shared object as often as it is referenced;
    stops counting past `limit` (returns more than it). A structure that contains itself is unbounded."""
    sizes: dict[int, int] = {}  # id -> expanded size, for the objects done
    open_ids: set[int] = set()  # containers on the current path: reaching one again is a cycle
    stack: list[tuple[object, bool]] = [(data, False)]
    while stack:
        item, children_done = stack.pop()
        key = id(item)
        if key in sizes:
            continue
        if isinstance(item, (str, bytes, bytearray)):
            sizes[key] = max(1, len(item))
            continue
        elements = _elements(item)
        if elements is None:
            sizes[key] = 1
            continue
        if children_done:
            open_ids.discard(key)
            sizes[key] = min(limit + 1, 1 + sum(sizes[id(e)] for e in elements))
            if sizes[key] > limit:
                return sizes[key]
            continue
        if key in open_ids:
            return _UNBOUNDED
        open_ids.add(key)
        stack.append((item, True))
        stack.extend((e, False) for e in elements if id(e) not in sizes)
    return sizes[id(data)]


def _elements(item: object) -> list | None:
    """A container's elements (a dict's keys and values); None for a scalar."""
    if isinstance(item, dict):
        return [*item.keys(), *item.values()]
    if isinstance(item, (list, tuple, set, frozenset)):
        return list(item)
    return None
