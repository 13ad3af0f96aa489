"""How the reading keeps its English: word tables as data beside the examples they are for, patterns case-blind."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

DATA = Path(__file__).parent / "data"


def data(name: str) -> dict:
    """data/<name>.json as written: every table and pattern the reading keeps there is read through here."""
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def word_tables(name: str) -> dict[str, frozenset[str]]:
    """The tables of data/<name>.json, each a set of words (written as one string or a list); `_about` says what each
    holds and why."""
    tables = data(name)
    return {k: frozenset(v.split() if isinstance(v, str) else v) for k, v in tables.items() if not k.startswith("_")}


def either(words: Iterable[str]) -> str:
    """A pattern matching any of `words` as written, the longest first (so "Republic of China" is not cut at "Republic")."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def patterns(name: str, shared: dict[str, str]) -> dict[str, re.Pattern[str]]:
    """The patterns of data/<name>.json, in order, each case-blind unless it says `case`; a <PART> in one stands for the
    `shared` part of that name or for the file's own pattern before it ("<ENT>", "<SAME>")."""
    known = dict(shared)
    found: dict[str, re.Pattern[str]] = {}
    for key, entry in data(name)["patterns"].items():
        written = "".join(entry["pattern"]) if isinstance(entry["pattern"], list) else entry["pattern"]
        known[key.upper()] = re.sub(r"<([A-Z_]+)>", lambda m: known[m.group(1)], written)
        found[key] = re.compile(known[key.upper()], 0 if entry.get("case") else re.IGNORECASE)
    return found
