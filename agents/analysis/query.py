"""The typed query: what a question asks, and every constraint it states beyond MultiTQ's six shapes.

The analysis reads the event pattern; this module reads the rest, so nothing the user said is
ignored: what is asked, the constraints (a window, the n-th, most or least often, "apart from X"),
and what no (head, relation, tail, day) fact can represent (a place, a reason, a quantity...), which
makes the question unanswerable. The `Query` it fills in is the planner's contract (`actions.query`:
`Query.admits(program)` checks that a program carries out every constraint it states, and nothing it does not).
"""

from __future__ import annotations

import re
from dataclasses import replace

from actions.query import Query
from agents.analysis.cues import AFTER_FIRST, WINDOW
from agents.analysis.grammar_words import _AGENT_SUFFIX, _IRREGULAR_PAST, GRAMMAR_WORDS
from agents.analysis.question_form import INTERROGATIVE
from agents.analysis.times import OFFSET, ORDINAL_WORDS, RELATIVE_BOUND, number
from agents.analysis.words import english

# ordinals as written; 1 is first (MultiTQ's first/last shapes), read by the question typing
_ORDINALS = {w: n for w, n in ORDINAL_WORDS.items() if 2 <= n <= 10} | {f"{n}{suffix}": n for n, suffix in zip(range(2, 11), ["nd", "rd", *["th"] * 7])}
_ORDINAL_WORD = "|".join(_ORDINALS)
# the words the query reads as its own constraints, not as the event's: an n-th, an extreme, a frequency
CONSTRAINT_WORDS = frozenset({*_ORDINALS, "first", "last", "penultimate", "most", "least", "fewest", "often", "frequently", "times", "many"})
# "second to last", "second from the end", "second last", "third-latest": counted from the end
_TO_LAST = r"(?:\s*[-\s]\s*|\s+)(?:(?:to|from)(?:\s*[-\s]\s*|\s+)(?:the\s+)?(?:last|latest|end)|(?:last|latest)\b)"
# an ordinal names the n-th when it is a determiner ("the second to visit", "for the third time") or
# counts from the end ("second to last"); an adjective ("a third location", "third parties") does not
_ORDINAL = re.compile(
    rf"\bthe\s+(?:very\s+)?(?P<word>{_ORDINAL_WORD})\b(?P<end>{_TO_LAST})?"
    rf"|\b(?P<bare>{_ORDINAL_WORD})(?P<bare_end>{_TO_LAST})\b"
    rf"|\b(?P<timed>{_ORDINAL_WORD})\s+(?:time|visit|occasion)\b"
    r"|\b(?P<penultimate>penultimate|next[\s-]+to[\s-]+(?:the[\s-]+)?last|last[\s-]+but[\s-]+one)\b"
    # a possessive is a determiner too ("his second trip", "{E1}'s third visit")
    rf"|(?:\b(?:his|her|its|their)|\}}'s)\s+(?P<owned>{_ORDINAL_WORD})\b(?P<owned_end>{_TO_LAST})?"
    # an ordinal after a verb of placing ranks the subject ("who came third among the visitors", "which country ranked second")
    rf"|\b(?:came|comes|come|ranked|ranks|finished|placed)\s+(?P<placed>{_ORDINAL_WORD})\b(?P<placed_end>{_TO_LAST})?"
    # "who was third to visit {E1}": an ordinal before an infinitive ranks its doer
    rf"|\b(?:was|is|were|are)\s+(?P<ranked>{_ORDINAL_WORD})\s+to\s+(?!last\b|latest\b|the\b|none\b|nothing\b|\{{)"
    # an ordinal adverb closes its clause ("whom did X praise third in 2010?"): an adjective is followed by its noun
    rf"|\b(?P<adverb>{_ORDINAL_WORD})(?=\s*(?:[?.!,]|$|(?:in|on|during|within|after|before|between)\b|\{{T\d\}}))",
    re.IGNORECASE,
)
# a date's ordinal day ("the third of May") is a time, not an n-th
_ORDINAL_DAY = re.compile(r"^\s+of\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\{T\d\})", re.IGNORECASE)

# "Count the days on which ...": an imperative count asks how many too
_COUNT = re.compile(r"\bhow\s+(?:many|often|frequently|much(?=\s+times\b))\b|(?<!est\s)(?<!most\s)(?<!least\s)\b(?:number|count)\s+of\b|^\W*count\s+(?:up\s+)?(?:all\s+)?(?:the\b|\{E\d+\}['’]s?\s)", re.IGNORECASE)
_COUNTED_NOUN = re.compile(r"\bhow\s+many\s+(?:different\s+|distinct\s+|separate\s+)?(?P<noun>[a-z]+)", re.IGNORECASE)
_NUMBER_OF = re.compile(r"\b(?:number|count)\s+(?:of|(?:up\s+)?(?:all\s+)?(?:the|\{E\d+\}['’]s?))\s+(?:different\s+|distinct\s+)?(?P<noun>[a-z]+)", re.IGNORECASE)
_OCCASIONS = GRAMMAR_WORDS["occasions"]  # nouns that count occurrences (days with an event), not entities
_QUANTITIES = GRAMMAR_WORDS["quantities"]  # nouns that count things no fact states: a quantity
_HOW_MUCH = re.compile(r"\bhow\s+much\b(?!\s+times\b)", re.IGNORECASE)  # "how much times": a slip for "how many"
_TIME_OF_DAY = re.compile(r"\btime\s+of\s+(?:the\s+)?day\b|\b(?:what|which)\s+hour\b|\bo['’]clock\b", re.IGNORECASE)
_HOW_LONG = re.compile(r"\bhow\s+long\b", re.IGNORECASE)
# "how" + an adverb or adjective of degree or manner ("how strongly", "how hard", "how badly", "to what extent")
_DEGREE = re.compile(
    r"\bhow\s+(?!many\b|much\b|often\b|frequently\b|long\b|come\b|did\b|does\b|do\b|was\b|were\b|is\b|are\b|has\b|have\b|had\b)"
    r"(?P<word>[a-z]+ly|hard|harsh|bad|badly|serious|strong|severe|big|large|far|well|angry|warm|close)\b"
    r"|\bto\s+what\s+(?:extent|degree)\b|\bin\s+what\s+(?:way|manner|tone)\b|\b(?:with|using|by)\s+(?:what|which)\s+(?:weapons?|arms|means|methods?|tools?|vehicles?)\b",
    re.IGNORECASE,
)
# what was said ("What did {E1} say about {E2}?"): a statement is recorded, never its content; "will": no fact is dated ahead
_SAID = re.compile(r"^\W*what\s+(?:did|does|do|has|have|had)\s+\{E\d+\}\s+(?:\w+ly\s+)?(?:say|state|announce|declare|claim|tell|write|promise|propose)\b", re.IGNORECASE)
_FUTURE = re.compile(r"\b(?:will|shall)\s+(?!you\b|u\b|we\b)|\bis\s+going\s+to\s+(?=\w+\s)", re.IGNORECASE)
_REASON = re.compile(r"\bwhy\b|\bfor\s+what\s+reason\b|\bwhat\s+(?:was|were|is)\s+the\s+(?:reason|cause|motive)s?\b|\bwhat\s+for\b", re.IGNORECASE)
_JOURNEYS, _WHERE = GRAMMAR_WORDS["journeys"], re.compile(r"\bwhere\b", re.IGNORECASE)
_DESTINATIONS = frozenset({"places", "destinations", "locations", "stops"})  # where a journey went: a visit's other parties
_PLACE_WORD = re.compile(r"\bwhere\b|\b(?:which|what)\s+(?:city|cities|place|town|venue|location|capital|hotel|summit|conference|site|village|airport|building)\b", re.IGNORECASE)

# what happened between two entities: the relations are asked
_RELATIONS = re.compile(
    r"\bwhat\s+(?:(?:kinds?|sorts?|types?)\s+of\s+(?:things?|stuff)\s+)?(?:has\s+|had\s+)?happened\b|\bwhat\s+(?:went\s+on|took\s+place|occurred)\b"
    r"|\bhow\s+did\b.*\b(?:interact|relate)\b|\binteract(?:ed|ions?)?\b|\b(?:kind|type|sort)s?\s+of\s+(?:interactions?|relations?|relationships?|events?|contacts?|dealings)\b"
    r"|\b(?:what|which)\s+(?:events?|interactions?|relations?|relationships?|contacts?|dealings|actions?)\b"
    r"|\bwhat\s+(?:did|was|were|is|are|has|have)\b.*\b(?:do|doing|done)\s+(?:to|with)\b|\bwhat\s+did\s+\{E\d\}\s+and\s+\{E\d\}\s+do\b"
    r"|\b(?:relations?|relationships?|interactions?|dealings|contacts?)\s+between\s+\{E\d\}\s+and\s+\{E\d\}"
    # "what ... between X and Y" with no other event named ("what were the relations between"): the interactions of the pair
    r"|^\W*what\b(?:\s+(?:was|were|has|had|is|are|been|going|on|went|passed|occurred|took|place|kind|sort|type|of|the|relations?|relationships?))*\s+between\s+\{E\d\}\s+and\s+\{E\d\}",
    re.IGNORECASE,
)

_CLOSES = r"(?=\s*(?:[?.!,]|$|(?:in|on|during|within|between|since|before|after|until|over)\b|\{T\d\}))"  # "visit most in {T1}": an adverb
_MOST = re.compile(rf"\b(?:most|greatest|largest|highest|biggest)\s+(?:often|frequently|times|regularly|visits|frequent|number\s+of)\b|\bthe\s+most\b(?!\s+recent)|\bmost\b{_CLOSES}|\bmore\s+(?:often\s+)?than\s+any(?:one|body)?\b|\bat\s+most\b", re.IGNORECASE)
_LEAST = re.compile(rf"\b(?:least|fewest|smallest|lowest)\s+(?:often|frequently|times|number\s+of)\b|\bthe\s+least\b|\bfewest\b|\bleast\b{_CLOSES}", re.IGNORECASE)

# a list is asked: a plural noun after which/what, "who all", "list", "all the", "everyone who"
# (irregular plurals too: "which people", "what children")
_PLURAL_WH = re.compile(r"\b(?:which|what)\s+(?:other\s+|different\s+)?(?P<noun>[a-z]+s|people|men|women|children)\b", re.IGNORECASE)
# general nouns for the actors an event KG's facts join (a KG's own kinds of actor are words of its names)
_PARTIES = (r"countries|nations|states|people|persons|leaders|entities|ones|actors|parties|organi[sz]ations|groups|partners|counterparts"
            r"|individuals|officials|sides|allies|neighbou?rs|rivals|enemies|friends|opponents|adversaries|donors|recipients|members"
            r"|bodies|institutions|authorities|governments|administrations|agencies|powers|regimes|forces|politicians|figures|targets|victims"
            r"|heads|representatives|delegations|envoys|diplomats")
# "how many different people", "how many persons or countries": told apart or named beside a kind of actor, they are
# the actors of the facts (distinct entities), not a quantity such as casualties
_ACTORS_COUNTED = re.compile(rf"\w+\s+\w+\s+(?:(?:different|distinct|separate)\s+\w+|\w+\s+(?:or|and)\s+(?:{_PARTIES}))\b", re.IGNORECASE)
_LIST = re.compile(
    rf"\bwho\s+all\b|\ball\s+(?:the\s+)?(?:{_PARTIES})\b"
    r"|\b(?:everyone|everybody|every\s+(?:country|one|nation|actor|party))\b|\blist\s+(?:all|every|each)\b|\b(?:which|who)\s+(?:were|are)\s+(?:they|those|all)\b"
    r"|\bwho\s+(?:were|are)\s+(?:the\s+)?(?:countries|nations|people|ones|actors)\b",
    re.IGNORECASE,
)
# a keyword query names what it asks by a noun, with no question word: "countries {E1} visited in {T1}?" (every one),
# "date of {E1}'s second visit?"; it asks for them, not yes or no
_ASKED_NOUN = re.compile(rf"^\W*(?:all\s+)?(?:the\s+)?(?:(?P<parties>{_PARTIES})|{_ORDINAL_WORD}|first|last|penultimate)\b|\b(?:date|day|month|year)\s+of\b", re.IGNORECASE)
_WHO = re.compile(r"\b(?:who|whom)\b", re.IGNORECASE)
_PICKS_ONE = re.compile(r"\b(?:first|last|earliest|latest|final|initial|most\s+recent(?:ly)?|only|single|one)\b", re.IGNORECASE)
_COUNTRY = re.compile(r"\b(?:which|what|the|a|any|other|each|every|one)\s+(?:other\s+)?(?:countr(?:y|ies)|nations?|states?)\b|\bcountr(?:y|ies)\b", re.IGNORECASE)
_KINDS_OR = re.compile(rf"\b(?:{_PARTIES})\s+(?:or|and(?:/or)?|/)\s+(?:{_PARTIES})\b", re.IGNORECASE)  # "persons or countries": of either kind
_RANKED = re.compile(rf"\s+(?:(?:was|is|were|really|actually|indeed)\s+)*the\s+(?:very\s+)?(?:first|last|{_ORDINAL_WORD})\b", re.IGNORECASE)  # "{E1} the first to"
_EXCEPT = re.compile(r"\b(?:apart\s+from|except(?:\s+for)?|other\s+than|besides|excluding|aside\s+from|not\s+(?:counting|including))\b|\(\s*not\b", re.IGNORECASE)
# "{E1} aside", "leaving {E1} itself aside": an entity set aside after its name
# one event held while another did ("who played for Y while X did", "during the time X was Y"): the
# answers' intervals meet the other event's (general English; "during" before a date is a time constraint)
_DURING = re.compile(r"\bwhile\b|\bduring\s+the\s+(?:time|period|years?)\s+(?:when|that|in\s+which)\b|\bat\s+the\s+time\s+(?:when|that)\b", re.IGNORECASE)
_AUXILIARY_OPENING = re.compile(r"^\W*(?:did|does|do|has|have|had|was|were|is|are|will|would|could|can)\b", re.IGNORECASE)
_INDEFINITE = re.compile(r"\b(?:anyone|anybody|someone|somebody)\b", re.IGNORECASE)
# a request put as a question ("Could you give me all countries that ...") asks for what it names, not yes or no
_REQUEST_OPENING = re.compile(
    r"^\W*(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?(?:give|list|name|show|provide|find|get|enumerate|identify|tell\s+me\s+(?:who|which|what|all|every))\b",
    re.IGNORECASE,
)
# "Who is the wife of {E1}?", "What was {E1}'s capital?", "Who was the {E1}?": a noun that relates the entity to the one
# asked, with no verb; the KG answers it only when the noun names its relations ("the host of", "visitor")
_ATTRIBUTE = re.compile(
    r"^\W*(?:who|whom|what)\s+(?:is|was|are|were)\s+(?:(?:the|a|an)\s+)?(?:(?P<noun>[a-z]+(?:\s+[a-z]+)?)\s+of\s+(?:the\s+)?\{E\d+\}"
    r"|\{E\d+\}['’]s?\s+(?P<owned>[a-z]+(?:\s+[a-z]+)?)|(?P<bare>\{E\d+\}))"
    r"(?:\s+(?:in|on|during)\s+\{T\d+\})?\s*(?:[?.!]|[,;].*)?\s*$",
    re.IGNORECASE,
)
# "tell me whether", "I wonder if", and a yes / no question reported as asked ("I wonder did X ...") or tagged ("... or not")
_ASKS_IF = re.compile(r"\b(?:tell\s+(?:me|us)|know|find\s+out|check|confirm|verify|say|wonder(?:ing)?|curious)\s+(?:whether|if)\b"
                      r"|\bwonder(?:ing)?\s*,?\s+(?:did|does|do|has|have|had|was|were|is|are)\b|\bor\s+not\W*$", re.IGNORECASE)


def read_query(question: str, masked: str, times: int, entity_spans: list[tuple[int, int]]) -> Query:
    """The typed query of `question`, read off `masked` so a name ("Third Way") or a date never
    reads as a constraint."""
    if len(entity_spans) - len(_excluded(question, entity_spans)) == 1 and _WHERE.search(masked) and _JOURNEYS & set(re.findall(r"[a-z]+", masked.lower())):
        masked = _WHERE.sub("which country", masked)  # a journey's destination is a visit's other party, a country entity of the KG
    asks, count = "entity", None
    if _COUNT.search(masked):
        asks, count = "number", _count_unit(masked)
    elif _RELATIONS.search(masked) and len(entity_spans) >= 2:
        asks = "relation"
    elif _is_yes_no(masked):
        asks = "yesno"
    extreme = "least" if _LEAST.search(masked) else "most" if _MOST.search(masked) else None
    ordinal, from_end = _ordinal(AFTER_FIRST.sub("the second", masked))
    return Query(
        asks=asks,
        is_list=asks == "entity" and not extreme and not ordinal and _asks_list(masked),
        entity_type="country" if asks in ("entity", "number") and _COUNTRY.search(masked) and not _KINDS_OR.search(masked) else None,
        count=count,
        ordinal=ordinal,
        from_end=from_end,
        extreme=extreme if asks in ("entity", "time") else None,
        window=times >= 2 and bool(WINDOW.search(masked)),
        excluded=_excluded(question, entity_spans),
        during=asks == "entity" and len(entity_spans) >= 2 and bool(_DURING.search(masked)),
        unsupported=_unsupported(masked),
        ranked=next((r for r, (_, end) in enumerate(entity_spans, 1) if _RANKED.match(question, end)), None) if asks == "yesno" else None,
    )


def asked_by_noun(query: Query, active: str) -> Query:
    """`query` with what a question with no verb asks of its entity (`Query.attribute`, `Query.identity`),
    read off its active form (`agents.analysis.grammar`): a noun relating it to the one asked, or the entity itself."""
    m = _ATTRIBUTE.match(active)
    if m is None or m.group("bare"):
        return replace(query, identity=m is not None)
    return replace(query, attribute=tuple(w for w in (m.group("noun") or m.group("owned")).lower().split() if w not in CONSTRAINT_WORDS))


# "the day before {E2} did", "a week after the election": an offset from an event, not from a stated date (`times.with_offsets`)
_EVENT_OFFSET = re.compile(OFFSET.pattern + r"(?!\{T\d+\})", re.IGNORECASE)


def _unsupported(masked: str) -> str | None:
    """What the question asks about that no (head, relation, tail, day) fact states, or None."""
    if _REASON.search(masked):
        return "a reason ('why' cannot be checked: the KG records events, not their causes)"
    if _PLACE_WORD.search(masked) or _PLACE_AFTER_EVENT.search(masked):
        return "a place (the KG records no places: where an event happened cannot be checked)"
    if _TIME_OF_DAY.search(masked):
        return "a time of day (the KG dates each event by its day, not its hour)"
    if _HOW_LONG.search(masked):
        return "a duration (the KG records events on days, not how long they lasted)"
    if _HOW_MUCH.search(masked):
        return "a quantity (the KG records no amounts)"
    counted = _COUNTED_NOUN.search(masked) or _NUMBER_OF.search(masked)
    if counted and counted.group("noun").lower() in _QUANTITIES and not _ACTORS_COUNTED.match(masked, counted.start()):
        return f"a quantity ({counted.group('noun')!r}: the KG records events between actors, not how many {counted.group('noun')})"
    if degree := _DEGREE.search(masked):
        return f"a degree or manner ({degree.group(0)!r}: the KG records that an event happened, not how)"
    if said := _SAID.search(masked):
        return f"what was said ({said.group(0).split()[-1]!r}: the KG records that a statement was made, not what it said)"
    if future := _FUTURE.search(masked):
        return f"a future event ({future.group(0).strip()!r}: the KG records what happened, up to its last day)"
    if offset := _EVENT_OFFSET.search(masked):
        return f"a time offset from another event ({offset.group(0).strip()!r}: ARI reads before and after an event, not how long before or after)"
    if bound := RELATIVE_BOUND.search(masked):
        return f"a time bound ARI cannot read ({bound.group(0).strip(' ,')!r}: it names no date of its own)"
    return None


_LEFTOVER_NUMBER = re.compile(r"(?<![{\w])\d+(?:[.,:/-]\d+)*\b(?!\})")
# "in {PLACE}" after the event: a capitalised name that no entity or time took, after "in"/"at"
_PLACE_AFTER_EVENT = re.compile(r"\b(?:in|at)\s+(?:the\s+)?(?:city\s+of\s+)?[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\b(?!\s*\{)")


def unread_number(masked: str) -> str | None:
    """A number left in the masked question ("Between 10 and {T1}"): every date read is masked, so
    it was not understood, and no answer may ignore it."""
    return left.group(0) if (left := _LEFTOVER_NUMBER.search(masked)) else None


def counts_a_quantity(query: Query, masked: str, name_words: frozenset[str]) -> Query:
    """`query`, unsupported when it counts a noun that is neither an occasion nor a kind of actor ("how many patents",
    "the number of goals"): an event KG counts days with an event or the actors of its facts, and an actor's kind is
    a general noun for a party or a word of the KG's own names ("how many ministries", "rebels"), whatever the KG."""
    counted = _COUNTED_NOUN.search(masked) or _NUMBER_OF.search(masked)
    if query.count != "entities" or query.unsupported or counted is None:
        return query
    grammar = GRAMMAR_WORDS["no_relation"] | GRAMMAR_WORDS["function_words"] | GRAMMAR_WORDS["do_auxiliaries"]
    phrase: list[str] = []  # the counted noun phrase, up to the verb's auxiliary: "how many new employees did"
    for w in re.findall(r"[a-z]+|\S", masked[counted.start("noun"):].lower())[:4]:
        forms = {w, w[:-1], w[:-2], w[:-3] + "y"} if w.endswith("s") else {w}
        if re.fullmatch(_PARTIES, w) or re.fullmatch(_AGENT_SUFFIX, w) or forms & _OCCASIONS:  # "how many visitors": actors
            return query
        if w in _DESTINATIONS and _JOURNEYS & set(re.findall(r"[a-z]+", masked.lower())):  # a journey's places: the ones visited
            return query
        if w in grammar or not w.isalpha():  # the verb's auxiliary, a name or a time: the noun phrase has ended
            break
        if forms & name_words:
            return query
        phrase.append(w)
    if not phrase:  # "how many did ...": no noun
        return query
    word = phrase[-1]
    return replace(query, unsupported=f"a quantity ({word!r}: the KG records events between actors, not how many {word})")


# "which luxury brand", "for what football academy": the kind of party asked, read to its head noun
_WHICH_KIND = english(r"(?:^|[^\w{}])(?:which|what)\s+(?P<phrase>[a-z][a-z\s-]*)")
_VERB_FORM = re.compile(rf"[a-z]+(?:ed|ing)|{_IRREGULAR_PAST}")
_KNOWN_KINDS = GRAMMAR_WORDS["time_nouns"] | GRAMMAR_WORDS["occasions"] | frozenset("country countries one ones other kind kinds sort type event events".split())


def asked_kind(masked: str) -> str | None:
    """The head noun of "which N" when N is no kind every event KG tells (a party noun, an agent noun, a country, a
    time): "which academy", "which brand". An event KG types its actors by their names only, so only an answer whose
    name says it is an N is one."""
    if (which := _WHICH_KIND.search(masked)) is None:
        return None
    stops = GRAMMAR_WORDS["no_relation"] | GRAMMAR_WORDS["function_words"] | GRAMMAR_WORDS["do_auxiliaries"]
    phrase: list[str] = []
    for w in which.group("phrase").lower().split():
        if w in _KNOWN_KINDS:  # "which foreign countries", "what year"
            return None
        if w in stops or _VERB_FORM.fullmatch(w):  # "which newspaper criticized": the noun phrase has ended
            break
        phrase.append(w)
    if not phrase:
        return None
    head = phrase[-1]
    forms = {head, head + "s", head[:-1] + "ies"} if not head.endswith("s") else {head, head[:-1], head[:-3] + "y"}
    return None if any(re.fullmatch(_PARTIES, f) or re.fullmatch(_AGENT_SUFFIX, f) for f in forms) else head


def _count_unit(masked: str) -> str:
    """Occasions ("how many times": distinct days) or distinct entities ("how many countries")."""
    noun = _COUNTED_NOUN.search(masked) or _NUMBER_OF.search(masked)
    if noun is None or noun.group("noun").lower() in _OCCASIONS:
        return "days"
    return "entities"


def _ordinal(masked: str) -> tuple[int | None, bool]:
    for match in _ORDINAL.finditer(masked):
        if match.group("penultimate"):
            return 2, True
        if _ORDINAL_DAY.match(masked[match.end():]):
            continue
        word = match.group("word") or match.group("bare") or match.group("timed") or match.group("owned") or match.group("placed") or match.group("ranked") or match.group("adverb")
        return number(word) or 1, bool(match.group("end") or match.group("bare_end") or match.group("owned_end") or match.group("placed_end"))
    return None, False


def _asks_list(masked: str) -> bool:
    """Every answer is asked for: a list request, a plural "which countries", or "who" / "whom"
    with nothing that picks one ("the first", "last", "most recent", "only")."""
    if _LIST.search(masked) or ((noun := _ASKED_NOUN.search(masked)) is not None and noun.group("parties")):
        return True
    if _WHO.search(masked) and not _PICKS_ONE.search(masked):
        return True
    plural = _PLURAL_WH.search(masked)
    return plural is not None and plural.group("noun").lower() not in GRAMMAR_WORDS["not_list_nouns"]


def _is_yes_no(masked: str) -> bool:
    """A yes/no question: an auxiliary opens it (or "tell me whether ..."), and no question word or
    indefinite ("Did anyone visit X?" asks who) makes it ask for an entity or a time."""
    if len(re.findall(r"[\w{}]+", masked)) < 3 or _REQUEST_OPENING.search(masked):
        return False  # a bare name with a question mark ("Iran?") asks nothing; a request asks what it names
    if INTERROGATIVE.search(masked) or _INDEFINITE.search(masked):
        return bool(_ASKS_IF.search(masked)) and not INTERROGATIVE.search(masked)
    return bool(_AUXILIARY_OPENING.search(masked) or _ASKS_IF.search(masked) or masked.rstrip().endswith("?") and not _ASKED_NOUN.search(masked))


def _excluded(question: str, entity_spans: list[tuple[int, int]]) -> tuple[int, ...]:
    """The roles of entities named after "apart from", "except", "other than", "(not" ... within a few words of
    the cue ("not counting trips inside {E2}"), or set aside after their name ("leaving {E2} aside")."""
    roles = [role for role, (_, end) in enumerate(entity_spans, 1) if re.match(r"\s+(?:itself\s+|himself\s+|herself\s+)?aside\b", question[end:], re.IGNORECASE)]
    for match in _EXCEPT.finditer(question):
        for role, (start, _) in enumerate(entity_spans, 1):
            gap = question[match.end():start]
            if start >= match.end() and re.fullmatch(r"[\s,]*(?:[a-z]+\s+){0,3}?(?:the\s+)?", gap) and role not in roles:
                roles.append(role)
    return tuple(sorted(roles))
