"""Names people use for KG entities, derived from the KG's own names by general rules of English naming.

People write "Merkel" for `Angela_Merkel`, "Moussa Mahamat" for `Moussa_Faki_Mahamat`, "the IMF" or
"the imf" for `International_Monetary_Fund`, "NATO" for `North_Atlantic_Treaty_Organization`. Each
rule below is a convention of English, applied to every name of the store; none was written from a
question:

- surname: a person is called by the last word of their name ("Merkel"), and a name with a particle
  by the word after it too ("al-Assad", "Assad");
- first and last: a middle name is dropped ("Moussa Mahamat");
- acronym: an organisation of two or more capitalised words is called by their initials
  ("European Union" -> "eu", "United Nations High Commissioner for Refugees" -> "unhcr");
- the other name of a person: the first word of a name that no other KG name has ("Abhisit" of
  Abhisit Vejjajiva, "Sengoku" of Sengoku Yoshito: names written family name first, or people known
  by their given name); written in lower case it must be confirmed by the KG (agents.analysis.entities);
- "and" for "&": "Ernst and Young" is `Ernst_&_Young`;
- the name after a title: "Patnaik" of `Minister_Patnaik`, "Qarase" of `Prime_Minister_Qarase`.

A name is a person's when it has two to four words, none of them a word of the KG's sector-role
names ("Ministry", "Party", "Police") or a country, and no digits or parentheses: the KG's own
vocabulary says what an organisation's name is made of.
"""

from __future__ import annotations

import re

from tkg_store.store import normalize_name

SURNAME = "surname"
FIRST_LAST = "first and last name"
ACRONYM = "acronym"
FIRST_NAME = "distinctive first name"
AMPERSAND = "'and' for '&'"
COUNTRY_INITIALS = "initials of the country"

_PARTICLES = frozenset(["al", "el", "bin", "ibn", "abu", "de", "del", "da", "di", "du", "la", "le", "van", "von", "der", "den", "dos", "das"])
# Titles of office that stand before a person's name (general English).
_TITLES = frozenset(
    ["minister", "prime", "president", "vice", "chief", "justice", "commissioner", "governor", "general", "king", "queen",
     "prince", "princess", "sheikh", "senator", "judge", "secretary", "mayor", "ambassador", "admiral", "colonel",
     "captain", "pope", "cardinal", "archbishop", "bishop", "chancellor", "premier", "speaker", "deputy", "emir"]
)  # fmt: skip
_CONNECTORS = frozenset(["of", "the", "and", "for", "on", "in", "de", "du", "des", "la", "le", "el", "al"])


def person_like(display: str, organisational: frozenset[str]) -> bool:
    """Whether a display name reads as a person's name (see the module docstring)."""
    if "(" in display or any(c.isdigit() for c in display):
        return False
    words = display.split()
    if not 2 <= len(words) <= 4 or not all(w[:1].isupper() or _particle(w) for w in words):
        return False
    return not any(w in organisational for w in normalize_name(display).split())


def _particle(word: str) -> bool:
    """A lower-case particle of a name, alone or joined to it: "bin", "al-Maliki", "el-Tayeb"."""
    head, _, rest = word.partition("-")
    return word.lower() in _PARTICLES or (head in _PARTICLES and rest[:1].isupper())


def person_aliases(display: str) -> list[tuple[str, str]]:
    """(alias key, rule) pairs for a person's display name."""
    words = display.split()
    found: list[tuple[str, str]] = []
    surname = normalize_name(words[-1])  # "Ben-Eliezer" -> "ben eliezer", "O'Brien" -> "o brien"
    parts = surname.split()
    if len(surname) >= 3:
        found.append((surname, SURNAME))
    if len(parts) == 2 and parts[0] in _PARTICLES and len(parts[1]) >= 3:
        found.append((parts[1], SURNAME))  # "Al-Abadi" -> "abadi"
    if len(words) >= 2 and words[-2].lower() in _PARTICLES:
        found.append((normalize_name(" ".join(words[-2:])), SURNAME))  # "al Assad"
    if len(words) >= 3:
        found.append((f"{normalize_name(words[0])} {surname}", FIRST_LAST))
    return found


def titled_surname(display: str, organisational: frozenset[str]) -> str | None:
    """The name after a title ("Minister Patnaik", "Prime Minister Qarase" -> "patnaik", "qarase"): every
    word but the last is a word of the KG's role names, the last is a capitalised word that is not."""
    words = display.split()
    if len(words) < 2 or "(" in display or not words[-1][:1].isupper() or normalize_name(words[0]) not in _TITLES:
        return None
    last = normalize_name(words[-1])
    middle = [normalize_name(w) for w in words[1:-1]]
    if " " in last or len(last) < 4 or last in organisational or (middle and middle[-1] in _CONNECTORS):
        return None  # "Secretary of State for Scotland": the office of a place, no person
    if not all(w in organisational or w in _CONNECTORS for w in middle):
        return None
    return last


def first_name(display: str) -> str | None:
    """The first word of a person's display name (the caller checks that no other name has it)."""
    word = normalize_name(display.split()[0])
    return word if len(word) >= 4 and " " not in word else None


def ampersand(display: str) -> str | None:
    """The key of a name with "&" written as "and" ("Ernst & Young" -> "ernst and young")."""
    return normalize_name(display.replace("&", " and ")) if "&" in display else None


def acronym(display: str) -> str | None:
    """Initials of a name of two or more capitalised words, function words skipped ("eu", "unhcr")."""
    if "(" in display:
        return None
    words = [w for w in re.split(r"[\s\-/]+", display) if w]
    if len(words) < 2:
        return None
    initials = [w[0] for w in words if w[0].isupper()]
    if len(initials) < 2 or any(w.lower() not in _CONNECTORS and not w[0].isupper() for w in words):
        return None
    return "".join(initials).lower()
