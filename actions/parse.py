"""Reading a decider's chosen action back out of its reply.

Entity names contain commas, parentheses, quotes and slashes
(`Armed_Gang_(Palestinian_Territory,_Occupied)`), so a reply is never split into arguments.
Instead the reply's call and every enumerated candidate's `render()` are folded the same way
(template name without case or underscores; arguments lower-cased, accents and punctuation to
spaces, `{entities}` to the previous step) and compared whole: an exact match wins, else the
closest candidate of the same template above a similarity threshold. Anything else raises
`ActionParseError`, whose message the agent feeds back to the decider.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import TypeVar

from actions.templates import ACTION_TYPES, TEMPLATES, Action, source_of
from ari.base.errors import AriError
from ari.base.text import fold

EXPECTED_FORMAT = (
    "Action: templateName(arguments) with one of the offered candidates, e.g. "
    "getTailEntity(Ethiopia, Make_optimistic_comment, 2005-11), getBefore(#2, 2006-01-17), "
    "getFirst(#3) or answer(#4); templates: " + ", ".join(TEMPLATES)
)
MATCH_THRESHOLD = 0.85

_PREVIOUS = re.compile(r"\{\s*(entities|entity|result|results|previous|items|times?)\s*\}", re.IGNORECASE)
_CALL = re.compile(r"([A-Za-z][A-Za-z_]*)\s*\(")
_TIMES_AND_STEPS = re.compile(r"#\d+|\b\d{4}(?:-\d{1,2}){0,2}\b")
_TEMPLATE_KEYS = {name.lower(): name for name in TEMPLATES}

C = TypeVar("C")


class ActionParseError(AriError):
    """A decider's reply names no offered action; the message says what format is expected."""


def extract_call(reply: str) -> tuple[str, str] | None:
    """(template name, argument text) of the action call in a reply, or None when there is none."""
    text = reply
    marker = list(re.finditer(r"action\s*:", text, re.IGNORECASE))
    if marker:
        text = text[marker[-1].end() :]
    dollars = re.search(r"\$([^$]+)\$", text)
    if dollars:
        text = dollars.group(1)
    text = text.replace("`", " ")
    for match in _CALL.finditer(text):
        if _template_key(match.group(1)) in _TEMPLATE_KEYS:
            return match.group(1), _balanced(text, match.end())
    return None


def _balanced(text: str, start: int) -> str:
    """The text up to the parenthesis closing the call opened just before `start`."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start:i]
    end = text.rfind(")")
    return text[start:end] if end >= start else text[start:]


def _template_key(name: str) -> str:
    return name.replace("_", "").lower()


def fold_arguments(text: str, previous_step: int | None = None) -> str:
    """Arguments folded for comparison: `{entities}` -> `#k`, accents and punctuation to spaces."""
    if previous_step is not None:
        text = _PREVIOUS.sub(f"#{previous_step}", text)
    cleaned = "".join(c if c.isalnum() or c in "#-" else " " for c in fold(text))
    return " ".join(cleaned.split())


def _key_of(action: Action) -> tuple[str, str]:
    rendered = action.render()
    open_at = rendered.index("(")
    return _template_key(action.template), fold_arguments(rendered[open_at + 1 : rendered.rindex(")")])


def _action_of(candidate: object) -> Action:
    """The action of a `Candidate`, or the action itself."""
    action = getattr(candidate, "action", candidate)
    if not isinstance(action, ACTION_TYPES):
        raise TypeError(f"neither an action nor a candidate: {candidate!r}")
    return action


def parse_action(reply: str, candidates: Sequence[C], previous_step: int | None = None) -> C:
    """The candidate (an Action or a Candidate, as given) that the reply chose.

    `previous_step` is what `{entities}` means (default: the latest step any candidate reads).
    """
    call = extract_call(reply)
    if call is None:
        raise ActionParseError(f"no action found in the reply; expected {EXPECTED_FORMAT}")
    name, arguments = call
    template = _template_key(name)
    if previous_step is None:
        sources = [s for s in (source_of(_action_of(c)) for c in candidates) if s is not None]
        previous_step = max(sources, default=None)
    wanted = fold_arguments(arguments, previous_step)
    same_template = [(c, _key_of(_action_of(c))[1]) for c in candidates if _key_of(_action_of(c))[0] == template]
    for candidate, key in same_template:
        if key == wanted:
            return candidate
    best, best_ratio = None, 0.0
    for candidate, key in same_template:
        if _TIMES_AND_STEPS.findall(key) != _TIMES_AND_STEPS.findall(wanted):
            continue  # names may be misspelt, times and step references may not
        ratio = difflib.SequenceMatcher(None, wanted, key).ratio()
        if ratio > best_ratio:
            best, best_ratio = candidate, ratio
    if best is not None and best_ratio >= MATCH_THRESHOLD:
        return best
    shown = f"{_TEMPLATE_KEYS[template]}({arguments.strip()})"
    offered = "; ".join(_action_of(c).render() for c in candidates[:5])
    more = f" (and {len(candidates) - 5} more)" if len(candidates) > 5 else ""
    raise ActionParseError(
        f"{shown} is not one of the offered actions; choose one exactly as offered: {offered}{more}. "
        f"Expected {EXPECTED_FORMAT}"
    )


# -- a numbered choice: the candidate's number, its action text, or JSON --------------------------

_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)
_NUMBER = re.compile(r"^\s*(?:action\s*:)?\s*[\$\[\(#]?\s*(\d{1,3})\s*[\$\]\)\.]?\s*$", re.IGNORECASE | re.MULTILINE)
_CHOICE_KEYS = ("action", "candidate", "choice", "index", "number")


def parse_choice(reply: str, candidates: Sequence[C]) -> tuple[int, str]:
    """(0-based index of the chosen candidate, the reply's reason) from a reply that gives the
    candidate's number (`3`, `Action: 3`), its action text, or a JSON object `{"action": 3, "reason": ...}`.
    Raises `ActionParseError` (its message says what is expected) when it names no offered candidate."""
    as_json = _json_choice(reply)
    if as_json is not None:
        value, reason = as_json
        if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
            return _numbered(int(value), candidates), reason
        chosen = parse_action(f"Action: {value}", candidates)
        return list(candidates).index(chosen), reason
    reason = _reason_line(reply)
    number = _NUMBER.search(reply.split("Reason:")[0] if "Reason:" in reply else reply)
    if number is not None and extract_call(reply) is None:
        return _numbered(int(number.group(1)), candidates), reason
    chosen = parse_action(reply, candidates)
    return list(candidates).index(chosen), reason


def _numbered(number: int, candidates: Sequence[object]) -> int:
    if not 1 <= number <= len(candidates):
        raise ActionParseError(f"candidate {number} is not offered; choose a number from 1 to {len(candidates)}")
    return number - 1


def _json_choice(reply: str) -> tuple[object, str] | None:
    """(the chosen value, the reason) of a JSON reply, or None when the reply holds no such object."""
    import json

    found = _JSON_OBJECT.search(reply)
    if found is None:
        return None
    try:
        data = json.loads(found.group(0))
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    for key in _CHOICE_KEYS:
        if key in data and isinstance(data[key], (int, str)) and not isinstance(data[key], bool):
            return data[key], str(data.get("reason", "") or "").strip()
    return None


def _reason_line(reply: str) -> str:
    found = re.search(r"reason\s*:\s*(.+)", reply, re.IGNORECASE)
    return found.group(1).strip() if found else ""
