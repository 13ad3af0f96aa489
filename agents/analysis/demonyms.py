"""Country adjectives, demonyms and common short names (general knowledge, not dataset answers).

"a Malaysian judge" is `Court_Judge_(Malaysia)`: the adjective (or a short name such as "US") maps
to the country's usual English name; the linker keeps only the names the store uses.
"""

from __future__ import annotations

from types import MappingProxyType

from agents.analysis.words import DATA, data

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
