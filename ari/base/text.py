"""Question text as it enters ARI (argv, question files, library calls): readable Unicode, or why not.

Python hands undecodable bytes in argv over as lone surrogates (surrogateescape: byte 0xff becomes
U+DCFF), and a JSON file may spell one out ("\\ud800"). Neither can be encoded as UTF-8, so the first
encoder down the line (the tokenizer, SQLite, results.jsonl) would fail far from the question that
caused it, taking its whole batch along. A NUL character is refused too: PostgreSQL text cannot hold it.
"""

from __future__ import annotations

import re

_UNREADABLE = re.compile("[\x00\ud800-\udfff]")
_ESCAPED_BYTES = range(0xDC80, 0xDD00)  # how surrogateescape carries the bytes 0x80-0xff
REPLACEMENT = "\ufffd"


def unreadable(text: object) -> str | None:
    """Why `text` cannot be read as question text, or None when it can."""
    if not isinstance(text, str):
        return f"expected text, got {type(text).__name__}"
    found = _UNREADABLE.search(text)
    if found is None:
        return None
    code = ord(found.group())
    where = f"at character {found.start() + 1}"
    if code == 0:
        return f"a NUL character {where}"
    if code in _ESCAPED_BYTES:
        return f"invalid UTF-8 byte 0x{code - 0xDC00:02x} {where}"
    return f"a lone surrogate U+{code:04X} {where}"


def readable(text: str) -> str:
    """`text` with every character that cannot be read replaced by U+FFFD (for library callers that
    must answer something: the question then fails or succeeds on its own)."""
    return _UNREADABLE.sub(REPLACEMENT, text)
