"""Top-K filtering with the real bundled embedder on the tiny KG."""

from __future__ import annotations

import numpy as np
import pytest
from test_actions_kg import UKRAINE_MILITARY, build_store

from actions.context import ActionContext
from actions.enumerate import Candidate, enumerate_candidates
from actions.filtering import get_filter, roles_of, shape_of, top
from actions.templates import Answer, GetBefore, GetFirst, GetHeadEntity, GetTailEntity, GetTime
from agents.analysis.cues import question_cues
from ari.base.embedding import get_embedder
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity, parse_time


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    path = build_store(tmp_path_factory.mktemp("kg") / "kg.duckdb")
    with TKGStore.open(path) as opened:
        yield opened


@pytest.fixture(scope="module")
def candidate_filter(store: TKGStore):
    return get_filter(store, get_embedder())


def offered(candidate_filter, question: str, candidates, context: ActionContext, top_k: int, hints=None):
    """What the agent's filter node offers: the question's scores once, then the top K."""
    scores = candidate_filter.question_scores(candidate_filter.embed_question(question), question, hints, cues=question_cues(question))
    return candidate_filter.keep(scores, candidates, context, top_k)


def test_the_asked_relation_ranks_first(store: TKGStore, candidate_filter) -> None:
    context = ActionContext()
    candidates = enumerate_candidates(store, context, ["Ethiopia"])
    ranked = offered(candidate_filter, "Whom did Ethiopia accuse?", candidates, context, top_k=3)
    # the direction (who accused / whom) is the decider's call: both directions lead
    assert {s.action for s in ranked[:2]} == {GetTailEntity("Ethiopia", "Accuse"), GetHeadEntity("Ethiopia", "Accuse")}
    assert len(ranked) == 3
    assert [s.score for s in ranked] == sorted((s.score for s in ranked), reverse=True)
    assert {s.size for s in ranked[:2]} == {1, 2}

    ranked = offered(candidate_filter, "Who made optimistic comments about Ethiopia?", candidates, context, top_k=3)
    assert {s.action.relation for s in ranked[:2]} == {"Make_optimistic_comment"}


def test_a_list_operation_inherits_the_lookup_it_reads(store: TKGStore, candidate_filter) -> None:
    question = "Which country did Ethiopia accuse before 13 December 2005?"
    context = ActionContext(times=[parse_time("2005-12-13")])
    lookup = GetTailEntity("Ethiopia", "Accuse")
    context = context.with_result(lookup.execute(store, context), lookup)
    candidates = enumerate_candidates(store, context, ["Ethiopia"])
    ranked = offered(candidate_filter, question, candidates, context, top_k=5)
    assert ranked[0].action == GetBefore(1, parse_time("2005-12-13"))
    assert Answer(1) in [s.action for s in ranked]  # the latest answer is always offered


def test_first_cue_and_same_period_join(store: TKGStore, candidate_filter) -> None:
    question = "Who visited China first in the same month as the military of Ukraine?"
    context = ActionContext(granularity=Granularity.MONTH)
    entities = ["China", UKRAINE_MILITARY]
    ranked = offered(candidate_filter, question, enumerate_candidates(store, context, entities), context, top_k=10)
    assert GetTime(UKRAINE_MILITARY, "Make_a_visit", "China") in [s.action for s in ranked]
    step1 = GetTime(UKRAINE_MILITARY, "Make_a_visit", "China")
    context = context.with_result(step1.execute(store, context), step1)
    ranked = offered(candidate_filter, question, enumerate_candidates(store, context, entities), context, top_k=10)
    best_lookup = next(s.action for s in ranked if isinstance(s.action, GetHeadEntity))
    assert best_lookup == GetHeadEntity("China", "Make_a_visit", 1)


def test_the_analysis_ranked_relations_replace_the_word_overlap(store: TKGStore, candidate_filter) -> None:
    question = "Whom did Ethiopia accuse?"
    context = ActionContext()
    candidates = enumerate_candidates(store, context, ["Ethiopia"])
    by_words = offered(candidate_filter, question, candidates, context, top_k=3)
    assert by_words[0].action.relation == "Accuse"
    hinted = offered(candidate_filter, question, candidates, context, top_k=3, hints={"Make_optimistic_comment": 1.0})
    assert hinted[0].action.relation == "Make_optimistic_comment"


def test_no_candidates(candidate_filter) -> None:
    assert offered(candidate_filter, "anything", [], ActionContext(), top_k=5) == []


def test_top_caps_one_shape_and_keeps_the_latest_answer() -> None:
    actions = [GetTime("A", f"R{i}", "B") for i in range(8)]
    actions += [GetTailEntity("A", "R0"), GetFirst(1), Answer(1), Answer(2)]
    values = np.array([1.0 - i / 100 for i in range(8)] + [0.5, 0.4, 0.1, 0.05])
    candidates = [Candidate(a, 1) for a in actions]
    chosen = top(candidates, values, top_k=5, max_per_shape=3)
    shapes = [shape_of(s.action) for s in chosen]
    assert shapes.count("getTime:none") == 3
    assert len(chosen) == 5
    assert Answer(2) in [s.action for s in chosen] and Answer(1) not in [s.action for s in chosen]
    assert [s.score for s in chosen] == sorted((s.score for s in chosen), reverse=True)
    # a shape may fill the list when nothing else is left
    assert len(top(candidates[:8], values[:8], top_k=5, max_per_shape=2)) == 5
    assert top(candidates, values, top_k=0, max_per_shape=2) == []


def test_roles_follow_the_order_of_mention() -> None:
    assert roles_of(["China", UKRAINE_MILITARY, "China"]) == {"China": "E1", UKRAINE_MILITARY: "E2"}
    assert GetTime(UKRAINE_MILITARY, "Make_a_visit", "China").abstract(roles_of(["China", UKRAINE_MILITARY])) == (
        "getTime(E2, R, E1)"
    )


def test_candidates_keep_their_sizes(store: TKGStore, candidate_filter) -> None:
    candidates = [Candidate(GetTailEntity("Ethiopia", "Accuse"), 7)]
    assert offered(candidate_filter, "Whom did Ethiopia accuse?", candidates, ActionContext(), top_k=3)[0].size == 7
