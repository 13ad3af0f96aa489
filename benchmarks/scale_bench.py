"""ARI on large KGs: MultiTQ copied k times with renamed entities, measured at 0.5M, 2.5M and 10M facts.

    python -m benchmarks.scale_bench --work /work/scale-work [--sizes 0.5M,2.5M,10M] \\
        [--data-dir ../shared/data/multitq] [--memory readme-mem.sqlite] [--device cuda] [--timeout 1800]

Each KG is MultiTQ's `kg/full.txt` repeated: copy 0 unchanged (so MultiTQ's own questions still ask
about its entities), copy c with every entity renamed `Name_(copy_c)` ("Angela Merkel (copy 3)"),
relations and dates as they are; the last copy is a stride sample of the facts, so a size is met
exactly and still spans every year. The TSV and the store are written under --work, never in the
repository; a TSV already there with the right lines is reused.

For the plain MultiTQ store (the reference: `kg/full.txt` through `ari ingest tsv` as the copies, or
`ari ingest multitq` with --reference multitq) and then each size, every step
runs as a fresh process whose wall time, CPU time and peak RSS are taken (os.wait4):
`ari ingest` (with whatever tables ingest builds), opening the store (`ari kg info`), the first
`ari ask` (which builds whatever ingest did not: "table build"), three cold `ari ask`s of other
questions (median), and `ari serve` (start-up, then p50 / p95 of N questions asked one at a time
over HTTP, the server's peak RSS). The N questions are MultiTQ dev questions of shard 1/2 and their
answers must equal the reference's at every size. Every KG reads the same relation lexicon (--lexicon):
ARI picks its bundled MultiTQ lexicon by the store's source, which a TSV ingest does not name, and a
different lexicon, not the size, would then change the answers. Each figure's growth is given as the exponent of
a log-log fit over the sizes (2 means four times the cost for twice the facts). A step that fails or
passes --timeout is reported as such, and the sizes after it are still measured. Results:
benchmarks/results/scale/NAME.json and NAME.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import httpx
import numpy as np

from agents.analysis.relations import bundled_lexicon_path
from benchmarks.results_io import write_results
from benchmarks.selection import shard_of
from benchmarks.serve_bench import start_server, stop

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "scale"
DEFAULT_MEMORY = "/work/base/readme-mem.sqlite"  # the README's memory (learnt by the README's commands)
COLD_ASKS = 3  # cold `ari ask`s after the first, of other questions; their median is reported


# -- the scaled KG (pure) ----------------------------------------------------------------------

def parse_size(text: str) -> int:
    """'0.5M' -> 500000, '50k' -> 50000, '1200' -> 1200."""
    cleaned = text.strip().upper().replace("_", "")
    scale = {"K": 1_000, "M": 1_000_000}.get(cleaned[-1:], 1)
    number = cleaned[:-1] if scale > 1 else cleaned
    try:
        facts = round(float(number) * scale)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 0.5M, 50k, 1200)") from None
    if facts <= 0:
        raise argparse.ArgumentTypeError(f"a size must be positive: {text!r}")
    return facts


def size_label(facts: int) -> str:
    """500000 -> '0.5M', 50000 -> '50k'."""
    if facts >= 100_000:
        return f"{facts / 1_000_000:g}M"
    return f"{facts / 1_000:g}k" if facts >= 1_000 else str(facts)


def copy_name(name: str, copy: int) -> str:
    """An entity's name in copy `copy`: copy 0 keeps it; others add a readable suffix in the KG's
    underscore form, so 'Angela_Merkel' reads 'Angela Merkel (copy 3)'."""
    return name if copy == 0 else f"{name}_(copy_{copy})"


def copy_plan(base_facts: int, target: int) -> list[tuple[int, int]]:
    """(copy, facts taken from it) for `target` facts from a KG of `base_facts`: whole copies, then
    a part of the next."""
    whole, rest = divmod(target, base_facts)
    return [(c, base_facts) for c in range(whole)] + ([(whole, rest)] if rest else [])


def stride_kept(index: int, total: int, keep: int) -> bool:
    """Whether line `index` of `total` is one of `keep` lines taken evenly (exactly `keep` are)."""
    return (index + 1) * keep // total != index * keep // total


def scaled_lines(facts: Sequence[str], target: int) -> Iterator[str]:
    """The lines of a KG of `target` facts made by copying `facts` (head, relation, tail, time...)."""
    total = len(facts)
    for copy, keep in copy_plan(total, target):
        for index, line in enumerate(facts):
            if keep == total or stride_kept(index, total, keep):
                head, relation, tail, rest = line.split("\t", 3)
                yield f"{copy_name(head, copy)}\t{relation}\t{copy_name(tail, copy)}\t{rest}"


def growth_exponent(sizes: Sequence[float], values: Sequence[float | None]) -> float | None:
    """Slope of log(value) over log(size), least squares over the points with a positive value;
    None with fewer than two such points (or one size only)."""
    points = [(math.log(s), math.log(v)) for s, v in zip(sizes, values) if v is not None and v > 0]
    if len(points) < 2:
        return None
    xs, ys = zip(*points)
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        return None
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread


# -- measuring one process ---------------------------------------------------------------------

@dataclass
class Measured:
    """One command run as a fresh process."""

    wall_s: float
    cpu_s: float
    peak_rss_mb: int
    returncode: int | None  # None: stopped at the timeout
    stdout: str
    error: str | None  # why it does not count: the timeout, or the exit code and the end of stderr


def run_measured(command: Sequence[str], timeout_s: float, log: Path, env: dict[str, str]) -> Measured:
    """Run `command` (its output kept in log.out / log.err); wall, CPU and peak RSS of it and its
    children, from the kernel's own account (os.wait4). Past `timeout_s` its process group is killed."""
    out, err = log.with_suffix(".out"), log.with_suffix(".err")
    started = time.perf_counter()
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(command, cwd=ROOT, stdout=stdout, stderr=stderr, env=env, start_new_session=True)
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        os.killpg(process.pid, signal.SIGKILL)

    timer = threading.Timer(timeout_s, kill)
    timer.start()
    try:
        _, status, usage = os.wait4(process.pid, 0)
    finally:
        timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    wall = time.perf_counter() - started
    code = None if killed.is_set() else process.returncode
    error = f"timed out after {timeout_s:.0f} s" if code is None else None
    if code not in (0, None):
        error = f"exit {code}: {err.read_text(errors='replace').strip()[-400:]}"
    return Measured(
        wall_s=round(wall, 2), cpu_s=round(usage.ru_utime + usage.ru_stime, 2), peak_rss_mb=round(usage.ru_maxrss / 1024),
        returncode=code, stdout=out.read_text(errors="replace"), error=error,
    )


# -- one KG --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Setup:
    """What every size is measured with."""

    work: Path
    memory: Path  # the learnt memory (copied per size; the commands only read it)
    questions: list[dict]  # MultiTQ dev questions: [0] first ask, [1..3] cold asks, all of them served
    timeout_s: float
    device: str | None
    device_in: frozenset[str]  # the `ari` commands that take --device
    env: dict[str, str]


def ari(setup: Setup, command: str, *args: str) -> list[str]:
    """`python -m ari COMMAND ARGS`, with --device where that command has it and one was asked for."""
    device = ["--device", setup.device] if setup.device and command in setup.device_in else []
    return [sys.executable, "-m", "ari", *command.split(), *args, *device]


def measure_kg(setup: Setup, name: str, ingest: list[str], db: Path) -> dict:
    """Every figure of one KG, ingested by `ingest` (an `ari ingest ...` command) into `db`."""
    logs = setup.work / "logs" / name
    logs.mkdir(parents=True, exist_ok=True)
    for old in db.parent.glob(db.name + "*"):  # the store and the tables kept beside it
        old.unlink()
    memory = setup.work / f"{name}.memory.sqlite"
    shutil.copyfile(setup.memory, memory)
    row: dict = {"name": name}
    steps = [
        ("ingest", ari(setup, ingest[0], *ingest[1:], "--db", str(db), "--json", "--quiet")),
        ("open", ari(setup, "kg info", "--db", str(db), "--json")),
    ]
    asked = [q["question"] for q in setup.questions[: COLD_ASKS + 1]]
    steps += [
        (f"ask{i}", ari(setup, "ask", question, "--db", str(db), "--memory", str(memory), "--no-record", "--json", "--quiet"))
        for i, question in enumerate(asked)
    ]
    for step, command in steps:
        measured = run_measured(command, setup.timeout_s, logs / step, setup.env)
        row[step] = {k: v for k, v in asdict(measured).items() if k != "stdout"}
        if measured.error:
            row["error"] = f"{step}: {measured.error}"
            return row
        if step == "open":
            row["counts"] = json.loads(measured.stdout)["counts"]
        if step.startswith("ask"):
            row[step]["answer"] = json.loads(measured.stdout).get("answer")
    colds = [row[f"ask{i}"] for i in range(1, len(asked))]
    row["cold_ask_s"] = statistics.median(c["wall_s"] for c in colds)
    row["cold_ask_cpu_s"] = statistics.median(c["cpu_s"] for c in colds)
    row["cold_ask_rss_mb"] = max(c["peak_rss_mb"] for c in colds)
    try:
        row["serve"] = serve(setup, db, memory, logs / "serve.log")
    except (SystemExit, httpx.HTTPError, OSError) as exc:  # start_server stops with SystemExit
        row["error"] = f"serve: {exc}"
    return row


def serve(setup: Setup, db: Path, memory: Path, log: Path) -> dict:
    """`ari serve` over the store: start-up seconds, then every question asked once, one at a time."""
    extra = ["--no-record"] + (["--device", setup.device] if setup.device and "serve" in setup.device_in else [])
    process, url, startup = start_server(str(db), str(memory), 0.0, log, extra, timeout_s=setup.timeout_s)
    try:
        latencies, answers = [], []
        deadline = time.perf_counter() + setup.timeout_s
        with httpx.Client(timeout=min(120.0, setup.timeout_s)) as http:
            http.post(url + "/ask", json={"question": setup.questions[0]["question"]}).raise_for_status()  # warm-up
            for record in setup.questions:
                if time.perf_counter() > deadline:
                    raise SystemExit(f"serving {len(setup.questions)} questions passed {setup.timeout_s:.0f} s")
                started = time.perf_counter()
                reply = http.post(url + "/ask", json={"question": record["question"]})
                reply.raise_for_status()
                latencies.append((time.perf_counter() - started) * 1000)
                answers.append(_answer_of(reply.json()))
        rss = _peak_rss_mb(process.pid)
    finally:
        stop(process)
    return {
        "startup_s": round(startup, 2),
        "questions": len(latencies),
        "p50_ms": round(float(np.percentile(latencies, 50)), 1),
        "p95_ms": round(float(np.percentile(latencies, 95)), 1),
        "peak_rss_mb": rss,
        "answers": answers,
    }


def _answer_of(result: dict) -> dict:
    return {"answer": result.get("answer"), "answers": result.get("answers"), "abstained": result.get("abstained")}


def _peak_rss_mb(pid: int) -> int | None:
    """The process's peak resident set so far (VmHWM, Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024)
    return None


def compare_answers(reference: dict, row: dict, questions: list[dict]) -> dict:
    """How many served answers equal the reference's: wholly (answer, answer list and abstention),
    by the top answer, and as a set (the same answers, ties ordered otherwise); the questions that differ."""
    mine, theirs = row.get("serve", {}).get("answers"), reference.get("serve", {}).get("answers")
    if not mine or not theirs:
        return {"compared": 0}
    pairs = list(zip(questions, theirs, mine))
    differ = [{"quid": q["quid"], "question": q["question"], "reference": a, "here": b} for q, a, b in pairs if a != b]
    return {
        "compared": len(pairs),
        "same": len(pairs) - len(differ),
        "same_top": sum(a["answer"] == b["answer"] and a["abstained"] == b["abstained"] for _, a, b in pairs),
        "same_set": sum(set(a["answers"] or []) == set(b["answers"] or []) and a["abstained"] == b["abstained"] for _, a, b in pairs),
        "differ": differ,
    }


def hits(row: dict, questions: list[dict]) -> float | None:
    """Hits@1 of the served answers against MultiTQ's gold (abstaining misses)."""
    from memory.labels import hit

    answers = row.get("serve", {}).get("answers")
    if not answers:
        return None
    scored = [
        not a["abstained"] and a["answer"] is not None and hit(a["answer"], q["answers"], q["answer_type"], q.get("time_level"))
        for q, a in zip(questions, answers)
    ]
    return round(sum(scored) / len(scored), 3)


# -- the whole benchmark -------------------------------------------------------------------------

def write_kg(source: Path, target: int, out: Path) -> float:
    """Write the scaled KG's TSV (reused when one with `target` lines is there); seconds spent."""
    started = time.perf_counter()
    if out.exists() and _lines(out) == target:
        return 0.0
    facts = [line for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    partial = out.with_suffix(".partial")
    with partial.open("w", encoding="utf-8") as handle:
        for line in scaled_lines(facts, target):
            handle.write(line + "\n")
    partial.replace(out)
    return round(time.perf_counter() - started, 1)


def _lines(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))


def dev_records(path: Path, shard: str, n: int) -> list[dict]:
    index, count = (int(p) for p in shard.split("/"))
    records = json.loads(path.read_text(encoding="utf-8"))
    return [r for r in records if shard_of(str(r["quid"]), count) == index][:n]


def device_commands() -> frozenset[str]:
    """The `ari` commands this ARI gives a --device option (none before GPU support)."""
    found = set()
    for command in ("ingest tsv", "ingest multitq", "ask", "serve", "kg info"):
        help_text = subprocess.run([sys.executable, "-m", "ari", *command.split(), "--help"], cwd=ROOT, capture_output=True, text=True).stdout
        if "--device" in help_text:
            found.add(command)
    return frozenset(found)


FIGURES = {  # the figures whose growth is fitted: name -> how to read it from a size's row
    "ingest_s": lambda r: r.get("ingest", {}).get("wall_s"),
    "ingest_rss_mb": lambda r: r.get("ingest", {}).get("peak_rss_mb"),
    "open_s": lambda r: r.get("open", {}).get("wall_s"),
    "first_ask_s": lambda r: r.get("ask0", {}).get("wall_s"),
    "first_ask_rss_mb": lambda r: r.get("ask0", {}).get("peak_rss_mb"),
    "cold_ask_s": lambda r: r.get("cold_ask_s"),
    "cold_ask_rss_mb": lambda r: r.get("cold_ask_rss_mb"),
    "serve_startup_s": lambda r: r.get("serve", {}).get("startup_s"),
    "serve_p50_ms": lambda r: r.get("serve", {}).get("p50_ms"),
    "serve_p95_ms": lambda r: r.get("serve", {}).get("p95_ms"),
    "serve_rss_mb": lambda r: r.get("serve", {}).get("peak_rss_mb"),
}


TARGETS = {  # the "done when" at 10M facts on 2 cores
    "ingest_s": "<= 300 (with its tables)", "cold_ask_s": "<= 5", "serve_p50_ms": "<= 50",
    "ingest_rss_mb": "<= 4096", "first_ask_rss_mb": "<= 4096", "cold_ask_rss_mb": "<= 4096", "serve_rss_mb": "<= 4096",
}


def project(facts: float, value: float, exponent: float, to: float = 10_000_000) -> float:
    """`value` measured at `facts`, carried to `to` facts along the fitted power law."""
    return value * (to / facts) ** exponent


def projected(measured: list[dict], name: str, exponent: float | None) -> float | None:
    """The figure at 10M facts: measured when 10M was, else projected from the largest size measured."""
    known = [(r["facts"], FIGURES[name](r)) for r in measured if FIGURES[name](r)]
    if not known or exponent is None:
        return None
    facts, value = max(known)
    return round(project(facts, value, exponent), 1)


def exponents(rows: Iterable[dict]) -> dict[str, float | None]:
    kept = [r for r in rows if r.get("facts")]
    sizes = [r["facts"] for r in kept]
    fitted = {name: growth_exponent(sizes, [read(r) for r in kept]) for name, read in FIGURES.items()}
    return {name: None if value is None else round(value, 2) for name, value in fitted.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="0.5M,2.5M,10M", help="facts per KG, comma-separated (0.5M, 50k, ...)")
    parser.add_argument("--work", type=Path, required=True, help="folder for the TSVs, stores and logs (outside the repository)")
    parser.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data" / "multitq")
    parser.add_argument("--memory", type=Path, default=Path(DEFAULT_MEMORY), help="a learnt memory (copied; default the README's)")
    parser.add_argument("--questions", type=int, default=100, help="MultiTQ dev questions served and compared")
    parser.add_argument("--shard", default="1/2", help="i/n: the dev shard the questions come from")
    parser.add_argument(
        "--lexicon", type=Path, default=Path(os.environ.get("ARI_RELATION_LEXICON") or bundled_lexicon_path("multitq")),
        help="relation lexicon for every KG (default: $ARI_RELATION_LEXICON, else the bundled MultiTQ one)",
    )
    parser.add_argument("--device", help="passed to the commands that take --device (cpu, cuda, ...)")
    parser.add_argument(
        "--reference", choices=["tsv", "multitq"], default="tsv",
        help="how the plain MultiTQ reference is ingested: `ari ingest tsv` of kg/full.txt, as the copies are (default), "
        "or `ari ingest multitq` (official ids, so answers tied in support may come in another order)",
    )
    parser.add_argument("--timeout", type=float, default=1800, help="seconds one step may take before it counts as failed")
    parser.add_argument("--name", default="scale_bench", help="results file name under benchmarks/results/scale/")
    args = parser.parse_args(argv)
    sizes = [parse_size(s) for s in args.sizes.split(",")]
    source = args.data_dir / "kg" / "full.txt"
    for needed in (source, args.memory, args.data_dir / "questions" / "dev.json", args.lexicon):
        if not needed.is_file():
            parser.error(f"{needed} not found")
    args.work.mkdir(parents=True, exist_ok=True)
    base = sum(1 for line in source.open(encoding="utf-8") if line.strip())
    if min(sizes) < base:
        print(f"note: sizes below {base:,} facts take a sample of copy 0, so MultiTQ's answers need not hold there", file=sys.stderr)
    questions = dev_records(args.data_dir / "questions" / "dev.json", args.shard, max(args.questions, COLD_ASKS + 1))
    os.environ["ARI_RELATION_LEXICON"] = str(args.lexicon)  # for `ari serve` too (started by serve_bench)
    setup = Setup(
        work=args.work, memory=args.memory, questions=questions, timeout_s=args.timeout, device=args.device,
        device_in=device_commands(), env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if args.device and not setup.device_in:
        print(f"note: this ARI has no --device option; --device {args.device} is not passed", file=sys.stderr)
    report: dict = {
        "command": " ".join(["python -m benchmarks.scale_bench", *(argv if argv is not None else sys.argv[1:])]),
        "commit": _commit(), "reference_ingest": args.reference, "cpus": os.cpu_count(), "memory": str(args.memory), "device": args.device,
        "device_commands": sorted(setup.device_in), "lexicon": str(args.lexicon),
        "load_average_before": [round(x, 2) for x in os.getloadavg()], "kgs": [],
    }
    ingest = ["ingest multitq", str(args.data_dir)] if args.reference == "multitq" else ["ingest tsv", str(source)]
    reference = measure_kg(setup, f"multitq-{args.reference}", ingest, args.work / f"multitq-{args.reference}.duckdb")
    reference["facts"] = (reference.get("counts") or {}).get("facts")
    reference["hits_at_1"] = hits(reference, questions)
    report["reference"] = reference
    _progress(reference)
    for facts in sizes:
        label = size_label(facts)
        tsv = args.work / f"kg-{label}.tsv"
        generated = write_kg(source, facts, tsv)
        row = measure_kg(setup, f"kg-{label}", ["ingest tsv", str(tsv)], args.work / f"kg-{label}.duckdb")
        row.update(label=label, facts=facts, generate_s=generated, hits_at_1=hits(row, questions))
        row["same_answers"] = compare_answers(reference, row, questions)
        report["kgs"].append(row)
        _progress(row)
        _write(report, args.name)  # what is measured so far survives a later failure
    report["exponents"] = exponents(report["kgs"])
    report["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    _write(report, args.name)
    print((RESULTS / f"{args.name}.md").read_text())


def _progress(row: dict) -> None:
    print(json.dumps({k: v for k, v in row.items() if k not in ("serve", "same_answers")} | {
        "serve": {k: v for k, v in row.get("serve", {}).items() if k != "answers"}}), file=sys.stderr, flush=True)


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def _write(report: dict, name: str) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    write_results(RESULTS, name, report, markdown(report), ensure_ascii=False)


def _cell(value: object) -> str:
    return "-" if value is None else str(value)


def markdown(report: dict) -> str:
    rows = [report["reference"], *report["kgs"]]
    lines = [
        "# ARI on large KGs (MultiTQ copied with renamed entities)",
        "",
        f"`{report['command']}` at {report['commit']}, {report['cpus']} CPUs, memory {report['memory']}, "
        f"device {report['device'] or 'default'} (commands with --device: {', '.join(report['device_commands']) or 'none'}), "
        f"relation lexicon {report['lexicon']}.",
        "",
        "| KG | facts | entities | ingest s (RSS MB) | open s | first ask s (RSS MB) | cold ask s, median of 3 (CPU s, RSS MB) "
        "| serve start s | serve p50 / p95 ms | serve RSS MB | Hits@1 | same answers as the reference | status |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        serve, counts, same = r.get("serve", {}), r.get("counts") or {}, r.get("same_answers") or {}
        agreed = "reference" if r is report["reference"] else (
            f"{same.get('same', 0)}/{same.get('compared', 0)} (top answer {same.get('same_top', '-')}, set {same.get('same_set', '-')})")
        lines.append(
            f"| {r.get('label', 'plain MultiTQ (' + report.get('reference_ingest', 'multitq') + ')')} | {_cell(counts.get('facts'))} | {_cell(counts.get('entities'))} "
            f"| {_cell(FIGURES['ingest_s'](r))} ({_cell(FIGURES['ingest_rss_mb'](r))}) | {_cell(FIGURES['open_s'](r))} "
            f"| {_cell(FIGURES['first_ask_s'](r))} ({_cell(FIGURES['first_ask_rss_mb'](r))}) "
            f"| {_cell(r.get('cold_ask_s'))} ({_cell(r.get('cold_ask_cpu_s'))}, {_cell(r.get('cold_ask_rss_mb'))}) "
            f"| {_cell(serve.get('startup_s'))} | {_cell(serve.get('p50_ms'))} / {_cell(serve.get('p95_ms'))} "
            f"| {_cell(serve.get('peak_rss_mb'))} | {_cell(r.get('hits_at_1'))} "
            f"| {agreed} "
            f"| {r.get('error') or 'ok'} |"
        )
    fitted = report.get("exponents") or {}
    if fitted:
        measured = [r for r in report["kgs"] if r.get("facts")]
        lines += [
            "", "Growth with the facts: the exponent of a log-log least-squares fit over the sizes (1 = linear, 0 = flat), "
            "and what it projects at 10M facts from the largest size measured; the issue's targets at 10M.", "",
            "| figure | " + " | ".join(r["label"] for r in measured) + " | exponent | projected at 10M | target at 10M |",
            "| --- |" + " --- |" * (len(measured) + 3),
        ]
        for name, exponent in fitted.items():
            values = [FIGURES[name](r) for r in measured]
            lines.append(f"| {name} | " + " | ".join(_cell(v) for v in values)
                         + f" | {_cell(exponent)} | {_cell(projected(measured, name, exponent))} | {TARGETS.get(name, '')} |")
    lines += [
        "",
        "first ask = the first `ari ask` after ingest (builds whatever tables ingest did not); cold ask = a new process per "
        "question afterwards; serve = `ari serve --no-record`, questions asked one at a time over HTTP after one warm-up.",
        f"Load average (1, 5, 15 min) before {report['load_average_before']}, after {report.get('load_average_after', '-')}.",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
