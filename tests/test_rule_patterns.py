"""The reading rules' patterns kept as data (agents/analysis/data/*_patterns.json): every example of every pattern is
read as its file says, a test of the meaning read (the question in the active one-clause form with its roles renumbered;
the roles of its entities; the question a text asks; the words a yes/no question asserts; the typed query; the times
read and the unit asked; the question a text with a gap asks; the question meant once repairs and a checked
claim are read), not of the pattern's match alone.

The examples are written in the constructions' textbook forms; none is taken from an evaluation set.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from types import ModuleType

import pytest

import agents.analysis
from actions.query import Query
from agents.analysis import (
    accounting,
    chat_spellings,
    clause_roles,
    clauses,
    cues,
    discourse,
    gaps,
    grammar,
    grammar_words,
    predicate,
    query,
    question_form,
    referents,
    times,
)
from agents.analysis.clause_roles import receives_event, voice_roles
from agents.analysis.grammar import renumber, rewrite, role_order
from agents.analysis.query import asked_by_noun, asked_kind, counts_a_quantity, read_query, unread_number
from agents.analysis.question_form import as_yes_no, not_a_question, unstressed, without_asides, without_framing, without_hedges
from agents.analysis.times import asked_granularity, read_times, stated_window, with_offsets, with_stated_year


def _active_form(masked: str) -> str:
    """The masked question in the active one-clause form, its roles renumbered, as the analyzer builds it."""
    text = rewrite(masked).text
    return renumber(text, role_order(text))


def _roles(masked: str) -> str:
    """Each entity's clause role (? for unknown); the roles the verb's voice gives, the possessives before an act's noun,
    the acts named by their noun (doer > the one it is done to), and whether the verb is one of receiving."""
    voice = voice_roles(masked)
    read = [", ".join(f"E{n} {role or '?'}" for n, role in sorted(clause_roles.clause_roles(masked).items()))]
    read += ["voice " + ", ".join(f"E{n} {role}" for n, role in sorted(voice.read.items()))] if voice.read else []
    read += ["possessed " + ", ".join(f"E{n} {noun}" for n, noun in voice.possessed)] if voice.possessed else []
    read += ["by " + ", ".join(f"{noun} E{a}>E{b}" for noun, a, b in voice.acts_by)] if voice.acts_by else []
    return "; ".join(read + (["receives"] if receives_event(masked) else []))


def _form(text: str) -> str:
    """The question left once stress, a judged statement, asides, hedges and framing are read (in the analyzer's order),
    and whether it asks (or what it is instead). The KG's name words are, here, the words the text capitalises inside a sentence."""
    naming = frozenset(m.group(0).lower() for m in re.finditer(r"(?<![.!?:]\s)(?<!^)\b(?!I\b)[A-Z]\w*", text))
    kept = without_framing(without_hedges(without_asides(as_yes_no(unstressed(text, frozenset({"very", "year", "else"}))), naming)))
    kind = re.search(r"\bis (an? [^,:]+)", not_a_question(kept) or "")
    return f"{kept} | {kind.group(1) if kind else 'asks'}"


def _query(masked: str) -> str:
    """The typed query read (its fields unlike the default, with what a verbless question asks of its entity and the
    quantity it counts), the kind a "which N" asks, and a number left unread."""
    spans = [m.span() for m in re.finditer(r"\{E\d\}", masked)]
    read = asked_by_noun(counts_a_quantity(read_query(masked, masked, masked.count("{T"), spans), masked, frozenset()), masked)
    said = [f"{f.name}={getattr(read, f.name)}" for f in fields(Query) if getattr(read, f.name) != f.default]
    said += [f"kind={kind}"] if (kind := asked_kind(masked)) else []
    said += [f"number={number}"] if (number := unread_number(masked)) else []
    return "; ".join(said) or "six"


def _time(text: str) -> str:
    """The times read once offsets, months of no year and exclusive bounds are written as dates (in the analyzer's order):
    each with its span of days and unit, the phrases unread, the years beyond any date; and the unit of time asked."""
    reading = read_times(stated_window(with_stated_year(with_offsets(text))))
    said = [f"{m.text!r} {m.time.start}..{m.time.end} {m.time.granularity.value}" for m in reading.found]
    said += [f"unreadable {phrase!r}" for phrase in reading.unreadable] + [f"beyond {year}" for year in reading.beyond]
    said += [f"asks {asked.value}"] if (asked := asked_granularity(text)) else []
    return "; ".join(said) or "none"


def _referents(masked: str) -> str:
    """What the wording says of the acts and parties it refers to: an auxiliary asking, a pro-verb's doers, a pronoun's
    clause, words "or" joins, a copula beside a name, the party a pronoun stands for (its role, a person's), the clause
    a cue heads with a party (and whether a time is stated outside it), the words said as an aim."""
    said = ["auxiliary"] if referents.asks_by_auxiliary(masked) else []
    said += [f"again {', '.join(f'E{n}' for n in sorted(doers))}"] if (doers := referents.repeating_doers(masked)) else []
    said += [f"pronoun clause {clause[1]!r}"] if (clause := referents.pronoun_clause(masked)) else []
    said += [f"either {one}/{other}" for one, other in referents.either_words(masked)]
    said += ["copula"] if referents.holds_by_copula(masked) else []
    if anchor := referents.pronoun_anchor(masked):
        said += [f"anchor {','.join(f'E{n}' for n in anchor[0])} {anchor[1]}" + (" person" if anchor[2] else "")]
    if reference := referents.reference_clause(masked):
        said += [f"reference {reference[1]!r}" + (", time outside" if "{T" in reference[0] else "")]
    said += [f"aims {w}" for w in referents.aimed_words(masked)]
    return "; ".join(said) or "none"


def _cues(masked: str) -> str:
    """The cues the question asks for in the active one-clause form (`cues.question_cues`), the unit of "the same ...",
    each party a cue points at with the clause the cue heads, the n-th asked ("after the first": the second), a window of
    two times, a time right before the cue."""
    text = rewrite(masked).text
    said = [", ".join(sorted(cues.question_cues(text))) or "none"]
    said += [f"same {unit}"] if (unit := cues.same_granularity(text)) else []
    pointed = [int(m.group(1)) for m in re.finditer(r"\{E(\d+)\}", text) if cues.POINTS_AT_NEXT.search(text[: m.start()])]
    said += [f"points at E{n}; refers to {cues.referred_clause(text, n)!r}" for n in pointed]
    read = read_query(text, text, text.count("{T"), [m.span() for m in re.finditer(r"\{E\d\}", text)])
    said += ["second"] if read.ordinal == 2 else []
    said += ["window"] if read.window else []
    return "; ".join(said + (["time before cue"] if cues.time_before_cue(text) else []))


# no vocabulary: every word is known and none is a name's, so only the patterns give a reason
_NO_VOCABULARY = accounting.Vocabularies(name_words=frozenset(), read_words=frozenset())
_DATA = Path(agents.analysis.__file__).parent / "data"
_FILES: list[tuple[ModuleType, str, Callable[[str], str]]] = [
    (grammar_words, "grammar_parts", _active_form),
    (clauses, "clause_patterns", _active_form), (grammar, "grammar_patterns", _active_form), (clause_roles, "role_patterns", _roles),
    (question_form, "form_patterns", _form), (predicate, "predicate_patterns", lambda masked: " ".join(predicate.asserted_words(masked))),
    (query, "query_patterns", _query), (times, "time_patterns", _time), (gaps, "gap_patterns", gaps.as_question),
    (discourse, "discourse_patterns", lambda text: discourse.as_checked_claim(discourse.without_repairs(text))),
    (referents, "referent_patterns", _referents), (cues, "cue_patterns", _cues),
    (chat_spellings, "spelling_patterns", chat_spellings.standard_spelling),
    (accounting, "accounting_patterns", lambda masked: accounting.unaccounted(masked, _NO_VOCABULARY) or "accounted"),
]
_ENTRIES = {name: json.loads((_DATA / f"{name}.json").read_text(encoding="utf-8"))["patterns"] for _, name, _ in _FILES}


def _pieces(masked: str) -> list[str]:
    """The question, its clauses, the words after or before each party or word, and after each word or mark: where a rule
    matches its pattern."""
    found = [masked, *re.split(r"[,;.]\s*", masked), *(masked[m.end() :] for m in re.finditer(r"\{E\d\}\s+", masked)),
             *(masked[: m.start()] for m in re.finditer(r"\b\w|\{E\d\}", masked)),
             *(masked[m.end() :] for m in re.finditer(r"\w\b|[^\w\s]", masked))]
    return found + [piece.strip() for piece in found]


@pytest.mark.parametrize(
    ("module", "key", "masked", "reading", "read"),
    [(module, key, masked, reading, read) for module, name, read in _FILES for key, entry in _ENTRIES[name].items()
     for masked, reading in entry.get("examples", {}).items()],
)
def test_each_pattern_reads_the_questions_it_is_for(module: ModuleType, key: str, masked: str, reading: str, read: Callable[[str], str]) -> None:
    assert any(module.PATTERNS[key].search(piece) for piece in _pieces(masked))
    assert read(masked) == reading


@pytest.mark.parametrize("name", list(_ENTRIES))
def test_every_pattern_says_why_and_has_examples_or_is_a_part_of_one(name: str) -> None:
    written = "".join("".join(entry["pattern"]) for entries in _ENTRIES.values() for entry in entries.values())
    used = {part.lower() for part in re.findall(r"<([A-Z_]+)>", written)}
    assert all(entry["why"] for entry in _ENTRIES[name].values())
    assert all(entry.get("examples") or key in used for key, entry in _ENTRIES[name].items())

