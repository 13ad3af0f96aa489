"""Judge-Then-Solve: can the KG support an answer, before solving and after?

Before solving, the code checks what the question needs against the KG: its entities exist, a
fact links them, its time lies inside the KG's range, and there are facts about the entity at that
time; before all that, that the text is a question and every time it states can be read. A question that fails any check is UNANSWERABLE and ends at once, with no KG actions, saying
what is missing. After solving, the evidence audit abstains when the chosen program found no
supporting facts, and so does the answer audit when the answers are only entities the question names.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from actions.enumerate import neighbours
from actions.query import VALUE_ASKS, Query
from actions.templates import Action, entities_of, relation_of
from agents.analysis.ambiguity import CLOSE, unresolved_namesakes
from agents.analysis.grammar_words import GRAMMAR_WORDS
from agents.analysis.query import PATTERNS as QUERY_PATTERNS
from agents.analysis.query import unread_number
from agents.analysis.question_form import not_a_question
from agents.analysis.question_type import asks_foreign, distinct_entities
from agents.analysis.referents import holds_by_copula
from agents.analysis.relations import predicate_text, verb_phrase
from agents.analysis.sectors import content_words
from agents.analysis.types import EntityMention, QuestionAnalysis
from agents.deciders.base import Judgement
from agents.roles import ACTED_PER_MENTION
from agents.shapes import naming_by_synonym, relations_naming, said_together_first, two_acts
from tkg_store.learned import country_names, qualifier_of
from tkg_store.memo import memoised
from tkg_store.store import TKGStore
from tkg_store.temporal import OPEN_END, OPEN_START, TimeSpan, describe_range


def home_country_asked(store: TKGStore, analysis: QuestionAnalysis) -> str | None:
    """"Which foreign countries did X visit": the countries other than X's own, which the KG records for no one
    but a country itself; answerable where the question names the one to leave out ("(not Thailand)"), or where every
    party named is a country (its own is itself). A country named otherwise ("after his first trip to Iran") is not X's."""
    if not asks_foreign(analysis.masked) or analysis.query.excluded:
        return None
    if all(m.best in country_names(store) for m in analysis.entities if m.best):
        return None
    return "whose country an actor is ('foreign': the KG records no nationality; name the country to leave out)"


def attribute_asked(store: TKGStore, query: Query) -> str | None:
    """What a question asks that the KG lacks when it asks for a relation by a noun no relation's name
    holds, directly or through its general-English synonym (`agents.shapes.relations_named`): events
    between actors record no kinship, office or attribute."""
    if query.identity:
        return "who an actor is or who held an office (the KG records events between actors, not offices or identities)"
    if not query.attribute or any(relations_naming(store, w) or naming_by_synonym(store, w) for w in query.attribute):
        return None
    return f"a relation the KG does not record ({' '.join(query.attribute)!r}: its facts are events between actors)"


def sectors_only(mention: EntityMention) -> list[str]:
    """The sectors a country's name is read as alike where the KG holds no entity of the country itself ("Russia":
    Military (Russia), Representatives (Russia), ...): [] when the mention names one entity, or says which sector
    ("the Russian military") or only the country's adjective ("Nigerian civilians", read by its noun)."""
    alike = alike_readings(mention)
    named = mention.text.strip().lower()
    return alike if len(alike) >= 2 and all(n.endswith(")") and n.rsplit("(", 1)[-1].rstrip(")").replace("_", " ").lower() == named for n in alike) else []


def alike_readings(mention: EntityMention) -> list[str]:
    """The entities that read the mention as well as its best does (within `CLOSE`): rival readings of one name."""
    best = mention.candidates[0][1] if mention.candidates else 0.0
    return [n for n, score in mention.candidates if score >= best - CLOSE]


def kinship_asked(store: TKGStore, analysis: QuestionAnalysis) -> str | None:
    """A marriage asked as if it were an act (`PATTERNS["kinship"]`) of a KG none of whose relations' names records one
    (Wikidata's "spouse" does; an event KG's facts are events between actors)."""
    kin = QUERY_PATTERNS["kinship"].search(analysis.masked)
    if kin is None or any(GRAMMAR_WORDS["kinship_words"] & content_words(store.relation_text(r)) for r in store.relation_names()):
        return None
    return f"a relation the KG does not record ({kin.group(0)!r}: its facts are events between actors, not kinship)"


def no_act_word(analysis: QuestionAnalysis) -> str | None:
    """Why no relation can be read (None: one can): once its names and times are read, the question holds no word of an
    act ("Who did {E1} in {T1}?", where a name took the verb), so any relation read is a guess; the relations between
    two parties ("what happened between ...") are asked of every act."""
    words = content_words(predicate_text(analysis.masked)) - GRAMMAR_WORDS["function_words"] - GRAMMAR_WORDS["do_auxiliaries"]
    # a copula beside a name asks who held what the name says ("Who was {E1} before {E2}?", "the last {E1} had been who",
    # "the last year of {E1} being {E2}": a position's holder)
    if analysis.query.asks == "relation" or verb_phrase(analysis.masked, 3).strip() or words or holds_by_copula(analysis.masked):
        return None
    return f"no word of the question names an event once its names and times are read ({analysis.masked!r}): say what was done"


def audit_answerability(
    store: TKGStore,
    analysis: QuestionAnalysis,
    unlinked_relation: Callable[[str, set[str]], str | None] | None = None,
    unsure_reading: bool = False,
) -> Judgement:
    """`unlinked_relation(masked question, linking relations)`, when given (the analyzer's
    `RelationLinker.unlinked_relation`), names a relation the question clearly asks about that
    none of the linking facts has: "When did X sign an agreement with Y?" is unanswerable when X
    and Y are linked only by accusations. With `unsure_reading` the judge refuses an unsure
    reading: a relation read as a guess, words it leaves unaccounted for (`agents.analysis.accounting`)."""
    audit: list[str] = []
    query = analysis.query
    # a yes / no, a count or the relations asked ("Number of times X visited Y in 2009?", "Can you describe the
    # interactions between X and Y?") name what they ask
    problem = None if query.asks in VALUE_ASKS else not_a_question(analysis.question, analysis.masked)
    if problem is not None:
        return Judgement(False, [problem], missing=problem)
    unsupported = query.unsupported or attribute_asked(store, query) or kinship_asked(store, analysis) or home_country_asked(store, analysis)
    if unsupported:
        missing = f"the question asks for {unsupported}"
        return Judgement(False, [missing], missing=missing)
    if analysis.unreadable_times:
        phrases = ", ".join(repr(t) for t in analysis.unreadable_times)
        missing = f"cannot read the time {phrases} (no such date, or vaguer than a day, month or year)"
        return Judgement(False, [missing], missing=missing)
    linked = [m for m in analysis.entities if m.best is not None]
    if not linked:
        listed = ", ".join(repr(m.text) for m in analysis.unlinked or analysis.entities)
        missing = f"no entity of the question is in the KG ({listed})" if listed else "no known entity found in the question"
        return Judgement(False, [missing], missing=missing)
    unknown = [m.text for m in analysis.unlinked]
    if unknown:
        # a name the KG does not know, beside ones it does: answering from the others would answer
        # another question (measured on MultiTQ dev: 5 of 3,044 answerable questions have one)
        missing = "the KG has no entity named " + ", ".join(repr(t) for t in unknown)
        return Judgement(False, [missing], missing=missing)
    for index in range(len(linked)):
        namesakes = unresolved_namesakes(index, linked, store)
        if namesakes:
            listed = ", ".join(store.display(n) for n in namesakes[:4]) + (", ..." if len(namesakes) > 4 else "")
            missing = f"'{linked[index].text}' names {len(namesakes)} entities of the KG ({listed}): say which one"
            return Judgement(False, [missing], missing=missing)
    for named in linked if query.shape != "six" else []:  # MultiTQ's six keep the benchmark's reading of a country's sector
        sectors = sectors_only(named)
        if sectors:
            listed = ", ".join(store.display(n) for n in sectors[:3])
            missing = f"the KG names '{named.text}' only by its sectors ({listed}, ...), and a count, list or ranking over one of them answers another question: say which"
            return Judgement(False, [missing], missing=missing)
    problem = (analysis.unsure_relation or analysis.unaccounted or no_act_word(analysis) or two_acts(store, analysis.masked)) if unsure_reading else None
    if problem is not None:
        return Judgement(False, [problem], missing=problem)
    names = list(dict.fromkeys(m.best for m in linked if m.best is not None))  # two mentions of one entity are one entity
    audit.append("entities found: " + ", ".join(store.display(n) for n in names))

    kg_range = memoised(store, "time_range", store.time_range)
    if analysis.beyond_times and kg_range is not None:
        missing = f"the KG covers {describe_range(kg_range)}; the question asks about {analysis.beyond_times[0]}"
        return Judgement(False, audit + [missing], missing=missing)
    for mention in analysis.times:
        if kg_range is not None and not kg_range.overlaps(mention.time.start, mention.time.end):
            missing = (
                f"the KG covers {describe_range(kg_range)}; "
                f"the question asks about {_stated(mention)}"
            )
            return Judgement(False, audit + [missing], missing=missing)
    if analysis.times:
        audit.append("times inside the KG's range: " + ", ".join(str(t.time) for t in analysis.times))
    number = unread_number(analysis.masked)
    if number is not None:
        missing = f"the question holds a number ARI could not read ({number!r}: it is no date, entity or ordinal of it)"
        return Judgement(False, audit + [missing], missing=missing)
    if query.asks == "yesno":  # no linking fact is an answer here: "No", with the nearest facts
        return Judgement(True, audit + ["a yes/no question: facts decide Yes, their absence No"])

    if len(names) >= 2:
        if len(linked) == len(analysis.entities):  # the two a clause says together: the event read is between them
            linked = [linked[n - 1] for n in said_together_first(analysis.masked, len(linked))]
            names = list(dict.fromkeys([*(m.best for m in linked[:2] if m.best is not None), *names]))
        first, second = names[0], names[1]
        linking = _linking_relations(store, linked)
        if not linking:
            missing = f"no fact links {store.display(first)} and {store.display(second)}"
            return Judgement(False, audit + [missing], missing=missing)
        asked = unlinked_relation(analysis.masked, linking) if unlinked_relation else None
        if asked is not None:
            missing = f"no fact links {store.display(first)} and {store.display(second)} through {store.relation_text(asked)}"
            return Judgement(False, audit + [missing], missing=missing)
        audit.append(f"{len(linking)} relation(s) link {store.display(first)} and {store.display(second)}")
    else:
        window = _searched(analysis)
        if not neighbours(store, names[0], within=window):
            when = "" if window is None else f" {window}" if str(window).startswith(("since", "until")) else f" in {window}"
            missing = f"the KG has no fact about {store.display(names[0])}{when}"
            return Judgement(False, audit + [missing], missing=missing)
        audit.append(f"facts about {store.display(names[0])} exist" + (f" in {window}" if window else ""))
    return Judgement(True, audit)


def _searched(analysis: QuestionAnalysis) -> TimeSpan | None:
    """Where the facts of a question about one entity lie: its time, the whole window of two ("between {T1} and {T2}"), or
    every day on the side of the one time its cue bounds ("Before {T1}, whom did X host?": not that day itself)."""
    times, sides = [t.time for t in analysis.times], {"before", "after"} & set(analysis.cues)
    if analysis.query.window and len(times) >= 2:
        return TimeSpan(times[0].start, max(times[0].end, times[1].end), times[0].granularity)
    if len(times) != 1 or len(sides) != 1 or (time := times[0]).start == OPEN_START or time.end == OPEN_END:
        return times[0] if times else None  # a bound "since" / "until" opened already
    return TimeSpan(OPEN_START, time.start - timedelta(1), time.granularity) if sides == {"before"} else TimeSpan(time.end + timedelta(1), OPEN_END, time.granularity)


def _stated(mention) -> str:  # noqa: ANN001 (TimeMention)
    """A time as the judge names it: ISO at its granularity, or as written when it spans years ("the 1850s")."""
    time = mention.time
    return mention.text if time.start.year != time.end.year else str(time)


def _linking_relations(store: TKGStore, mentions: list) -> set[str]:
    """Relations of the facts between the first two mentions, over the candidates the agent acts
    from (`agents.roles.current_entities`), not only the best-linked names."""
    distinct = distinct_entities(mentions)
    if len(distinct) < 2:
        return set()
    ones = [n for n, _ in distinct[0].candidates[:ACTED_PER_MENTION]]
    others = [n for n, _ in distinct[1].candidates[:ACTED_PER_MENTION]]
    return {relation for one in ones for other in others for relation in store.relations_between(one, other)}


def missing_evidence(analysis: QuestionAnalysis | None, answers: list[str], store: TKGStore, relation: str | None) -> str | None:
    """Why the solved trajectory does not support an answer (None: it does)."""
    if answers:
        return None
    names = [m.best for m in (analysis.entities if analysis else []) if m.best]
    what = " and ".join(store.display(n) for n in names[:2]) or "the question's entities"
    through = f" through {store.relation_text(relation)}" if relation else ""
    when = f" in {analysis.times[0].time}" if analysis and analysis.times else ""
    return f"no supporting fact links {what}{through}{when}"


def own_answers(answers: list[str], mentions: list[EntityMention], store: TKGStore) -> str | None:
    """Why answers that are all entities the question itself names answer nothing (None: some is
    not): a question asks about the others ("who else ...", "... in the same month as X"), and
    `agents.answers.ranked_answers` gives its own entities only when nothing else was found."""
    named = {store.display(m.best) for m in mentions if m.best}
    if not answers or not set(answers) <= named:
        return None
    return f"the only answer found, {answers[0]}, is named in the question itself: no other entity fits"


def sector_readings(mention: EntityMention) -> list[str]:
    """The sectors a name that says no sector is read as alike, where the KG holds no entity of it ("Chile": its military,
    its police, its government): [] where one reading leads, or where the text names the sector ("Chilean soldiers")."""
    alike = alike_readings(mention)
    if len(alike) < 2 or len({qualifier_of(n) for n in alike}) != 1 or qualifier_of(alike[0]) is None:
        return []
    said = content_words(mention.text)
    return [] if any(said & content_words(n.rsplit("(", 1)[0]) for n in alike) else alike


def contested_sector(store: TKGStore, analysis: QuestionAnalysis, actions: list[Action]) -> str | None:
    """Why a time read through one of a country's sectors is a guess (None: it is not): where the question names the
    country only ("When did Chile visit Peru?") and the KG holds no entity of it, two or more of its
    sectors did the act read with the question's other parties, each at its own times, and the time asked is that of the
    one sector's acts the reading picked. (An entity asked is left to the reading: there the sector may only place a
    reference event, and refusing those was measured to lose as many right answers as wrong ones.)"""
    relation = next((r for a in actions if (r := relation_of(a)) is not None), None)
    if analysis.asked_type != "time" or relation is None:
        return None
    bound = {n for a in actions for n in entities_of(a)}
    for mention in analysis.entities:
        readings = sector_readings(mention)
        if not bound & set(readings):
            continue
        others = bound - set(readings)
        acting = [n for n in readings if (any(relation in store.relations_between(n, o) for o in others) if others
                                          else store.facts(n, relation) or store.facts(None, relation, n))]
        if len(acting) >= 2:
            listed = ", ".join(store.display(n) for n in acting[:3])
            return f"the KG names '{mention.text}' only by its sectors, and several did this ({listed}): say which"
    return None
