"""What the typed query (`agents.analysis.query`) changes on a question's path.

- Planning: only programs that carry out exactly the query's own operations may answer it (a count
  question is never answered by a program that names an entity, nor a list question by one that
  picks the n-th), and a step's literals follow the query (`getNth(#1, N)` binds N to its ordinal).
- Values: a count, yes / no and the relations between two entities are answered as values.
- Absence: when the memory holds programs for a yes/no or count question and none binds, the answer
  is "No" or "0" only if the KG holds no event of the relation the wording names between the
  question's entities at its time: the KG is read as complete for what it records.
- The shape audit: the answer is of the asked type, and the program bound every entity and time
  the question states and performs exactly the temporal constraints it states (no "last" the
  question never said, no "after" left out); otherwise the agent abstains, naming what is not met.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from actions.items import Item
from actions.programs import Program, asked_operations, render_step
from actions.templates import PERIODS, GetHeadEntity, GetNth, GetTailEntity, GetTime, reference_of
from agents.analysis.ambiguity import CLOSE
from agents.analysis.clause_roles import OBJECT, SUBJECT, voice_roles
from agents.analysis.cues import referred_clause, repeats_act, same_word
from agents.analysis.grammar_words import GRAMMAR_WORDS
from agents.analysis.predicate import asserted_words, naming_words
from agents.analysis.query import CONSTRAINT_WORDS, Query
from agents.analysis.question_type import asks_country
from agents.analysis.referents import (
    aimed_words,
    asks_by_auxiliary,
    either_words,
    pronoun_clause,
    reference_clause,
    repeating_doers,
)
from agents.analysis.relations import RelationLexicon, predicate_text, verb_phrase, word_root
from agents.analysis.sectors import content_words
from agents.analysis.synonyms import GENERAL_SYNONYMS, carries_no_act, said_phrases
from agents.analysis.types import EntityMention, QuestionAnalysis
from agents.faithfulness import AnswerCheck, is_time_answer
from agents.methodology import Guide
from agents.roles import reference_role
from ari.base.text import stem
from tkg_store.learned import country_names, mirror_relations, qualifier_of
from tkg_store.store import Fact, TKGStore


def admitted(guides: Sequence[Guide], analysis: QuestionAnalysis) -> list[Guide]:
    """The guides whose programs perform exactly the query's operations, place answers in time as
    the question does (`constraint_problem`) and use every entity the question names: a program
    that leaves one out ("... before China did" with no step about
    China) answers another question, and so does one that looks an entity up in a step whose result
    no later step reads."""
    named, query, asked = _named_roles(analysis), asked_query(analysis), asked_temporal(analysis)
    fit: dict[Program, bool] = {}  # a program comes in several guides (both methodologies, their variants): judged once

    def fits(program: Program) -> bool:
        if program not in fit:
            fit[program] = (
                query.admits(program) and named <= program.roles and not program.has_dead_steps
                and constraint_problem(analysis, program, asked) is None
            )
        return fit[program]

    return [g for g in guides if fits(g.program)]


def placed_variants(guides: Sequence[Guide], analysis: QuestionAnalysis) -> list[Guide]:
    """`guides`, then each program placed in time as the question states it where the memory may
    hold it only in another placement (`Program.placed`): a window ("between {T1} and {T2}") or a
    time it comes before or after for a program learnt "in {T}", and no time at all for a question
    that states none. As `Program.dated` does for a question in a time: a methodology need not have
    seen every placement of every program; `admitted` then keeps those that do what is asked."""
    times = len(analysis.times)
    if analysis.query.window and times >= 2:
        placement: tuple[str | None, tuple[str, ...]] = ("getBetween", ("T1", "T2"))
    elif times and reference_role(analysis) is None and (asked := asked_temporal(analysis) & {"before", "after"}) and len(asked) <= times:
        placement = (f"get{min(asked).title()}", ("T",))  # both: after, and `bounded_variants` adds the before
    elif not times:
        placement = (None, ())
    else:
        return list(guides)
    return _with_variants(guides, lambda program: program.placed(*placement), ", placed in time as the question states")


def referred_variants(guides: Sequence[Guide], referred: frozenset[str]) -> list[Guide]:
    """`guides`, then each program whose referred event reads a relation of its own (`Program.referring_apart`), where
    the words of that event name relations (`referred`, `reference_relations`): "after {E1} granted asylum to {E2},
    which countries did {E1} visit" refers to another act than the one it asks about, and a methodology learns each
    shape over one act; the planner binds `R2` to the referred relations only."""
    if not referred:
        return list(guides)
    return _with_variants(guides, lambda program: program.referring_apart(), ", its referred event read as the act its words name")


def bounded_variants(guides: Sequence[Guide], analysis: QuestionAnalysis) -> list[Guide]:
    """`guides`, then the programs composed from them for the bounds the question states where the memory may hold
    each bound alone: the event a before / after refers to narrowed to its first or last day where the question asks
    every answer, their number or yes / no of no one named (then its "first" can pick no answer: "how many times did
    {E1} visit {E2} after his first trip to {E3}"), and a second bound after the first where it says both ("after {T1} but before {T2}")."""
    asked, query = asked_temporal(analysis), analysis.query
    ends = asked & {"first", "last"}
    if len(ends) == 1 and (query.asks == "number" or query.is_list or query.asks == "yesno" and query.ranked is None):
        end = f"get{next(iter(ends)).title()}"
        guides = _with_variants(guides, lambda program: program.first_referred(end), ", its referred event narrowed to the end the question names")
    if {"before", "after"} <= asked and analysis.times and not query.window:
        guides = _with_variants(guides, Program.bounded_again, ", its answers bounded at both ends as the question states")
    return list(guides)


def composed_bounds(program: Program) -> bool:
    """Whether `program` bounds its answers as `bounded_variants` composes: at both ends, or against the first or last
    day of an event referred to. A "No" or "0" read from absence (`absent_answer`) needs a program the memory learnt
    for the shape: a composed one may fail to bind for reasons of roles that the absence cannot see."""
    placing = [s for s in program.steps if s.operation in ("before", "after")]
    narrowed = {k for k, s in enumerate(program.steps, 1) if s.operation in ("first", "last")}
    return len(placing) >= 2 or any(len(s.reads) == 2 and s.reads[1] in narrowed for s in placing)


def _with_variants(guides: Sequence[Guide], variant: Callable[[Program], Program | None], note: str) -> list[Guide]:
    """`guides`, then the `variant` of each program that has one the guides do not hold, once each."""
    known = {g.program for g in guides}
    made = [Guide(p, g.support, g.success_rate, note=note) for g in guides if (p := variant(g.program)) is not None and p not in known]
    return [*guides, *dict((g.program, g) for g in made).values()]


def excluding_variants(guides: Sequence[Guide], analysis: QuestionAnalysis) -> list[Guide]:
    """`guides`, then each program leaving out the entities the question excludes ("apart from {E2}
    (and {E3})", `Program.excluding`) where the memory holds it without: a methodology need not have
    seen every shape with every exclusion; `admitted` then keeps those that do what is asked."""
    if not analysis.query.excluded:
        return list(guides)
    roles = [f"E{r}" for r in analysis.query.excluded]
    others = sorted(_named_roles(analysis) - set(roles))

    def excluding(program: Program) -> Program | None:
        # "apart from {E1}, ... {E2} ...": a program learnt about E1 reads it of the other role, E2, leaving E1 out
        learnt = [r for r in roles if r in program.roles]
        if len(learnt) == 1 and len(others) == 1 and others[0] not in program.roles:
            program = Program.parse([render_step(s.template, tuple({learnt[0]: others[0]}.get(a, a) for a in s.args)) for s in program.steps])
        made: Program | None = program
        for role in roles:  # one exclusion each
            made = made.excluding(role) if made is not None else None
        return made

    return _with_variants(guides, excluding, ", leaving out the entity the question excludes")


def counted_variants(guides: Sequence[Guide], analysis: QuestionAnalysis) -> list[Guide]:
    """`guides`, then each program that picks the n-th counted from the other end, counted from the
    end the question states ("the second to last" by a program learnt for "the second"): the n-th
    from either end is one operation, and a methodology need not have seen both. A program that
    picks the first or the last of what it found (its one pick) picks the n-th instead: the first is
    the n-th for n = 1, so "who was the second to visit {E1} after {E2} did" is the program of "the
    first to visit {E1} after {E2} did" with its pick counted on."""
    query = analysis.query
    if query.ordinal is None:
        return list(guides)
    wanted, other = ("getNthLast", "getNth") if query.from_end else ("getNth", "getNthLast")
    ends = ("getFirst", "getLast")

    def counted(program: Program) -> Program | None:
        templates = [s.template for s in program.steps]
        if other in templates:
            return Program.parse([render_step(wanted if s.template == other else s.template, s.args) for s in program.steps])
        if wanted in templates or sum(t in ends for t in templates) != 1:
            return None
        return Program.parse([render_step(wanted, (s.args[0], "N")) if s.template in ends else render_step(s.template, s.args) for s in program.steps])

    return _with_variants(guides, counted, ", counting the n-th from the end the question states")


# a step that picks among what was found or makes a value of it: a program with one answers no list
_PICKS_OR_VALUES = frozenset({"getFirst", "getLast", "getNth", "getNthLast", "getMost", "getLeast", "count", "exists", "includes"})


def valued_variants(guides: Sequence[Guide], analysis: QuestionAnalysis) -> list[Guide]:
    """`guides`, then for a yes / no or a count, each program that answers the list of what it found with that list's
    value taken: whether it holds anything, or how many days or entities. The value of a list is one operation on it,
    and a methodology need not have seen it after every list: "had X accused Y before X sued Y?" is whether "when did
    X accuse Y before X sued Y?" finds a day. The audit then accepts the binding or not, as for any program."""
    query = analysis.query
    if query.asks not in ("yesno", "number") or query.asks == "number" and query.count is None:
        return list(guides)
    if query.asks == "yesno" and not asks_by_auxiliary(analysis.masked):
        return list(guides)  # read as yes / no from its question mark alone, the reading is too weak to carry a new program

    def valued(program: Program) -> Program | None:
        templates = [s.template for s in program.steps]
        if templates[-1] != "answer" or _PICKS_OR_VALUES.intersection(templates):
            return None
        found = f"#{len(templates) - 1}"
        value = render_step("exists", (found,)) if query.asks == "yesno" else render_step("count", (found, query.count or "days"))
        return Program.parse([*(s.render() for s in program.steps[:-1]), value, render_step("answer", (f"#{len(templates)}",))])

    return _with_variants(guides, valued, ", taking the value the question asks of the list it finds")


def swapped_variants(guides: Sequence[Guide], analysis: QuestionAnalysis) -> list[Guide]:
    """`guides`, then each program over both named entities with the two in each other's roles, for a
    question beyond MultiTQ's six that names two: role order is the order of mention, and a wording
    may name the one acted on first ("after his first criticism of {E1}, when did {E2} next
    criticize {E1}?"), where the memory learnt the program with the actor first. Who acts is then
    the answer check's to say (`lookups_in_roles`). A program that excludes one of them or places
    its answers against another event's is left as learnt: there the roles say more than who acts."""
    if analysis.query.shape == "six" or len(analysis.entities) != 2:
        return list(guides)
    swap = {"E1": "E2", "E2": "E1"}

    def swapped(program: Program) -> Program | None:
        if not {"E1", "E2"} <= program.roles or program.operations & {"before", "after", "same", "during", "exclude"}:
            return None
        return Program.parse([render_step(s.template, tuple(swap.get(a, a) for a in s.args)) for s in program.steps])

    return _with_variants(guides, swapped, ", with its two named entities in each other's roles")


def _named_roles(analysis: QuestionAnalysis) -> set[str]:
    """The roles of the entities the question names: E1, E2 ... in role order."""
    return {f"E{i}" for i in range(1, len(analysis.entities) + 1)}


def fits(action: object, query: Query) -> bool:
    """Whether a bound step's literals are the query's (the n of an n-th, and from which end)."""
    if isinstance(action, GetNth):
        return action.n == query.ordinal and action.from_end == query.from_end
    return True


def lookups_in_roles(check: AnswerCheck, actions: Sequence, strict: bool = False) -> bool:
    """Whether each lookup of a bound program reads its entity in the role the wording gives it:
    "Which countries did X visit" reads X as the visitor (the head of Make_a_visit, the tail of its
    mirror Host_a_visit), never as the one visited. A relation whose wording leaves the roles open
    (consult, either way) passes, and so does a mention with no clause role unless `strict`: what
    a count, a ranking or an n-th computes over one direction of a one-way relation is wrong read
    the other way, so a role the wording leaves open ("the most demands of {E1}") answers nothing."""
    referred = {k for a in actions if isinstance(k := reference_of(a), int)}
    numbers = [n for n, m in enumerate(check.analysis.entities, start=1) if m.candidates]
    doers = repeating_doers(check.analysis.masked)
    for step, action in enumerate(actions, 1):
        if isinstance(action, (GetHeadEntity, GetTailEntity)):
            anchor, anchor_is_head = (action.head, True) if isinstance(action, GetTailEntity) else (action.tail, False)
        elif isinstance(action, GetTime):
            anchor, anchor_is_head = action.head, True
        else:
            continue
        role = next((r for names, r in zip(check.mentions, _roles(check)) if anchor in names), None)
        if step in referred and any(numbers[k] in doers for k, names in enumerate(check.mentions[: len(numbers)]) if anchor in names):
            role = SUBJECT  # "after {E2} did": the event referred to is the asked act, done by {E2}
        if check.pronoun is not None and step not in referred:  # the asked event's party said by a pronoun, in its role
            role = next((r for names, r in check.anchors() if anchor in names), role)
        if isinstance(action, GetTime) and not _said_together(check, action.head, action.tail):
            return False
        head_role = check.head_role(action.relation)
        if role not in (SUBJECT, OBJECT):
            if strict and role is None and head_role is not None:
                return False
            continue
        if head_role is not None and anchor_is_head != (role == head_role):
            return False
    return True


def _said_together(check: AnswerCheck, head: str, tail: str) -> bool:
    """Whether the wording says an event between the two named parties an event lookup reads, where a cue's clause
    names two parties of its own (`_clauses`): both in that clause, or both in the asked one. "After {E3} visited {E1},
    how many times did she visit {E2}" says no event between {E1} and {E2}."""
    numbers = [n for n, m in enumerate(check.analysis.entities, start=1) if m.candidates]
    parties = {numbers[k] for k, names in enumerate(check.mentions[: len(numbers)]) if {head, tail} & set(names)}
    clauses = _clauses(check.analysis.masked)
    return clauses is None or len(parties) != 2 or parties <= clauses[1] or parties <= clauses[2]


def _clauses(masked: str) -> tuple[int, set[int], set[int]] | None:
    """(the party of a cue's clause, the entity numbers that clause names, those the asked clause names) where the
    cue's clause names two parties of its own ("after {E3} visited {E1}, ..."; "after {E2} did" repeats the asked act
    with the asked clause's other party: None). The asked clause's subject pronoun (he, she, they) is the clause's
    party, as English coordinates two clauses on one subject; an object's or owner's pronoun may be either party."""
    split = reference_clause(masked)
    if split is None or not split[1]:
        return None
    outside, said = split
    party = re.findall(r"\{E(\d+)\}", masked[: masked.find(said)])
    clause = {int(n) for n in [*party[-1:], *re.findall(r"\{E(\d+)\}", said)]}
    if not party or len(clause) < 2:
        return None
    asked = {int(n) for n in re.findall(r"\{E(\d+)\}", outside)}
    if re.search(r"\b(?:he|she|they)\b", outside, re.IGNORECASE):
        asked.add(int(party[-1]))
    elif re.search(r"\b(?:him|her|his|it|its|them|their)\b", outside, re.IGNORECASE):
        asked |= clause
    return int(party[-1]), clause, asked


def said_together_first(masked: str, count: int) -> list[int]:
    """The entity numbers 1..`count` with two the wording says in one clause first (`_clauses`): "after {E3} visited
    {E1}, how many times did she visit {E2}" links {E3} and {E1}, never {E1} and {E2}; else in role order."""
    order, clauses = list(range(1, count + 1)), _clauses(masked)
    if clauses is None or count < 3 or {1, 2} <= clauses[1] or {1, 2} <= clauses[2]:
        return order
    pair = sorted(clauses[1])[:2]
    return [*pair, *(n for n in order if n not in pair)]


def shared_doer_variants(guides: Sequence[Guide], analysis: QuestionAnalysis) -> list[Guide]:
    """`guides`, then each program whose first role does both acts (the event referred to and the asked one) with that
    role and the party of the cue's clause in each other's roles, where the asked clause's subject is a pronoun for that
    party: "after {E3} visited {E1}, how many times did she visit {E2}" is the program of "after {E1} visited {E3}, how
    many times did {E1} visit {E2}", the doer named in the clause rather than first (`_clauses`)."""
    clauses = _clauses(analysis.masked)
    if clauses is None or clauses[0] == 1 or clauses[0] not in clauses[2] or len(analysis.entities) != 3:
        return list(guides)
    swap = {"E1": f"E{clauses[0]}", f"E{clauses[0]}": "E1"}

    def swapped(program: Program) -> Program | None:
        lookups = [s for s in program.steps if s.is_lookup]
        if len(lookups) < 2 or not all("E1" in s.args for s in lookups):
            return None
        return Program.parse([render_step(s.template, tuple(swap.get(a, a) for a in s.args)) for s in program.steps])

    return _with_variants(guides, swapped, ", its doer of both acts the party the wording names in the cue's clause")


def _roles(check: AnswerCheck) -> list[str | None]:
    """The clause roles of the check's mentions, with a passive's agent read as the subject and the
    one it was done to as the object (the clause roles leave a passive open; for a lookup the doer
    is what counts)."""
    linked = [n for n, m in enumerate(check.analysis.entities, start=1) if m.candidates]
    read, possessed, _ = voice_roles(check.analysis.masked)
    acts = act_noun_roles(check.store, check.analysis.masked)
    for number, noun in possessed:  # "{E1}'s second visit": E1 made it, when the noun names an act of the KG
        if relations_naming(check.store, noun) or naming_by_synonym(check.store, noun):
            read.setdefault(number, SUBJECT)
    return [acts.get(number, role if role is not None else read.get(number)) for number, role in zip(linked, check.roles)]


def act_noun_roles(store: TKGStore, masked: str) -> dict[int, str]:
    """The parties of an act said by its noun ("visits by {E1} to {E2}", "a {E1} visit to {E2}"), where the KG's relations
    name the noun: its doer and the one it is done to outrank a preposition's role ("threats from {E1}", "for a {E1} visit")."""
    acts: dict[int, str] = {}
    for noun, doer, done in voice_roles(masked).acts_by:
        if relations_naming(store, noun) or naming_by_synonym(store, noun):
            acts |= {doer: SUBJECT, done: OBJECT}
    return acts


def value_answers(store: TKGStore, query: Query, items: list[Item]) -> list[str]:
    """A value step's answers: the count or yes / no it holds, or the relations between the two
    entities, most often first (in words, as a person reads them)."""
    if query.asks == "relation":
        counted = Counter(store.relation_text(i.entity) for i in items if i.entity is not None)
        return [text for text, _ in counted.most_common()]
    return list(dict.fromkeys(i.entity for i in items if i.entity is not None))


def worded_relations(store: TKGStore, analysis: QuestionAnalysis, lexicon: RelationLexicon | None = None) -> frozenset[str]:
    """`relations_named` for this question: the ones accounting for the most of its words when its
    query computes a value over facts (a count, yes / no, a ranking, an n-th: "did X break off
    diplomatic relations" is not asked of every relation named "diplomatic"), every one its words
    name otherwise (a lookup's answers are checked one by one after)."""
    return relations_named(store, analysis, lexicon, best_only=bool(analysis.query.operations()))


def relations_named(store: TKGStore, analysis: QuestionAnalysis, lexicon: RelationLexicon | None, best_only: bool) -> frozenset[str]:
    """The relations the question's words ask about, when a word of its verb phrase names relations
    of the KG ("abduct" names Abduct,_hijack,_or_take_hostage; "consultations" Consult): among
    those, however the ranking placed them or whether it ranked them at all, and the relations the
    learned lexicon mostly credits such a word with (`credited`: "supported" is Praise_or_endorse,
    though its name is none of them); the ones that account for the most of those words ("break
    off diplomatic relations" is Reduce_or_break_diplomatic_relations, not every relation named
    "diplomatic"; with `best_only`, and of those the ones whose every name word the question says,
    where any is: "make statements" is Make_statement, though the lexicon credits "statements" to
    Make_optimistic_comment too), else all of them. Empty when no word names a relation: then the
    ranking decides."""
    accounts: Counter[str] = Counter()
    words = naming_words(analysis.masked)
    naming = {w: named for w in words if (named := relations_naming(store, w) or naming_by_synonym(store, w, lexicon))}
    # a light or receiving verb says nothing of the act: its noun does ("make" names every Make_* relation, "take" no
    # hobby taken up)
    for word, named in ((w, n) for w, n in naming.items() if not carries_no_act(w)):
        accounts.update(named | credited(lexicon, word))
    most = max(accounts.values(), default=0)
    if not best_only:
        return frozenset(accounts)
    best = frozenset(r for r, n in accounts.items() if n == most)
    said = [stem(w) for w in words]
    whole = frozenset(r for r in best if all(any(same_word(s, stem(n)) for s in said) for n in content_words(store.relation_text(r))))
    return whole or best


def reference_relations(store: TKGStore, analysis: QuestionAnalysis, lexicon: RelationLexicon | None = None) -> frozenset[str]:
    """The relations the words of the event a cue points at name, read off its clause (folded by the grammar: "after {E2}
    broke off diplomatic relations with {E1}, ..." keeps "broke off diplomatic relations"); empty where they name none."""
    # a cue's clause about the one named party names its own act too ("after {E1} was arrested, who criticized him")
    alone = reference_role(analysis) is None
    if alone and (analysis.cue not in ("before", "after") or len(analysis.entities) != 1):
        return frozenset()
    words = analysis.grammar_dropped if "clause reference" in analysis.grammar else referred_clause(analysis.masked, len(analysis.entities))
    if not words.strip() or repeats_act(words, analysis.masked):
        return frozenset()
    named = relations_named(store, replace(analysis, masked=words), lexicon, best_only=True)
    # of the one party: an act the rest of the question asks too is no other event ("after {E1} was threatened, who threatened it")
    if alone and named & relations_named(store, replace(analysis, masked=analysis.masked.replace(words, " ")), lexicon, best_only=True):
        return frozenset()
    return named


def naming_by_synonym(store: TKGStore, word: str, lexicon: RelationLexicon | None = None) -> frozenset[str]:
    """The relations a word's general-English synonym names ("trip": visited), for a word no
    relation's name holds. A synonym the learned lexicon credits is read as the KG's own questions
    read it ("backed": supported, which they use for Praise_or_endorse), before the names holding
    it (every relation whose example mentions policy support)."""
    synonym = GENERAL_SYNONYMS.get(word)
    if not synonym or " " in synonym:
        return frozenset()
    return credited(lexicon, synonym) or relations_naming(store, synonym)


def credited(lexicon: RelationLexicon | None, word: str) -> frozenset[str]:
    """The relations the lexicon credits `word` with most: at least half the share of its best
    (none for a word the learning questions never used)."""
    counts = lexicon.counts.get(word, {}) if lexicon is not None else {}
    best = max(counts.values(), default=0.0)
    return frozenset(r for r, n in counts.items() if best > 0 and n >= best / 2)


def relations_naming(store: TKGStore, word: str) -> frozenset[str]:
    """The relations of the KG whose name holds `word` (`same_word`), kept per store and word: the
    planner asks it of every binding it checks."""
    known: dict[str, frozenset[str]] = store.derived(("relations_naming",), dict)
    if word not in known:
        root = stem(word)
        by_stem = _relations_by_stem(store)
        known[word] = frozenset(r for b, relations in by_stem.items() if same_word(root, b) for r in relations)
    return known[word]


def _relations_by_stem(store: TKGStore) -> dict[str, frozenset[str]]:
    """Each stem of a relation name's words (of three letters or more: "aid" names an act) -> the relations it names."""
    def build() -> dict[str, frozenset[str]]:
        found: dict[str, set[str]] = {}
        for r in store.relation_names():
            for w in content_words(store.relation_text(r)):
                if len(w) >= 3:
                    found.setdefault(stem(w), set()).add(r)
        return {b: frozenset(rs) for b, rs in found.items()}

    return store.derived(("relations_by_stem",), build)


def wording_problem(store: TKGStore, analysis: QuestionAnalysis, relation: str | None, lexicon: RelationLexicon | None = None) -> str | None:
    """Why `relation` does not account for the wording (None: it does, or the wording names no
    relation of the KG): the question's words ask about other relations (`worded_relations`), and
    neither `relation` nor a mirror of it ("visit" seen as Host_a_visit) is one of them. A yes / no
    question asserts its whole predicate: a word of it that no relation's name holds and no
    learning question used ("did X speak approvingly of Y") is not accounted for at all."""
    if relation is None:
        return None
    if analysis.query.asks == "yesno":
        unread = unaccounted_words(store, analysis, lexicon)
        if unread:
            return f"the question says {', '.join(repr(w) for w in unread)}, which no relation of the KG accounts for"
    worded = worded_relations(store, analysis, lexicon)
    if not worded:
        return None
    family = {relation} | set(mirror_relations(store).get(relation, ()))
    if family & worded:
        return None
    named = ", ".join(store.relation_text(r) for r in sorted(worded)[:3])
    return f"the question names {named}{' ...' if len(worded) > 3 else ''}, and the program read {store.relation_text(relation)}"


def aim_only(analysis: QuestionAnalysis, texts: Sequence[str], relation: str, lexicon: RelationLexicon | None = None) -> bool:
    """Whether the wording says of a relation (`texts`: its name's text, then its description's sentences) only the act
    its name makes the aim of another ("meet" of Express intent to meet or negotiate, "reduce relations" of Threaten to
    reduce or break relations, "assassinate" of Attempt to assassinate): the intent, threat, appeal or attempt is
    another event than the one aimed at, and a count, yes / no, ranking or n-th of it would count intents where the
    question asks for meetings. The wording says the other act too with a word of the name's act, a word outside the
    aim that the relation's description or the lexicon holds ("pledge aid", "want to meet"), or an aim of its own
    ("vow to cooperate")."""
    head, sep, aim = texts[0].partition(" to ")
    if not sep:
        return False
    words = naming_words(analysis.masked)  # compared by their roots: "meeting", "met with" are "meet" in any inflection
    aimed = {word_root(w) for w in content_words(aim)}
    said = {word_root(w) for w in words}
    if not said & aimed or said & {word_root(w) for w in content_words(head)}:
        return False
    if any(word_root(w) in aimed for w in aimed_words(analysis.masked)):
        return False
    described = {word_root(w) for text in texts[1:] for w in content_words(text)}
    return not any(word_root(w) not in aimed and (word_root(w) in described or relation in credited(lexicon, w)) for w in words)


def unaccounted_words(store: TKGStore, analysis: QuestionAnalysis, lexicon: RelationLexicon | None) -> list[str]:
    """The words the question asserts of its event (`agents.analysis.predicate.asserted_words`) that no relation's name holds and neither the lexicon
    nor a general-English synonym of them it knows accounts for (without a lexicon, none: nothing
    tells a known word from an unknown one)."""
    if lexicon is None:
        return []
    words = [w for w in asserted_words(analysis.masked) if w not in lexicon.counts]
    # a word whose general-English synonym the lexicon knows or a relation names ("travel": visited) is accounted for
    # ("went" in "went to": visited, as the thesaurus lists the phrase)
    phrases = said_phrases(analysis.masked)
    known = {w: GENERAL_SYNONYMS.get(w) or next((v for k, v in phrases.items() if k.split()[0] == w), None) for w in words}
    return [w for w in words if not relations_naming(store, w) and not ((k := known[w]) and (k in lexicon.counts or relations_naming(store, k)))]


def absent_answer(
    store: TKGStore, analysis: QuestionAnalysis, check: AnswerCheck | None, lexicon: RelationLexicon | None = None,
    aimed: Callable[[str], bool] = lambda relation: False, described: Callable[[str], frozenset[str]] = lambda word: frozenset(),
) -> str | None:
    """The answer of a yes/no or count question that no program could bind: "No" or "0", but only
    when the KG is seen to hold no such event: of the relations the wording names
    (`worded_relations`; else the best-ranked one, and the check must agree the question asks
    about it) or, where no word names one outright, ranked near the best, or their mirrors, between the question's entities, at its time (or placed against the event it refers to). A binding that
    failed for another reason (a relation misread) is no evidence of absence, and then nothing is
    answered."""
    answer = {"yesno": "No", "number": "0"}.get(analysis.query.asks)
    if answer is None or check is None or not analysis.relations or not analysis.entities:
        return None
    asked = worded_relations(store, analysis, lexicon)
    if not asked:
        if unnamed_act(store, analysis, lexicon):
            return None
        relation = analysis.relations[0][0]
        if not check.asks_relation(relation):
            return None
        asked = frozenset({relation})
    if not any(relations_naming(store, w) for w in naming_words(analysis.masked)):
        # no word names a relation outright: also the ones ranked near the best ("hold talks": negotiation or consultation)
        asked |= {r for r, score in analysis.relations if score >= analysis.relations[0][1] / 2 and check.asks_relation(r)}
    # a word read as (or the lexicon mostly reads as) an intent, threat or attempt, and the act that one aims at
    # (`aimed`: `aim_only`), says an act the KG records under other names too ("meet": consultations, visits): no intent
    # to meet, nor a meeting at a third place, is evidence that they never met
    # (one that says every word of its name, "provide humanitarian aid", is the KG's record of that act)
    exact = any(not aimed(r) and not unsaid(store.relation_text(r), analysis.masked) for r in asked)
    if not exact and any(aimed(r) and _aims_at(store.relation_text(r), w) for w in naming_words(analysis.masked) for r in asked | credited(lexicon, w)):
        return None
    # the KG is not silent where a relation its act words name at least as closely holds ("give aid": Provide_aid beside the
    # humanitarian aid the lexicon reads; "accuse": Accuse_of_war_crimes is an accusation too)
    asked |= instances(store, analysis.masked)
    # and a word of the act no relation's name holds may be one its description says ("express sympathy": Make empathetic
    # comment, "Express sympathy. Offer condolences ..."); an adverb says how it was done, not what ("publicly")
    asked |= frozenset().union(*(described(w) for w in unaccounted_words(store, analysis, lexicon) if not w.endswith("ly")))
    family = set(asked).union(*(mirror_relations(store).get(r, ()) for r in asked))
    linked = [m for m in analysis.entities if m.best]
    if not linked or any(_competing(m) for m in linked[:2]):
        return None
    names = [m.best for m in linked]
    one = names[0]  # every fact between the first two names is one of the first name's facts
    for fact in (f for r in family for f in store.facts(head=one, relation=r) + store.facts(relation=r, tail=one)):
        if (len(names) < 2 or {fact.head, fact.tail} == set(names[:2])) and _at_asked_time(check, fact) and _in_roles(check, fact):
            return None
    return answer


def described_by(texts: dict[str, tuple[str, ...]], word: str) -> frozenset[str]:
    """The relations whose description (`texts`: each relation's name's text, then its description's sentences) says
    `word` in any inflection ("sympathy": Make_empathetic_comment)."""
    root = word_root(word)
    return frozenset(r for r, (_, *sentences) in texts.items() if any(root == word_root(w) for s in sentences for w in content_words(s)))


def instances(store: TKGStore, masked: str) -> frozenset[str]:
    """The relations whose names say every word of the act the wording names (the verb phrase's words, "aid" too, that name a
    relation, light verbs aside): each of their facts is an instance of the act asked ("accuse": Accuse_of_war_crimes)."""
    words = [w for w in verb_phrase(masked, 3).split() if w not in CONSTRAINT_WORDS and not carries_no_act(w) and relations_naming(store, w)]
    return frozenset.intersection(*(relations_naming(store, w) for w in words)) if words else frozenset()


def unrecorded_reference(store: TKGStore, analysis: QuestionAnalysis, lexicon: RelationLexicon | None) -> str | None:
    """Why the question cannot be placed in time (None: it can): a cue points at a pronoun's act that no relation of the KG
    names ("since he took office", "after he won the election"), so no fact dates it, and a program that places the answers
    after another event answers another question. A pro-verb ("after he did") or an act a relation names is read as such."""
    clause, said = pronoun_clause(analysis.masked) or ("", "")
    words = [w for w in naming_words(said) if not carries_no_act(w)]
    # the question's own act said again ("who had {E1} sued before it sued that judge") is read by the relation it names
    asked = [stem(w) for w in content_words(analysis.masked.replace(clause, " "))] if clause else []
    if not words or any(relations_naming(store, w) or naming_by_synonym(store, w, lexicon) or credited(lexicon, w) or any(same_word(stem(w), a) for a in asked) for w in words):
        return None
    return f"the question is placed against an act no relation of the KG records ('{clause.strip()}'): say when it was"


def two_acts(store: TKGStore, masked: str) -> str | None:
    """Why the question cannot be read as one relation (None: it can): it joins by "or" two acts that no one relation
    names together ("consulted or negotiated": Consult, Engage_in_negotiation), and a program reads one relation, so
    it would answer for half of what was asked. Words one relation names together ("arrest or detain": Arrest, detain,
    or charge ...; "meet or negotiate") are one act."""
    for one, other in either_words(masked):
        named = [relations_naming(store, w) or naming_by_synonym(store, w) for w in (one, other)]
        if all(named) and not named[0] & named[1]:
            return f"the question asks about two acts at once ('{one} or {other}'), and ARI reads one relation a question: ask about each"
    return None


def _competing(mention: EntityMention) -> bool:
    """Whether another entity reads the mention as well as its best (`CLOSE`): a country the KG names only by its
    sectors ("Israel": its police, its foreign ministry, ...), or namesakes. No fact of the best is then no evidence that
    the party the question names did nothing: another reading, or a sector not linked, may have done it. The best's own
    sectors do not compete: "South Ossetia" is the entity of that name, not its army."""
    best, score = mention.candidates[0]
    return any(s >= score - CLOSE and qualifier_of(n.replace("_", " ")) != best.replace("_", " ") for n, s in mention.candidates[1:])


def unsaid(text: str, masked: str) -> int:
    """How many of a relation's name words (by `word_root`, its `text`) the wording leaves unsaid. A name's list of alternatives
    is said whole by one of them: "impose sanctions" says all of Impose embargo, boycott, or sanctions (a list, with
    commas: "meet or negotiate" in an intent to meet or negotiate is read word by word, as an intent is another act). A
    light verb says nothing its noun does not: "negotiate" leaves nothing of Engage in negotiation unsaid, and "halt" of
    Halt negotiations."""
    said = {word_root(w) for w in content_words(predicate_text(masked))}
    alternatives = {word_root(w) for pair in _ALTERNATIVE.findall(text) for w in pair if w} if "," in text else set()
    unsaid = {word_root(w) for w in content_words(text) if w not in JOINING and w not in GRAMMAR_WORDS["light_verbs"]} - said
    return len(unsaid - alternatives if said & alternatives else unsaid)


JOINING = frozenset({"or", "and", *GRAMMAR_WORDS["prepositions"]})  # words of a name that join its words and name nothing
_ALTERNATIVE = re.compile(r"(\w+)(?=,|\s+or\b)|(?:,\s*(?:or\s+)?|\bor\s+)(\w+)")  # the words a list's commas and "or" join


def _aims_at(text: str, word: str) -> bool:
    """Whether `word` is the act a relation's name (`text`) aims at: "meet" of Express intent to meet or negotiate."""
    aim = text.partition(" to ")[2].split()
    return bool(aim) and word_root(aim[0]) == word_root(word)


def _at_asked_time(check: AnswerCheck, fact: Fact) -> bool:
    """Whether `fact` is at the time the question asks: the time it states, or before / after the event it refers to
    ("did X visit Y after he criticised Z": after X's first criticism of Z)."""
    return any(check.admits(fact, referred) for referred in check.references())


def unnamed_act(store: TKGStore, analysis: QuestionAnalysis, lexicon: RelationLexicon | None) -> str | None:
    """Why no absence can answer the question (None: it may): it names its act only in words the reading does not know
    beside light verbs. An absence is evidence only about an event the KG records, and "did X take up painting" names
    its act in an unknown word ("take" alone names none): a relation ranked best for it is a guess."""
    if lexicon is None or analysis.query.asks not in ("yesno", "number"):
        return None
    unread = unaccounted_words(store, analysis, lexicon)
    asserted = asserted_words(analysis.masked)
    if not unread or any(w not in unread and not carries_no_act(w) for w in asserted):
        return None
    return f"the question says {', '.join(repr(w) for w in unread)}, which no relation of the KG accounts for"


def _in_roles(check: AnswerCheck, fact: Fact) -> bool:
    """Whether each named party stands in `fact` where the wording puts it: a one-way relation's
    fact from Y to X is no evidence about "did X ... Y" (visiting and hosting are one event seen
    from two sides: `head_role` reads a mirror with the roles swapped)."""
    return all(
        check.in_role(fact, name, role)
        for names, role in zip(check.mentions, _roles(check)) for name in {fact.head, fact.tail}.intersection(names)
    )


# the operations that place an answer in time relative to a time or another event, or pick one end
_TEMPORAL = frozenset({"before", "after", "first", "last", "same"})


def asked_temporal(analysis: QuestionAnalysis) -> frozenset[str]:
    """The temporal operations the question's own words ask for. An n-th or a most / least often
    picks by days itself ("second to last" is no "last"), and a window's ends ("from May until
    June") are its "between", not a "before" or an "after"."""
    asked = asked_operations(analysis.cues) & _TEMPORAL
    query = analysis.query
    if query.ordinal or query.extreme:
        asked -= {"first", "last"}
    if query.window:
        asked -= {"before", "after"}
    return asked


def constraint_problem(analysis: QuestionAnalysis, program: Program, asked: frozenset[str] | None = None) -> str | None:
    """Why `program` does not carry out the question's own constraints (None: it does): it must
    place its answers in time exactly as the question does (a "last" or a same-period join the
    question never asked answers another question, and so does one that leaves an "after" out),
    and use each time the question states (a window needs both of its ends). `asked`: the
    question's `asked_temporal`, when the caller has it for many programs."""
    done = program.operations & _TEMPORAL
    asked = asked_temporal(analysis) if asked is None else asked
    if done != asked:
        extra, left = sorted(done - asked), sorted(asked - done)
        if left:
            return f"the program does not carry out the question's {', '.join(left)}"
        return f"the program performs {', '.join(extra)}, which the question does not ask"
    # "before 2006": the time is the reference, no event (MultiTQ's six keep the programs learnt on
    # them, which may read "before June 2008" as before that month's first such event)
    if analysis.query.shape != "six" and analysis.times and reference_role(analysis) is None:
        placed = next((s for s in program.steps if s.operation in ("before", "after") and not s.times), None)
        if placed is not None:
            return f"the program places its answers {placed.operation} another event, and the question {placed.operation} a time"
    if analysis.query.shape != "six" and _time_on_reference(analysis, program):
        return "the program places the question's time on the event it refers to, and the question on its answers"
    used = {t for step in program.steps for t in step.times}
    if analysis.times and not used:
        return f"the program ignores the time the question states ({analysis.times[0].text})"
    bounds = sum(1 for s in program.steps if s.operation in ("before", "after") and s.times)  # "after {T1} but before {T2}": both
    if len(analysis.times) >= 2 and len(used) < 2 and bounds < 2:
        return f"the program uses one of the question's times only ({', '.join(t.text for t in analysis.times)})"
    return None


def _time_on_reference(analysis: QuestionAnalysis, program: Program) -> bool:
    """Whether `program` bounds by the question's time only the event it places its answers before or after, where the
    question states that time outside the clause naming that event ("Once {E2} had made his first trip to {E3}, which
    countries did {E1} visit {T1}?": the visits are in {T1}; "after {E2} visited {E1} in {T1}, who ..." dates the event
    referred to). A clause that only repeats the asked act ("after {E2} had done it") has the asked act's time too."""
    masked = analysis.masked
    placed = next((s for s in program.steps if s.operation in ("before", "after") and len(s.reads) == 2), None)
    outside, said = reference_clause(masked) or ("", "")
    if placed is None or not re.search(r"\{T\d+\}", outside):
        return False
    words = analysis.grammar_dropped if "clause reference" in analysis.grammar else said
    if not words.strip() or repeats_act(words, masked):
        return False
    timed = {k for k, step in enumerate(program.steps, 1) if step.times}
    return bool(timed) and timed <= {placed.reads[1]}


def type_problem(asked: str, answers: Sequence[str]) -> str | None:
    """Why the answers are not of the asked type: a number, yes / no, an entity or a time."""
    if asked == "number" and not all(a.isdigit() for a in answers):
        return "the question asks how many, and the program gave no number"
    if asked == "yesno" and not set(answers) <= {"Yes", "No"}:
        return "the question asks yes or no, and the program gave neither"
    if asked == "entity" and any(is_time_answer(a) for a in answers):
        return "the question asks who or what, and the program gave a time"
    if asked == "time" and not all(is_time_answer(a) for a in answers):
        return "the question asks when, and the program gave no time"
    return None


def _six_asks_kind(analysis: QuestionAnalysis) -> bool:
    """Whether a question of MultiTQ's six asks for a kind of entity: its question word asks it ("which country",
    not "who was the first country to ..."), and nothing is placed before or after a time or another event. The
    KG's own questions of the other wordings and shapes (its learning split) name sectors and people too."""
    return analysis.answer_type == "entity" and not asked_temporal(analysis) & {"before", "after"} and asks_country(analysis.masked)


def asked_query(analysis: QuestionAnalysis) -> Query:
    """The query a program must carry out: the analysis's, and in MultiTQ's six one that asks for a kind
    (`_six_asks_kind`) keeps it as the other shapes do, by the type operation a list question has. A most or least
    asked of a time ranks the periods the question asks ("which year ... the most": the years, by their days)."""
    query = ranked_query(analysis)
    return replace(query, is_list=True) if query.shape == "six" and query.entity_type and _six_asks_kind(analysis) else query


def ranked_query(analysis: QuestionAnalysis) -> Query:
    """The analysis's query, with the period a most / least of a time ranks: the year or month asked; a day is no
    period to rank (each day of an event is one day), and neither is a time asked at no granularity ("when ... the
    most"): then no program admits it. A month is ranked only within a time the question states ("which month of
    2010"): with none, "which month" may ask a month of the calendar (May, of any year), which no period is."""
    query, level = analysis.query, analysis.time_level
    if not query.extreme or analysis.answer_type != "time":
        return query
    ranked = level is not None and level.value in PERIODS and (level.value == "year" or bool(analysis.times))
    return replace(query, period=level.value if ranked and level is not None else "none")


def period_variants(guides: Sequence[Guide], analysis: QuestionAnalysis) -> list[Guide]:
    """`guides`, then each program answering the times of what it finds with the periods of those times ranked by
    their days (`Program.ranked_periods`), for a most or least asked of a year or month: the ranking is one operation
    on the times found, as a count is on a list (`valued_variants`), and a methodology need not have learnt it after
    every lookup. `admitted` then keeps those that rank the asked period."""
    query = asked_query(analysis)
    if query.period not in PERIODS or query.extreme is None:
        return list(guides)
    extreme, period = query.extreme, query.period
    return _with_variants(guides, lambda program: program.ranked_periods(extreme, period), f", its {period}s ranked by their days")


def typed_variants(guides: Sequence[Guide], analysis: QuestionAnalysis) -> list[Guide]:
    """`guides`, then each program keeping only the asked kind before it picks among its answers
    (`Program.of_type`: "which country did X visit first" is the first country X visited) where the
    query asks for a kind and the memory holds the program without it."""
    query = asked_query(analysis)
    kind = query.entity_type
    if kind is None or "type" not in query.operations():
        return list(guides)
    return _with_variants(guides, lambda program: program.of_type(kind), f", keeping the {kind} answers")


def of_asked_kind(store: TKGStore, analysis: QuestionAnalysis, answers: list[str]) -> tuple[list[str], str | None]:
    """The answers of the kind the question asks, in every shape ("which country": a country entity
    of the KG, never a sector of one nor a person; "which brand": an entity whose name says it is one,
    in a KG that names its actors by kind, unless a relation's name names the kind: "which award"), and why none is (None: some are, or no kind
    is asked; in MultiTQ's six, "which country" as `_six_asks_kind` reads it)."""
    if analysis.answer_type != "entity" or not answers:
        return answers, None
    noun = analysis.asked_kind
    forms = {noun, noun.removesuffix("s"), noun + "s"} if noun is not None else set()
    if forms and _kinds_in_names(store) and not forms & _relation_words(store):
        kept = [a for a in answers if forms & set(re.findall(r"[a-z]+", a.lower()))]
        return (kept, None) if kept else ([], f"the question asks which {noun}, and no answer's name says it is one ({', '.join(answers[:3])}): the KG types its actors by their names only")
    if analysis.query.entity_type != "country":
        return answers, None
    if analysis.query.shape == "six" and not _six_asks_kind(analysis):
        return answers, None
    countries = country_names(store)
    kept = [a for a in answers if a in countries]
    if kept:
        return kept, None
    return [], f"the question asks which country, and the program's answer ({', '.join(answers[:3])}) is no country of the KG"


def _kinds_in_names(store: TKGStore) -> bool:
    """Whether the KG names its actors by kind, as ICEWS names sectors after their country ("Military (Iran)"): there a
    name says an actor's kind; a KG of typed relations ("plays for": a club) says it by the relation instead."""
    return bool(country_names(store))


def _relation_words(store: TKGStore) -> frozenset[str]:
    """The words of the KG's relation names: a kind one of them names ("award received": "which award") is told by the
    relation's facts, not by the answers' names."""
    return store.derived(("relation_words",), lambda: frozenset(w for name in store.relation_names() for w in re.findall(r"[a-z]+", store.display(name).lower())))


def shape_problem(analysis: QuestionAnalysis, program: Program, answers: Sequence[str]) -> str | None:
    """Why the answers do not answer the query as asked (None: they do)."""
    query = analysis.query
    if not asked_query(analysis).admits(program):
        return f"the program {program} does not carry out what the question asks ({query.shape})"
    wrong_type = type_problem(analysis.asked_type, answers)
    if wrong_type:
        return wrong_type
    unbound = sorted(_named_roles(analysis) - program.roles)
    if unbound:
        names = ", ".join(analysis.entities[int(r[1:]) - 1].text for r in unbound)
        return f"the program does not use {names}, which the question names"
    return constraint_problem(analysis, program)
