"""The words of a question's predicate that the shape audit holds against the KG (`agents.analysis.predicate`)."""

from __future__ import annotations

import pytest

from agents.analysis.predicate import asserted_words, naming_words
from agents.analysis.synonyms import carries_no_act


@pytest.mark.parametrize(
    ("masked", "asserted"),
    [
        ("Did {E1} visit {E2} in {T1}?", ["visit"]),
        # a frame and a tag ask the listener; "ever", "really" and "at any point" assert nothing of the event
        ("Could you check if {E1} ever really visited {E2} at any point, right?", ["visited"]),
        ("I wonder whether {E1} spoke approvingly of {E2} in {T1}.", ["spoke", "approvingly"]),
        # an existential frame ("is there any record of") and a reciprocal assert nothing either
        ("Is there any record of {E1} signing an agreement with {E2} in {T1}?", ["signing", "agreement"]),
        ("Did {E1} and {E2} consult each other in {T1}?", ["consult"]),
        # a tag asking whether the stated event took place: its occurrence, no word of the act
        ("{E1} criticizing {E2} in {T1} -- did that happen?", ["criticizing"]),
        ("{E1} visited {E2} in {T1}, has this ever occurred?", ["visited"]),
        # an indefinite pronoun stands for what the act is about: "accuse of anything" asks whether any accusation happened
        ("Did {E1} ever accuse {E2} of anything in {T1}?", ["accuse"]),
        ("Did {E1} discuss something with {E2} by phone?", ["discuss", "phone"]),
    ],
)
def test_a_yes_no_question_asserts_only_its_event(masked: str, asserted: list[str]) -> None:
    assert asserted_words(masked) == asserted


def test_a_light_verb_leaves_the_act_to_its_noun() -> None:
    words = naming_words("Who made a visit to {E1} first in {T1}?")
    assert words == {"made", "visit"}  # "first" is the query's constraint, not the act
    assert [w for w in sorted(words) if not carries_no_act(w)] == ["visit"]
    assert carries_no_act("received") and not carries_no_act("criticised")


@pytest.mark.parametrize("masked", ["{E1} went to {E2} in {T1}, right?", "{E1} visited {E2} in {T1} - correct?", "{E1} went to {E2}, didn't he?"])
def test_a_tag_asking_for_confirmation_names_no_act(masked: str) -> None:
    assert not naming_words(masked) & {"right", "correct", "didn't"}  # "right" would name the relations of rights
