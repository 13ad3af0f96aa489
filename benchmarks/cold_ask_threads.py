"""Where a cold `ari ask` spends its CPU on a many-core machine: the same cold questions under
switches set from outside the process, side by side.

A cold ask on a 16-core machine took more CPU seconds than wall seconds (scale/scale_bench_10m_gpu.md),
where one question is one thread's work. Each variant runs the same questions as fresh processes
(`python -m ari ask Q --no-record --json --quiet`) and reports the median of wall, user and system
CPU (os.wait4: the kernel's account, as /usr/bin/time reads it), context switches, the most threads
the process ran at once, and how its CPU was spread over its threads (read from /proc every 20 ms;
the last reading of each thread, so a thread's final 20 ms may be missed). Variants:

- default; OMP_NUM_THREADS=1 (faiss's OpenMP and its OpenBLAS); OMP_WAIT_POLICY=passive (OpenMP
  threads sleep between parallel regions rather than spin); OPENBLAS_NUM_THREADS=MKL_NUM_THREADS=1 (numpy's BLAS);
  TOKENIZERS_PARALLELISM=false (the tokenizer's Rayon pool); DuckDB with one thread (its `threads`
  setting passed by a launcher that wraps `duckdb.connect`: ARI exposes none); all of these at once;
- ARI_DEVICE=cpu; `--device cuda` (when a GPU is present);
- the process pinned to 2 cores and to 1 core (`taskset`), the 2-core machine's share.

It also writes the numeric libraries' thread pools as threadpoolctl sees them after ARI's imports,
a `-X importtime` trace and a cProfile of one default cold ask (top entries), and a calibration of
one core's speed (a fixed pure-Python loop), so two machines can be compared.

    python -m benchmarks.cold_ask_threads --db STORE --memory MEMORY --data-dir MULTITQ --out FOLDER \\
        [--repeats 3] [--variants default,omp1,...]

Writes FOLDER/cold_ask_threads.json and .md, importtime.txt, cprofile.txt.
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.results_io import table, write_results
from benchmarks.selection import shard_of

ROOT = Path(__file__).resolve().parents[1]
ALL_ONE = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
# Run as `python LAUNCHER ARGS...`: ARI's `python -m ari ARGS...` with every DuckDB connection given
# ARI_BENCH_DUCKDB_THREADS threads (DuckDB's own default is one per core).
LAUNCHER = """import os, runpy, sys
import duckdb
_connect = duckdb.connect
def connect(database=":memory:", read_only=False, config=None, **kwargs):
    config = dict(config or {})
    config.setdefault("threads", int(os.environ["ARI_BENCH_DUCKDB_THREADS"]))
    return _connect(database, read_only=read_only, config=config, **kwargs)
duckdb.connect = connect
sys.argv[0] = "ari"
runpy.run_module("ari", run_name="__main__", alter_sys=True)
"""
POOLS = ("import json, numpy, faiss, onnxruntime, duckdb, tokenizers, agents.graph, tkg_store.store; "
         "from threadpoolctl import threadpool_info; print(json.dumps(threadpool_info()))")


@dataclass(frozen=True)
class Variant:
    """A way to start the same cold ask: added environment, a command prefix, extra arguments."""

    env: dict[str, str] = field(default_factory=dict)
    prefix: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    duckdb_threads: int | None = None
    gpu: bool = False  # only where a GPU is present


VARIANTS = {
    "default": Variant(),
    "omp1": Variant(env={"OMP_NUM_THREADS": "1"}),
    "omp_passive": Variant(env={"OMP_WAIT_POLICY": "passive"}),
    "blas1": Variant(env={"OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}),
    "tokenizers_serial": Variant(env={"TOKENIZERS_PARALLELISM": "false"}),
    "duckdb1": Variant(duckdb_threads=1),
    "all_one": Variant(env=ALL_ONE, duckdb_threads=1),
    "ari_device_cpu": Variant(env={"ARI_DEVICE": "cpu"}),
    "device_cuda": Variant(args=("--device", "cuda"), gpu=True),
    "cores2": Variant(prefix=("taskset", "-c", "0,1")),
    "cores1": Variant(prefix=("taskset", "-c", "0")),
}


def questions(data_dir: Path, count: int) -> list[str]:
    """The cold asks' questions: MultiTQ dev shard 1/2's second to (count+1)-th, as scale_bench asks them."""
    records = json.loads((data_dir / "questions" / "dev.json").read_text(encoding="utf-8"))
    return [r["question"] for r in records if shard_of(str(r["quid"]), 2) == 1][1 : count + 1]


def thread_times(pid: int) -> dict[int, tuple[str, float]]:
    """Each thread of `pid`: its name and CPU seconds so far (user + system)."""
    ticks = os.sysconf("SC_CLK_TCK")
    found: dict[int, tuple[str, float]] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tids:
        try:
            stat = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
        except OSError:
            continue
        name, rest = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :].split()
        found[int(tid)] = (name, (int(rest[11]) + int(rest[12])) / ticks)
    return found


def run_once(command: list[str], env: dict[str, str], timeout_s: float) -> dict:
    """One cold process: the kernel's account of it (os.wait4), its threads, and its answer."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=err, start_new_session=True)
        seen: dict[int, tuple[str, float]] = {}
        most = 0
        done = threading.Event()

        def watch() -> None:
            nonlocal most
            while not done.is_set():
                now = thread_times(process.pid)
                seen.update(now)
                most = max(most, len(now))
                done.wait(0.02)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        timer = threading.Timer(timeout_s, lambda: os.killpg(process.pid, signal.SIGKILL))
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
            done.set()
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        wall = time.perf_counter() - started
        watcher.join()
        out.seek(0)
        err.seek(0)
        text, error = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    by_thread = sorted(seen.values(), key=lambda t: -t[1])
    code = process.returncode
    return {"returncode": code, "wall_s": round(wall, 3), "user_s": round(usage.ru_utime, 3), "sys_s": round(usage.ru_stime, 3),
            "cpu_s": round(usage.ru_utime + usage.ru_stime, 3), "voluntary_switches": usage.ru_nvcsw,
            "involuntary_switches": usage.ru_nivcsw, "peak_rss_mb": round(usage.ru_maxrss / 1024), "max_threads": most,
            "threads_with_cpu": sum(1 for _, s in by_thread if s > 0),
            "thread_cpu_s": [[name, round(s, 2)] for name, s in by_thread[:6]],
            "other_threads_cpu_s": round(sum(s for _, s in by_thread[1:]), 2),
            "answer": json.loads(text).get("answer") if code == 0 and text.strip() else None,
            "error": None if code == 0 else error.strip()[-400:]}


def command_of(variant: Variant, question: str, db: Path, memory: Path, launcher: Path) -> list[str]:
    start = [sys.executable, str(launcher)] if variant.duckdb_threads else [sys.executable, "-m", "ari"]
    return [*variant.prefix, *start, "ask", question, "--db", str(db), "--memory", str(memory), "--no-record", "--json", "--quiet", *variant.args]


def env_of(variant: Variant, base: dict[str, str]) -> dict[str, str]:
    env = {**base, **variant.env}
    if variant.duckdb_threads:
        env["ARI_BENCH_DUCKDB_THREADS"] = str(variant.duckdb_threads)
    return env


def measure_variant(variant: Variant, asked: list[str], db: Path, memory: Path, launcher: Path, base: dict[str, str], timeout_s: float) -> dict:
    """Every question once under `variant`, each a fresh process."""
    env = env_of(variant, base)
    runs = [run_once(command_of(variant, q, db, memory, launcher), env, timeout_s) for q in asked]
    ok = [r for r in runs if r["returncode"] == 0]
    summary: dict = {"runs": runs, "failed": len(runs) - len(ok)}
    for key in ("wall_s", "cpu_s", "user_s", "sys_s", "voluntary_switches", "involuntary_switches", "max_threads", "other_threads_cpu_s"):
        summary[key] = statistics.median(r[key] for r in ok) if ok else None
    return summary


def core_speed(rounds: int = 3) -> float:
    """Seconds for a fixed pure-Python loop (best of `rounds`): one core's speed, for comparing machines."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        total = 0
        for i in range(3_000_000):
            total += i * i % 7
        best = min(best, time.perf_counter() - started)
    return round(best, 3)


def profiles(asked: str, db: Path, memory: Path, out: Path, base: dict[str, str]) -> dict:
    """An import-time trace and a cProfile of one default cold ask, their top entries saved under `out`."""
    tail = ["ask", asked, "--db", str(db), "--memory", str(memory), "--no-record", "--json", "--quiet"]
    traced = subprocess.run([sys.executable, "-X", "importtime", "-m", "ari", *tail], cwd=ROOT, env=base, capture_output=True, text=True)
    rows = []
    for line in traced.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "self" not in line:
            self_us, cumulative_us, name = (part.strip() for part in line[len("import time:") :].split("|"))
            rows.append((int(cumulative_us), int(self_us), name))
    top = sorted((r for r in rows if not r[2].startswith(" ")), reverse=True)[:40]
    heaviest = sorted(rows, key=lambda r: -r[1])[:30]
    lines = ["# top-level imports by cumulative microseconds", *(f"{c:>10} {s:>10} {n}" for c, s, n in top),
             "", "# any import by its own microseconds", *(f"{c:>10} {s:>10} {n.strip()}" for c, s, n in heaviest)]
    (out / "importtime.txt").write_text("\n".join(lines) + "\n")
    stats_file = out / "cold_ask.prof"
    subprocess.run([sys.executable, "-m", "cProfile", "-o", str(stats_file), "-m", "ari", *tail], cwd=ROOT, env=base, capture_output=True, check=False)
    with (out / "cprofile.txt").open("w") as text:
        if stats_file.exists():
            stats = pstats.Stats(str(stats_file), stream=text)
            stats.sort_stats("cumulative").print_stats(45)
            stats.sort_stats("tottime").print_stats(30)
            stats_file.unlink()
    return {"imports_total_us": sum(c for c, _, n in rows if not n.startswith(" ")), "importtime_rc": traced.returncode}


def thread_pools(base: dict[str, str]) -> list[dict] | str:
    """threadpoolctl's report after importing what a cold ask imports (numpy, faiss, ONNX Runtime, DuckDB...)."""
    done = subprocess.run([sys.executable, "-c", POOLS], cwd=ROOT, env=base, capture_output=True, text=True)
    if done.returncode:
        return done.stderr.strip()[-400:]
    pools = json.loads(done.stdout)
    return [{k: p.get(k) for k in ("user_api", "internal_api", "num_threads", "prefix", "version", "threading_layer")} for p in pools]


def gpu_present(base: dict[str, str]) -> bool:
    done = subprocess.run([sys.executable, "-c", "from ari.base.embedding import gpu_present; print(gpu_present())"],
                          cwd=ROOT, env=base, capture_output=True, text=True)
    return done.stdout.strip() == "True"


def machine() -> dict:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")), None)
    return {"cpus": os.cpu_count(), "usable_cores": len(os.sched_getaffinity(0)), "cpu_model": model,
            "python": sys.version.split()[0], "load_average": [round(x, 2) for x in os.getloadavg()]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--memory", type=Path, required=True, help="a learnt memory (only read: --no-record)")
    parser.add_argument("--data-dir", type=Path, required=True, help="MultiTQ's folder (questions/dev.json)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--repeats", type=int, default=3, help="questions per variant (their median is reported)")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--timeout", type=float, default=120)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    base = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    asked = questions(args.data_dir, args.repeats)
    report: dict = {"command": " ".join(["python -m benchmarks.cold_ask_threads", *(argv if argv is not None else sys.argv[1:])]),
                    "machine": machine(), "core_speed_s": core_speed(), "questions": asked, "variants": {}}
    report["thread_pools"] = thread_pools(base)
    gpu = gpu_present(base)
    with tempfile.TemporaryDirectory() as folder:
        launcher = Path(folder) / "ari_duckdb_threads.py"
        launcher.write_text(LAUNCHER)
        run_once(command_of(VARIANTS["default"], asked[0], args.db, args.memory, launcher), base, args.timeout)  # page cache
        for name in args.variants.split(","):
            variant = VARIANTS[name]
            if (variant.gpu and not gpu) or (variant.prefix and shutil.which(variant.prefix[0]) is None):
                continue
            report["variants"][name] = measure_variant(variant, asked, args.db, args.memory, launcher, base, args.timeout)
            _write(args.out, report)  # what is measured so far survives a later failure
            print(name, {k: v for k, v in report["variants"][name].items() if k != "runs"}, flush=True)
    report["profiles"] = profiles(asked[0], args.db, args.memory, args.out, base)
    _write(args.out, report)
    print((args.out / "cold_ask_threads.md").read_text())


def _write(out: Path, report: dict) -> None:
    head = ["variant", "wall s", "CPU s", "user s", "sys s", "CPU of threads but the busiest, s", "most threads", "switches vol / invol", "answers", "failed"]
    rows = []
    for name, v in report["variants"].items():
        answers = "; ".join(str(r["answer"]) for r in v["runs"])
        rows.append([name, v["wall_s"], v["cpu_s"], v["user_s"], v["sys_s"], v["other_threads_cpu_s"], v["max_threads"],
                     f"{v['voluntary_switches']} / {v['involuntary_switches']}", answers, v["failed"]])
    m = report["machine"]
    text = (f"# Cold `ari ask` by thread pool and cores\n\n`{report['command']}`: {m['cpus']} CPUs ({m['cpu_model']}), python "
            f"{m['python']}, load before {m['load_average']}; one core's calibration loop {report['core_speed_s']} s. "
            f"Medians of {len(report['questions'])} questions, one fresh process each.\n\n" + "\n".join(table(head, rows)) + "\n")
    write_results(out, "cold_ask_threads", report, text)


if __name__ == "__main__":
    main()
