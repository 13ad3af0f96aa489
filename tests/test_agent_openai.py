"""The OpenAI-compatible decider through the whole graph, against a real local chat-completions server.

The server (tests/llm_server.py) replies from a script. To script a correct run, the offline
decider first solves the question with the bundled memory; its trajectory's renderings are then
what the scripted "model" picks, each reply checking that the agent really offered that action.
"""

from __future__ import annotations

import pytest

from agents.agent import Agent
from agents.deciders.base import get_decider
from agents.prompts import REPLY_FORMAT, SUGGESTED, SYSTEM
from ari.base.config import AgentConfig, LLMConfig
from benchmarks.scripted_llm import ScriptedChatServer, candidates
from tkg_store.demo import demo_questions

GOLD = {q["quid"]: q for q in demo_questions()}
# demo questions to script runs from: 2 to 5 steps, entity and time answers
SCRIPTABLE = [10, 7, 6, 22, 29, 36, 37, 19, 18]
ANSWERABLE = "Conclusion: ANSWERABLE"


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
    llm = LLMConfig(base_url=server.base_url, timeout_s=knobs.pop("timeout", 5.0), retries=knobs.pop("retries", 0), cache=None, **knobs)
    config = AgentConfig(decider="openai:scripted", llm=llm)
    decider = get_decider(config.decider, config)
    return Agent(store, memory, config, decider=decider, analyzer=offline.analyzer, embedder=offline.embedder)


def offered(body: dict) -> list[str]:
    """The candidate renderings listed in a decision request's prompt."""
    return [action for action, _ in candidates(body)]


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
    assert result.llm_calls == 1 + len(steps)
    assert result.prompt_tokens > 0 and result.completion_tokens > 0
    assert result.tokens == result.prompt_tokens + result.completion_tokens
    assert result.trace.decider == "openai:scripted"
    assert all(r["model"] == "scripted" for r in server.requests)


def test_prompts_carry_the_methodology_the_history_and_the_candidates(parts, scripted):
    store, memory, offline = parts
    gold, steps = scripted["multi"]
    with ScriptedChatServer([ANSWERABLE] + [choose(r, []) for r in steps]) as server:
        result = llm_agent(parts, server).ask(gold["question"])
    judge, first, second = server.requests[0], server.requests[1], server.requests[2]
    assert "Conclusion: ANSWERABLE or UNANSWERABLE" in judge["messages"][1]["content"]
    assert gold["question"] in judge["messages"][1]["content"]
    assert first["messages"][0] == {"role": "system", "content": SYSTEM}
    prompt = first["messages"][1]["content"]
    assert REPLY_FORMAT in prompt and f"Question: {gold['question']}" in prompt
    assert offered(first) == result.steps[0].candidates
    # grounded: the bound program, which KG names play E1/E2/R/T, and the suggested next action, marked
    assert "Bound to this question: E1 = " in prompt and ", R = " in prompt and ", T = " in prompt
    assert f"Its next action (step 1): {steps[0]}" in prompt
    assert [action for action, marked in candidates(first) if marked] == [steps[0]]
    assert f"{steps[0]}   {SUGGESTED}" in prompt
    # the second decision shows what the first step did
    assert f"Step 1: {steps[0]} -> {result.steps[0].result_size} items" in second["messages"][1]["content"]


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


def test_two_malformed_replies_are_an_error_not_an_abstention(parts):
    gold = GOLD[10]
    with ScriptedChatServer([ANSWERABLE, "no idea", "still no idea"]) as server:
        result = llm_agent(parts, server).ask(gold["question"])
    assert result.answer is None and result.answers == []
    assert result.error == "openai:scripted replied twice with no offered action (unparseable reply: no action found in the reply)"
    assert result.steps == []
    assert len(server.requests) == 3 and result.llm_calls == 3


def test_server_errors_are_retried(parts, scripted):
    gold, steps = scripted["simple"]
    with ScriptedChatServer([500, 503, ANSWERABLE] + [choose(r, []) for r in steps]) as server:
        result = llm_agent(parts, server, retries=2).ask(gold["question"])
    assert not result.abstained, result.reason
    assert result.answer in gold["answers"]
    assert len(server.requests) == 3 + len(steps)


def test_server_errors_beyond_the_retries_are_an_error_naming_the_endpoint(parts):
    gold = GOLD[10]
    with ScriptedChatServer([500, 500, 500, 500]) as server:
        result = llm_agent(parts, server, retries=1).ask(gold["question"])
    assert result.error is not None and result.abstained and result.answers == []
    assert server.base_url in result.error and "InternalServerError" in result.error
    assert "\n" not in result.error
    assert result.steps == [] and len(server.requests) == 2


def test_a_timeout_is_an_error_naming_the_endpoint(parts):
    gold = GOLD[10]
    late = ("sleep", 1.5, ANSWERABLE)
    with ScriptedChatServer([late, late]) as server:
        result = llm_agent(parts, server, timeout=0.3).ask(gold["question"])
    assert result.error is not None and result.answer is None
    assert server.base_url in result.error and "Timeout" in result.error
    assert result.steps == []


def test_a_body_that_is_not_json_is_a_one_line_error(parts, scripted):
    gold, steps = scripted["simple"]
    with ScriptedChatServer([ANSWERABLE, ("garbage",)]) as server:
        result = llm_agent(parts, server).ask(gold["question"])
    assert result.error is not None and "\n" not in result.error and server.base_url in result.error
    assert "internal error" not in (result.reason or "")


def test_a_reasoning_model_is_asked_again_without_the_settings_it_rejects(parts, scripted):
    gold, steps = scripted["simple"]

    def strict(body: dict):
        if "temperature" in body:
            return ("error", 400, "Unsupported parameter: 'temperature' is not supported with this model.")
        if "max_tokens" in body:
            return ("error", 400, "Unsupported parameter: 'max_tokens'. Use 'max_completion_tokens' instead.")
        return None

    script = [strict, strict, ANSWERABLE] + [choose(r, []) for r in steps]
    with ScriptedChatServer(script) as server:
        result = llm_agent(parts, server).ask(gold["question"])
    assert result.error is None and result.answer in gold["answers"]
    last = server.requests[-1]
    assert "temperature" not in last and "max_tokens" not in last and last["max_completion_tokens"] == 512
    assert last["seed"] == 0 and last["response_format"] == {"type": "json_object"}


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
