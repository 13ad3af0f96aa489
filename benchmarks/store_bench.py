"""Store benchmark: MultiTQ ingest time and size, and lookup latency next to a pandas mask filter.

    python -m benchmarks.store_bench ../shared/data/multitq [--lookups 10000] [--pandas-lookups 300]

The reference ARI implementation runs every action as a boolean mask over a DataFrame of the whole
KG with string columns (df[(df.head == h) & (df.relation == r)]). Here each lookup kind runs through
the store's public API (TKGStore.facts / .neighbourhood, Fact objects out) twice, with the in-memory
fact index (the default) and on the SQL path (memory_index=False), and as that pandas filter, on the
same random keys in the same process. Keys come from random facts (so popular entities come up as
often as questions ask about them) or, with --keys distinct, uniformly from distinct keys.
The pandas filter costs the same for every key (it scans all rows), so it is timed on a random
subset of the store's lookups (--pandas-lookups) to keep the run short; on that subset the two store
paths must also return identical lists. The index's cost is reported too: the time to open the store
with and without it (median of 3) and the Python heap it holds (tracemalloc, in a separate open).
Results: benchmarks/results/store_bench.{json,md}.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from datetime import date
from functools import partial
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from benchmarks.results_io import write_results
from tkg_store.ingest import ingest
from tkg_store.samples import facts_at_rows, first_fact_per_pair
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity, TimeSpan, span_of

RESULTS = Path(__file__).parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", type=Path, help="MultiTQ directory (with kg/full.txt)")
    parser.add_argument("--lookups", type=int, default=10_000, help="store lookups per kind")
    parser.add_argument("--pandas-lookups", type=int, default=300, help="pandas lookups per kind (a subset of the same keys)")
    parser.add_argument("--keys", choices=["facts", "distinct"], default="facts", help="how lookup keys are drawn")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    report = run(args.dataset, args.lookups, args.pandas_lookups, args.keys, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    suffix = "" if args.keys == "facts" else f"_{args.keys}"
    write_results(args.out, f"store_bench{suffix}", report, markdown(report), indent=1)
    print(markdown(report))


def run(dataset: Path, lookups: int, pandas_lookups: int, keys: str, seed: int) -> dict:
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "multitq.duckdb"
        started = time.perf_counter()
        summary = ingest("multitq", dataset, db)
        ingest_s = time.perf_counter() - started
        size = db.stat().st_size
        frame = pd.read_csv(
            dataset / "kg" / "full.txt", sep="\t", header=None, names=["head", "relation", "tail", "time"],
            dtype=str, quoting=3, keep_default_na=False, na_filter=False, engine="c",
        )
        index_cost = open_cost(db)
        print(f"open: {index_cost['open_s']}; index {index_cost['index_bytes'] / 2**20:.1f} MiB", flush=True)
        with TKGStore.open(db) as indexed, TKGStore.open(db, memory_index=False) as sql:
            samples = draw_keys(indexed, lookups, keys, random.Random(seed))
            rows = []
            for name, (store_fn, pandas_fn) in lookup_kinds(frame).items():
                subset = random.Random(seed + 1).sample(samples, min(pandas_lookups, len(samples)))
                for sample in subset:
                    assert store_fn(indexed, sample) == store_fn(sql, sample), (name, sample)
                index_times, sizes = timed(partial(store_fn, indexed), samples)
                sql_times, _ = timed(partial(store_fn, sql), samples)
                pandas_times, _ = timed(pandas_fn, subset)
                rows.append(row(name, index_times, sql_times, pandas_times, sizes, len(subset)))
                r = rows[-1]
                print(f"{name:34s} index p50 {r['index_p50_us']:7.0f} us  sql p50 {r['sql_p50_us']:7.0f} us  "
                      f"pandas p50 {r['pandas_p50_us']:8.0f} us  x{r['index_ratio_p50']:.0f} / x{r['sql_ratio_p50']:.0f}",
                      flush=True)
    return {
        "dataset": str(dataset),
        "facts": summary.facts,
        "ingest_s": round(ingest_s, 2),
        "db_bytes": size,
        **index_cost,
        "lookups_per_kind": lookups,
        "pandas_lookups_per_kind": pandas_lookups,
        "keys": keys,
        "seed": seed,
        "machine": {"python": platform.python_version(), "duckdb": duckdb.__version__, "pandas": pd.__version__,
                    "numpy": np.__version__, "cpus": os.cpu_count(),
                    "loadavg_at_start": load_at_start, "loadavg_at_end": [round(x, 2) for x in os.getloadavg()]},
        "kinds": rows,
    }


def open_cost(db: Path, repeats: int = 3) -> dict:
    """What the in-memory index costs: seconds to open with and without it, and the heap it holds."""
    open_s = {}
    for label, memory_index in (("index", True), ("sql", False)):
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            TKGStore.open(db, memory_index=memory_index).close()
            times.append(time.perf_counter() - started)
        open_s[label] = round(statistics.median(times), 3)
    held, array_bytes = {}, 0
    for label, memory_index in (("index", True), ("sql", False)):
        tracemalloc.start()
        store = TKGStore.open(db, memory_index=memory_index)
        held[label] = tracemalloc.get_traced_memory()[0]
        if store.fact_index is not None:
            array_bytes = store.fact_index.nbytes
        store.close()
        tracemalloc.stop()
    return {
        "open_s": open_s,
        "index_build_s": round(open_s["index"] - open_s["sql"], 3),
        "index_bytes": held["index"] - held["sql"],
        "index_array_bytes": array_bytes,
    }


Sample = tuple[str, str, str, TimeSpan]


def draw_keys(store: TKGStore, n: int, keys: str, rng: random.Random) -> list[Sample]:
    """(head, relation, tail, window) per lookup; the window is the year (or month) of a real fact."""
    if keys == "facts":
        total = store.counts()["facts"]
        picks = sorted(rng.randrange(total) for _ in range(n))
        rows = facts_at_rows(store, picks)
        rows = [rows[i % len(rows)] for i in range(n)]
    else:
        pairs = first_fact_per_pair(store)
        rows = [rng.choice(pairs) for _ in range(n)]
    rng.shuffle(rows)
    return [(h, r, t, _window_around(day, rng)) for h, r, t, day in rows]


def _window_around(day: date | None, rng: random.Random) -> TimeSpan:
    if day is None:  # a fact with an open start gives no window to look in
        raise ValueError("store_bench samples facts that have a start day")
    return span_of(day, Granularity.YEAR if rng.random() < 0.5 else Granularity.MONTH)


def lookup_kinds(df: pd.DataFrame) -> dict[str, tuple[Callable, Callable]]:
    """Per lookup kind: (store lookup taking a store and a sample, pandas filter taking a sample)."""
    def window(frame: pd.DataFrame, mask, span: TimeSpan):  # noqa: ANN001, ANN202
        return frame[mask & (frame["time"] >= span.start.isoformat()) & (frame["time"] <= span.end.isoformat())]

    def neighbourhood(frame: pd.DataFrame, entity: str, span: TimeSpan | None):  # noqa: ANN202
        out_mask, in_mask = frame["head"] == entity, frame["tail"] == entity
        if span is not None:
            inside = (frame["time"] >= span.start.isoformat()) & (frame["time"] <= span.end.isoformat())
            out_mask, in_mask = out_mask & inside, in_mask & inside
        return frame[out_mask].groupby(["relation", "tail"]).size(), frame[in_mask].groupby(["relation", "head"]).size()

    return {
        "facts(head, relation)": (
            lambda store, s: store.facts(head=s[0], relation=s[1]),
            lambda s: df[(df["head"] == s[0]) & (df["relation"] == s[1])],
        ),
        "facts(head, relation, time)": (
            lambda store, s: store.facts(head=s[0], relation=s[1], within=s[3]),
            lambda s: window(df, (df["head"] == s[0]) & (df["relation"] == s[1]), s[3]),
        ),
        "facts(tail, relation)": (
            lambda store, s: store.facts(tail=s[2], relation=s[1]),
            lambda s: df[(df["tail"] == s[2]) & (df["relation"] == s[1])],
        ),
        "facts(tail, relation, time)": (
            lambda store, s: store.facts(tail=s[2], relation=s[1], within=s[3]),
            lambda s: window(df, (df["tail"] == s[2]) & (df["relation"] == s[1]), s[3]),
        ),
        "facts(head, relation, tail)": (
            lambda store, s: store.facts(head=s[0], relation=s[1], tail=s[2]),
            lambda s: df[(df["head"] == s[0]) & (df["relation"] == s[1]) & (df["tail"] == s[2])],
        ),
        "facts(head, relation, tail, time)": (
            lambda store, s: store.facts(head=s[0], relation=s[1], tail=s[2], within=s[3]),
            lambda s: window(df, (df["head"] == s[0]) & (df["relation"] == s[1]) & (df["tail"] == s[2]), s[3]),
        ),
        "neighbourhood(entity)": (
            lambda store, s: store.neighbourhood(s[0]),
            lambda s: neighbourhood(df, s[0], None),
        ),
        "neighbourhood(entity, time)": (
            lambda store, s: store.neighbourhood(s[0], within=s[3]),
            lambda s: neighbourhood(df, s[0], s[3]),
        ),
    }


def timed(fn: Callable, samples: list) -> tuple[list[float], list[int]]:
    for sample in samples[:20]:  # warm caches
        fn(sample)
    times, sizes = [], []
    for sample in samples:
        started = time.perf_counter()
        result = fn(sample)
        times.append(time.perf_counter() - started)
        sizes.append(len(result) if not isinstance(result, tuple) else sum(map(len, result)))
    return times, sizes


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def row(name: str, index_times: list[float], sql_times: list[float], pandas_times: list[float], sizes: list[int],
        identical: int) -> dict:
    result: dict = {"kind": name}
    for label, times in (("index", index_times), ("sql", sql_times), ("pandas", pandas_times)):
        result[f"{label}_p50_us"] = round(percentile(times, 0.5) * 1e6, 1)
        result[f"{label}_p99_us"] = round(percentile(times, 0.99) * 1e6, 1)
    for label in ("index", "sql"):
        for q in ("p50", "p99"):
            result[f"{label}_ratio_{q}"] = round(result[f"pandas_{q}_us"] / result[f"{label}_{q}_us"], 1)
    result.update(median_rows=statistics.median(sizes), store_n=len(index_times), pandas_n=len(pandas_times),
                  identical_checked=identical)
    return result


def markdown(report: dict) -> str:
    machine = report["machine"]
    lines = [
        f"# Store benchmark (MultiTQ, {report['facts']:,} facts)",
        "",
        f"Ingest {report['ingest_s']} s; DuckDB file {report['db_bytes'] / 2**20:.1f} MiB. Keys: {report['keys']}; "
        f"{report['lookups_per_kind']:,} lookups per kind on each store path and {report['pandas_lookups_per_kind']:,} "
        f"pandas lookups per kind; DuckDB {machine['duckdb']}, pandas {machine['pandas']}, numpy {machine['numpy']}, "
        f"{machine['cpus']} CPUs, load average at start {machine['loadavg_at_start']}, at end {machine['loadavg_at_end']}.",
        "",
        f"In-memory fact index (default, `TKGStore.open(path)`): opening takes {report['open_s']['index']} s "
        f"against {report['open_s']['sql']} s without it (`memory_index=False`), so building it takes "
        f"{report['index_build_s']} s; it holds {report['index_bytes'] / 2**20:.1f} MiB of Python heap "
        f"({report['index_array_bytes'] / 2**20:.1f} MiB of numpy arrays, the rest the ready Neighbour objects).",
        "Both paths returned identical lists on every pandas-timed key.",
        "",
        "| lookup | index p50 (us) | index p99 (us) | SQL p50 (us) | SQL p99 (us) | pandas p50 (us) | pandas p99 (us) "
        "| index speed-up p50 | SQL speed-up p50 | median rows |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in report["kinds"]:
        lines.append(
            f"| {r['kind']} | {r['index_p50_us']:.0f} | {r['index_p99_us']:.0f} | {r['sql_p50_us']:.0f} | "
            f"{r['sql_p99_us']:.0f} | {r['pandas_p50_us']:.0f} | {r['pandas_p99_us']:.0f} | "
            f"{r['index_ratio_p50']:.0f}x | {r['sql_ratio_p50']:.0f}x | {r['median_rows']:g} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
