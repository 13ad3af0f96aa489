"""Latency of a warm `ari serve` and the cost of a cold `ari ask`, on MultiTQ.

Starts `ari serve` on a free loopback port over a store and a copy of a memory, then asks N dev
questions of one shard: one at a time (p50/p99 per request), and from C concurrent clients (the
server gathers what arrives together into one batch). Then runs `ari ask` cold, as a new process,
a few times: wall time and peak RSS (GNU time).

    ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json python -m benchmarks.serve_bench \\
        --db multitq.duckdb --memory mem.sqlite --questions ../shared/data/multitq/questions/dev.json \\
        --shard 1/2 --n 300 --concurrency 1 8 32
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import numpy as np

from benchmarks.results_io import table, write_results
from benchmarks.selection import shard_of

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"


def dev_questions(path: str, shard: str, n: int) -> list[str]:
    index, count = (int(p) for p in shard.split("/"))
    records = json.loads(Path(path).read_text(encoding="utf-8"))
    return [r["question"] for r in records if shard_of(str(r["quid"]), count) == index][:n]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(
    db: str, memory: str, gather_ms: float, log: Path, extra: Sequence[str] = (), timeout_s: float | None = None
) -> tuple[subprocess.Popen, str, float]:
    """`ari serve` (with `extra` options) on a free port, once /health answers; its URL and start-up seconds.
    A server that exits, or does not answer within `timeout_s`, is a SystemExit (stopped first)."""
    port = free_port()
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "ari", "serve", "--db", db, "--memory", memory, "--port", str(port), "--gather-ms", str(gather_ms), *extra],
        cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    while True:
        if process.poll() is not None:
            raise SystemExit(f"ari serve exited with {process.returncode}: {log.read_text()}")
        if timeout_s is not None and time.perf_counter() - started > timeout_s:
            stop(process)
            raise SystemExit(f"ari serve did not answer within {timeout_s:.0f} s")
        try:
            if httpx.get(url + "/health", timeout=2).status_code == 200:
                return process, url, time.perf_counter() - started
        except httpx.HTTPError:
            time.sleep(0.1)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc): less sensitive to other jobs than wall time."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed_asks(url: str, questions: list[str], concurrency: int) -> dict:
    """Every question asked once, by `concurrency` clients each holding one keep-alive connection."""
    chunks = [questions[i::concurrency] for i in range(concurrency)]

    def client(chunk: list[str]) -> list[tuple[float, float]]:
        times = []
        with httpx.Client(timeout=120) as http:
            for question in chunk:
                started = time.perf_counter()
                reply = http.post(url + "/ask", json={"question": question})
                reply.raise_for_status()
                times.append((time.perf_counter() - started, agent_seconds(reply)))
        return times

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        pairs = np.array([t for times in pool.map(client, chunks) for t in times]) * 1000
    wall = time.perf_counter() - started
    latencies, agent = pairs[:, 0], pairs[:, 1]
    return {
        "concurrency": concurrency,
        "questions": len(latencies),
        "p50_ms": round(float(np.percentile(latencies, 50)), 1),
        "p90_ms": round(float(np.percentile(latencies, 90)), 1),
        "p99_ms": round(float(np.percentile(latencies, 99)), 1),
        "mean_ms": round(float(latencies.mean()), 1),
        "questions_per_s": round(len(latencies) / wall, 1),
        # the server's own account (Server-Timing): the agent's ask_many call, and the rest of each
        # request's time (HTTP, JSON, queueing behind other questions) as the client saw it
        "agent_p50_ms": round(float(np.percentile(agent, 50)), 1),
        "outside_agent_p50_ms": round(float(np.percentile(latencies - agent, 50)), 1),
    }


def agent_seconds(reply: httpx.Response) -> float:
    """The `agent;dur=` entry of the reply's Server-Timing header, in seconds (NaN when absent)."""
    for entry in reply.headers.get("server-timing", "").split(","):
        name, _, duration = entry.strip().partition(";dur=")
        if name == "agent":
            return float(duration) / 1000
    return float("nan")


def cold_asks(db: str, memory: str, questions: list[str], pycache: Path) -> list[dict]:
    """`ari ask` as a fresh process per question: wall seconds and peak RSS (GNU time).

    Each question is asked twice: with Python's bytecode cache (as any installed or once-run ARI
    has it; compiled by an uncounted warm-up run into `pycache`) and with none written, as under
    PYTHONDONTWRITEBYTECODE=1, where every run compiles ARI's own modules again. The warm-up also
    builds the store's saved tables (tkg_store.saved), as a first `ari ask` would."""
    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPYCACHEPREFIX": str(pycache)}
    uncached = {k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"} | {"PYTHONDONTWRITEBYTECODE": "1"}
    _time_ask(db, memory, questions[0], cached)  # warm-up, not counted
    return [
        {**_time_ask(db, memory, question, env), "bytecode": name}
        for question in questions
        for name, env in (("cached", cached), ("not written", uncached))
    ]


def _time_ask(db: str, memory: str, question: str, env: dict[str, str]) -> dict:
    out = subprocess.run(
        ["/usr/bin/time", "-f", "%e %U %S %M", sys.executable, "-m", "ari", "ask", question, "--db", db, "--memory", memory],
        cwd=ROOT, capture_output=True, text=True, check=True, env=env,
    )
    wall, user, system, rss_kb = out.stderr.strip().splitlines()[-1].split()
    return {
        "question": question, "wall_s": float(wall), "cpu_s": round(float(user) + float(system), 2),
        "peak_rss_mb": round(int(rss_kb) / 1024), "answer": out.stdout.strip().replace("\n", " "),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--memory", required=True, help="copied first: the server records into the copy")
    parser.add_argument("--questions", required=True)
    parser.add_argument("--shard", default="1/2")
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--gather-ms", type=float, nargs="+", default=[3.0], help="server batch windows to compare")
    parser.add_argument("--cold", type=int, default=3, help="cold `ari ask` runs")
    parser.add_argument("--cold-only", action="store_true", help="skip the server: time cold `ari ask` alone")
    parser.add_argument("--name", default="serve_bench")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    questions = dev_questions(args.questions, args.shard, args.n)
    load_before = os.getloadavg()
    work = Path(tempfile.mkdtemp(prefix="serve_bench_"))
    report: dict = {
        "command": " ".join(["python -m benchmarks.serve_bench", *sys.argv[1:]]),
        "lexicon": os.environ.get("ARI_RELATION_LEXICON"),
        "cpus": os.cpu_count(),
        "runs": [],
    }
    try:
        for gather in [] if args.cold_only else args.gather_ms:
            memory = work / f"memory-{gather}.sqlite"
            shutil.copyfile(args.memory, memory)
            process, url, startup = start_server(args.db, str(memory), gather, work / "serve.log")
            try:
                httpx.post(url + "/ask", json={"question": questions[0]}, timeout=120)  # first-call warm-up
                for concurrency in args.concurrency:
                    cpu = cpu_seconds(process.pid)
                    row = {"gather_ms": gather, "startup_s": round(startup, 2), **timed_asks(url, questions, concurrency)}
                    row["server_cpu_ms_per_question"] = round((cpu_seconds(process.pid) - cpu) * 1000 / len(questions), 1)
                    health = httpx.get(url + "/health").json()
                    row["mean_batch"] = round(health["questions_answered"] / max(1, health["batches"]), 2)
                    report["runs"].append(row)
                    print(json.dumps(row), flush=True)
            finally:
                stop(process)
        memory = work / "memory-cold.sqlite"
        shutil.copyfile(args.memory, memory)
        report["cold_ask"] = cold_asks(args.db, str(memory), questions[: args.cold], work / "pycache")
        print(json.dumps(report["cold_ask"]), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report["load_average_before"] = [round(x, 2) for x in load_before]
    report["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    write(report, args.name)


def write(report: dict, name: str) -> None:
    RESULTS.mkdir(exist_ok=True)
    lines = [
        "# `ari serve` latency and cold `ari ask` on MultiTQ",
        "",
        f"`{report['command']}` (ARI_RELATION_LEXICON={report['lexicon']}), {report['cpus']} CPUs.",
        "",
        "| batch window ms | clients | questions | p50 ms | p90 ms | p99 ms | q/s | mean batch | server CPU ms/question | server start s "
        "| agent p50 ms | outside the agent p50 ms |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in report["runs"]:
        lines.append(
            f"| {r['gather_ms']} | {r['concurrency']} | {r['questions']} | {r['p50_ms']} | {r['p90_ms']} | {r['p99_ms']} "
            f"| {r['questions_per_s']} | {r['mean_batch']} | {r['server_cpu_ms_per_question']} | {r['startup_s']} "
            f"| {r.get('agent_p50_ms', '-')} | {r.get('outside_agent_p50_ms', '-')} |"
        )
    lines += ["", "Cold `ari ask` (a new process per question, the store's saved tables already built by a warm-up run):", "",
              *table(["Python bytecode", "wall s", "CPU s (user + sys)", "peak RSS MB", "answer"],
                     ([c.get("bytecode", "-"), c["wall_s"], c["cpu_s"], c["peak_rss_mb"], c["answer"]] for c in report.get("cold_ask", [])))]
    lines += [
        "",
        f"Load average (1, 5, 15 min) before {report['load_average_before']}, after {report['load_average_after']}:",
        "the 2 cores were shared with other jobs, so these times are inflated; the lead re-measures on a quiet machine.",
    ]
    write_results(RESULTS, name, report, "\n".join(lines) + "\n", ensure_ascii=False)


if __name__ == "__main__":
    main()
