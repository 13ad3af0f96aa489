"""Tokens of question text and the name tables built once per store for linking.

Matching is done on `normalize_name` keys of token n-grams ("Kōichirō Genba" meets `Koichiro_Genba`).
Names `Role_(Qualifier)` are also indexed by qualifier, so "a Malaysian judge" is resolved by finding
the qualifier first and then the role among its few.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from agents.analysis.aliases import (
    ACRONYM,
    AMPERSAND,
    CAPITAL,
    CLUB,
    COMPASS,
    COUNTRY_FORM,
    COUNTRY_INITIALS,
    FIRST_NAME,
    HONORIFIC,
    INITIALS,
    NAMESAKE,
    PATRONYMIC,
    SURNAME,
    UN_BODY,
    acronym,
    ampersand,
    club_forms,
    compass_acronym,
    country_forms,
    first_name,
    has_regnal_number,
    initials_variant,
    is_title,
    nested_acronym,
    patronymic,
    person_aliases,
    person_like,
    role_word_surname,
    titled_surname,
    un_body,
    without_honorific,
)
from agents.analysis.ambiguity import namesake_base, noted
from agents.analysis.demonyms import CASE_SENSITIVE, capitals, country_aliases, demonym_plural
from tkg_store.store import TKGStore, normalize_name

_TOKEN = re.compile(r"[^\W_]+(?:[.\-'’][^\W_]+)*\.?|['’]s\b|[?,;:/()]")
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
    """`ngram_key` with each hyphenated word closed up: "non-aligned movement" -> "nonaligned movement"
    (a prefix or compound written with a hyphen in the question and as one word in the KG's name), and
    a prefix written apart closed onto the word after it ("non aligned movement")."""
    words = [t.key.replace(" ", "") if "-" in t.text else ("s" if t.key == "'s" else t.key) for t in tokens[i:j] if t.key]
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
    for qualifier in tables.roles:
        key = normalize_name(qualifier)
        tables.qualifier_keys.setdefault(key, []).append(qualifier)
        if key.startswith("the "):
            tables.qualifier_keys.setdefault(key[4:], []).append(qualifier)
        for entity in tables.by_key.get(key, []):
            tables.qualifier_entity[qualifier] = entity
    known = {normalize_name(q): q for q in tables.roles}
    for country, aliases in country_aliases().items():
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
    # a qualifier that is no country and no entity of its own ("International", "Taliban", "Hamas") only
    # ever qualifies a role, as an adjective or a noun before it does: "the international media",
    # "taliban militants"
    country_keys = {normalize_name(text) for country, names in country_aliases().items() for text in (country, *names)}
    for qualifier in tables.roles:
        key = normalize_name(qualifier)
        if qualifier[:1].isupper() and qualifier not in tables.qualifier_entity and key not in country_keys:
            tables.adjective_keys.add(key)
    # a qualifier of several capitalised words with no entity of its own is also written
    # by its initials, as "isil" for "Islamic State of Iraq and the Levant": four letters or more (three
    # spell words: "car", "tar"), no word of the KG's role and relation names, no other KG name's
    tables.common_words = frozenset(_role_words(tables)) | {
        w for r in store.relation_names() for w in normalize_name(store.relation_text(r)).split()
    }
    reserved = set(tables.by_key) | set(tables.qualifier_keys) | set(tables.acronyms) | tables.common_words
    for qualifier in list(tables.roles):
        initials = acronym(qualifier) if qualifier not in tables.qualifier_entity else None
        if initials is not None and len(initials) >= 4 and initials not in reserved:
            tables.qualifier_keys[initials] = [qualifier]
            tables.adjective_keys.add(initials)
    for country, cities in capitals().items():  # "seoul's foreign ministry", "moscow's envoy"
        if (qualifier := known.get(normalize_name(country))) is None:
            continue
        for city in cities:
            if qualifier not in tables.qualifier_keys.setdefault(normalize_name(city), []):
                tables.qualifier_keys[normalize_name(city)].append(qualifier)
    _add_aliases(store, tables)
    _add_compass_initials(tables)
    return tables


_COMPASS_WORDS = frozenset({"north", "south", "east", "west"})


def _add_compass_initials(tables: NameTables) -> None:
    """A compass word written as its initial, as in newspaper headlines and chat: "S Korea", "S.
    Africa", "N Korean" for the KG's "South Korea", "South Africa" and their demonyms (countries and
    qualifiers of sector roles alike); a key the KG already uses stays as it is."""
    def short(key: str) -> str | None:
        words = key.split()
        if len(words) < 2 or words[0] not in _COMPASS_WORDS:
            return None
        initial = " ".join([words[0][0], *words[1:]])
        return None if initial in tables.by_key or initial in tables.aliases else initial

    for key, qualifiers in list(tables.qualifier_keys.items()):
        if (initial := short(key)) is not None:
            tables.qualifier_keys.setdefault(initial, []).extend(q for q in qualifiers if q not in tables.qualifier_keys.get(initial, []))
            for keys in (tables.adjective_keys, tables.nation_keys):
                if key in keys:
                    keys.add(initial)
    for key, entities in list(tables.by_key.items()):
        if (initial := short(key)) is not None:
            tables.aliases[initial] = [(entity, COMPASS) for entity in entities]


def accepts_case(tables: NameTables, key: str, surface: str) -> bool:
    """"US" is the United States, "us" is a pronoun: case-sensitive aliases must be written as listed."""
    wanted = tables.case_sensitive_keys.get(key)
    return wanted is None or surface.replace(".", "").replace(" ", "") == wanted


def _role_words(tables: NameTables) -> frozenset[str]:
    """The words of the KG's sector-role names ("ministry", "party", "police")."""
    return frozenset(w for roles in tables.roles.values() for role, _ in roles for w in normalize_name(role).split())


def _add_aliases(store: TKGStore, tables: NameTables) -> None:
    """Surnames, first-and-last names and acronyms of the store's names (agents.analysis.aliases)."""
    organisational = _role_words(tables)
    places = {normalize_name(text) for country, names in country_aliases().items() for text in (country, *names)}
    # a name opening with a country's adjective is an organisation's ("Norwegian Red Cross"), no person's
    demonyms = {normalize_name(text) for names in country_aliases().values() for text in names if not text.isupper()}
    found: dict[str, list[tuple[str, str]]] = {}
    firsts: list[tuple[str, str]] = []
    persons: set[str] = set()
    role_surnames: list[tuple[str, str]] = []  # (surname that is a role word, entity)
    for name in tables.entities:
        display = store.display(name)
        opening = normalize_name(display.split()[0]) if display.split() else ""
        bare = without_honorific(display)  # "Tan Sri Muhyiddin Yassin" -> "Muhyiddin Yassin", "Juan Carlos I" -> "Juan Carlos"
        if bare != display and normalize_name(bare):
            found.setdefault(normalize_name(bare), []).append((name, HONORIFIC))
        if (shared := namesake_base(display)) is not None:
            found.setdefault(normalize_name(shared), []).append((name, NAMESAKE))
        regnal = has_regnal_number(display)
        personal = normalize_name(display) not in places and opening not in demonyms
        if personal and (person_like(bare, organisational) or (regnal and len(bare.split()) == 1)):
            persons.add(name)  # a person even with no other name ("Wang Yi"): a title before it is part of it
            if not regnal:  # a monarch's given names are no surname ("Carlos" of Juan Carlos I)
                for key, rule in person_aliases(bare):
                    found.setdefault(key, []).append((name, rule))
                if (cut := patronymic(bare)) is not None:
                    found.setdefault(cut, []).append((name, PATRONYMIC))
            if (word := first_name(bare)) is not None:
                firsts.append((word, name))
        if personal and (last := role_word_surname(bare, organisational)):
            role_surnames.append((last, name))
        if "(" not in display and (variant := initials_variant(normalize_name(display))) is not None:
            found.setdefault(variant, []).append((name, INITIALS))  # "un security council" <-> "united nations ..."
            # a UN body is named without "UN" too, "the Security Council" (general usage)
            if (body := un_body(normalize_name(display))) is not None:
                found.setdefault(body, []).append((name, UN_BODY))
        if (titled := titled_surname(display, organisational)) is not None:
            found.setdefault(titled, []).append((name, SURNAME))  # "Minister Patnaik" -> "patnaik"
        if (joined := ampersand(display)) is not None:
            found.setdefault(joined, []).append((name, AMPERSAND))
        for key in club_forms(display):
            found.setdefault(key, []).append((name, CLUB))  # "hellas verona football club", "hellas verona"
    people = persons | {name for entries in found.values() for name, rule in entries if rule not in (AMPERSAND, INITIALS, UN_BODY, CLUB)}
    tables.people = people
    # a surname that is a role word ("Banda", "Bishop") where no other name ends in that word and at most
    # two names do: "X Party", "Y Army" are organisations' heads, not surnames
    by_last: dict[str, list[str]] = {}
    for last, name in role_surnames:
        by_last.setdefault(last, []).append(name)
    candidates = {name for _, name in role_surnames}
    heads = {normalize_name(store.display(name)).rsplit(" ", 1)[-1] for name in tables.entities
             if name not in candidates and "(" not in store.display(name)}
    role_texts = {normalize_name(role) for roles in tables.roles.values() for role, _ in roles}
    for last, names in by_last.items():
        in_roles = sum(last in text.split() for text in role_texts)  # "Bishop", "Catholic Bishop": a rare role word
        if len(names) <= 2 and last not in heads and in_roles <= 2 and not is_title(last):
            tables.title_surnames[last] = [(name, SURNAME) for name in names]
            tables.people.update(names)
    # "iraq's communist party", "the communist party of iraq" for `Iraqi_Communist_Party` (no person, no country)
    # a country's first-listed adjective only: "Korean" may be either Korea's
    countries = {normalize_name(c) for c in country_aliases()} & (set(tables.by_key) | {normalize_name(q) for q in tables.roles})
    first_adjective = {
        normalize_name(c): next((normalize_name(a) for a in names if not a.replace(".", "").isupper() and normalize_name(a) != normalize_name(c)), "")
        for c, names in country_aliases().items() if normalize_name(c) in countries
    }
    adjective_of = {a: c for c, a in first_adjective.items() if a}
    for name in tables.entities:
        display = store.display(name)
        if name in people or normalize_name(display) in places:
            continue
        if not any(len(w) > 2 and w in organisational and w not in places for w in normalize_name(display).split()):
            continue  # no word of an organisation's ("party", "bank", "army"): "Germán Verdugo" is a person's name
        for key in country_forms(display, adjective_of, first_adjective):
            found.setdefault(key, []).append((name, COUNTRY_FORM))
    for word, name in firsts:  # beside the surnames of the word: the KG's facts choose (agents.analysis.ambiguity)
        if word not in tables.common_words:
            found.setdefault(word, []).append((name, FIRST_NAME))
    for key, names in tables.acronyms.items():
        # two initials of a person's name are no acronym ("EU" is not Ernst Uhrlau); three may be
        found.setdefault(key, []).extend((name, ACRONYM) for name in names if len(key) >= 3 or name not in people)
    for country, cities in capitals().items():
        for entity in tables.by_key.get(normalize_name(country), []):
            for capital in cities:
                found.setdefault(normalize_name(capital), []).append((entity, CAPITAL))  # "seoul" -> South_Korea
    for key, entries in found.items():
        only_capital = all(rule == CAPITAL for _, rule in entries)  # also a qualifier: "seoul's ministry"
        if not entries or key in tables.by_key or (key in tables.qualifier_keys and not only_capital):
            continue  # a name of its own ("Jordan") or a country's short form ("EU") is read as that
        entries.sort(key=lambda entry: (-tables.fact_count.get(entry[0], 0), entry[0]))
        tables.aliases[key] = entries
    # a country's initials ("UAE") name the country itself where it is an entity; its demonyms and
    # other short forms ("Emirati") stay qualifiers of its sector roles
    for country, short_forms in country_aliases().items():
        for entity in tables.by_key.get(normalize_name(country), []):
            for short in short_forms:
                if short.replace(".", "").isupper() and normalize_name(short) not in tables.by_key:
                    tables.aliases.setdefault(normalize_name(short), []).append((entity, COUNTRY_INITIALS))
