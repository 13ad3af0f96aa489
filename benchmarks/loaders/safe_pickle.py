"""Load a pickle that may only contain plain data.

A pickle is a program: loading one can call any importable function (os.system included). The
dataset pickles we read hold only lists, dicts, sets, strings and numbers, so `find_class`, the
one door through which a pickle reaches code, admits just those builtin container and scalar types.
"""

from __future__ import annotations

import pickle
from pathlib import Path

from ari.base.errors import DatasetError

_ALLOWED = frozenset(
    {"set", "frozenset", "list", "dict", "tuple", "str", "int", "float", "bool", "complex", "bytes", "bytearray"}
)


class RestrictedUnpickler(pickle.Unpickler):
    """An Unpickler that refuses every global except plain builtin containers and scalars."""

    def __init__(self, file, source: str) -> None:  # noqa: ANN001 - a binary file object
        super().__init__(file)
        self._source = source

    def find_class(self, module: str, name: str) -> type:
        if module in ("builtins", "__builtin__") and name in _ALLOWED:
            return super().find_class("builtins", name)
        raise DatasetError(f"refusing to load {module}.{name} from {self._source}: pickles can run code")


def load_plain_pickle(path: Path) -> object:
    """The plain data stored in a pickle file; DatasetError for anything else or a damaged file."""
    path = Path(path)
    if not path.is_file():
        raise DatasetError(f"no pickle file at {path}")
    with path.open("rb") as handle:
        try:
            return RestrictedUnpickler(handle, str(path)).load()
        except DatasetError:
            raise
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError, KeyError) as exc:
            raise DatasetError(f"{path}: not a readable pickle ({type(exc).__name__}: {exc})") from None
