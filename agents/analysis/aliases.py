"""Names people use for KG entities, derived from the KG's own names by general rules of English naming.

People write "Merkel" for `Angela_Merkel`, "the IMF" for `International_Monetary_Fund`, "S Korea" for
South Korea. Each function below is one convention of English naming, applied to every name of the
store. A name is a person's when it has two to four words, none a word of the KG's sector-role names
("Ministry", "Party") or a country, and no digits or parentheses.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from agents.analysis.demonyms import CAPITALS, COUNTRY_ALIASES
from agents.analysis.words import DATA, word_tables
from tkg_store.store import namesake_base, normalize_name

if TYPE_CHECKING:
    from agents.analysis.names import NameTables
    from tkg_store.store import TKGStore

SURNAME = "surname"
FIRST_LAST = "first and last name"
ACRONYM = "acronym"
FIRST_NAME = "first word of a person's name"
AMPERSAND = "'and' for '&'"
HONORIFIC = "name without its honorific or regnal number"
PATRONYMIC = "given name and father's name"
INITIALS = "initials written for a name inside it"
CAPITAL = "capital for its country"
COUNTRY_INITIALS = "initials of the country"
COMPASS = "compass word written as its initial"
COUNTRY_FORM = "the country's name in another form (adjective, possessive, 'of')"
UN_BODY = "a UN body's name without 'UN'"
NAMESAKE = "a name without the id that tells it from its namesakes"
CLUB = "a club's name with its initials written out, or without them"
LEARNED = "a name people used for it in labelled questions"

# names learned from labelled questions (benchmarks/learn_aliases.py): no rule of English makes "B-Rabbit" Eminem
LEARNED_TABLES = tuple(sorted(DATA.glob("*_aliases.json")))
# general-English words of names (data/name_words.json, where each table says what it holds and why)
NAME_WORDS = DATA / "name_words.json"
NAME_WORD_TABLES = word_tables("name_words")
_PARTICLES = NAME_WORD_TABLES["particles"]
# honorifics left out before a name in running text ("Tan Sri", "Sheikh"), the longest first
_HONORIFICS = tuple(sorted((tuple(h.split()) for h in NAME_WORD_TABLES["honorifics"]), key=lambda h: (-len(h), h)))
_LONGEST_HONORIFIC = max(len(h) for h in _HONORIFICS)
_REGNAL = re.compile(r"\s+(?:I|II|III|IV|V|VI|VII|VIII|IX|X|XI|XII|XIII|XIV|XV|XVI)$")
TITLE_ABBREVIATIONS = NAME_WORD_TABLES["title_abbreviations"]  # "gov lingle", "pres obama"
_TITLES = NAME_WORD_TABLES["titles"]  # titles of office before a person's name
# every word written before a name as its title: "former pm", "opposition leader", "army chief", "sheikh"
_BEFORE_NAME = _TITLES | TITLE_ABBREVIATIONS | NAME_WORD_TABLES["title_words"] | {h[0] for h in _HONORIFICS if len(h) == 1}
_CONNECTORS = frozenset(["of", "the", "and", "for", "on", "in", "de", "du", "des", "la", "le", "el", "al"])


def is_title(word_key: str) -> bool:
    """Whether a normalised word is a title of office or an honorific written before a name
    ("chancellor", "king", "sheikh", "gov", "ex-president"): no surname where a name follows it, and
    part of the name it stands before."""
    words = word_key.split()  # "ex chancellor", "vice president": a hyphenated title
    return bool(words) and all(w in _BEFORE_NAME for w in words)


def without_honorific(display: str) -> str:
    """The name without a leading honorific ("Tan Sri Muhyiddin Yassin" -> "Muhyiddin Yassin") or a
    trailing regnal number ("Juan Carlos I" -> "Juan Carlos"); the name itself where it has neither."""
    words = display.split()
    leading = tuple(normalize_name(w) for w in words[:_LONGEST_HONORIFIC])  # once: every name of a store comes here
    for honorific in _HONORIFICS:
        n = len(honorific)
        if len(words) > n + 1 and leading[:n] == honorific:
            words = words[n:]
            break
    return _REGNAL.sub("", " ".join(words))


def has_regnal_number(display: str) -> bool:
    """Whether the name ends in a monarch's or pope's number ("Juan Carlos I", "Elizabeth II")."""
    return bool(_REGNAL.search(display))


def patronymic(display: str) -> str | None:
    """An Arab name cut after the father's name: "Hamad bin Khalifa al-Thani" -> "hamad bin khalifa"
    (the given name, "bin"/"ibn", the father's name), where a family name follows."""
    words = display.split()
    for k in range(1, len(words) - 2):
        if words[k].lower() in NAME_WORD_TABLES["patronymic"] and words[k + 1][:1].isupper():
            return normalize_name(" ".join(words[: k + 2]))
    return None


def person_like(display: str, organisational: frozenset[str]) -> bool:
    """Whether a display name reads as a person's name (see the module docstring): two to four words
    besides its particles ("bin", "al"), six at most in all; an initial ("D.") is no role word."""
    if "(" in display or any(c.isdigit() for c in display):
        return False
    words = display.split()
    if not 2 <= len(words) <= 6 or len([w for w in words if w.lower() not in _PARTICLES]) > 4:
        return False  # "Al Gore", "Hamad bin Isa al Khalifah"
    if not all(w[:1].isupper() or _particle(w) for w in words):
        return False
    return not any(w in organisational and len(w) > 1 for w in normalize_name(display).split())


def role_word_surname(display: str, organisational: frozenset[str]) -> str | None:
    """The surname of a person's name whose only role word is that surname ("Rupiah Banda", "Julie
    Bishop": `person_like` refuses them); None for other names."""
    words = display.split()
    if "(" in display or any(c.isdigit() for c in display) or not 2 <= len(words) <= 3:
        return None
    if not all(w[:1].isupper() for w in words):
        return None
    keys = [normalize_name(w) for w in words]
    if any(" " in k for k in keys) or keys[-1] not in organisational or len(keys[-1]) < 4:
        return None
    return keys[-1] if not any(k in organisational for k in keys[:-1]) else None


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
    if len(words) >= 3 and words[-2].lower() in NAME_WORD_TABLES["servant_of"]:
        found.append((normalize_name(" ".join(words[-2:])), SURNAME))  # "Abdel Aziz" of Mohamed Ould Abdel Aziz
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
    """The first word of a person's name, as people name those whose family name comes first ("Hui" of Hui
    Liangyu, "Kim" of Kim Jong-Chul) or by a rare given name ("Lien"): nothing in a name tells which order
    it has, so it is one reading beside the surnames, for the KG's facts to choose among."""
    key = normalize_name(display.split()[0])
    return key if len(key) >= 2 and key.isalpha() and key not in _PARTICLES and not is_title(key) else None


def ampersand(display: str) -> str | None:
    """The key of a name with "&" written as "and" ("Ernst & Young" -> "ernst and young")."""
    return normalize_name(display.replace("&", " and ")) if "&" in display else None


def shortens(word: str, full: str) -> bool:
    """`word` is the last word of `full`, a person's name (capitalised words, no "of", "the", "for": "Park" of "Lena Park",
    not "China" of "South China Sea"), or initials of its capitalised words in order, the first kept and some left out
    (three letters at least, written in capitals)."""
    words = [w for w in re.findall(r"[\w']+", full) if w[:1].isupper()]
    if word[:1].isupper() and len(word) > 1 and words and word.lower() == words[-1].lower() and not _CONNECTORS & set(full.lower().split()):
        return True
    initials = iter(w[0] for w in words)
    return len(word) >= 3 and word.isupper() and bool(words) and word[0] == words[0][0] and all(letter in initials for letter in word)


def acronym(display: str) -> str | None:
    """Initials of a name of two or more capitalised words, function words skipped ("eu", "unhcr")."""
    if "(" in display:
        return None
    words = [w for w in re.split(r"[\s\-/]+", display) if w]
    if len(words) < 2:
        return None
    # a dotted abbreviation gives all its letters, as people write "CCFC" for Coventry City F.C.
    initials = ["".join(p[0] for p in w.split(".") if p) if "." in w.strip(".") else w[0] for w in words if w[0].isupper()]
    if len(initials) < 2 or any(w.lower() not in _CONNECTORS and not w[0].isupper() for w in words):
        return None
    return "".join(initials).lower()


_COMPASS = re.compile(r"\b(North|South)(east|west)\b")


def compass_acronym(display: str) -> str | None:
    """The acronym of a name with a compound of compass points, which gives both of its initials
    ("Association of Southeast Asian Nations" -> "asean"); None for other names."""
    return acronym(_COMPASS.sub(lambda m: f"{m.group(1)} {m.group(2).capitalize()}", display)) if _COMPASS.search(display) else None


def nested_acronym(display: str) -> str | None:
    """Initials that keep an acronym inside the name whole, as people write them: "UN Security
    Council" -> "unsc" (`acronym` gives "usc"); None where the name has no such word."""
    if acronym(display) is None:
        return None
    words = [w for w in re.split(r"[\s\-/]+", display) if w and w[0].isupper()]
    if not any(len(w) >= 2 and w.isupper() and w.isalpha() for w in words):
        return None
    return "".join(w if w.isupper() and w.isalpha() else w[0] for w in words).lower()


def country_forms(display: str, demonyms: dict[str, str], countries: dict[str, str]) -> list[str]:
    """The other English forms (normalised keys) of an organisation named after its country: "Iraqi
    Communist Party" is also "Iraq's Communist Party" and "the Communist Party of Iraq". `demonyms`:
    adjective -> country key; `countries`: country key -> its first adjective's key."""
    key = normalize_name(display)
    words = key.split()
    if "(" in display or len(words) < 2:
        return []
    forms: list[str] = []
    if (country := demonyms.get(words[0])) is not None:
        rest = " ".join(words[1:])
        forms += [f"{country} s {rest}", f"{rest} of {country}"]
    match = re.match(r"^(.+?) of (?:the )?(.+)$", key)
    if match and match.group(2) in countries:
        rest, country = match.group(1), match.group(2)
        forms.append(f"{country} s {rest}")
        if countries[country]:
            forms.append(f"{countries[country]} {rest}")
    # a country's military is also called its army ("the hungarian army"), as a
    # sector role's is (agents.analysis.sectors)
    return forms + [re.sub(r"\bmilitary$", "army", form) for form in forms if form.endswith(" military")]


def initials_variant(key: str) -> str | None:
    """The normalised name with "united nations" written "un", or "un" written "united nations": the full name and
    the initials stand for each other inside longer names ("the UN Security Council", "the Office of the United
    Nations High Commissioner ...")."""
    padded = f" {key} "
    for written, other in ((" united nations ", " un "), (" un ", " united nations ")):
        if written in padded:
            return padded.replace(written, other).strip()
    return None


def un_body(key: str) -> str | None:
    """The name of a UN body without "UN" ("un security council" -> "security
    council"), as news English names it after the first mention; None for other names and for one word."""
    words = key.split()
    return " ".join(words[1:]) if len(words) >= 3 and words[0] == "un" else None


# Initials that end or open a sports club's name, and the words they stand for (general English usage of
# club names: "Arsenal F.C." is "Arsenal Football Club" and "Arsenal"; "A.F.C." is an association football club).
_CLUB_INITIALS = {"f c": "football club", "a f c": "association football club"}


def club_forms(display: str) -> list[str]:
    """Normalised keys of a club's name with its initials written out and closed up, and without them:
    "Hellas Verona F.C." -> "hellas verona football club", "hellas verona fc", "hellas verona"; []
    for a name with no such initials or nothing else."""
    words = display.split()
    for k, word in enumerate(words):
        initials = normalize_name(word)
        if "." not in word or initials not in _CLUB_INITIALS:
            continue
        before, after = " ".join(map(normalize_name, words[:k])), " ".join(map(normalize_name, words[k + 1 :]))
        forms = [_CLUB_INITIALS[initials], initials.replace(" ", ""), ""]
        return [" ".join(filter(None, (before, form, after))) for form in forms] if before or after else []
    return []


def fuller_name(written: list[str], own: list[str]) -> bool:
    """Whether `written` (normalised words) is the person's name `own` written in full, with more given
    names or initials ("Ian Richard Kyle Paisley", "E.H. Land"): the same surname, and each given
    name of `own`, in order, a word of `written` or its initial."""
    if len(own) < 2 or len(written) < 2 or written[-1] != own[-1] or written == own:
        return False
    k = 0
    for word in written[:-1]:
        given = own[k] if k < len(own) - 1 else ""  # written in full or as its initial ("Edwin" / "E", "D" / "Duncan")
        if given and (word == given or (len(word) == 1 and given.startswith(word)) or (len(given) == 1 and word.startswith(given))):
            k += 1
    return k == len(own) - 1


# -- the tables of a store: every rule above applied to every name ------------------------------


def add_compass_initials(tables: NameTables) -> None:
    """A compass word written as its initial, as in newspaper headlines and chat: "S Korea", "S.
    Africa", "N Korean" for the KG's "South Korea", "South Africa" and their demonyms (countries and
    qualifiers of sector roles alike); a key the KG already uses stays as it is."""
    def short(key: str) -> str | None:
        words = key.split()
        if len(words) < 2 or words[0] not in NAME_WORD_TABLES["compass_words"]:
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

def add_aliases(store: TKGStore, tables: NameTables, organisational: frozenset[str]) -> None:
    """Surnames, first-and-last names and acronyms of the store's names (the rules above);
    `organisational`: the words of the KG's sector-role names ("ministry", "party", "police")."""
    places = {normalize_name(text) for country, names in COUNTRY_ALIASES.items() for text in (country, *names)}
    # a name opening with a country's adjective is an organisation's ("Norwegian Red Cross"), no person's
    demonyms = {normalize_name(text) for names in COUNTRY_ALIASES.values() for text in names if not text.isupper()}
    found: dict[str, list[tuple[str, str]]] = {}
    firsts: list[tuple[str, str]] = []
    persons: set[str] = set()
    by_last: dict[str, list[str]] = {}  # a surname that is a role word -> the entities of that name
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
            by_last.setdefault(last, []).append(name)
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
    candidates = {name for names in by_last.values() for name in names}
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
    countries = {normalize_name(c) for c in COUNTRY_ALIASES} & (set(tables.by_key) | {normalize_name(q) for q in tables.roles})
    first_adjective = {
        normalize_name(c): next((normalize_name(a) for a in names if not a.replace(".", "").isupper() and normalize_name(a) != normalize_name(c)), "")
        for c, names in COUNTRY_ALIASES.items() if normalize_name(c) in countries
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
    for country, cities in CAPITALS.items():
        for entity in tables.by_key.get(normalize_name(country), []):
            for capital in cities:
                found.setdefault(normalize_name(capital), []).append((entity, CAPITAL))  # "seoul" -> South_Korea
    for key, entity in learned_aliases(store, set(tables.entities)).items():
        if entity not in {name for name, _ in found.get(key, ())}:  # a rule of English may have found it too
            found.setdefault(key, []).append((entity, LEARNED))
    for key, entries in found.items():
        only_capital = all(rule == CAPITAL for _, rule in entries)  # also a qualifier: "seoul's ministry"
        if not entries or key in tables.by_key or (key in tables.qualifier_keys and not only_capital):
            continue  # a name of its own ("Jordan") or a country's short form ("EU") is read as that
        entries.sort(key=lambda entry: (-tables.fact_count.get(entry[0], 0), entry[0]))
        tables.aliases[key] = entries
    # a country's initials ("UAE") name the country itself where it is an entity; its demonyms and
    # other short forms ("Emirati") stay qualifiers of its sector roles
    for country, short_forms in COUNTRY_ALIASES.items():
        for entity in tables.by_key.get(normalize_name(country), []):
            for short in short_forms:
                if short.replace(".", "").isupper() and normalize_name(short) not in tables.by_key:
                    tables.aliases.setdefault(normalize_name(short), []).append((entity, COUNTRY_INITIALS))


def learned_aliases(store: TKGStore, entities: set[str]) -> dict[str, str]:
    """The learned names (`LEARNED_TABLES`) of the store's `entities`, by key, from the tables learned on the store's KG:
    every relation of the store is one of the table's. A name means its entity only in the KG whose questions used it."""
    relations, learned = set(store.relation_names()), {}
    for path in LEARNED_TABLES:
        table = json.loads(path.read_text(encoding="utf-8"))
        if relations and relations <= set(table["relations"]):
            learned.update({normalize_name(surface): entity for surface, entity in table["aliases"].items() if entity in entities})
    return learned
