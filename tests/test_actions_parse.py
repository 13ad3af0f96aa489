"""Reading a decider's reply back to one of the offered candidates."""

from __future__ import annotations

import pytest

from actions.enumerate import Candidate
from actions.parse import ActionParseError, extract_call, parse_action
from actions.templates import Answer, GetBefore, GetFirst, GetHeadEntity, GetTailEntity, GetTime
from ari.base.errors import AriError
from tkg_store.temporal import parse_time

GANG = "Armed_Gang_(Palestinian_Territory,_Occupied)"
CANDIDATES = [
    GetTailEntity(GANG, "Praise_or_endorse"),
    GetTailEntity(GANG, "Praise_or_endorse", parse_time("2006-01")),
    GetHeadEntity("Kenya", "Praise_or_endorse"),
    GetTailEntity("Ethiopia", "Make_optimistic_comment", parse_time("2005-11")),
    GetTime("Ethiopia", "Accuse", "Eritrea"),
    GetTime("Côte_d'Ivoire", "Accuse", "Eritrea"),
    GetBefore(2, parse_time("2006-01-17")),
    GetBefore(2, parse_time("2006-01-18")),
    GetBefore(1, parse_time("2006-01-17")),
    GetFirst(2),
    Answer(1),
    Answer(2),
]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Action: getTailEntity(Armed_Gang_(Palestinian_Territory,_Occupied), Praise_or_endorse)", CANDIDATES[0]),
        ("Action: get_tail_entity(Armed Gang (Palestinian Territory, Occupied), Praise or endorse)", CANDIDATES[0]),
        ("Action: $get_tail_entity( 'Armed_Gang_(Palestinian_Territory,_Occupied)' , 'Praise_or_endorse' )$", CANDIDATES[0]),
        ("Action: getTailEntity(Armed_Gang_(Palestinian_Territory,_Occupied), Praise_or_endorse, 2006-01)", CANDIDATES[1]),
        ("Action: $get_before({entities}, 2006-01-17)$", CANDIDATES[6]),  # {entities}: the previous step
        ("Action: getBefore(#1, 2006-01-17)", CANDIDATES[8]),
        ("Action: GetBefore(#2,2006-01-18)", CANDIDATES[7]),
        ('Thought: step 2 is done.\nAction: `getFirst(#2)`', CANDIDATES[9]),
        ("Action: $answer({entities})$", CANDIDATES[11]),
        ("Action: answer(#1)", CANDIDATES[10]),
        ("action:  getTime( Ethiopia ,  Accuse ,  Eritrea )", CANDIDATES[4]),
        ("Action: getTime(Cote d'Ivoire, Accuse, Eritrea)", CANDIDATES[5]),  # accents folded
        ("Action: getTime(Cote d Ivoir, Accuse, Eritrea)", CANDIDATES[5]),  # a misspelt name, close enough
        ('Action: get_tail_entity("Ethiopia", "Make optimistic comment", "2005-11")', CANDIDATES[3]),
        ("I think the answer needs Action: $getHeadEntity(Kenya, Praise_or_endorse)$ now.", CANDIDATES[2]),
    ],
)
def test_reference_format_variants(reply: str, expected) -> None:
    assert parse_action(reply, CANDIDATES) == expected


def test_returns_the_object_it_was_given() -> None:
    wrapped = [Candidate(a, 1) for a in CANDIDATES]
    assert parse_action("Action: answer(#1)", wrapped) is wrapped[10]


def test_explicit_previous_step() -> None:
    assert parse_action("Action: get_before({entities}, 2006-01-17)", CANDIDATES, previous_step=1) == CANDIDATES[8]


@pytest.mark.parametrize(
    "reply",
    [
        "I don't know.",
        "Action: getSomething(Kenya)",
        "Action: getHeadEntity(Sudan, Praise_or_endorse)",  # not offered
        "Action: getBefore(#2, 2006-02-17)",  # a near time is a different action, never a match
        "Action: getBefore(#3, 2006-01-17)",
        "Action: getLast(#2)",
        "",
    ],
)
def test_replies_matching_no_candidate_are_rejected_with_the_format(reply: str) -> None:
    with pytest.raises(ActionParseError) as error:
        parse_action(reply, CANDIDATES)
    assert isinstance(error.value, AriError)
    assert "getTailEntity(Ethiopia, Make_optimistic_comment, 2005-11)" in str(error.value)  # the expected format


def test_rejection_lists_offered_candidates() -> None:
    with pytest.raises(ActionParseError, match=r"not one of the offered actions.*getTailEntity\(Armed_Gang"):
        parse_action("Action: getHeadEntity(Sudan, Praise_or_endorse)", CANDIDATES)


def test_extract_call_keeps_commas_and_parentheses_inside_names() -> None:
    assert extract_call(f"Action: $get_tail_entity({GANG}, Praise_or_endorse)$") == (
        "get_tail_entity",
        f"{GANG}, Praise_or_endorse",
    )
    assert extract_call("no call here") is None
