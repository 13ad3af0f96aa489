"""Draw every kind of ARI picture from real memories and runs, and look at the HTML ones in a real browser.

For each memory: the cluster map PNG (coloured by cluster and by accuracy) and the HTML export, which is
opened in headless Chromium (Debian's `chromium` package) with networking off: a screenshot of the
page's top (map, cluster table, the largest clusters' methodologies) and a DOM check that plotly drew the map (its SVG layers
and the cluster labels) and that every cluster has its section with its methodology. For each run: its report.png and a
screenshot of its report.html. For runs given with --compare: the comparison picture.
Writes pictures.json and pictures.md (with the command) beside the pictures.

    python -m benchmarks.pictures --memory mem50.sqlite --memory mem100.sqlite --run runs/mixed \
        --compare runs/mixed --compare runs/mixed_nometh --out benchmarks/results/pictures
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ari.base.errors import UsageError
from benchmarks.results_io import table, write_results

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run", "--hide-scrollbars"]
RENDER_BUDGET_MS = 10_000  # virtual time the page gets to run plotly before the capture


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        sys.exit("no chromium on PATH: apt-get update && apt-get install -y chromium")
    return found


def browse(page: Path, *what: str, size: tuple[int, int] = (1200, 1500)) -> tuple[str, float]:
    """Run headless Chromium on a local page (--screenshot=... or --dump-dom); returns stdout and seconds."""
    started = time.perf_counter()
    done = subprocess.run(
        [chromium(), *CHROMIUM_FLAGS, f"--window-size={size[0]},{size[1]}",
         f"--virtual-time-budget={RENDER_BUDGET_MS}", *what, page.resolve().as_uri()],
        capture_output=True, text=True, timeout=300,
    )
    if done.returncode != 0:
        sys.exit(f"chromium failed on {page}: {done.stderr.strip().splitlines()[-1:]}")
    return done.stdout, time.perf_counter() - started


def memory_pictures(memory: str, out: Path, scratch: Path) -> dict:
    from memory import Memory
    from memory.html_export import export_html
    from memory.plots import plot_cluster_map

    with Memory.open(memory, create=False) as mem:
        history = mem.history
        clustering = history.latest_clustering()
        if clustering is None:
            raise UsageError(f"the memory {history.where} has not been clustered yet; run `ari memory learn` first")
        k = clustering.k
        stem = f"memory_k{k}"
        timings = {}
        for colour in ("cluster", "accuracy"):
            started = time.perf_counter()
            plot_cluster_map(history, out / f"{stem}_{colour}.png", color=colour)
            timings[f"plot_{colour}_s"] = round(time.perf_counter() - started, 2)
        started = time.perf_counter()
        page = scratch / f"{stem}.html"
        page.write_text(export_html(history), encoding="utf-8")
        timings["export_html_s"] = round(time.perf_counter() - started, 2)
    dom, timings["browser_dom_s"] = browse(page, "--dump-dom")
    _, timings["browser_screenshot_s"] = browse(page, f"--screenshot={out / f'{stem}_html.png'}", size=(1200, 2400))
    return {
        "memory": memory, "k": k, "html_bytes": page.stat().st_size, **timings,
        "dom_plotly_layers": dom.count('class="main-svg"'),
        "dom_map_labels": len(re.findall(r'class="annotation"', dom)),
        "dom_cluster_sections": len(re.findall(r"<section id=\"cluster-\d+\"", dom)),
        "dom_methodologies": dom.count("<h3>Methodology"),
        "pictures": [f"{stem}_cluster.png", f"{stem}_accuracy.png", f"{stem}_html.png"],
    }


def run_pictures(run: Path, out: Path, name: str) -> dict:
    from benchmarks.compare import load_run_info
    from benchmarks.report import write_report
    from benchmarks.runner import write_summary

    summary = write_summary(run, None, load_run_info(run))
    write_report(run, summary)
    shutil.copy(run / "report.png", out / f"{name}_report.png")
    _, seconds = browse(run / "report.html", f"--screenshot={out / f'{name}_report_html.png'}", size=(1400, 1100))
    return {"run": str(run), "n": summary["n"], "n_unanswerable": summary["n_unanswerable"], "browser_s": round(seconds, 2),
            "pictures": [f"{name}_report.png", f"{name}_report_html.png"]}


def compare_pictures(runs: list[Path], out: Path) -> dict:
    from benchmarks.compare import changed_questions, load_runs, write_comparison

    loaded = load_runs(runs)
    with tempfile.TemporaryDirectory() as tmp:
        write_comparison(loaded, Path(tmp))
        shutil.copy(Path(tmp) / "compare.png", out / "compare.png")
        shutil.copy(Path(tmp) / "compare.md", out / "compare.md")
    return {"runs": [str(r) for r in runs], "changed_questions": len(changed_questions(loaded)),
            "pictures": ["compare.png", "compare.md"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memory", action="append", default=[], help="A clustered memory (repeatable).")
    parser.add_argument("--run", action="append", default=[], type=Path, help="A run directory (repeatable).")
    parser.add_argument("--compare", action="append", default=[], type=Path, help="Runs to compare, first the baseline.")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "pictures")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    results: dict = {"chromium": subprocess.run([chromium(), "--version"], capture_output=True, text=True).stdout.strip(),
                     "command": "python -m benchmarks.pictures " + " ".join(sys.argv[1:])}
    with tempfile.TemporaryDirectory() as scratch:
        results["memories"] = [memory_pictures(m, args.out, Path(scratch)) for m in args.memory]
    results["runs"] = [run_pictures(r, args.out, r.name) for r in args.run]
    if len(args.compare) >= 2:
        results["compare"] = compare_pictures(args.compare, args.out)
    write_results(args.out, "pictures", results, markdown(results))
    print(markdown(results))


def markdown(results: dict) -> str:
    lines = ["# ARI pictures, drawn and opened in headless Chromium", "", f"`{results['command']}`", "",
             f"{results['chromium']}; timings on a shared 2-core machine (inflated by other jobs).", "",
             *table(["memory K", "plot (s)", "HTML export (s)", "HTML size (MB)", "plotly SVG layers", "map labels", "cluster sections", "methodologies"],
                    ([m["k"], m["plot_cluster_s"], m["export_html_s"], f"{m['html_bytes'] / 1e6:.1f}", m["dom_plotly_layers"],
                      m["dom_map_labels"], m["dom_cluster_sections"], m["dom_methodologies"]] for m in results["memories"]),
                    ["---:"] * 8)]
    for r in results["runs"]:
        lines.append(f"\nrun `{r['run']}`: {r['n']} questions ({r['n_unanswerable']} unanswerable): "
                     + ", ".join(r["pictures"]))
    if "compare" in results:
        c = results["compare"]
        lines.append(f"\ncompare {' vs '.join(c['runs'])}: {c['changed_questions']} questions changed: compare.png")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
