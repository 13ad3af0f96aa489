"""Cold start by KG size: opening a store with and without the in-memory fact index, and a cold
`ari ask` (a new process: imports, store, memory, model, the tables read back) in both modes.

Each store's per-store tables must be built already (`ari ingest` does), so the figures are what
every cold process pays, not the first one's build. Peak RSS is the child process's.

    python -m benchmarks.scale_cold --db a.duckdb --db b.duckdb --memory mem.sqlite [--runs 2] [--out DIR]
        [--source OTHER_CHECKOUT --modes on --label before]   # the same measurements of other code
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.results_io import emit, table

RESULTS = Path(__file__).parent / "results" / "scale_cold"
QUESTION = "Who was the last to criticise Iran before Pervez Musharraf did?"
OPEN = ("import sys, time; from tkg_store.store import TKGStore; t = time.perf_counter(); "
        "s = TKGStore.open(sys.argv[1], memory_index=sys.argv[2] == 'on'); print(time.perf_counter() - t, s.counts()['facts'])")


def child(args: list[str], env: dict[str, str], cwd: Path | None = None) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in MB, stdout) of one fresh process. RUSAGE_CHILDREN's peak is the
    largest of all children so far, so each measurement runs under its own `python -c` parent."""
    wrapper = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
               "done = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
               "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.returncode); "
               "print(done.stdout.strip().splitlines()[0] if done.stdout.strip() else done.stderr.strip()[-300:])")
    done = subprocess.run([sys.executable, "-c", wrapper, *args], capture_output=True, text=True, env=env, check=True, cwd=cwd)
    head, out = (done.stdout.split("\n", 1) + [""])[:2]
    wall, rss_kb, code = head.split()
    if code != "0":
        raise RuntimeError(f"{' '.join(args[:4])}... exited {code}: {out.strip()}")
    return float(wall), int(rss_kb) / 1024, out.strip()


def measure(db: Path, memory: str, runs: int, modes: list[str], source: Path | None) -> list[dict]:
    rows = []
    for mode in modes:
        env = {**os.environ, "ARI_MEMORY_INDEX": mode, **({"PYTHONPATH": str(source)} if source else {})}
        # `python -m` puts the working folder first on the path: other code runs from its own folder
        opened = [child([sys.executable, "-c", OPEN, str(db), mode], env, source) for _ in range(runs)]
        asked = [child([sys.executable, "-m", "ari", "ask", QUESTION, "--db", str(db), "--memory", memory, "--no-record", "--quiet"], env, source)
                 for _ in range(runs)]
        open_s, facts = min(float(o[2].split()[0]) for o in opened), int(opened[0][2].split()[1])
        rows.append({"db": str(db), "facts": facts, "memory_index": mode, "open_s": round(open_s, 2),
                     "open_peak_mb": round(min(o[1] for o in opened)), "ask_s": round(min(a[0] for a in asked), 2),
                     "ask_peak_mb": round(min(a[1] for a in asked)), "answer": asked[0][2]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, action="append", required=True)
    parser.add_argument("--memory", required=True, help="a learned memory (only read)")
    parser.add_argument("--runs", type=int, default=2, help="runs of each; the fastest is kept")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--modes", nargs="+", default=["on", "off"], choices=("on", "off"), help="fact index held in memory or not")
    parser.add_argument("--source", type=Path, help="run the children on this checkout's code (PYTHONPATH)")
    parser.add_argument("--label", default="this code", help="what the rows measure, for the table")
    args = parser.parse_args()
    started = time.perf_counter()
    rows = [row | {"code": args.label} for db in args.db for row in measure(db, args.memory, args.runs, args.modes, args.source)]
    result = {"rows": rows, "runs": args.runs, "load_average": os.getloadavg()[0], "cpus": os.cpu_count(),
              "seconds": round(time.perf_counter() - started), "self_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}
    lines = "\n".join(table(["code", "facts", "memory index", "open s", "open peak MB", "cold `ari ask` s", "ask peak MB", "answer"],
                            ([r["code"], f"{r['facts']:,}", r["memory_index"], r["open_s"], r["open_peak_mb"], r["ask_s"], r["ask_peak_mb"], r["answer"][:60]]
                             for r in rows)))
    emit(
        "# Cold start by KG size\n\n"
        f"`python -m benchmarks.scale_cold {' '.join(sys.argv[1:])}` — best of {args.runs} runs, {os.cpu_count()} CPUs, "
        f"load average {result['load_average']:.1f} at the end (other jobs ran: times are inflated).\n\n"
        + lines + "\n",
        result,
        args.out,
    )


if __name__ == "__main__":
    main()
