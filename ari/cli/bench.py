"""`ari bench`: batch runs over benchmark datasets, unanswerable splits, and run comparisons."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from ari.base.errors import DeciderError
from ari.base.progress import plain, stderr_console
from ari.cli.options import DbOption, DeciderOption, DeviceOption, JsonOption, MemoryOption, QuietOption, llm_options

app = typer.Typer(help="Benchmark runs (MultiTQ, CronQuestions, the shape sets), unanswerable splits and comparisons.", no_args_is_help=True)

SplitOption = Annotated[
    Optional[str],
    typer.Option("--split", help="Official split (default: multitq dev, cronquestions complex_valid; also train_sample80, complex_test ...)."),
]
QuestionsOption = Annotated[
    Optional[Path], typer.Option("--questions", help="Any questions file in the dataset's official format (overrides --split).")
]
DataDirOption = Annotated[
    Optional[Path], typer.Option("--data-dir", help="Dataset directory: questions/ for multitq and cronquestions, <split>.json for shapes (default: $ARI_DATA_DIR/<dataset> or ../shared/data/<dataset>).")
]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed of the stratified sample / the rewrites.")]
ShardOption = Annotated[Optional[str], typer.Option("--shard", help="i/n: this machine's share (0 <= i < n), split by question id.")]
SkipBadOption = Annotated[bool, typer.Option("--skip-bad", help="Skip malformed records instead of stopping (bench run says how many on stderr and lists them in run.json).")]


@app.command("run")
@llm_options
def run_command(
    dataset: Annotated[str, typer.Argument(help="multitq | cronquestions | shapes")],
    out: Annotated[Path, typer.Option("--out", help="Run directory: results.jsonl (resumable), summary.json, report.md/png.")],
    db: DbOption = None,
    memory: MemoryOption = None,
    split: SplitOption = None,
    questions: QuestionsOption = None,
    data_dir: DataDirOption = None,
    sample: Annotated[Optional[int], typer.Option("--sample", help="Stratified sample size (by question type).")] = None,
    seed: SeedOption = 0,
    shard: ShardOption = None,
    decider: DeciderOption = "offline",
    device: DeviceOption = "auto",
    workers: Annotated[int, typer.Option("--workers", help="Worker processes (each opens its own store connection).")] = 1,
    batch_size: Annotated[int, typer.Option("--batch-size", help="Questions per solver call.")] = 64,
    no_methodology: Annotated[bool, typer.Option("--no-methodology", help="Ablation: ignore the induced methodologies.")] = False,
    no_clustering: Annotated[bool, typer.Option("--no-clustering", help="Ablation: one methodology for all questions.")] = False,
    no_filtering: Annotated[bool, typer.Option("--no-filtering", help="Ablation: keep every non-empty candidate action.")] = False,
    clusters: Annotated[Optional[int], typer.Option("--clusters", help="Re-learn a private copy of --memory with K clusters.")] = None,
    gold_annotations: Annotated[bool, typer.Option("--gold-annotations", help="CronQuestions: use the gold entity annotations instead of ARI's linking.")] = False,
    skip_bad: SkipBadOption = False,
    restart: Annotated[bool, typer.Option("--restart", help="Move a previous run in --out aside (to replaced-<time>/) and start anew, instead of resuming it.")] = False,
    json_output: JsonOption = False,
    quiet: QuietOption = False,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, help="Questions whose LLM requests are in flight at once per worker (each question advances on its own).")] = 1,
    retry_errors: Annotated[bool, typer.Option("--retry-errors", help="On resume, answer again the questions whose outcome was an error (LLM endpoint failure or unparseable replies).")] = False,
    *,
    llm: dict,  # the LLM options (--llm-timeout ... --no-cache), spliced in by @llm_options
    price_table: Annotated[Optional[Path], typer.Option("--price-table", help='JSON {"<model>": {"prompt": $/Mtok, "completion": $/Mtok}}: a cost estimate in the summary.')] = None,
) -> None:
    """Answer a dataset split (or a sample, or a shard of it) and write results, summary and report."""
    from ari.base.embedding import use_device
    from benchmarks.plan import RunSpec, run, with_clusters

    use_device(device)
    agent: dict = {"decider": decider}
    if no_methodology:
        agent["use_methodology"] = False
    if no_clustering:
        agent["use_clustering"] = False
    if no_filtering:
        agent["use_filtering"] = False
    llm["concurrency"] = concurrency
    if price_table is not None:
        llm.update(prices_for(price_table, decider))
    agent["llm"] = llm
    spec = RunSpec(
        dataset=dataset, out=out, db=db, split=split, questions_file=questions, data_dir=data_dir, sample=sample,
        seed=seed, shard=shard, gold_annotations=gold_annotations, skip_bad=skip_bad, memory_url=memory,
        workers=workers, batch_size=batch_size, quiet=quiet, restart=restart, agent=agent, retry_errors=retry_errors,
    )
    if clusters is not None:
        spec = with_clusters(spec, clusters)
    outcome = run(spec)
    if not quiet:
        stderr_console().print(plain(f"answered {outcome.answered_now}, resumed past {outcome.skipped_done}; wrote {outcome.out_dir}"))
        _say_skipped(outcome.summary["config"], outcome.out_dir)
    _print_summary(outcome.summary, json_output)
    if outcome.summary.get("errors"):  # an endpoint failure is not an answer: the run did not finish its work
        raise DeciderError(f"{outcome.summary['errors']} questions ended in an LLM error (not counted in the "
                           "metrics); rerun with --retry-errors to answer them again")


@app.command("report")
def report_command(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (from `ari bench run --out`).")],
    json_output: JsonOption = False,
) -> None:
    """Recompute summary.json and the report from a run's results.jsonl (e.g. after an interruption)."""
    from benchmarks.compare import load_run_info
    from benchmarks.report import write_report
    from benchmarks.runner import write_summary

    summary = write_summary(run_dir, None, load_run_info(run_dir))
    write_report(run_dir, summary)
    _print_summary(summary, json_output)


@app.command("compare")
def compare_command(
    runs: Annotated[list[Path], typer.Argument(help="Run directories (or their summary.json): the first is the baseline A.")],
    out: Annotated[Optional[Path], typer.Option("--out", help="Also write compare.png, compare.md and changed.jsonl here.")] = None,
    show: Annotated[int, typer.Option("--show", min=0, help="List at most N changed questions on stdout.")] = 20,
    json_output: JsonOption = False,
) -> None:
    """Runs side by side: metric differences against the first run (overall and Hits@1 by type), and the
    questions whose outcome changed."""
    from dataclasses import asdict

    from benchmarks.compare import changed_questions, load_runs, metric_rows, write_comparison

    loaded = load_runs(runs)
    rows, changed = metric_rows(loaded), changed_questions(loaded)
    written = write_comparison(loaded, out) if out is not None else []
    if json_output:
        print(json.dumps({"runs": [r.name for r in loaded], "metrics": [asdict(r) for r in rows], "changed": changed,
                          "files": [str(p) for p in written]}, indent=2, ensure_ascii=False))
        return
    _print_comparison(loaded, rows, changed, show)
    for path in written:
        typer.echo(f"wrote {path}", err=True)


def _print_comparison(runs: list, rows: list, changed: list[dict], show: int) -> None:
    from rich.console import Console

    from benchmarks.compare import rich_table

    console = Console()
    console.print(rich_table(runs, rows))
    if not all(r.records for r in runs):
        print("changed questions: not listed (a run has no results.jsonl)")
        return
    print(f"changed questions: {len(changed)}")
    for c in changed[:show]:
        outcomes = " | ".join(f"{chr(65 + i)} {'✓' if r['correct'] else '✗'} {r['answer']}" for i, r in enumerate(c["runs"]))
        print(f"  {c['qid']} [{c['qtype']}] {c['question']}  =>  {outcomes}")
    if len(changed) > show:
        print(f"  ... {len(changed) - show} more (--show N, or --out DIR for all)")


@app.command("make-unanswerable")
def make_unanswerable_command(
    out: Annotated[Path, typer.Option("--out", help="Where to write the unanswerable questions (official MultiTQ JSON schema).")],
    db: DbOption = None,
    dataset: Annotated[str, typer.Option("--dataset", help="Format of the source questions: multitq | cronquestions.")] = "multitq",
    split: SplitOption = None,
    questions: QuestionsOption = None,
    data_dir: DataDirOption = None,
    per_kind: Annotated[int, typer.Option("--per-kind", help="Questions of each kind.")] = 100,
    kinds: Annotated[str, typer.Option("--kinds", help="Comma-separated: time_outside_kg, entity_not_in_kg, facts_hidden, and (each with an answerable twin) no_event_time, no_event_pair, unreadable_time, not_a_question.")] = "time_outside_kg,entity_not_in_kg,facts_hidden",
    hidden_db: Annotated[Optional[Path], typer.Option("--hidden-db", help="Derived store without the hidden facts (default: beside --out).")] = None,
    max_hidden_degree: Annotated[int, typer.Option("--max-hidden-degree", help="Only hide entities with at most this many facts.")] = 300,
    seed: SeedOption = 0,
    shard: ShardOption = None,
    skip_bad: SkipBadOption = False,
    json_output: JsonOption = False,
) -> None:
    """Write questions the KG cannot support (time outside its range, unknown entity, hidden facts), each labelled."""
    from collections import Counter

    from ari.base.errors import UsageError
    from benchmarks.plan import RunSpec, select_questions
    from benchmarks.unanswerable import build

    if db is None:
        raise UsageError("--db is required: the store the questions are made unanswerable against")
    spec = RunSpec(
        dataset=dataset, out=out, db=db, split=split, questions_file=questions, data_dir=data_dir, skip_bad=skip_bad, shard=shard
    )
    source, _ = select_questions(spec)
    chosen = tuple(k.strip() for k in kinds.split(",") if k.strip())
    result = build(source, db, out, per_kind, seed, chosen, hidden_db, max_hidden_degree)
    counts = dict(Counter(r["unanswerable_reason"] for r in result.records))
    report = {
        "out": str(out),
        "questions": len(result.records),
        "by_reason": counts,
        "hidden_db": str(result.hidden_db) if result.hidden_db else None,
        "hidden_entities": len(result.hidden_entities),
        "hidden_facts": result.hidden_facts,
    }
    if json_output:
        print(json.dumps(report, indent=2))
    else:
        print(f"wrote {report['questions']} unanswerable questions to {out}: {counts}")
        if result.hidden_db:
            print(f"hidden-facts store {result.hidden_db}: {result.hidden_facts} facts of {len(result.hidden_entities)} entities removed")
            print(f"run the facts_hidden questions with --db {result.hidden_db}")


def prices_for(table: Path, decider: str) -> dict:
    """The price table's entry for the decider's model, as LLMConfig fields."""
    from ari.base.errors import UsageError

    try:
        prices = json.loads(Path(table).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read the price table {table}: {exc}") from None
    model = decider.partition(":")[2]
    entry = prices.get(model) if isinstance(prices, dict) else None
    if not isinstance(entry, dict):
        raise UsageError(f"the price table {table} has no entry for model {model!r}")
    return {"price_prompt_per_mtok": entry.get("prompt"), "price_completion_per_mtok": entry.get("completion")}


def _say_skipped(run_info: dict, out_dir: Path) -> None:
    """One line on stderr when --skip-bad skipped records: how many, of which file, and where they are listed."""
    skipped = run_info.get("skipped_bad")
    if skipped:
        typer.echo(f"skipped {skipped} malformed record{'s' if skipped > 1 else ''} of {run_info['questions_file']} "
                   f"(--skip-bad); listed in {out_dir / 'run.json'}", err=True)


def _print_summary(summary: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps({k: v for k, v in summary.items() if k != "breakdown"}, indent=2, default=str))
        return
    from benchmarks.report import fmt

    keys = ("n", "hits_at_1", "hits_at_10", "accuracy", "abstain_precision", "abstain_recall", "false_unknown_rate",
            "aurc", "mean_steps", "questions_per_second", "errors", "llm_calls", "prompt_tokens", "completion_tokens", "cost_usd")
    for key in keys:
        print(f"{key:22} {fmt(summary.get(key))}")
    for qtype, value in summary.get("by_qtype", {}).items():
        print(f"  {qtype:20} {fmt(value)}")
    for shape, row in (summary.get("by_shape") or {}).items():
        print(f"  {shape:20} right {fmt(row['right'])}  wrong {fmt(row['wrong'])}  abstained {fmt(row['abstained'])}"
              + (f"  set F1 {fmt(row['set_f1'])}" if row["n_sets"] else ""))
