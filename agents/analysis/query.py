"""The typed query: what a question asks, and every constraint it states beyond MultiTQ's six shapes.

The analysis reads the event pattern; this module reads the rest, so nothing the user said is
ignored: what is asked, the constraints (a window, the n-th, most or least often, "apart from X"),
and what no (head, relation, tail, day) fact can represent (a place, a reason, a quantity...), which
makes the question unanswerable. The `Query` it fills in is the planner's contract (`actions.query`:
`Query.admits(program)` checks that a program carries out every constraint it states, and nothing it does not)."""

from __future__ import annotations

import re
from dataclasses import replace

from actions.query import Query
from agents.analysis.cues import AFTER_FIRST, WINDOW
from agents.analysis.grammar_words import _AGENT_SUFFIX, _IRREGULAR_PAST, GRAMMAR_WORDS
from agents.analysis.question_form import INTERROGATIVE
from agents.analysis.times import ORDINAL_WORDS, number
from agents.analysis.times import PATTERNS as TIMES
from agents.analysis.words import data, patterns

# ordinals as written; 1 is first (MultiTQ's first/last shapes), read by the question typing
_ORDINALS = {w: n for w, n in ORDINAL_WORDS.items() if 2 <= n <= 10} | {f"{n}{suffix}": n for n, suffix in zip(range(2, 11), ["nd", "rd", *["th"] * 7])}
_ORDINAL_WORD = "|".join(_ORDINALS)
# the words the query reads as its own constraints, not as the event's: an n-th, an extreme, a frequency, an exclusion's
# cue that names no act ("excluding" may be read as rejecting: the unsure check sees it)
CONSTRAINT_WORDS = frozenset({*_ORDINALS, "first", "last", "penultimate", "most", "least", "fewest", "often", "frequently", "times", "many", "apart", "besides", "aside"})
# the query's patterns (data/query_patterns.json: each with why it is read so, and the questions it is for)
PATTERNS = patterns("query_patterns", {"ORDINAL_WORD": _ORDINAL_WORD})
_OCCASIONS = GRAMMAR_WORDS["occasions"]  # nouns that count occurrences (days with an event), not entities
_QUANTITIES = GRAMMAR_WORDS["quantities"]  # nouns that count things no fact states: a quantity
_JOURNEYS = GRAMMAR_WORDS["journeys"]
_DESTINATIONS = frozenset({"places", "destinations", "locations", "stops"})  # where a journey went: a visit's other parties


def read_query(question: str, masked: str, times: int, entity_spans: list[tuple[int, int]]) -> Query:
    """The typed query of `question`, read off `masked` so a name ("Third Way") or a date never
    reads as a constraint."""
    if len(entity_spans) - len(_excluded(question, entity_spans)) == 1 and PATTERNS["where"].search(masked) and _JOURNEYS & set(re.findall(r"[a-z]+", masked.lower())):
        masked = PATTERNS["where"].sub("which country", masked)  # a journey's destination is a visit's other party, a country entity of the KG
    asks, count = "entity", None
    if PATTERNS["count"].search(masked):
        asks, count = "number", _count_unit(masked)
    elif PATTERNS["relations"].search(masked) and len(entity_spans) >= 2:
        asks = "relation"
    elif _is_yes_no(masked):
        asks = "yesno"
    extreme = "least" if PATTERNS["least"].search(masked) else "most" if PATTERNS["most"].search(masked) else None
    ordinal, from_end = _ordinal(AFTER_FIRST.sub("the second", masked))
    return Query(
        asks=asks,
        is_list=asks == "entity" and not extreme and not ordinal and _asks_list(masked),
        entity_type="country" if asks in ("entity", "number") and PATTERNS["country"].search(masked) and not PATTERNS["kinds_or"].search(masked) else None,
        count=count,
        ordinal=ordinal,
        from_end=from_end,
        extreme=extreme if asks in ("entity", "time") else None,
        window=times >= 2 and bool(WINDOW.search(masked)),
        excluded=_excluded(question, entity_spans),
        during=asks == "entity" and len(entity_spans) >= 2 and bool(PATTERNS["during"].search(masked)),
        unsupported=_unsupported(masked),
        ranked=next((r for r, (_, end) in enumerate(entity_spans, 1) if PATTERNS["ranked"].match(question, end)), None) if asks == "yesno" else None,
    )


def asked_by_noun(query: Query, active: str) -> Query:
    """`query` with what a question with no verb asks of its entity (`Query.attribute`, `Query.identity`),
    read off its active form (`agents.analysis.grammar`): a noun relating it to the one asked, or the entity itself."""
    m = PATTERNS["attribute"].match(active)
    if m is None or m.group("bare"):
        return replace(query, identity=m is not None)
    return replace(query, attribute=tuple(w for w in (m.group("noun") or m.group("owned")).lower().split() if w not in CONSTRAINT_WORDS))


# what a pattern finds that no fact states, and the refusal that says so (data/query_patterns.json "refuses"), in order
_REFUSALS = [(PATTERNS[key], entry["refuses"]) for key, entry in data("query_patterns")["patterns"].items() if "refuses" in entry]
# "the day before {E2} did", "a week after the election": an offset from an event, not from a stated date (`times.with_offsets`)
_EVENT_OFFSET = re.compile(TIMES["offset"].pattern + r"(?!\{T\d+\})", re.IGNORECASE)


def _unsupported(masked: str) -> str | None:
    """What the question asks about that no (head, relation, tail, day) fact states, or None."""
    for pattern, refusal in _REFUSALS:
        if found := pattern.search(masked):
            return refusal.format(words=repr(found.group(0).strip(" ,")), last=repr(found.group(0).split()[-1]))
    counted = PATTERNS["counted_noun"].search(masked) or PATTERNS["number_of"].search(masked)
    if counted and counted.group("noun").lower() in _QUANTITIES and not PATTERNS["actors_counted"].match(masked, counted.start()):
        return f"a quantity ({counted.group('noun')!r}: the KG records events between actors, not how many {counted.group('noun')})"
    if offset := _EVENT_OFFSET.search(masked):
        return f"a time offset from another event ({offset.group(0).strip()!r}: ARI reads before and after an event, not how long before or after)"
    if bound := TIMES["relative_bound"].search(masked):
        return f"a time bound ARI cannot read ({bound.group(0).strip(' ,')!r}: it names no date of its own)"
    return None


def unread_number(masked: str) -> str | None:
    """A number left in the masked question ("Between 10 and {T1}"): every date read is masked, so it was not understood."""
    return left.group(0) if (left := PATTERNS["leftover_number"].search(masked)) else None


# where the noun phrase after "how many" or "which" ends: the verb's auxiliary, a function or question word
_PHRASE_ENDS = GRAMMAR_WORDS["no_relation"] | GRAMMAR_WORDS["function_words"] | GRAMMAR_WORDS["do_auxiliaries"]


def _names_actors(word: str) -> bool:
    """A general noun for a party ("countries", "bodies") or an agent noun ("visitors"): any actor of a KG's facts."""
    return bool(PATTERNS["parties"].fullmatch(word) or re.fullmatch(_AGENT_SUFFIX, word))


def counts_a_quantity(query: Query, masked: str, name_words: frozenset[str]) -> Query:
    """`query`, unsupported when it counts a noun that is neither an occasion nor a kind of actor ("how many patents",
    "the number of goals"): an event KG counts days with an event or the actors of its facts, and an actor's kind is
    a general noun for a party or a word of the KG's own names ("how many ministries", "rebels"), whatever the KG."""
    counted = PATTERNS["counted_noun"].search(masked) or PATTERNS["number_of"].search(masked)
    if query.count != "entities" or query.unsupported or counted is None:
        return query
    phrase: list[str] = []  # the counted noun phrase, up to the verb's auxiliary: "how many new employees did"
    for w in re.findall(r"[a-z]+|\S", masked[counted.start("noun"):].lower())[:4]:
        forms = {w, w[:-1], w[:-2], w[:-3] + "y"} if w.endswith("s") else {w}
        if _names_actors(w) or forms & _OCCASIONS:  # "how many visitors": actors
            return query
        if w in _DESTINATIONS and _JOURNEYS & set(re.findall(r"[a-z]+", masked.lower())):  # a journey's places: the ones visited
            return query
        if w in _PHRASE_ENDS or not w.isalpha():  # the verb's auxiliary, a name or a time: the noun phrase has ended
            break
        if forms & name_words:
            return query
        phrase.append(w)
    if not phrase:  # "how many did ...": no noun
        return query
    return replace(query, unsupported=f"a quantity ({phrase[-1]!r}: the KG records events between actors, not how many {phrase[-1]})")


_VERB_FORM = re.compile(rf"[a-z]+(?:ed|ing)|{_IRREGULAR_PAST}")
_KNOWN_KINDS = GRAMMAR_WORDS["time_nouns"] | GRAMMAR_WORDS["occasions"] | GRAMMAR_WORDS["country_nouns"] | frozenset("one ones other kind kinds sort type event events".split())


def country_by_where(masked: str) -> bool:
    """Whether a country is asked only by "where" a journey went, no "country" said: "where" may ask the party visited too."""
    return bool(PATTERNS["where"].search(masked)) and not PATTERNS["country"].search(masked)


def asked_kind(masked: str) -> str | None:
    """The head noun of "which N" when N is no kind every event KG tells (a party noun, an agent noun, a country, a
    time): "which academy", "which brand". An event KG types its actors by their names only, so only an answer whose
    name says it is an N is one."""
    if (which := PATTERNS["which_kind"].search(masked)) is None:
        return None
    phrase: list[str] = []
    for w in which.group("phrase").lower().split():
        if w in _KNOWN_KINDS:  # "which foreign countries", "what year"
            return None
        if w in _PHRASE_ENDS or _VERB_FORM.fullmatch(w) or w.endswith("ly"):  # "which newspaper (publicly) criticized": it has ended
            break
        phrase.append(w)
    if not phrase:
        return None
    head = phrase[-1]
    forms = {head, head + "s", head[:-1] + "ies"} if not head.endswith("s") else {head, head[:-1], head[:-3] + "y"}
    return None if any(_names_actors(f) for f in forms) else head


def _count_unit(masked: str) -> str:
    """Occasions ("how many times": distinct days) or distinct entities ("how many countries")."""
    noun = PATTERNS["counted_noun"].search(masked) or PATTERNS["number_of"].search(masked)
    return "days" if noun is None or noun.group("noun").lower() in _OCCASIONS else "entities"


def _ordinal(masked: str) -> tuple[int | None, bool]:
    for match in PATTERNS["ordinal"].finditer(masked):
        if match.group("penultimate"):
            return 2, True
        if PATTERNS["ordinal_day"].match(masked[match.end():]):
            continue
        word = match.group("word") or match.group("bare") or match.group("timed") or match.group("owned") or match.group("placed") or match.group("ranked") or match.group("adverb")
        return number(word) or 1, bool(match.group("end") or match.group("bare_end") or match.group("owned_end") or match.group("placed_end"))
    return None, False


def _asks_list(masked: str) -> bool:
    """Every answer is asked for: a list request, a plural "which countries", or "who" / "whom"
    with nothing that picks one ("the first", "last", "most recent", "only")."""
    if PATTERNS["list"].search(masked) or ((noun := PATTERNS["asked_noun"].search(masked)) is not None and noun.group("parties")):
        return True
    if PATTERNS["who"].search(masked) and not PATTERNS["picks_one"].search(masked):
        return True
    plural = PATTERNS["plural_wh"].search(masked)
    return plural is not None and plural.group("noun").lower() not in GRAMMAR_WORDS["not_list_nouns"]


def _is_yes_no(masked: str) -> bool:
    """A yes/no question: an auxiliary opens it (or "tell me whether ..."), and no question word or
    indefinite ("Did anyone visit X?" asks who) makes it ask for an entity or a time."""
    if len(re.findall(r"[\w{}]+", masked)) < 3 or PATTERNS["request_opening"].search(masked):
        return False  # a bare name with a question mark ("Iran?") asks nothing; a request asks what it names
    if INTERROGATIVE.search(masked) or PATTERNS["indefinite"].search(masked):
        return bool(PATTERNS["asks_if"].search(masked)) and not INTERROGATIVE.search(masked)
    return bool(PATTERNS["auxiliary_opening"].search(masked) or PATTERNS["asks_if"].search(masked) or masked.rstrip().endswith("?") and not PATTERNS["asked_noun"].search(masked))


def _excluded(question: str, entity_spans: list[tuple[int, int]]) -> tuple[int, ...]:
    """The roles of entities named after "apart from", "except", "other than", "(not" ... within a few words of
    the cue ("not counting trips inside {E2}"), and the names joined to that one ("apart from {E2} and {E3}"), or set
    aside after their name ("leaving {E2} aside")."""
    roles = [role for role, (_, end) in enumerate(entity_spans, 1) if re.match(r"\s+(?:itself\s+|himself\s+|herself\s+)?aside\b", question[end:], re.IGNORECASE)]
    for match in PATTERNS["except"].finditer(question):
        at, gap = match.end(), r"[\s,]*(?:[a-z]+\s+){0,3}?(?:the\s+)?"
        for role, (start, end) in sorted(enumerate(entity_spans, 1), key=lambda pair: pair[1]):
            if start >= at and re.fullmatch(gap, question[at:start]) and role not in roles:
                roles.append(role)
                at, gap = end, r"\s*(?:,|,?\s+(?:and|or|nor))\s+(?:the\s+)?"  # a list of names goes on
    return tuple(sorted(roles))
