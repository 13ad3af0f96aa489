"""Tokens of question text and the name tables built once per store for linking.

Matching is done on `normalize_name` keys of token n-grams ("Kōichirō Genba" meets `Koichiro_Genba`).
Names `Role_(Qualifier)` are also indexed by qualifier, so "a Malaysian judge" is resolved by finding
the qualifier first and then the role among its few.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from agents.analysis.aliases import acronym, add_aliases, add_compass_initials, compass_acronym, nested_acronym
from agents.analysis.demonyms import CAPITALS, CASE_SENSITIVE, COUNTRY_ALIASES, demonym_plural
from tkg_store.store import TKGStore, normalize_name, noted

_TOKEN = re.compile(r"[^\W_]+(?:[.\-'’][^\W_]+)*\.?|['’]s\b|[?!,;:/()]")
_QUALIFIED = re.compile(r"^(?P<role>.+?)[_ ]\((?P<qualifier>[^()]+)\)$")


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    start: int
    end: int
    key: str  # normalize_name(text); "" for punctuation


@lru_cache(maxsize=200_000)
def _word_key(word: str) -> str:
    """normalize_name of one word, cached: question words repeat across a dataset."""
    return normalize_name(word)


def tokenize(text: str) -> list[Token]:
    """Word tokens with character offsets; a possessive "'s" and punctuation are their own tokens."""
    tokens = []
    for match in _TOKEN.finditer(text):
        word = match.group(0)
        if word[0] not in "'’" and re.search(r"['’]s$", word):
            # "Japan's" -> "Japan" + "'s"
            cut = match.end() - 2
            tokens.append(Token(text[match.start() : cut], match.start(), cut, _word_key(text[match.start() : cut])))
            tokens.append(Token(text[cut : match.end()], cut, match.end(), "'s"))
            continue
        key = "'s" if word in ("'s", "’s") else _word_key(word)
        tokens.append(Token(word, match.start(), match.end(), key))
    return tokens


def ngram_key(text: str, tokens: list[Token], i: int, j: int) -> str:
    """The normalised key of tokens[i:j]: `normalize_name` of the text they span, built from token keys."""
    return " ".join(k for k in (("s" if t.key == "'s" else t.key) for t in tokens[i:j]) if k)


# English prefixes that people also write as a word of their own ("non aligned", "anti government")
PREFIXES = frozenset("non anti pro co counter inter multi pan post pre trans ultra".split())


def closed_key(tokens: list[Token], i: int, j: int) -> str:
    """`ngram_key` with each hyphenated word and each initialism closed up: "non-aligned movement" -> "nonaligned movement"
    (a prefix or compound written with a hyphen in the question and as one word in the KG's name), "U.N. Security
    Council" -> "un security council" (initials written with stops), and a prefix written apart closed onto the word
    after it ("non aligned movement")."""
    words = [t.key.replace(" ", "") if "-" in t.text or "." in t.text[:-1] else ("s" if t.key == "'s" else t.key) for t in tokens[i:j] if t.key]
    closed: list[str] = []
    for word in words:
        if closed and closed[-1] in PREFIXES:
            closed[-1] += word
        else:
            closed.append(word)
    return " ".join(closed)


def key_prefixes(keys) -> set[str]:
    """Every word-prefix of every key, so an n-gram scan can stop as soon as no name starts that way."""
    return {" ".join(words[:n]) for words in map(str.split, keys) for n in range(1, len(words) + 1)}


@dataclass
class NameTables:
    """Lookup tables over one store's entity names."""

    by_key: dict[str, list[str]] = field(default_factory=dict)  # normalised display -> entities
    qualifier_keys: dict[str, list[str]] = field(default_factory=dict)  # alias key -> qualifier names
    case_sensitive_keys: dict[str, str] = field(default_factory=dict)  # key -> the only accepted spelling
    adjective_keys: set[str] = field(default_factory=set)  # alias keys that are not the qualifier's own name
    people: set[str] = field(default_factory=set)  # entities read as persons' names (their aliases' rules)
    nation_keys: set[str] = field(default_factory=set)  # plural demonyms: "cambodians", "south koreans"
    roles: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # qualifier -> [(role text, entity)]
    qualifier_entity: dict[str, str] = field(default_factory=dict)  # qualifier -> the entity of that name
    postings: dict[str, set[int]] = field(default_factory=dict)  # name token -> entity rows
    entity_tokens: list[tuple[str, ...]] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    fact_count: dict[str, int] = field(default_factory=dict)  # facts each entity takes part in
    acronyms: dict[str, list[str]] = field(default_factory=dict)  # "unhcr" -> UN High Commissioner for Refugees
    # other names people use (agents.analysis.aliases): key -> [(entity, rule)], most facts first
    aliases: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # a person's surname that is also a word of the KG's role names ("Banda", "Bishop"): a name only
    # after a title ("pres banda", "fm bishop"), and only where the KG confirms it (agents.analysis.entities)
    title_surnames: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # words of the KG's relation and sector-role names: general English, never a lower-case name
    common_words: frozenset[str] = frozenset()
    max_tokens: int = 1


def build_name_tables(store: TKGStore) -> NameTables:
    tables = NameTables()
    tables.entities = sorted(store.entity_names())
    tables.fact_count = store.entity_fact_counts()
    for row, name in enumerate(tables.entities):
        display = store.display(name)
        key = normalize_name(display)
        if key:
            tables.by_key.setdefault(key, []).append(name)
        words = tuple(key.split())
        tables.entity_tokens.append(words)
        tables.max_tokens = max(tables.max_tokens, len(words))
        for word in set(words):
            tables.postings.setdefault(word, set()).add(row)
        for initials in {acronym(display), nested_acronym(display), compass_acronym(display)}:
            if initials is not None:
                tables.acronyms.setdefault(initials, []).append(name)
        if (match := _QUALIFIED.match(display)) and not noted(display):
            role, qualifier = match.group("role").strip(), match.group("qualifier").strip()
            tables.roles.setdefault(qualifier, []).append((role, name))
    country_keys = {normalize_name(text) for country, names in COUNTRY_ALIASES.items() for text in (country, *names)}
    for qualifier in tables.roles:
        key = normalize_name(qualifier)
        tables.qualifier_keys.setdefault(key, []).append(qualifier)
        if key.startswith("the "):
            tables.qualifier_keys.setdefault(key[4:], []).append(qualifier)
        for entity in tables.by_key.get(key, []):
            tables.qualifier_entity[qualifier] = entity
        # a qualifier that is no country and no entity of its own ("International", "Taliban", "Hamas") only
        # ever qualifies a role, as an adjective or a noun before it does: "the international media",
        # "taliban militants"
        if qualifier[:1].isupper() and qualifier not in tables.qualifier_entity and key not in country_keys:
            tables.adjective_keys.add(key)
    known = {normalize_name(q): q for q in tables.roles}
    for country, aliases in COUNTRY_ALIASES.items():
        if (qualifier := known.get(normalize_name(country))) is None:
            continue
        names = {normalize_name(text) for text in (country, *aliases)}
        plurals = [plural for a in aliases if (plural := demonym_plural(a)) is not None and normalize_name(plural) not in names]
        tables.nation_keys.update(normalize_name(plural) for plural in plurals)
        for alias in [*aliases, *plurals]:
            key = normalize_name(alias)
            if qualifier not in tables.qualifier_keys.setdefault(key, []):
                tables.qualifier_keys[key].append(qualifier)
            if alias in CASE_SENSITIVE or alias.replace(".", "") in CASE_SENSITIVE:
                tables.case_sensitive_keys[key] = alias.replace(".", "")
            if key != normalize_name(qualifier):
                tables.adjective_keys.add(key)
    # a qualifier of several capitalised words with no entity of its own is also written
    # by its initials, as "isil" for "Islamic State of Iraq and the Levant": four letters or more (three
    # spell words: "car", "tar"), no word of the KG's role and relation names, no other KG name's
    organisational = frozenset(w for roles in tables.roles.values() for role, _ in roles for w in normalize_name(role).split())
    tables.common_words = organisational | {
        w for r in store.relation_names() for w in normalize_name(store.relation_text(r)).split()
    }
    reserved = set(tables.by_key) | set(tables.qualifier_keys) | set(tables.acronyms) | tables.common_words
    for qualifier in list(tables.roles):
        initials = acronym(qualifier) if qualifier not in tables.qualifier_entity else None
        if initials is not None and len(initials) >= 4 and initials not in reserved:
            tables.qualifier_keys[initials] = [qualifier]
            tables.adjective_keys.add(initials)
    for country, cities in CAPITALS.items():  # "seoul's foreign ministry", "moscow's envoy"
        if (qualifier := known.get(normalize_name(country))) is None:
            continue
        for city in cities:
            if qualifier not in tables.qualifier_keys.setdefault(normalize_name(city), []):
                tables.qualifier_keys[normalize_name(city)].append(qualifier)
    add_aliases(store, tables, organisational)
    add_compass_initials(tables)
    return tables


def accepts_case(tables: NameTables, key: str, surface: str) -> bool:
    """"US" is the United States, "us" is a pronoun: case-sensitive aliases must be written as listed."""
    wanted = tables.case_sensitive_keys.get(key)
    return wanted is None or surface.replace(".", "").replace(" ", "") == wanted
