"""Load a pickle that may only contain plain data.

A pickle is a program: loading one can call any importable function (os.system included). The
dataset pickles we read hold only lists, dicts, sets, strings and numbers, so `find_class`, the
one door through which a pickle reaches code, admits just those builtin container and scalar types.

Even those can be asked to build far more than the file holds: a few bytes call `bytearray(2**40)`,
or `str()` of a list of a million references to one long string. So each allowed type is handed out
wrapped in a check of what the call would build, against one budget for the whole load; the wrapper
is a function, not a type, so it can only be called (REDUCE), never used as a class (NEWOBJ).
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
BUDGET_BASE = 64 * 2**20  # items/bytes the allowed constructors may build in one load, plus ...
BUDGET_PER_FILE_BYTE = 8  # ... this many per byte of the file (plain data needs about one)
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
            return RestrictedUnpickler(handle, str(path), budget).load()
        except DatasetError:
            raise
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError, KeyError) as exc:
            raise DatasetError(f"{path}: not a readable pickle ({type(exc).__name__}: {exc})") from None
