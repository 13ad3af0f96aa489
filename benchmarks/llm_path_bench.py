"""The LLM path measured without an LLM: `openai:` against the scripted server's policies.

Runs N dev shard-1 questions (a stratified sample, seed 0; the memory and the relation lexicon were
learned on shard 0) with the offline decider, then through `openai:scripted` against a real local
OpenAI-compatible server (`benchmarks.scripted_llm`) with the policies `follow`, `first` and
`random`, and reports Hits@1 beside the offline decider's on the same questions, LLM calls and
tokens per question. It also measures:

- the seat: the share of decisions, where the plan has a next action, whose candidates hold it
  (counted in-process over the offline agent's decisions, and from the prompts `follow` received);
- concurrency: q/s with 1 and 16 questions in flight against the server with 200 ms latency (the
  server in its own process, as a remote LLM is);
- faults: `ari bench run` (a subprocess, so its stderr is what a user sees) against the `faulty`
  policy, then the same run resumed with `--retry-errors` once the endpoint has recovered.

Usage: python -m benchmarks.llm_path_bench --db /work/base/multitq.duckdb --memory MEM.sqlite \
    --data-dir ../shared/data/multitq [--questions 300] [--out benchmarks/results/llm_path]
(set ARI_RELATION_LEXICON to the lexicon learned with the memory). With `--speed-only` it runs only
the concurrency part, beside the offline decider on the same questions (what the agent's own CPU
time allows), and the machine's load average before each run, into speed_concurrent.json / .md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agents.deciders.base import BaseDecider
from benchmarks.loaders import get_loader
from benchmarks.plan import RunSpec, run
from benchmarks.results_io import table, write_results
from benchmarks.scripted_llm import POLICIES, ScriptedChatServer, candidates, is_judge, prompt_text
from benchmarks.selection import parse_shard, stratified_sample, take_shard

RESULTS = Path(__file__).parent / "results" / "llm_path"
MODEL = "openai:scripted"
CONCURRENCY = 16
LATENCY_S = 0.2


def write_questions(data_dir: Path, n: int, path: Path, shard: str = "1/2", seed: int = 0) -> list[str]:
    """The official records of `n` questions of dev shard `shard` (stratified, seeded) into `path`."""
    loader = get_loader("multitq")
    source = loader.split_path(data_dir, "dev")
    chosen = stratified_sample(take_shard(loader.load(source).questions, parse_shard(shard)), n, seed)
    wanted = {q.qid for q in chosen}
    records = [r for r in json.loads(source.read_text(encoding="utf-8")) if str(r["quid"]) in wanted]
    path.write_text(json.dumps(records), encoding="utf-8")
    return [q.text for q in chosen]


def spec(out: Path, questions: Path, args: argparse.Namespace, decider: str, llm: dict | None = None) -> RunSpec:
    agent: dict = {"decider": decider}
    if llm is not None:
        agent["llm"] = llm
    return RunSpec(dataset="multitq", out=out, db=args.db, questions_file=questions, memory_url=str(args.memory),
                   batch_size=64, quiet=True, agent=agent)


def summary_row(summary: dict) -> dict:
    keys = ("n", "hits_at_1", "hits_at_10", "abstain_rate", "errors", "llm_calls_per_question", "prompt_tokens_per_question",
            "completion_tokens_per_question", "questions_per_second")
    return {k: summary.get(k) for k in keys}


def policy_run(name: str, work: Path, questions: Path, args: argparse.Namespace, concurrency: int, latency: float = 0.0) -> tuple[dict, list[dict]]:
    with ScriptedChatServer(policy=POLICIES[name](args.seed), latency_s=latency) as server:
        return policy_run_at(server.base_url, name, work, questions, args, concurrency, latency), list(server.requests)


def policy_run_at(url: str, name: str, work: Path, questions: Path, args: argparse.Namespace, concurrency: int, latency: float) -> dict:
    llm = {"base_url": url, "cache": None, "concurrency": concurrency, "retries": 2, "timeout_s": 30.0}
    return run(spec(work / f"{name}_n{concurrency}_l{int(latency * 1000)}", questions, args, MODEL, llm)).summary


def _serve(policy: str, seed: int, latency_s: float, conn) -> None:  # noqa: ANN001 - a multiprocessing Connection
    """In a child process: the scripted server, its URL sent to the parent, until the parent says stop."""
    with ScriptedChatServer(policy=POLICIES[policy](seed), latency_s=latency_s) as server:
        conn.send(server.base_url)
        conn.recv()


@contextmanager
def server_process(policy: str, seed: int, latency_s: float) -> Iterator[str]:
    """The scripted server's URL, the server running in its own process as a remote LLM does, so
    its threads do not share the agent's interpreter (its GIL) while the speed is measured."""
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=_serve, args=(policy, seed, latency_s, child), daemon=True)
    process.start()
    try:
        yield parent.recv()
    finally:
        parent.send("stop")
        process.join(30)


def prompt_seats(requests: list[dict]) -> dict:
    """From the decision prompts: how many announced the methodology's next action, and how many of
    those had a candidate marked as it."""
    decisions = [r for r in requests if not is_judge(r) and candidates(r)]
    announced = [r for r in decisions if "(marked below)" in prompt_text(r)]
    marked = [r for r in announced if any(suggested for _, suggested in candidates(r))]
    return {"decision_prompts": len(decisions), "announcing_next_action": len(announced), "with_marked_candidate": len(marked)}


class SeatCounter(BaseDecider):
    """Wraps the offline decider: counts decisions where the plan has a next action, and whether it
    was among the candidates the decider was offered (what every decider sees)."""

    def __init__(self, inner) -> None:  # noqa: ANN001
        self.inner, self.name = inner, inner.name
        self.with_plan = self.seated = self.decisions = 0

    def choose(self, state):  # noqa: ANN001, ANN201
        self.decisions += 1
        wanted = state.plan.next_action(len(state.actions)) if state.plan is not None else None
        if wanted is not None:
            self.with_plan += 1
            self.seated += any(c.action == wanted and c.suggested for c in state.candidates)
        return self.inner.choose(state)

    def judge(self, state, audit):  # noqa: ANN001, ANN201
        return self.inner.judge(state, audit)


def count_seats(texts: list[str], args: argparse.Namespace) -> dict:
    from agents.agent import Agent
    from agents.deciders.offline import OfflineDecider
    from ari.base.config import AgentConfig
    from memory.api import Memory
    from tkg_store.store import TKGStore

    config = AgentConfig.from_env()
    counter = SeatCounter(OfflineDecider(config))
    with TKGStore.open(args.db) as store, Memory.open(str(args.memory), create=False) as memory:
        agent = Agent(store, memory, config, decider=counter)
        for i in range(0, len(texts), 64):
            agent.ask_many(texts[i : i + 64])
    share = counter.seated / counter.with_plan if counter.with_plan else None
    return {"decisions": counter.decisions, "with_planned_action": counter.with_plan, "planned_action_offered": counter.seated, "share": share}


def faulty_cli(work: Path, questions: Path, args: argparse.Namespace) -> dict:
    """`ari bench run` against `faulty`, then resumed with --retry-errors against `follow`."""
    out = work / "faulty"
    base = [sys.executable, "-m", "ari", "bench", "run", "multitq", "--questions", str(questions), "--db", str(args.db),
            "--memory", str(args.memory), "--decider", MODEL, "--out", str(out), "--concurrency", str(CONCURRENCY),
            "--llm-timeout", "1", "--llm-retries", "1", "--no-cache", "--json", "--quiet"]
    report: dict = {}
    for phase, policy, extra in (("faulty", "faulty", []), ("retry", "follow", ["--retry-errors"])):
        with ScriptedChatServer(policy=POLICIES[policy](args.seed)) as server:
            env = {**os.environ, "OPENAI_BASE_URL": server.base_url}
            done = subprocess.run(base + extra, env=env, capture_output=True, text=True, timeout=1800)
            requests = list(server.requests)
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        report[phase] = {
            "exit_code": done.returncode,
            "traceback_on_stderr": "Traceback" in done.stderr,
            "stderr_tail": done.stderr.strip().splitlines()[-3:],
            "errors": summary["errors"],
            "error_examples": summary.get("error_examples", []),
            "n_scored": summary["n"],
            "hits_at_1": summary["hits_at_1"],
            "complete": summary["complete"],
            "requests": len(requests),
        }
        if phase == "faulty":
            report[phase]["questions_with_a_failed_request"] = len(failed_questions(requests, args.seed))
            report[phase]["errored_questions_match_failed_requests"] = errored_texts(out) == failed_questions(requests, args.seed)
    return report


def failed_questions(requests: list[dict], seed: int) -> set[str]:
    """The questions whose requests the faulty policy failed (it decides from the body alone)."""
    policy = POLICIES["faulty"](seed)
    failed = set()
    for body in requests:
        entry = policy(body)
        if not isinstance(entry, str):
            failed.add(prompt_text(body).split("\n", 1)[0].removeprefix("Question: "))
    return failed


def errored_texts(out: Path) -> set[str]:
    from benchmarks.results_log import read_results

    return {r["question"] for r in read_results(out / "results.jsonl").values() if r.get("error")}


def speed_runs(work: Path, speed: Path, args: argparse.Namespace, offline: bool = False) -> dict:
    """q/s of `follow` against the 200 ms server with 1 and CONCURRENCY questions in flight (and,
    with `offline`, of the offline decider alone on the same questions), each with the load average
    of the machine before it ran."""
    runs: dict = {}
    names = (["offline"] if offline else []) + [f"N={n}" for n in (1, CONCURRENCY)]
    for name in names:
        load, started = os.getloadavg(), time.perf_counter()
        if name == "offline":
            summary = run(spec(work / "speed_offline", speed, args, "offline")).summary
        else:
            with server_process("follow", args.seed, LATENCY_S) as url:
                summary = policy_run_at(url, "follow", work, speed, args, int(name[2:]), LATENCY_S)
        runs[name] = {"questions_per_second": summary["questions_per_second"], "wall_s": round(time.perf_counter() - started, 1),
                      "llm_calls_per_question": summary["llm_calls_per_question"], "n": summary["n"],
                      "hits_at_1": summary["hits_at_1"], "errors": summary["errors"],
                      "load_average_before": [round(x, 2) for x in load]}
    runs["ratio"] = runs[f"N={CONCURRENCY}"]["questions_per_second"] / runs["N=1"]["questions_per_second"]
    return runs


def speed_markdown(r: dict) -> str:
    s = r["speed_200ms"]
    rows = [(k, v) for k, v in s.items() if k != "ratio"]
    lines = [f"# q/s of the LLM path with questions in flight ({s['N=1']['n']} MultiTQ dev shard-1 questions, 200 ms server)", "",
             f"Command: `{r['command']}` (commit {r['git_commit']})", "",
             "| run | q/s | wall s (with start-up) | LLM calls / q | Hits@1 | errors | load average before (1, 5, 15 min) |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, v in rows:
        lines.append(f"| {name} | {v['questions_per_second']:.2f} | {v['wall_s']} | {v['llm_calls_per_question'] or 0:.2f} | "
                     f"{v['hits_at_1']:.3f} | {v['errors']} | {', '.join(str(x) for x in v['load_average_before'])} |")
    lines += ["", f"N={CONCURRENCY} / N=1: **{s['ratio']:.1f}x** (target >= 10x); the scripted server ran in its own process. `offline` is the agent with no LLM on the same "
              "questions: the q/s its own CPU work allows, which bounds N=16. Timings were taken on a shared 2-core machine "
              "(see the load averages): they are slowed by the sharing.", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--memory", type=Path, required=True)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--speed-questions", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--speed-only", action="store_true", help="only q/s at N=1 and N=16, beside the offline decider")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="llm_path_"))
    questions, speed = work / "questions.json", work / "speed_questions.json"
    write_questions(args.data_dir, args.speed_questions, speed)
    from benchmarks.runner import git_commit

    report: dict = {"git_commit": git_commit(), "command": " ".join(sys.argv), "relation_lexicon": os.environ.get("ARI_RELATION_LEXICON"), "work_dir": str(work)}
    args.out.mkdir(parents=True, exist_ok=True)
    if args.speed_only:
        report["speed_200ms"] = speed_runs(work, speed, args, offline=True)
        write_results(args.out, "speed_concurrent", report, speed_markdown(report))
        print(speed_markdown(report))
        return
    texts = write_questions(args.data_dir, args.questions, questions)
    report["questions"] = len(texts)

    report["offline"] = summary_row(run(spec(work / "offline", questions, args, "offline")).summary)
    report["seats_offline_agent"] = count_seats(texts, args)
    report["policies"] = {}
    for name in ("follow", "first", "random"):
        summary, requests = policy_run(name, work, questions, args, CONCURRENCY)
        report["policies"][name] = {**summary_row(summary), "seats_in_prompts": prompt_seats(requests)}
    report["follow_vs_offline"] = report["policies"]["follow"]["hits_at_1"] / report["offline"]["hits_at_1"]

    report["speed_200ms"] = speed_runs(work, speed, args)
    report["faulty"] = faulty_cli(work, questions, args)
    write_results(args.out, "llm_path", report, markdown(report))
    print(markdown(report))


def markdown(r: dict) -> str:
    def f(v: object) -> str:
        return f"{v:.3f}" if isinstance(v, float) else str(v)

    lines = [f"# LLM path without an LLM ({r['questions']} MultiTQ dev shard-1 questions)", "",
             *table(["decider", "Hits@1", "Hits@10", "errors", "LLM calls / q", "prompt tok / q", "completion tok / q"], (
                 [name, f(row["hits_at_1"]), f(row["hits_at_10"]), row["errors"], f(row["llm_calls_per_question"]),
                  f(row["prompt_tokens_per_question"]), f(row["completion_tokens_per_question"])]
                 for name, row in [("offline", r["offline"]), *((f"openai: `{k}`", v) for k, v in r["policies"].items())]))]
    seats = r["seats_offline_agent"]
    s = r["speed_200ms"]
    fa, re_ = r["faulty"]["faulty"], r["faulty"]["retry"]
    lines += ["", f"- `follow` / offline Hits@1: **{r['follow_vs_offline']:.3f}** (target >= 0.97)",
              f"- seat: the plan's next action was among the candidates in {seats['planned_action_offered']} of "
              f"{seats['with_planned_action']} decisions that had one (**{f(seats['share'])}**; target 1.0)",
              f"- q/s against a 200 ms server ({s['N=1']['n']} questions): N=1 {f(s['N=1']['questions_per_second'])}, "
              f"N={CONCURRENCY} {f(s[f'N={CONCURRENCY}']['questions_per_second'])}: **{s['ratio']:.1f}x** (target >= 10x)",
              f"- `faulty`: {fa['errors']} errors (questions with a failed request: {fa['questions_with_a_failed_request']}, same set: "
              f"{fa['errored_questions_match_failed_requests']}), traceback on stderr: {fa['traceback_on_stderr']}, exit {fa['exit_code']}; "
              f"resumed with --retry-errors: {re_['errors']} errors, complete: {re_['complete']}, Hits@1 {f(re_['hits_at_1'])}",
              "", "Timings were taken on the shared 2-core development machine (other sessions running): q/s are slowed by the "
              "sharing, and the agent's own CPU time weighs on N=16 far more than on N=1 (see README.md).", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
