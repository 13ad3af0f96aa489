"""The OpenAI-compatible decider through the whole graph, against a real local chat-completions server.

The server (tests/llm_server.py) replies from a script. To script a correct run, the offline
decider first solves the question with the bundled memory; its trajectory's renderings are then
what the scripted "model" picks, each reply checking that the agent really offered that action.
"""

from __future__ import annotations

import re
import shutil

import pytest

from agents.agent import Agent
from agents.deciders.base import get_decider
from agents.prompts import ACTION_DEFINITIONS, REPLY_FORMAT
from ari.base.config import AgentConfig
from memory import Memory, bundled_memory_path
from benchmarks.scripted_llm import ScriptedChatServer
from tkg_store.demo import demo_questions

GOLD = {q["quid"]: q for q in demo_questions()}
# demo questions to script runs from: 2 to 5 steps, entity and time answers
SCRIPTABLE = [10, 7, 6, 22, 29, 36, 37, 19, 18]
ANSWERABLE = "Conclusion: ANSWERABLE"


@pytest.fixture(scope="module")
def parts(demo_store_file, tmp_path_factory):
    """Store, memory copy and an offline agent whose analyzer and embedder the LLM agents share."""
    from tkg_store.store import TKGStore

    copy = tmp_path_factory.mktemp("memory") / "demo-memory.sqlite"
    shutil.copyfile(bundled_memory_path(), copy)
    with TKGStore.open(demo_store_file) as store, Memory.open(copy, create=False) as memory:
        yield store, memory, Agent(store, memory, AgentConfig())


@pytest.fixture(scope="module")
def scripted(parts) -> dict:
    """{"simple": (gold, renderings), "multi": (gold, renderings)}: the shortest and the longest
    offline solution whose every step was among the candidates an LLM is shown (the top K)."""
    *_, offline = parts
    top_k = offline.config.top_k
    usable = []
    for quid in SCRIPTABLE:
        gold = GOLD[quid]
        result = offline.ask(gold["question"])
        offered_all = all(s.chosen in s.candidates[:top_k] for s in result.steps)
        if result.answer in gold["answers"] and offered_all:
            usable.append((gold, [s.chosen for s in result.steps]))
    assert usable, "no demo question was solved offline within the top-K candidates; cannot script the model"
    usable.sort(key=lambda u: len(u[1]))
    assert len(usable[-1][1]) >= 3, "no multi-step question to script"
    return {"simple": usable[0], "multi": usable[-1]}


def llm_agent(parts, server: ScriptedChatServer, **knobs) -> Agent:
    store, memory, offline = parts
    config = AgentConfig(
        decider="openai:scripted", llm_base_url=server.base_url, llm_timeout_s=knobs.pop("timeout", 5.0),
        llm_retries=knobs.pop("retries", 0), **knobs,
    )
    decider = get_decider(config.decider, config)
    return Agent(store, memory, config, decider=decider, analyzer=offline.analyzer, embedder=offline.embedder)


def offered(body: dict) -> list[str]:
    """The candidate renderings listed in a decision request's prompt."""
    prompt = body["messages"][0]["content"]
    listing = prompt.split("Candidate actions:\n", 1)[1].split("\n\n", 1)[0]
    return [re.sub(r"^\d+\. ", "", line) for line in listing.splitlines()]


def choose(rendering: str, seen: list):
    """A scripted reply that picks `rendering`, noting whether the request really offered it."""

    def reply(body: dict) -> str:
        seen.append(rendering in offered(body))
        return f"Action: ${rendering}$\nReason: it is the next step of the methodology."

    return reply


def test_a_correct_run_chooses_offered_actions(parts, scripted):
    gold, steps = scripted["multi"]
    seen: list[bool] = []
    with ScriptedChatServer([ANSWERABLE] + [choose(r, seen) for r in steps]) as server:
        result = llm_agent(parts, server).ask(gold["question"])
    assert seen == [True] * len(steps)
    assert not result.abstained, result.reason
    assert result.answer in gold["answers"]
    assert [s.chosen for s in result.steps] == steps
    assert result.steps[0].reason == "it is the next step of the methodology."
    assert result.llm_calls == 1 + len(steps) and result.tokens == 120 * (1 + len(steps))
    assert result.trace.decider == "openai:scripted"
    assert all(r["model"] == "scripted" for r in server.requests)


def test_prompts_carry_the_methodology_the_history_and_the_candidates(parts, scripted):
    store, memory, offline = parts
    gold, steps = scripted["multi"]
    with ScriptedChatServer([ANSWERABLE] + [choose(r, []) for r in steps]) as server:
        result = llm_agent(parts, server).ask(gold["question"])
    judge, first, second = server.requests[0], server.requests[1], server.requests[2]
    assert "Conclusion: ANSWERABLE or UNANSWERABLE" in judge["messages"][0]["content"]
    assert gold["question"] in judge["messages"][0]["content"]
    prompt = first["messages"][0]["content"]
    methodology = memory.match(result.analysis.masked)
    assert "Methodology for this kind of question:\n" + methodology.text in prompt
    assert ACTION_DEFINITIONS in prompt and REPLY_FORMAT in prompt
    assert f"Question: {gold['question']}" in prompt
    assert offered(first) == result.steps[0].candidates[: len(offered(first))]
    assert steps[0] in offered(first)
    # the second decision shows what the first step did
    assert f"Step 1: {steps[0]} -> {result.steps[0].result_size} items" in second["messages"][0]["content"]


def test_a_malformed_reply_is_fed_back_once(parts, scripted):
    gold, steps = scripted["simple"]
    script = [ANSWERABLE, "I would look up the time of that fact."] + [choose(r, []) for r in steps]
    with ScriptedChatServer(script) as server:
        result = llm_agent(parts, server).ask(gold["question"])
    assert not result.abstained, result.reason
    assert result.answer in gold["answers"]
    retry = server.requests[2]["messages"]
    assert retry[-2] == {"role": "assistant", "content": "I would look up the time of that fact."}
    assert "no action found in the reply" in retry[-1]["content"]
    assert REPLY_FORMAT in retry[-1]["content"]
    assert result.llm_calls == len(server.requests) == 2 + len(steps)


def test_an_unoffered_action_is_fed_back_with_the_offered_ones(parts, scripted):
    gold, steps = scripted["simple"]
    script = [ANSWERABLE, "Action: $getFirst(#7)$\nReason: guess"] + [choose(r, []) for r in steps]
    with ScriptedChatServer(script) as server:
        result = llm_agent(parts, server).ask(gold["question"])
    assert result.answer in gold["answers"]
    feedback = server.requests[2]["messages"][-1]["content"]
    assert "getFirst(#7) is not one of the offered actions" in feedback


def test_two_malformed_replies_abstain_cleanly(parts):
    gold = GOLD[10]
    with ScriptedChatServer([ANSWERABLE, "no idea", "still no idea"]) as server:
        result = llm_agent(parts, server).ask(gold["question"])
    assert result.abstained and result.answer is None and result.answers == []
    assert result.reason.startswith("step 1 failed: unparseable reply")
    assert result.steps == []
    assert len(server.requests) == 3 and result.llm_calls == 3


def test_server_errors_are_retried(parts, scripted):
    gold, steps = scripted["simple"]
    with ScriptedChatServer([500, 503, ANSWERABLE] + [choose(r, []) for r in steps]) as server:
        result = llm_agent(parts, server, retries=2).ask(gold["question"])
    assert not result.abstained, result.reason
    assert result.answer in gold["answers"]
    assert len(server.requests) == 3 + len(steps)


def test_server_errors_beyond_the_retries_abstain_naming_the_endpoint(parts):
    gold = GOLD[10]
    with ScriptedChatServer([500, 500, 500, 500]) as server:
        result = llm_agent(parts, server, retries=1).ask(gold["question"])
    assert result.abstained
    assert server.base_url in result.reason and "InternalServerError" in result.reason
    assert any("LLM judge unavailable" in line for line in result.judgement)  # the code audit stood
    assert result.steps == []


def test_a_timeout_abstains_naming_the_endpoint(parts):
    gold = GOLD[10]
    late = ("sleep", 1.5, ANSWERABLE)
    with ScriptedChatServer([late, late]) as server:
        result = llm_agent(parts, server, timeout=0.3).ask(gold["question"])
    assert result.abstained and result.answer is None
    assert server.base_url in result.reason and "Timeout" in result.reason
    assert result.steps == []


def test_the_judge_saying_unanswerable_stops_before_any_kg_action(parts):
    gold = GOLD[10]
    verdict = "Entities: found\nRelation: unclear\nTime: inside\nConclusion: UNANSWERABLE"
    with ScriptedChatServer([verdict, 500]) as server:
        result = llm_agent(parts, server).ask(gold["question"])
    assert result.abstained and result.steps == []
    assert len(server.requests) == 1  # no decision was asked for
    assert "LLM judge: UNANSWERABLE" in result.judgement
    assert result.reason


def test_the_model_cannot_overrule_an_unanswerable_code_audit(parts):
    with ScriptedChatServer([ANSWERABLE, 500]) as server:
        result = llm_agent(parts, server).ask("Who criticised Iran in 1998?")
    assert result.abstained and "the KG covers" in result.reason
    assert server.requests == []  # the code's verdict needs no model
