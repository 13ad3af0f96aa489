"""The LLM path's plumbing against a real local OpenAI-compatible server (benchmarks.scripted_llm):
reply parsing, settings, the reply cache, requests in flight together, vLLM's one call per step,
errors as their own outcome in runs, and LLM-written methodologies."""

from __future__ import annotations

import json
import re
import shutil
import threading
from types import SimpleNamespace

import pytest

from actions.parse import ActionParseError, parse_choice
from actions.templates import Answer, GetFirst, GetTime
from agents.agent import Agent
from agents.deciders.base import get_decider
from agents.deciders.vllm_local import VLLMDecider
from ari.base.config import AgentConfig, LLMConfig
from ari.base.errors import UsageError
from benchmarks.scripted_llm import ScriptedChatServer, faulty, follow, is_judge, prompt_text
from memory import Memory, bundled_memory_path
from tkg_store.demo import demo_questions

QUESTIONS = [q["question"] for q in demo_questions()[:4]]
OFFERED = [GetTime("Iran", "Criticize_or_denounce", "Pervez_Musharraf"), GetFirst(1), Answer(2)]


def llm_agent(parts, llm: LLMConfig, decider=None) -> Agent:
    store, memory, offline = parts
    config = AgentConfig(decider="openai:scripted", llm=llm)
    decider = decider or get_decider(config.decider, config)
    return Agent(store, memory, config, decider=decider, analyzer=offline.analyzer, embedder=offline.embedder)


# -- replies -------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "reply, index, reason",
    [
        ("2", 1, ""),
        ("Action: 3\nReason: the answer step", 2, "the answer step"),
        ("Action: $1$", 0, ""),
        ('{"action": 2, "reason": "earliest"}', 1, "earliest"),
        ('```json\n{"action": "answer(#2)", "reason": "done"}\n```', 2, "done"),
        ("Action: $getFirst(#1)$\nReason: earliest", 1, "earliest"),
    ],
)
def test_a_reply_names_a_candidate_by_number_action_or_json(reply, index, reason):
    assert parse_choice(reply, OFFERED) == (index, reason)


@pytest.mark.parametrize("reply", ["7", '{"action": 0}', "no idea", "Action: getLast(#1)"])
def test_a_reply_naming_no_offered_candidate_says_what_is_expected(reply):
    with pytest.raises(ActionParseError):
        parse_choice(reply, OFFERED)


# -- settings ------------------------------------------------------------------------------------

def test_llm_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("ARI_LLM_TIMEOUT", "7.5")
    monkeypatch.setenv("ARI_LLM_RETRIES", "0")
    monkeypatch.setenv("ARI_LLM_TEMPERATURE", "none")
    monkeypatch.setenv("ARI_LLM_MAX_TOKENS", "64")
    monkeypatch.setenv("ARI_LLM_SEED", "3")
    monkeypatch.setenv("ARI_LLM_CACHE", "off")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    config = AgentConfig.from_env()
    assert (config.llm.timeout_s, config.llm.retries, config.llm.temperature) == (7.5, 0, None)
    assert (config.llm.max_tokens, config.llm.seed, config.llm.cache) == (64, 3, None)
    saved = config.to_dict()
    assert "api_key" not in saved["llm"] and "sk-secret" not in json.dumps(saved)
    assert AgentConfig.from_dict(saved).llm.max_tokens == 64


def test_a_bad_environment_value_is_a_usage_error(monkeypatch):
    monkeypatch.setenv("ARI_LLM_TIMEOUT", "soon")
    with pytest.raises(UsageError, match="ARI_LLM_TIMEOUT='soon'"):
        AgentConfig.from_env()


# -- cache and concurrency -----------------------------------------------------------------------

def test_a_rerun_is_answered_from_the_reply_cache(parts, tmp_path):
    llm = LLMConfig(retries=0, timeout_s=5, cache=str(tmp_path / "cache.sqlite"))
    with ScriptedChatServer(policy=follow) as server:
        llm.base_url = server.base_url
        first = llm_agent(parts, llm).ask(QUESTIONS[0])
        sent = len(server.requests)
        again = llm_agent(parts, llm).ask(QUESTIONS[0])
    assert sent == first.llm_calls > 0 and first.error is None
    assert len(server.requests) == sent  # nothing sent the second time
    assert again.llm_calls == 0 and again.tokens == 0
    assert again.answers == first.answers and [s.chosen for s in again.steps] == [s.chosen for s in first.steps]


def test_the_questions_of_a_batch_have_their_requests_in_flight_together(parts):
    """Each judge request waits until four are in flight at once: only concurrency does that."""
    together = threading.Barrier(len(QUESTIONS), timeout=20)

    def policy(body: dict):
        if is_judge(body):
            together.wait()
        return follow(body)

    with ScriptedChatServer(policy=policy) as server:
        llm = LLMConfig(base_url=server.base_url, retries=0, timeout_s=30, cache=None, concurrency=len(QUESTIONS))
        results = llm_agent(parts, llm).ask_many(QUESTIONS)
    assert [r.error for r in results] == [None] * len(QUESTIONS)
    assert not together.broken


def test_questions_advance_independently_of_a_slow_one(parts):
    """One question's judge request is held until another question has gone on to its second
    decision: in lockstep the other could not decide before every judge verdict was in."""
    slow, quick = QUESTIONS[1], QUESTIONS[0]
    went_on = threading.Event()
    held: list[bool] = []
    quick_decisions: list[dict] = []

    def policy(body: dict):
        asked = prompt_text(body).split("\n", 1)[0].removeprefix("Question: ")
        if asked == slow and is_judge(body):
            held.append(went_on.wait(timeout=20))  # the timeout only keeps a broken run from hanging
        if asked == quick and not is_judge(body):
            quick_decisions.append(body)
            if len(quick_decisions) == 2:
                went_on.set()
        return follow(body)

    with ScriptedChatServer(policy=policy) as server:
        llm = LLMConfig(base_url=server.base_url, retries=0, timeout_s=60, cache=None, concurrency=2)
        results = llm_agent(parts, llm).ask_many([slow, quick])
    assert held == [True]
    # both ran to their end (an answer, or the step budget): what this test is about is that neither
    # waited on the other; whether the scripted policy's walk answers the slow one depends on how
    # strongly the demo memory advises its program (0.38 success since the shapes' clusters joined)
    assert [r.error for r in results] == [None, None] and all(r.steps for r in results)
    assert results[1].answers


def test_a_run_keeps_its_questions_in_flight_across_batches_and_writes_results_in_order(parts, demo_store_file, tmp_path):
    """With one question per batch and two in flight, the first question's judge request is held
    until the third question has sent one: a runner that waited for each batch to finish could
    never start the third while the first was unanswered. results.jsonl still lists them in order."""
    from benchmarks.plan import RunSpec, run

    _, memory, _ = parts
    records = demo_questions()[:3]
    first, third = records[0]["question"], records[2]["question"]
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps(records), encoding="utf-8")
    third_started = threading.Event()
    held: list[bool] = []

    def policy(body: dict):
        asked = prompt_text(body).split("\n", 1)[0].removeprefix("Question: ")
        if asked == third:
            third_started.set()
        if asked == first and is_judge(body):
            held.append(third_started.wait(timeout=20))  # the timeout only keeps a broken run from hanging
        return follow(body)

    with ScriptedChatServer(policy=policy) as server:
        llm = {"base_url": server.base_url, "retries": 0, "timeout_s": 60.0, "cache": None, "concurrency": 2}
        outcome = run(RunSpec(dataset="multitq", out=tmp_path / "run", db=demo_store_file, questions_file=questions,
                              quiet=True, batch_size=1, memory_url=str(memory.history.where),
                              agent={"decider": "openai:scripted", "llm": llm}))
    assert held == [True]
    assert outcome.summary["errors"] == 0 and outcome.answered_now == 3
    lines = (tmp_path / "run" / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["question"] for line in lines] == [r["question"] for r in records]


class RecordingEngine:
    """Stands in for `vllm.LLM` (no GPU here): replies like `follow` and records each `chat` call."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def chat(self, conversations, params, use_tqdm=False):  # noqa: ANN001, ANN201
        self.calls.append(len(conversations))
        outputs = []
        for messages in conversations:
            text = follow({"messages": messages})
            outputs.append(SimpleNamespace(prompt_token_ids=[0] * 10, outputs=[SimpleNamespace(text=text, token_ids=[0] * 3)]))
        return outputs


def test_vllm_sends_each_lockstep_step_as_one_generate_call(parts):
    engine = RecordingEngine()
    config = AgentConfig(decider="vllm:local", llm=LLMConfig(cache=None))
    decider = VLLMDecider("local", config, engine=engine)
    results = llm_agent(parts, config.llm, decider=decider).ask_many(QUESTIONS)
    assert engine.calls[0] == len(QUESTIONS)  # every judge request in one call
    assert engine.calls[1] == len(QUESTIONS)  # every first decision in one call
    assert sum(engine.calls) == sum(r.llm_calls for r in results)
    assert all(r.prompt_tokens == 10 * r.llm_calls and r.completion_tokens == 3 * r.llm_calls for r in results)


# -- errors in runs ------------------------------------------------------------------------------

def test_endpoint_failures_are_errors_in_a_run_and_retried_on_resume(parts, demo_store_file, tmp_path):
    from benchmarks.plan import RunSpec, run
    from benchmarks.results_log import read_results

    _, memory, _ = parts
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps(demo_questions()[:3]), encoding="utf-8")
    out = tmp_path / "run"

    def spec(server, retry_errors=False):
        llm = {"base_url": server.base_url, "retries": 0, "timeout_s": 5.0, "cache": None, "concurrency": 3}
        return RunSpec(dataset="multitq", out=out, db=demo_store_file, questions_file=questions, quiet=True,
                       memory_url=str(memory.history.where), agent={"decider": "openai:scripted", "llm": llm},
                       retry_errors=retry_errors)

    with ScriptedChatServer() as down:  # every request fails with 500
        failed = run(spec(down)).summary
    assert failed["errors"] == 3 and failed["n"] == 0 and not failed["complete"]
    assert all("InternalServerError" in r["error"] for r in read_results(out / "results.jsonl").values())
    with ScriptedChatServer(policy=follow) as up:
        assert run(spec(up)).answered_now == 0  # a plain resume keeps the errors
        resumed = run(spec(up, retry_errors=True))
    assert resumed.answered_now == 3
    assert resumed.summary["errors"] == 0 and resumed.summary["n"] == 3 and resumed.summary["complete"]
    assert resumed.summary["prompt_tokens"] > 0 and resumed.summary["completion_tokens"] > 0


def test_bench_run_exits_non_zero_when_a_question_ended_in_an_endpoint_error(parts, demo_store_file, tmp_path, monkeypatch, capsys):
    """`ari bench run` against the scripted server's `faulty` policy (500s, bodies that are not JSON,
    replies after the timeout): exit 1 with one line on stderr; resumed with --retry-errors, exit 0."""
    from ari.cli import run

    _, memory, _ = parts
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps(demo_questions()[:6]), encoding="utf-8")
    command = ["bench", "run", "multitq", "--questions", str(questions), "--db", str(demo_store_file),
               "--memory", str(memory.history.where), "--decider", "openai:scripted", "--out", str(tmp_path / "run"),
               "--concurrency", "4", "--llm-retries", "0", "--no-cache", "--json", "--quiet"]

    def bench_run(policy, *extra: str) -> tuple[int, str, str]:
        with ScriptedChatServer(policy=policy) as server:
            monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
            code = run(command + list(extra))
        return code, *capsys.readouterr()

    code, out, err = bench_run(faulty(0, rate=0.5, timeout_s=1.0), "--llm-timeout", "1")
    summary = json.loads(out)
    assert code == 1 and summary["errors"] > 0
    assert err.strip().splitlines() == [
        f"Error: {summary['errors']} questions ended in an LLM error (not counted in the metrics); "
        "rerun with --retry-errors to answer them again"
    ]
    code, out, err = bench_run(follow, "--retry-errors")
    assert code == 0, err
    assert json.loads(out)["errors"] == 0 and "Traceback" not in err


# -- methodologies written by an LLM ---------------------------------------------------------------

def _induce(monkeypatch, capsys, memory_path, server, *extra):
    from ari.cli import run

    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    code = run(["memory", "induce", "--memory", str(memory_path), "-k", "3",
                "--decider", "openai:writer", "--llm-retries", "0", "--no-cache", *extra])
    return code, *capsys.readouterr()


WRITTEN = "Overall Instruction:\nFind the link, then order it in time.\n\nStep-by-step Guide:\n1. Look up the facts."


def test_memory_induce_with_an_llm_stores_its_text_beside_the_induced_one(monkeypatch, capsys, tmp_path):
    memory_path = tmp_path / "memory.sqlite"
    shutil.copyfile(bundled_memory_path(), memory_path)
    with ScriptedChatServer(policy=lambda body: WRITTEN) as server:
        code, out, err = _induce(monkeypatch, capsys, memory_path, server, "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["sources"] == {"llm": summary["k"] + 1} and summary["llm_failures"] == {}
    for body in server.requests:
        prompt = body["messages"][0]["content"]
        correct = prompt.split("Correct samples:\n", 1)[1].split("\n\nIncorrect samples:", 1)[0]
        asked = re.findall(r"^Question: (.*)$", correct, re.MULTILINE)
        assert len(asked) == len(set(asked))  # distinct questions, never one question five times
    with Memory.open(str(memory_path), create=False) as memory:
        methodology = memory.methodologies()[0]
    assert methodology.source == "llm" and methodology.text == WRITTEN
    assert methodology.induced_text.startswith("Overall Instruction:") and methodology.induced_text != WRITTEN
    from ari.cli import run

    assert run(["memory", "show", "0", "--memory", str(memory_path)]) == 0
    shown = capsys.readouterr().out
    assert WRITTEN in shown and methodology.induced_text.splitlines()[1] in shown


def test_memory_induce_keeps_the_induced_text_when_the_llm_fails_and_says_so(monkeypatch, capsys, tmp_path):
    memory_path = tmp_path / "memory.sqlite"
    shutil.copyfile(bundled_memory_path(), memory_path)
    with ScriptedChatServer() as server:  # every request fails with 500
        code, out, err = _induce(monkeypatch, capsys, memory_path, server)
    assert code == 0 and "Traceback" not in err
    assert "kept their induced methodology" in err and "InternalServerError" in err
    with Memory.open(str(memory_path), create=False) as memory:
        assert {m.source for m in memory.methodologies().values()} == {"induced"}


def test_the_summary_estimates_cost_from_the_price_table():
    from benchmarks.runner import llm_usage

    records = [{"llm_calls": 3, "prompt_tokens": 1_000_000, "completion_tokens": 10_000}, {"llm_calls": 1, "prompt_tokens": 0, "completion_tokens": 0}]
    priced = {"agent_config": {"llm": {"price_prompt_per_mtok": 0.15, "price_completion_per_mtok": 0.6}}}
    usage = llm_usage(records, priced)
    assert usage["llm_calls"] == 4 and usage["prompt_tokens"] == 1_000_000 and usage["completion_tokens"] == 10_000
    assert usage["cost_usd"] == pytest.approx(0.15 + 0.006)
    assert llm_usage(records, {})["cost_usd"] is None
