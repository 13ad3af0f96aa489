"""The names a KG's labelled questions use for its entities, learned where a question shows which words name which.

A CronQuestions record gives its template ("When did {head} first play for {tail}"), the question with the KG's names
filled in (`question`) and as people wrote it (`paraphrases[0]`, what ARI is asked): the words in each slot of the
two are an entity's KG name and the name people used for it ("the King of Hip Hop" for Eminem, "President of the
Argentine Nation"). No rule of English names these; only seeing them used teaches them. `ari memory learn` keeps them
in the memory and the linker reads them beside its own aliases (a KG name is still read as its own entity first).

A name is kept when it differs from the KG name (case and spacing aside) and every question that writes it means the
same entity: a name used for two is a guess.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Protocol

from ari.base.text import normalize_name

_SLOT = re.compile(r"\\\{(\w+)\\\}")


class Labelled(Protocol):
    """A labelled question as the loaders give it: what is asked, and the dataset's own fields."""

    text: str
    extra: dict


def slot_surfaces(template: str, text: str) -> dict[str, str] | None:
    """The words of `text` that stand in each {slot} of `template` (None: the text is not the
    template filled in, so no slot can be told)."""
    slots = re.findall(r"\{(\w+)\}", template)
    if not slots or len(set(slots)) != len(slots):
        return None
    matched = re.fullmatch(_SLOT.sub(lambda m: f"(?P<{m.group(1)}>.+?)", re.escape(template)), text.strip())
    return {slot: matched.group(slot).strip() for slot in slots} if matched else None


def one_meaning(uses: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Name as written (its first spelling) -> the one thing every use of it means, from (name, thing meant) pairs; a name
    used for two things is a guess, and left out."""
    meant: dict[str, set[str]] = defaultdict(set)
    written: dict[str, str] = {}
    for surface, thing in uses:
        if key := normalize_name(surface):
            meant[key].add(thing)
            written.setdefault(key, surface)
    return {written[key]: next(iter(things)) for key, things in sorted(meant.items()) if len(things) == 1}


def names_used(records: Iterable[tuple[str, str, str]]) -> dict[str, str]:
    """Name as written -> KG name, from (template, the question with the KG's names, the question as people wrote it)."""
    def uses() -> Iterator[tuple[str, str]]:
        for template, named, said in records:
            names = slot_surfaces(template, named) or {}
            for slot, surface in (slot_surfaces(template, said) or {}).items():
                name = names.get(slot)
                if name and normalize_name(surface) != normalize_name(name):
                    yield surface, name

    return one_meaning(uses())


def names_in_questions(questions: Iterable[Labelled]) -> dict[str, str]:
    """`names_used` of the questions that carry a template and the question with the KG's names (CronQuestions')."""
    return names_used(
        (str(q.extra["template"]), str(q.extra["question"]), q.text) for q in questions if "template" in q.extra and "question" in q.extra
    )
