"""Direction from grammar (agents.analysis.grammar): each construction rewritten into the active,
one-clause form, roles renumbered in that form, and template word orders left alone.

The examples are written for these tests in the constructions' textbook forms; none is taken from
an evaluation set.
"""

from __future__ import annotations

import pytest

from agents.analysis.clause_roles import clause_roles
from agents.analysis.grammar import is_agent_noun, renumber, rewrite, role_order, verb_of_agent
from agents.analysis.question_type import classify


def canonical(masked: str) -> str:
    """The rewritten masked question with its roles renumbered, as the analyzer builds it."""
    text = rewrite(masked).text
    return renumber(text, role_order(text))


@pytest.mark.parametrize(
    ("masked", "expected"),
    [
        # agent passives: the asked one is the doer
        ("In {T1}, {E1} was praised by whom?", "In {T1}, who praised {E1}?"),
        ("{E1} was first praised by which country?", "Which country first praised {E1}?"),
        ("Who was {E1} praised by in {T1}?", "Who praised {E1} in {T1}?"),
        ("By whom was the {E1} praised after {E2}?", "Who praised the {E1} after {E2}?"),
        ("Which country was {E1} last threatened by before {E2}?", "Which country last threatened {E1} before {E2}?"),
        ("Who did {E1} get praised by in {T1}?", "Who praised {E1} in {T1}?"),
        ("Who had the {E1} been threatened by before {E2}?", "Who threatened the {E1} before {E2}?"),
        # the target of an act is its object
        # passives with both parties named
        ("When was {E2} first praised by {E1}?", "When did {E1} first praised {E2}?"),
        ("In which year was the {E2} threatened by {E1}?", "In which year did {E1} threatened the {E2}?"),
        # receive an N from: the giver does the N
        # possessive agent nouns: the owner is the object
        ("Who were {E1}'s callers in {T1}?", "Who call {E1} in {T1}?"),
        ("Who was {E1}'s first supporter after {E2}?", "Who first support {E1} after {E2}?"),
        ("Who were the latest visitors to {E1}?", "Who last visit {E1}?"),
        # an event noun owned by its doer
        # cleft and request forms
        ("Who was it that threatened {E1}?", "Who threatened {E1}?"),
        ("Name the country that praised {E1} in {T1}.", "Which country praised {E1} in {T1}."),
        # every request verb of question_form.REQUEST_VERBS, with or without whom it is asked for
        ("Show me the country that praised {E1} in {T1}.", "Which country praised {E1} in {T1}."),
        ("Tell us the country that praised {E1} in {T1}.", "Which country praised {E1} in {T1}."),
        # a gerund after a temporal cue: its object is the reference
        ("Before praising {E1}, who did {E2} praise?", "Before {E2}, who did {E1} praise?"),
        ("Who did {E1} call after talking to the {E2}?", "Who did {E1} call after the {E2}?"),
        ("Prior to paying a visit to {E1}, which country did {E2} visit?", "Prior to {E2}, which country did {E1} visit?"),
        ("After the visit by {E1} to {E2}, who was the first to visit {E2}?", "After {E2}, who was the first to visit {E1}?"),
        ("Who called {E1} first after {E2}'s call to {E1}?", "Who called {E1} first after {E2}?"),
        # a temporal clause with its own verb: a pro-verb takes its verb phrase
        ("After {E1} had threatened {E2}, who was the first to do the same?", "After {E2}, who was the first to threatened {E1}?"),
        ("Who was the last to do so before {E1} praised {E2}?", "Who was the last to praised {E1} before {E2}?"),
        ("Before {E1} called {E2}, who called {E2} last?", "Before {E2}, who called {E1} last?"),
        # the same period as a relative clause
        ("Who did {E1} praise in the same year in which {E2} did?", "Who did {E1} praise in the same year as {E2}?"),
        ("Which country called {E1} in the month that {E2} did?", "Which country called {E1} in the same month as {E2}?"),
        ("Who praised {E1} in the same year {E2} did?", "Who praised {E1} in the same year as {E2}?"),
        ("Who did {E1} call in the month of {E2}'s visit?", "Who did {E1} call in the same month as {E2}?"),
        # ordinals said another way
        ("Who followed {E2} in praising {E1}?", "Who was the first to praising {E1} after {E2}?"),
        ("Which country preceded {E2} in calling {E1}?", "Which country was the last to calling {E1} before {E2}?"),
        ("Who called {E1} right after {E2}?", "Who called {E1} first after {E2}?"),
        ("Who was the next to call {E1} after {E2}?", "Who was the first to call {E1} after {E2}?"),
        ("Who else called {E1} in the same month as {E2}?", "Who called {E1} in the same month as {E2}?"),
        (
            "In the same week that {E2} threatened {E1}, which country did too?",
            "Which country threatened {E1} in the same week as {E2}?",
        ),
        # a passive whose subject is the act's own noun phrase
        ("Negative comments about {E1} were made by whom in {T1}?", "Who made negative comments about {E1} in {T1}?"),
        ("Formal agreements were signed by {E1} with whom?", "{E1} signed formal agreements with whom?"),
        ("Harsh words about {E1} were first spoken by {E2} in which year?", "{E1} first spoken harsh words about {E2} in which year?"),
        ("{E1} was threatened first by which country after {E2}?", "Which country first threatened {E1} after {E2}?"),
        # a pronoun of the main clause stands for a party of the temporal clause
        ("After {E2} called {E1}, which country did it call?", "After {E2}, which country did {E1} call?"),
        ("In the month when {E2} praised {E1}, who else praised it?", "Who praised {E1} in the same month as {E2}?"),
        ("In the year when {E1} threatened {E2}, which other country did it threaten?", "Which country did {E1} threaten in the same year as {E2}?"),
        ("Who did {E1} praise in the year it praised {E2}?", "Who did {E1} praise in the same year as {E2}?"),
        ("{E1} was blamed first by whom after it was blamed by {E2}?", "Who first blamed {E1} after {E2}?"),
        # verb-phrase ellipsis, "which other", "who was next"
        ("In the month that {E2} wanted to meet {E1}, who else wanted to?", "Who wanted to meet {E1} in the same month as {E2}?"),
        ("Once {E2} had been praised by {E1}, who was next?", "Once {E2}, who was the first to praised {E1}?"),
        # the clause's subject repeated by the main clause: its object is the reference
        ("After {E1} praised {E2}, which country did {E1} praise first?", "After {E2}, which country did {E1} praise first?"),
        ("In the month when {E1} visited {E2}, which country did {E1} visit?", "Which country did {E1} visit in the same month as {E2}?"),
        # a clause of its own, pointed back at
        ("{E2} called {E1}; who was the first to call it afterwards?", "After {E2}, who was the first to call {E1}?"),
        ("{E1} was praised by {E2}. Who praised {E1} in that same month?", "Who praised {E1} in the same month as {E2}?"),
        ("When {E2} called {E1}, who else called {E1} that day?", "Who called {E1} on the same day as {E2}?"),
        # the question names one of the statement's parties: the anaphor is the other, said in its place
        ("{E2} negotiated with {E1}. Who was the first to negotiate with {E1} after her?", "Who was the first to negotiate with {E1} after {E2}?"),
        ("{E2} threatened {E1}; who had last threatened {E1} before them?", "Who had last threatened {E1} before {E2}?"),
        ("{E1} visited {E2}. Who visited {E2} on that same day?", "Who visited {E1} on the same day as {E2}?"),
        ("{E1} went to {E2}? Who was the first to visit {E2} after he did?", "Who was the first to visit {E1} after {E2}?"),
        # a fronted clause with a pronoun subject; an event with no named doer; a clause set off by commas
        ("After they had criticised {E1}, whom did {E2} criticise first?", "After {E2}, whom did {E1} criticise first?"),
        (
            "Following its visit to the {E1}, to which country did {E2} first make a visit?",
            "Following the {E2}, to which country did {E1} first make a visit?",
        ),
        ("Which country, once {E2} had praised {E1}, was the first to do so?", "Once {E2}, which country was the first to praised {E1}?"),
        # a bare question after the clause asks who did its act too
        ("On the day {E2} criticised {E1}, who else joined in?", "Who criticised {E1} on the same day as {E2}?"),
        # a fronted same-period clause with no comma before the question word
        ("In the month that {E2} visited {E1} who else visited it?", "Who visited {E1} in the same month as {E2}?"),
        # a gerund with a longer object phrase before the reference
        (
            "Before making a request to cooperate with {E2}, which country did {E1} last ask to cooperate with?",
            "Before {E2}, which country did {E1} last ask to cooperate with?",
        ),
        # "it as well": "it" is the object ("as" is no verb in -s)
        ("Once {E2} had threatened {E1}, which country was first to threaten it as well?", "Once {E2}, which country was first to threaten {E1} as well?"),
        # "did it also V": "did" is the auxiliary, "it" the main clause's subject
        ("In the year {E1} criticised {E2}, which country did it also criticise?", "Which country did {E1} also criticise in the same year as {E2}?"),
        # the pronoun subject of a passive main clause is the clause's object
        ("In the year {E1} was criticised by {E2}, by whom else was it criticised?", "Who criticised {E1} in the same year as {E2}?"),
        # a prepositional passive keeps its preposition: the agent is the clause's subject
        ("{E1} was appealed to by {E2}; who was the first to appeal to him after that?", "After {E2}, who was the first to appeal to {E1}?"),
        # an object "the same N" names the clause's act again
        (
            "On the day when {E2} announced his intention to meet with {E1}, who else announced the same intention?",
            "Who announced his intention to meet with {E1} on the same day as {E2}?",
        ),
        # a companion of a same-period comparison; a perfect participle clause; the templates' ordinals
        ("Besides {E2}, who visited {E1} in the same month?", "Who visited {E1} in the same month as {E2}?"),
        ("Having threatened {E2}, which country did {E1} threaten first?", "After {E2}, which country did {E1} threaten first?"),
        # both parties of "receive N from" named
        ("When did {E2} first receive praise from {E1}?", "When did {E1} first praise {E2}?"),
        # a cleft whose clause has a subject of its own asks with "did"; the relative word may be left out
        ("Which year was it that {E1} last visited {E2}?", "Which year did {E1} last visited {E2}?"),
        ("When was it {E1} first praised {E2}?", "When did {E1} first praised {E2}?"),
        # a pro-verb or "one" right after the reference: the reference alone, in front or behind
        ("Which country first praised {E1} after {E2} had done so?", "Which country first praised {E1} after {E2}?"),
        ("Which country first received a visit from {E1} after the {E2} had received one?", "Which country first received a visit from {E1} after the {E2}?"),
        ("Before {E2} did, which country made an appeal to {E1}?", "Before {E2}, which country made an appeal to {E1}?"),
        # an opening "after that / after her" points back at the clause before it
        ("{E2} supported {E1}. After her, which country was the first to do so?", "After {E2}, which country was the first to supported {E1}?"),
        ("{E2} supported {E1}. Before that, who had last supported it?", "Before {E2}, who had last supported {E1}?"),
        # a clause or a time set off by commas after the subject or a few words into the question goes in front
        ("{E1}, after visiting {E2}, was hosted first by which country?", "After {E2}, which country first hosted {E1}?"),
        ("{E1}, in {T1}, was visited by whom?", "In {T1}, who visited {E1}?"),
        ("Which was the last country, before {E2} did so, to praise {E1}?", "Before {E2}, which was the last country to praise {E1}?"),
        # a time question about a noun-phrase passive with a named agent
        ("On what date was an appeal made to {E2} by {E1}?", "On what date did {E1} made an appeal to {E2}?"),
        ("In what month was conventional military force last used against {E2} by the {E1}?", "In what month did the {E1} last used conventional military force against {E2}?"),
        # an indefinite article before a mention; "made the last one" and "want the same" are pro-verbs
        ("Before an {E2} criticised {E1}, who had last done so?", "Before an {E2}, who had last criticised {E1}?"),
        ("{E2} made a request to {E1}. Who had made the last one before him?", "Before {E2}, who had last made a request to {E1}?"),
        ("{E2} wanted to negotiate with {E1}; after him, who was the first to want the same?", "After {E2}, who was the first to wanted to negotiate with {E1}?"),
        # a pronoun done to by another act than the clause's may stand for either party: left for the answer check
        ("After {E1} visited {E2}, who criticized her?", "After {E2} visited {E1}, who criticized her?"),
        ("After {E1} visited {E2}, by whom was she criticized?", "After {E2} visited {E1}, by whom was she criticized?"),
        # an event noun with its doer, and a pronoun for its object after the same verb
        ("Following {E2}'s visit to {E1}, who was the first to visit it?", "Following {E2}, who was the first to visit {E1}?"),
        # "it" as a relative clause's subject; a receive-from clause read actively
        ("After {E2} had criticised {E1}, who was the first it went on to criticise?", "After {E2}, who was the first {E1} went on to criticise?"),
        ("{E1} received a visit from {E2}; before that, who had last visited him?", "Before {E2}, who had last visited {E1}?"),
        # same-period wordings: no preposition, "as when", "besides X ... that month", "in a certain month ... then",
        # "who also V-ed?" beside the clause
        ("Who praised {E1} the same month {E2} did?", "Who praised {E1} in the same month as {E2}?"),
        ("Who praised {E1} in the same month as when {E2} did?", "Who praised {E1} in the same month as {E2}?"),
        ("Besides {E2}, who praised {E1} that year?", "Who praised {E1} in the same year as {E2}?"),
        ("{E2} praised {E1} in a certain month; who else praised it then?", "Who praised {E1} in the same month as {E2}?"),
        ("In the month {E2} praised {E1}, who also praised?", "Who praised {E1} in the same month as {E2}?"),
        # a possessive pronoun: the clause's object before an agent noun, its subject before the clause's own act;
        # a passive of an event noun's act whose agent is a pronoun
        ("{E1} was visited by {E2}; who was its first visitor after him?", "After {E2}, who first visit {E1}?"),
        ("After the {E1}'s visit to {E2}, which country was the first to be visited by it?", "After {E2}, which country was the first to be visited by the {E1}?"),
        ("After {E2} hosted {E1}'s visit, which country was the first to host his visit?", "After {E2}, which country was the first to host {E1}'s visit?"),
        ("{E2} sought cooperation with {E1} in a certain month; with which country did {E1} seek it that same month?", "With which country did {E1} seek it in the same month as {E2}?"),
        # indirect questions and requests: "did" before a subject of their own, the ordinal before the verb
        ("Tell me when {E1} last visited {E2}.", "When did {E1} last visited {E2}."),
        ("I'd like to know who the {E1} threatened in {T1}.", "Who did the {E1} threatened in {T1}."),
        ("Could you tell me which country praised {E1} after {E2}?", "Which country praised {E1} after {E2}?"),
        ("Name the last year {E1} visited {E2}.", "In which year did {E1} last visited {E2}."),
        ("Find the last year {E1} visited {E2}.", "In which year did {E1} last visited {E2}."),
        ("Show us when {E1} last visited {E2}.", "When did {E1} last visited {E2}."),
        ("Tell me the first month in which the {E1} criticised {E2}.", "In which month did the {E1} first criticised {E2}."),
        ("Name the first country {E1} praised after {E2}.", "Which country did {E1} first praised after {E2}."),
        ("Name the last one that praised {E1} before {E2}.", "Who last praised {E1} before {E2}."),
        ("Name whoever first visited {E1} after {E2}.", "Who first visited {E1} after {E2}."),
        ("Who was the last one who criticised {E1} before {E2}?", "Who last criticised {E1} before {E2}?"),
        ("Who was the one who visited {E1} in {T1}?", "Who visited {E1} in {T1}?"),
        # a cue phrase before a time in the templates' word
        ("Who negotiated with {E1} subsequent to {T1}?", "Who negotiated with {E1} after {T1}?"),
        ("Prior to {T1}, who praised {E1}?", "Before {T1}, who praised {E1}?"),
        # a statement with a tag asking for its subject (an indefinite subject: tests/test_gaps.py)
        ("{E1} had a visitor in {T1} - who was it?", "Who visit {E1} in {T1}?"),
        ("Do you know the last year {E1} visited {E2}?", "In which year did {E1} last visited {E2}?"),
        # the question word left in the object's place
        ("The {E1} made their first request after {E2} to whom?", "To whom did the {E1} made their first request after {E2}?"),
        # a yes / no or how-often question about a passive: the agent after "by" is the doer, however
        # many participles it has, and with the act's noun as the subject
        ("Was {E1} criticized or denounced by {E2} in {T1}?", "Did {E1} criticized or denounced {E2} in {T1}?"),
        ("In {T1}, on how many days was {E1} criticized by {E2}?", "In {T1}, on how many days did {E1} criticized {E2}?"),
        ("Was humanitarian aid provided to {E1} by {E2} in {T1}?", "Did {E1} provided humanitarian aid to {E2} in {T1}?"),
        # the one right after the first is the second, and no "after" or "first" of its own
        ("Who did {E1} visit in {T1} right after his first visit?", "Who did {E1} visit in {T1} the second visit?"),
        # a noun of an act whose doer is named after its other party: the doer first, as in the active voice
        ("Any criticism of {E1} by {E2} in {T1}?", "Any criticism by {E1} of {E2} in {T1}?"),
        ("Any praise for {E1} from {E2} in {T1}?", "Any praise by {E1} for {E2} in {T1}?"),  # "from": the act's source
        # a negative question asks as the positive does
        ("Wasn't {E1} threatened by {E2} in {T1}?", "Did {E1} threatened {E2} in {T1}?"),
        ("Did {E1} get threatened by {E2} in {T1}?", "Did {E1} threatened {E2} in {T1}?"),  # a get-passive
        ("Was there a visit to the {E1} by {E2}?", "Was there a visit by {E1} to the {E2}?"),
        # ... but the act a temporal cue heads is the event it points at, its doer the one referred to
        ("Following the visit to {E1} by the {E2}, who was the first to visit the country?",
         "Following the visit to {E1} by the {E2}, who was the first to visit the country?"),
        # "in advance of" / "preceding": the reference is the cue's
        ("Who last praised {E1} in advance of the {E2}?", "Who last praised {E1} in advance of the {E2}?"),
    ],
)
def test_constructions_become_the_active_one_clause_form(masked: str, expected: str) -> None:
    assert canonical(masked) == expected


@pytest.mark.parametrize(
    ("pluperfect", "simple_past"),
    [
        ("Before the {E2}, which country had been the last to praise {E1}?", "Before the {E2}, which country was the last to praise {E1}?"),
        ("Before {E2}, who had {E1} last praised?", "Before {E2}, who did {E1} last praise?"),
        ("Before {E2}, who had last visited {E1}?", "Before {E2}, who last visited {E1}?"),
    ],
)
def test_the_pluperfect_is_read_as_the_simple_past(pluperfect: str, simple_past: str) -> None:
    # beside another party's act, "had" only says which came first: the same roles, pattern and cues
    assert clause_roles(pluperfect) == clause_roles(simple_past)
    assert classify(pluperfect, []) == classify(simple_past, [])


@pytest.mark.parametrize(
    "masked",
    [
        "Who visited {E1} in {T1}?",
        "Who did {E1} visit in {T1}?",
        "Who was accused by {E1}?",  # the asked one is the patient: already active in meaning
        "Before {E2}, which country did {E1} threaten last?",
        "Which country first hosted the visit from {E1} after {E2} did?",
        "Who received {E1}'s visit from {E1} before {E2} did?",
        "Who last praised the workers of {E1} before {E1} did so?",
        "After {E2}, who was the first to make a request to {E1}?",
        "In which month did {E1} first visit {E2}?",
        "Who visited {E1} in the same month as {E2}?",
        "Who were the {E1}?",
        "Before {E2}, with whom did {E1} last speak by telephone?",  # "by" of the means: no passive
        "When did {E1} receive the visit from {E2}?",  # the KG's own receive-side relation (Host_a_visit)
        "Who was the first country after {E2} to sign formal agreements with {E1}?",  # "after X to V": no clause
        "Which country was accused by {E1} in the same month as {E2}?",
        "After its talks with {E1}, which country did {E1} negotiate with first?",  # the main clause names the event's party
        "Which country last denounced {E1} before the {E2} did so?",  # the templates' own closing pro-verb
        "Before {E2}, which country had the last telephone conversation with {E1}?",  # "had" as a main verb
        "{E1} supported {E2}. Before him, who was the last to support it?",  # which party "him" is: not sure
        "After {E2}'s visit to {E1}, which country was the first to host him?",  # another verb takes the pronoun
        "After {E2} praised {E1}, who was the first to praise her government?",  # a possessive before a noun of no act
        "Could you tell me the specific month in which {E1} visited {E2}?",  # a template's own request
        "Who was the first one that {E1} rejected?",  # an object relative after "one": the template's form
        "Who made an offer to {E1} from {E2}?",  # who made it made it; "from" is not its doer
        "Which country issued a warning to {E1} from {E2} in {T1}?",
    ],
)
def test_template_word_orders_are_left_alone(masked: str) -> None:
    found = rewrite(masked)
    assert found.rules == [] and found.text == masked


def test_a_closing_from_whom_is_left_to_the_receive_rules() -> None:
    assert "indirect question" not in rewrite("{E1} received a visit from whom in {T1}?").rules


def test_rewrites_name_their_rules() -> None:
    assert rewrite("{E1} was praised by whom?").rules == ["active voice"]
    assert rewrite("Before praising {E1}, who did {E2} praise?").rules == ["gerund reference"]


@pytest.mark.parametrize(
    ("masked", "order"),
    [
        ("Who visited {E1} before {E2}?", [1, 2]),
        ("Before {E1}, who did {E2} visit?", [2, 1]),
        ("Who visited {E2} in the same month as the {E1}?", [2, 1]),
        ("When did {E2} visit {E1}?", [2, 1]),
        ("Before {E1}, who visited {E2} after {E3}?", [1, 2, 3]),  # two cues: order of appearance
    ],
)
def test_role_order_puts_the_cue_reference_last(masked: str, order: list[int]) -> None:
    assert role_order(masked) == order


def test_renumber_maps_old_roles_to_new() -> None:
    assert renumber("Before {E2}, who did {E1} visit {E2}?", [1, 2]) == "Before {E2}, who did {E1} visit {E2}?"
    assert renumber("Who did {E2} visit before {E1}?", [2, 1]) == "Who did {E1} visit before {E2}?"


@pytest.mark.parametrize(
    ("noun", "verb", "agent"),
    [("visitors", "visit", True), ("critics", "critic", True), ("supporters", "support", True), ("hosts", "host", False), ("officials", "official", False)],
)
def test_agent_nouns(noun: str, verb: str, agent: bool) -> None:
    assert verb_of_agent(noun) == verb
    assert is_agent_noun(noun) is agent


# -- through the analyzer: a small KG written by the test, ingested into a real DuckDB file -------
FACTS = [
    ("Ashok_Kumar", "Make_a_visit", "India", "2011-01-01"),
    ("Ashok_Kumar", "Make_a_visit", "Nepal", "2011-02-01"),
    ("Police_(France)", "Make_a_visit", "Kenya", "2010-04-04"),
    ("Tourist_(Kenya)", "Make_a_visit", "Japan", "2010-05-01"),
    ("Japan", "Criticize_or_denounce", "Kenya", "2010-06-01"),
    ("Japan", "Use_conventional_military_force", "Kenya", "2010-06-02"),
    ("Khan_Said", "Criticize_or_denounce", "Kenya", "2010-07-01"),
    ("Le_Point", "Make_statement", "Kenya", "2010-08-01"),
]


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory: pytest.TempPathFactory):
    from bench_support import analyzer_over

    from ari.base.embedding import get_embedder

    yield from analyzer_over(tmp_path_factory.mktemp("grammar_kg") / "kg.duckdb", FACTS, get_embedder())


def test_the_analyzer_reads_a_passive_in_the_active_form(analyzer) -> None:
    analysis = analyzer.analyze("In April 2010, Kenya was visited by whom?")
    assert analysis.masked == "In {T1}, who visited {E1}?"
    assert [m.best for m in analysis.entities] == ["Kenya"]
    assert analysis.grammar == ["active voice"]


def test_the_analyzer_renumbers_roles_after_a_gerund(analyzer) -> None:
    analysis = analyzer.analyze("Before visiting Nepal, which country did Ashok Kumar visit?")
    assert analysis.masked == "Before {E2}, which country did {E1} visit?"
    assert [m.best for m in analysis.entities] == ["Ashok_Kumar", "Nepal"]
    assert analysis.pattern == "before_after"


def test_a_possessive_agent_noun_is_no_sector_role(analyzer) -> None:
    analysis = analyzer.analyze("Who were Kenya's visitors in 2010?")
    assert [m.best for m in analysis.entities] == ["Kenya"]
    assert analysis.masked == "Who visit {E1} in {T1}?"


def test_a_quantifier_heads_no_name_and_an_act_noun_no_sector_role(analyzer) -> None:
    """"at some point" is no Le Point; "Kenya's visit" is Kenya's own visit, not Tourist (Kenya)."""
    analysis = analyzer.analyze("Who criticised Kenya at some point after May 2010?")
    assert [m.best for m in analysis.entities] == ["Kenya"] and analysis.unlinked == []
    analysis = analyzer.analyze("Following Kenya's visit to Japan, who was the first to visit it?")
    assert [m.best for m in analysis.entities] == ["Japan", "Kenya"]
    assert analysis.masked == "Following {E2}, who was the first to visit {E1}?"


def test_a_template_question_is_analysed_as_before(analyzer) -> None:
    analysis = analyzer.analyze("Who visited Kenya in April 2010?")
    assert analysis.masked == "Who visited {E1} in {T1}?" and analysis.grammar == []


def test_a_rewrite_keeps_the_content_words_it_drops() -> None:
    found = rewrite("Before making a request to {E2}, who did {E1} last make one to?")
    assert found.text == "Before {E2}, who did {E1} last make one to?" and found.dropped == "making request"
    assert rewrite("{E1} was praised by whom?").dropped == ""


@pytest.mark.parametrize(
    ("question", "masked"),
    [
        # a sentence-opening word of the KG's relation vocabulary, or one nothing links, is no name
        ("Conventional military force was used against Kenya by whom in June 2010?", "Who used conventional military force against {E1} in {T1}?"),
        ("Negative comments about Kenya were made by whom?", "Who made negative comments about {E1}?"),
    ],
)
def test_a_noun_phrase_passive_opening_the_sentence(analyzer, question: str, masked: str) -> None:
    analysis = analyzer.analyze(question)
    assert analysis.masked == masked
    assert [m.best for m in analysis.entities] == ["Kenya"] and analysis.unlinked == []


def test_an_indirect_question_asks_what_its_question_word_asks(analyzer) -> None:
    """"Tell me when ..." asks a time; the asker "I" and the pronoun "one" name nobody."""
    analysis = analyzer.analyze("Tell me when Japan last criticised Kenya.")
    assert analysis.answer_type == "time" and analysis.pattern == "first_last"
    analysis = analyzer.analyze("I want to know the month Japan first criticised Kenya.")
    assert analysis.answer_type == "time" and analysis.masked.rstrip(".") == "In which month did {E1} first criticised {E2}"
    assert [m.best for m in analysis.entities] == ["Japan", "Kenya"]
    analysis = analyzer.analyze("Who was the one who criticised Kenya in June 2010?")
    assert [m.best for m in analysis.entities] == ["Kenya"] and analysis.masked == "Who criticised {E1} in {T1}?"


def test_a_frequent_english_verb_form_is_no_lower_case_surname(analyzer) -> None:
    assert [m.best for m in analyzer.analyze("Who was said to have criticised Kenya?").entities] == ["Kenya"]
    assert [m.best for m in analyzer.analyze("Who did Khan Said criticise?").entities] == ["Khan_Said"]



@pytest.mark.parametrize(
    ("text", "cues"),
    [
        ("Iran praised Japan; who praised Japan first afterwards?", ["after", "first"]),
        ("Who had visited Chad previously?", ["before"]),
        ("Iran visited Chad; who visited Chad beforehand?", ["before"]),
        ("Who visited Chad in advance of Iran?", ["before"]),
    ],
)
def test_the_cue_lexicon_reads_adverbs_that_point_back(text: str, cues: list[str]) -> None:
    from agents.analysis.cues import temporal_cues

    assert temporal_cues(text) == cues


@pytest.mark.parametrize(
    ("masked", "pattern"),
    [
        ("Who was the most recent to call {E1} before {E2}?", "before_last"),
        ("Who was the earliest to praise {E1} after {E2}?", "after_first"),
        ("When was the latest visit of {E1} to {E2}?", "first_last"),
    ],
)
def test_ordinals_said_another_way_need_no_rewrite(masked, pattern):
    # the cue lexicon reads "most recent", "latest", "earliest" as last / first: no grammar rule is needed
    from agents.analysis.question_type import classify

    assert classify(masked, []).pattern == pattern


def test_receiving_an_act_turns_its_roles_around_without_a_rewrite():
    # "Who did {E1} receive a call from": the answer check reads the receiving verb (`clause_roles`)
    from agents.analysis.clause_roles import receives_event

    assert receives_event("Who did {E1} receive a call from in {T1}?")
    assert not receives_event("Who did {E1} call in {T1}?")


def test_a_quantifier_before_a_passives_subject_leaves_it_the_one_acted_on() -> None:
    from agents.analysis.clause_roles import OBJECT, SUBJECT, voice_roles

    # "were any {E1} abducted by {E2}": E1 was abducted, E2 did it; "did any {E1} visit {E2}": E1 visited
    assert clause_roles("Were any {E1} abducted by {E2} in {T1}?")[1] is None
    assert voice_roles("Were any {E1} abducted by {E2} in {T1}?").read == {1: OBJECT, 2: SUBJECT}
    assert clause_roles("Did any {E1} visit {E2} in {T1}?") == {1: SUBJECT, 2: OBJECT}
