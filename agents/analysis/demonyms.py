"""Country adjectives, demonyms and common short names (general knowledge, not dataset answers).

"a Malaysian judge" is `Court_Judge_(Malaysia)`: the adjective (or a short name such as "US") maps
to the country's usual English name; the linker keeps only the names the store uses.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import MappingProxyType

from agents.analysis.words import DATA, data, either

COUNTRIES = DATA / "countries.json"
_DATA = data("countries")
# country name -> its adjectives, demonyms and short names (data/countries.json)
COUNTRY_ALIASES = MappingProxyType({country: tuple(names) for country, names in _DATA["aliases"].items()})
# country name -> the names of its capital, which news English writes for the country's government ("Beijing",
# "Seoul"): general knowledge, for countries that are names of their own in ICEWS-style KGs
CAPITALS = MappingProxyType({country: tuple(names) for country, names in _DATA["capitals"].items()})

# Aliases that are also ordinary English words: only accepted when written in capitals ("US", not "us").
CASE_SENSITIVE = frozenset({"US", "UN", "EU", "UK", "HK", "PNG", "DRC", "ROK", "PRC", "DPRK", "UAE", "USA"})


# A demonym noun's plural names the people ("the Cambodians", "the Greeks"): -s after these endings, or after a
# one-word noun's consonant or "e" ("Dane"); not after an adjective's -ese, -ish, -ch, -ic or -y ("Chinese", "French"),
# nor a country name's final "a" or "u" ("America", "Macau").
_PLURAL_ENDINGS = ("an", "i", "ite", "er", "on", "ie", "o", "it")
_NO_PLURAL = ("ese", "sh", "tch", "nch", "ic", "s", "x", "z", "y", "a", "u")  # a final "i" or "o" takes -s above


def demonym_plural(alias: str) -> str | None:
    """"Cambodian" -> "Cambodians", "Greek" -> "Greeks", "South Korean" -> "South Koreans"; None for a name, initials or
    a demonym that is its own plural ("Chinese")."""
    if alias.isupper() or alias.startswith("The ") or not alias[:1].isupper() or alias in COUNTRY_ALIASES:
        return None
    ending = alias.lower().endswith(_PLURAL_ENDINGS) or " " not in alias and not alias.lower().endswith(_NO_PLURAL)
    return alias + "s" if ending else None


# a formal name of a state: one listed ("the Republic of China" is Taiwan), else up to three capitalised or hyphened words
# before its noun ("the Hashemite Kingdom of Jordan", "the Gulf emirate of Qatar", "the oil-rich kingdom of
# Saudi Arabia"), or its adjective before the noun ("the Saudi kingdom")
_NOUN = "(?i:" + either(_DATA["state_nouns"]) + ")"
_FORMAL = {form.lower(): country for country, forms in COUNTRY_ALIASES.items() for form in forms if re.search(_NOUN + r"\b", form)}
_COUNTRY = {c.lower(): c for c in COUNTRY_ALIASES}
_LISTED = re.compile(rf"\b(?i:the\s+)?(?i:({either(_FORMAL)}))\b")
_STATE_OF = re.compile(rf"\b(?i:the\s+)?(?:(?:[A-Z][\w'’]*|[a-z]+-[a-z]+)\s+){{0,3}}{_NOUN}\s+(?i:of\s+(?:the\s+)?({either(_COUNTRY)}))\b")
_ADJECTIVE_OF = {a.lower(): country for country, forms in COUNTRY_ALIASES.items() for a in forms if not a.isupper()}
_ADJECTIVE_STATE = re.compile(rf"\b(?i:the\s+)?(?i:({either(_ADJECTIVE_OF)}))\s+{_NOUN}\b")
_HINT = re.compile(rf"{_NOUN}|-based\b")
# where an organisation is based, before its name ("the Geneva-based WHO"): its name
_BASED = re.compile(r"\b(?:[A-Z][\w'’.]*\s+){0,2}[A-Z][\w'’.]*-based\s+(?=[A-Z])")


def _named(table: dict[str, str]) -> Callable[[re.Match[str]], str]:
    """The country a match names (the whole match where it is a country's own formal name: "the Democratic Republic of
    Congo"), in lower case where the match was written so ("the kingdom of thailand")."""
    def name(m: re.Match[str]) -> str:
        whole = re.sub(r"(?i)^the\s+", "", m.group(0)).lower()
        country = _FORMAL.get(whole) or _COUNTRY.get(whole) or table[m.group(1).lower()]
        return country.lower() if m.group(0).islower() else country
    return name


def as_country_names(question: str, kept: re.Pattern[str] | None = None) -> str:
    """A state named formally or by its adjective and a state noun as its plain name ("the People's
    Republic of China" -> "China", "the Saudi kingdom" -> "Saudi Arabia"); a place of an organisation's base left out: the
    KG names states and organisations plainly, and the words around the name would be read as other names. `kept`: the
    KG's own names that hold such words, left as written."""
    if not _HINT.search(question):  # most questions name no state formally: one small pattern instead of four long ones
        return question
    if kept is not None and (name := kept.search(question)):
        return as_country_names(question[: name.start()]) + name.group(0) + as_country_names(question[name.end() :], kept)
    question = _LISTED.sub(_named(_FORMAL), _BASED.sub("", question))
    return _ADJECTIVE_STATE.sub(_named(_ADJECTIVE_OF), _STATE_OF.sub(_named(_COUNTRY), question))
