"""Question typing: answer type, temporal pattern and cue, comparison granularity, masking."""

from __future__ import annotations

import pytest

from agents.analysis.question_type import classify, in_role_order, mask
from agents.analysis.times import read_times
from agents.analysis.types import EntityMention
from tkg_store.temporal import Granularity


@pytest.mark.parametrize(
    ("question", "answer_type", "pattern", "cue", "level"),
    [
        ("Who visited Iraq on 25 August 2015?", "entity", "equal", None, Granularity.DAY),
        ("In which month did Pakistan ask Malaysia for help?", "time", "equal", None, Granularity.MONTH),
        ("Which country did Ethiopia accuse before 13 December 2005?", "entity", "before_after", "before", Granularity.DAY),
        ("Who did Burundi appeal to after the East African Community?", "entity", "before_after", "after", Granularity.DAY),
        ("Who was the first to accuse Thailand?", "entity", "first_last", "first", Granularity.DAY),
        ("In which year did Xi Jinping last visit Iraq?", "time", "first_last", "last", Granularity.YEAR),
        ("Who praised Djibouti in the same year as Lee Myung Bak?", "entity", "equal_multi", "same_year", Granularity.YEAR),
        ("In 2012, to whom did China first express the intention to meet?", "entity", "equal_multi", "first", Granularity.YEAR),
        ("Who made the first optimistic remarks about Iraq after Eshaq Jahangiri?", "entity", "after_first", "after", Granularity.DAY),
        ("Who was the last person to visit China before Edward Fenech Adami?", "entity", "before_last", "before", Granularity.DAY),
        ("Before Aug 2007, which country did Ethiopia want to negotiate with?", "entity", "before_after", "before", Granularity.MONTH),
    ],
)
def test_patterns(question, answer_type, pattern, cue, level) -> None:
    kind = classify(question, read_times(question).found)
    assert (kind.answer_type, kind.pattern, kind.cue, kind.time_level) == (answer_type, pattern, cue, level)


def test_cues_are_read_from_the_masked_question() -> None:
    question = "Who did People First Party Korea praise before China?"
    entity = EntityMention("People First Party Korea", (8, 32), [("People_First_Party_Korea", 1.0)])
    masked = mask(question, [entity], [])
    assert masked == "Who did {E1} praise before China?"
    assert classify(question, [], masked).pattern == "before_after"
    assert classify(question, []).pattern == "before_last"  # what reading the raw text would get wrong


def test_mask_numbers_entities_in_role_order_and_times_by_appearance() -> None:
    question = "After 6 May 2015, which country was criticised by Iraq and Iran?"
    times = read_times(question).found
    iraq = EntityMention("Iraq", (question.index("Iraq"), question.index("Iraq") + 4), [("Iraq", 1.0)])
    iran = EntityMention("Iran", (question.index("Iran"), question.index("Iran") + 4), [("Iran", 1.0)])
    assert mask(question, [iraq, iran], times) == "After {T1}, which country was criticised by {E1} and {E2}?"
    assert mask(question, [iran, iraq], times) == "After {T1}, which country was criticised by {E2} and {E1}?"


def _mention(question: str, text: str) -> EntityMention:
    start = question.index(text)
    return EntityMention(text, (start, start + len(text)), [(text, 1.0)])


def test_the_entity_a_temporal_cue_points_at_takes_the_last_role() -> None:
    for question in (
        "Before Kuwait, which country received the visit from Seyoum Mesfin last?",
        "Which country received the visit from Seyoum Mesfin last before Kuwait?",
    ):
        mentions = [_mention(question, "Kuwait"), _mention(question, "Seyoum Mesfin")]
        mentions.sort(key=lambda m: m.span)
        ordered = in_role_order(question, mentions)
        assert [m.text for m in ordered] == ["Seyoum Mesfin", "Kuwait"]
    question = "Who visited China in the same month as the military of Taiwan?"
    mentions = [_mention(question, "China"), _mention(question, "military of Taiwan")]
    assert [m.text for m in in_role_order(question, mentions)] == ["China", "military of Taiwan"]
    question = "Who did Iraq and Iran criticise?"
    mentions = [_mention(question, "Iraq"), _mention(question, "Iran")]
    assert [m.text for m in in_role_order(question, mentions)] == ["Iraq", "Iran"]


def test_an_entity_set_aside_with_other_than_is_no_event_pointed_at() -> None:
    # "other than Iran" sets Iran aside in no time: the order of appearance stands, as for any entity no cue points at
    question = "After 30 June 2007, which was the first country other than Iran that Mahmoud Ahmadinejad visited?"
    mentions = [_mention(question, "Iran"), _mention(question, "Mahmoud Ahmadinejad")]
    assert [m.text for m in in_role_order(question, mentions)] == ["Iran", "Mahmoud Ahmadinejad"]
    question = "Earlier than Iran, which country visited Iraq?"  # a cue of time does point at it
    mentions = [_mention(question, "Iraq"), _mention(question, "Iran")]
    assert [m.text for m in in_role_order(question, mentions)] == ["Iraq", "Iran"]
