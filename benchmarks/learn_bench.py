"""Time the README's learning command: `ari memory learn --search` on N MultiTQ dev questions.

    python -m benchmarks.learn_bench --db multitq.duckdb --data-dir ../shared/data/multitq \\
        [--limit 4000] [--clusters 50] [--workers N] [--out benchmarks/results] [--name learn_bench] [--keep mem.sqlite]

Runs the command exactly as the README writes it (through `python -m ari`), into a fresh memory in
a temporary folder, then runs it again to check that the repeat stores nothing. Wall time, the CPU
time of the command's processes and the machine's load are saved, because on a shared machine the
wall time alone says little. Writes NAME.json and NAME.md under --out.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.results_io import write_results

TARGET_S = 180  # the target for 4,000 questions on 2 cores


def run_once(command: list[str]) -> dict:
    """Run the command; its report, wall seconds, and the CPU seconds of it and its workers."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"learning failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "load_1min_before": round(load, 2),
        "load_1min_after": round(os.getloadavg()[0], 2),
        "report": json.loads(done.stdout),
    }


def shown_command(command: list[str], memory: Path) -> str:
    """The command as the README writes it (`ari ...`, the memory by its README name)."""
    return " ".join(["ari"] + command[3:]).replace(str(memory), "multitq.duckdb.memory.sqlite")


def markdown(result: dict) -> str:
    first, again = result["first"], result["repeat"]
    report = first["report"]
    learnt = report.get("learnt") or {}
    lines = [
        "# `ari memory learn --search` (README command)",
        "",
        f"Command: `{result['command']}`",
        "",
        "| run | questions | stored traces | wall s | CPU s (all processes) | load (1 min) before / after |",
        "| --- | --- | --- | --- | --- | --- |",
        f"| first | {report['questions']} | {learnt.get('traces', '-')} | {first['wall_s']} | {first['cpu_s']} | "
        f"{first['load_1min_before']} / {first['load_1min_after']} |",
        f"| repeat | {again['report']['questions']} (skipped {again['report']['skipped']}) | - | {again['wall_s']} | "
        f"{again['cpu_s']} | {again['load_1min_before']} / {again['load_1min_after']} |",
        "",
        f"Agent accuracy on the learning questions: {report['accuracy']}; search traces {report['searched']} "
        f"({report['searched_correct']} correct); K = {learnt.get('k', '-')}.",
        f"Target: <= {TARGET_S} s wall for 4,000 questions on 2 cores. Machine: {result['machine']}.",
        "",
    ]
    generated = result.get("generate")
    if generated:
        made = generated["report"]
        lines += [
            f"Then `{generated['command']}` (the README's next command, on that memory): {generated['wall_s']} s wall, "
            f"{generated['cpu_s']} CPU s, load {generated['load_1min_before']} / {generated['load_1min_after']}; "
            f"{made['questions']} generated questions, {made['searched_correct']} correct traces kept.",
            "",
        ]
    lines += [
        "The machine was shared with other jobs while this ran (see the load figures): the wall time is",
        "inflated by them; the CPU time is what the command itself used, summed over its processes.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="the MultiTQ store (`ari ingest multitq ...`)")
    parser.add_argument("--data-dir", required=True, help="the MultiTQ folder (questions/dev.json)")
    parser.add_argument("--limit", type=int, default=4000)
    parser.add_argument("--clusters", type=int, default=50)
    parser.add_argument("--workers", type=int, help="default: the command's own (one per core)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    parser.add_argument("--name", default="learn_bench", help="file name of the results (NAME.json, NAME.md)")
    parser.add_argument("--generate", type=int, default=0, help="then time `ari memory learn --generate N` on the learnt memory")
    parser.add_argument("--keep", type=Path, help="also keep the learnt memory at this path (to compare runs)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="ari-learn-bench-") as work:
        memory = Path(work) / "multitq.duckdb.memory.sqlite"
        command = [
            sys.executable, "-m", "ari", "memory", "learn", "--dataset", "multitq", "--data-dir", str(args.data_dir),
            "--split", "dev", "--limit", str(args.limit), "--search", "--clusters", str(args.clusters),
            "--db", str(args.db), "--memory", str(memory), "--json", "--quiet",
        ] + (["--workers", str(args.workers)] if args.workers else [])
        first = run_once(command)
        repeat = run_once(command)
        generated = None
        if args.generate:  # the README's next command, on the memory just learnt
            generate = [
                sys.executable, "-m", "ari", "memory", "learn", "--generate", str(args.generate), "--clusters", str(args.clusters),
                "--db", str(args.db), "--memory", str(memory), "--json", "--quiet",
            ]
            generated = run_once(generate) | {"command": shown_command(generate, memory)}
        if args.keep:
            shutil.copyfile(memory, args.keep)
    result = {
        "command": shown_command(command, memory),
        "limit": args.limit,
        "machine": f"{os.cpu_count()} cores, {platform.processor() or platform.machine()}, Python {platform.python_version()}",
        "target_s": TARGET_S,
        "first": first,
        "repeat": repeat,
        "generate": generated,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    write_results(args.out, args.name, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
