"""`ari memory` commands: inspect what the agent has learnt, and learn from a labelled question set."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Optional

import typer

from ari.base.errors import AriError, MemoryCorruptError, UsageError
from ari.cli.options import DbOption, DeciderOption, DeviceOption, JsonOption, MemoryOption, QuietOption, llm_options

app = typer.Typer(help="Inspect and build the memory of past attempts, clusters and methodologies.", no_args_is_help=True)

ClustersOption = Annotated[int, typer.Option("--clusters", "-k", min=1, help="Number of K-means clusters (clamped to the history).")]


def _open(memory: str | None, db: Path | None = None, create: bool = False):  # noqa: ANN202
    """The memory named by --memory, else the one `ari ask` would use for the store."""
    from memory import Memory

    if memory is None:
        from ari.api import resolve_db, resolve_memory

        memory = resolve_memory(None, resolve_db(db))
        if memory is None:
            raise UsageError("no memory to use: give --memory PATH_OR_URL (or set ARI_MEMORY)")
    return Memory.open(memory, create=create)


@app.command()
def stats(memory: MemoryOption = None, json_out: JsonOption = False) -> None:
    """Counts of stored traces by outcome, decider and question type, and the latest clustering."""
    with _open(memory) as mem:
        data = {**mem.history.stats(), "names": len(mem.names())}  # names learned from labelled questions (`memory.names`)
    if json_out:
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    from rich.console import Console

    from ari.base.progress import plain

    out = Console()
    out.print(plain(data["memory"], "bold"))
    accuracy = "-" if data["accuracy"] is None else f"{data['accuracy']:.1%}"
    out.print(f"traces: {data['traces']}  labelled: {data['labelled']}  accuracy: {accuracy}  names learned: {data['names']}")
    for key in ("outcomes", "deciders", "qtypes"):
        out.print(plain(f"{key}: " + (", ".join(f"{k} {n}" for k, n in data[key].items()) or "-")))
    latest = data["latest_clustering"]
    out.print("clustering: " + ("none yet" if latest is None else
              f"version {latest['version']} of {data['clusterings']}, k={latest['k']}, {latest['traces']} traces, {latest['created_at']}"))


@app.command()
def clusters(
    memory: MemoryOption = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Masked questions shown per cluster.")] = 3,
    json_out: JsonOption = False,
) -> None:
    """One row per cluster of the latest clustering: size, accuracy and its commonest masked questions."""
    from memory.inspection import cluster_summaries

    with _open(memory) as mem:
        summaries = cluster_summaries(mem.history, top=top)
    if json_out:
        typer.echo(json.dumps([s.__dict__ for s in summaries], ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    from ari.base.progress import plain

    table = Table(title="Clusters")
    table.add_column("id", justify="right")
    table.add_column("size", justify="right")
    table.add_column("accuracy", justify="right")
    table.add_column("top masked questions")
    for s in summaries:
        accuracy = "-" if s.accuracy is None else f"{s.accuracy:.1%}"
        table.add_row(str(s.cluster_id), str(s.size), accuracy, plain("\n".join(f"{q} ({n})" for q, n in s.top_questions)))
    Console().print(table)


# ignore_unknown_options: "-1" (the all-traces methodology) is the argument, not an unknown option
@app.command(context_settings={"ignore_unknown_options": True})
def show(
    cluster: Annotated[int, typer.Argument(help="Cluster id (see `ari memory clusters`); -1: the methodology of all traces.")],
    memory: MemoryOption = None,
    json_out: JsonOption = False,
) -> None:
    """A cluster's methodology text and the programs (and pitfalls) it was induced from."""
    from memory.inspection import methodology

    with _open(memory) as mem:
        found = methodology(mem.history, cluster)
    if json_out:
        typer.echo(json.dumps(found.to_dict(), ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    from ari.base.progress import plain

    out = Console()
    out.print(f"[bold]Cluster {found.cluster_id}[/bold] (clustering version {found.clustering_version}, {found.source})\n")
    if found.induced_text:
        out.print("[bold]Written by the LLM[/bold] (what an LLM decider reads)")
    typer.echo(found.text)  # verbatim: the text is what a decider reads, not to be re-wrapped
    if found.induced_text:
        out.print("\n[bold]Induced from the traces[/bold]")
        typer.echo(found.induced_text)
    table = Table(title="Programs")
    for column, justify in (("", "left"), ("program", "left"), ("support", "right"), ("success", "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for p in found.programs:
        table.add_row("program", plain(p.program.render()), str(p.support), f"{p.success_rate:.0%}")
    for p in found.pitfalls:
        table.add_row("pitfall", plain(p.program.render()), str(p.support), f"{p.success_rate:.0%}")
    out.print(table)


@app.command()
def export(
    fmt: Annotated[str, typer.Option("--format", help="json | markdown | html (one self-contained page with an interactive map).")] = "json",
    out: Annotated[Optional[Path], typer.Option("--out", help="Write to this file instead of stdout.")] = None,
    memory: MemoryOption = None,
) -> None:
    """The latest clustering, its cluster summaries and methodologies, as JSON, Markdown or HTML."""
    from memory.inspection import export as export_memory

    with _open(memory) as mem:
        text = export_memory(mem.history, fmt)
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        typer.echo(str(out))


@app.command()
def plot(
    out: Annotated[Path, typer.Option("--out", help="PNG file to write.")] = Path("clusters.png"),
    color: Annotated[str, typer.Option("--color", help="cluster | accuracy (of each trace's cluster) | qtype.")] = "cluster",
    labels: Annotated[int, typer.Option("--labels", min=0, help="Label at most N clusters (largest first, where labels do not overlap).")] = 20,
    select: Annotated[Optional[list[int]], typer.Option("--select", help="Label this cluster first (repeatable).")] = None,
    memory: MemoryOption = None,
) -> None:
    """A 2-D map (PCA) of the clustered traces: colours by cluster, accuracy or question type; labels that never overlap."""
    from memory.plots import plot_cluster_map

    with _open(memory) as mem:
        path = plot_cluster_map(mem.history, out, color=color, max_labels=labels, selected=select)
    typer.echo(str(path))


@app.command()
def check(
    memory: MemoryOption = None,
    repair: Annotated[bool, typer.Option("--repair", help="Copy what is readable into a new memory file (the damaged one is kept).")] = False,
    out: Annotated[Optional[Path], typer.Option("--out", help="Where --repair writes (default: <memory>.repaired.sqlite).")] = None,
    json_out: JsonOption = False,
) -> None:
    """Check a SQLite memory's integrity; with --repair, copy what is readable into a new file."""
    from memory import repair as checking

    path = _sqlite_path(memory)
    if repair:
        report = checking.repair(path, out or path.with_name(path.name + ".repaired.sqlite"))
    else:
        report = checking.check(path)
    if json_out:
        typer.echo(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        _print_check(report)
    if not report.ok and not repair:
        more = f" and {len(report.problems) - 1} more" if len(report.problems) > 1 else ""
        raise MemoryCorruptError(f"memory {path} is damaged: {report.problems[0]}{more}; "
                                 f"`ari memory check --memory {path} --repair` copies out what is readable")


def _sqlite_path(memory: str | None) -> Path:
    from ari.api import resolve_db, resolve_memory

    target = memory or resolve_memory(None, resolve_db(None))
    if target is None:
        raise UsageError("no memory to check: give --memory PATH (or set ARI_MEMORY)")
    if "://" in target and not target.startswith("sqlite:///"):
        raise UsageError(f"ari memory check reads SQLite files; {target.split('://')[0]} servers have their own tools")
    return Path(target.removeprefix("sqlite:///"))


def _print_check(report) -> None:  # noqa: ANN001
    from memory.repair import PROBLEMS_LISTED

    listed = len(report.problems)
    more = f", the first {listed} SQLite lists" if listed >= PROBLEMS_LISTED else ""
    typer.echo(f"{report.memory}: " + ("ok" if report.ok else f"damaged ({listed} problem(s){more}):"))
    for problem in report.problems:  # one a line, as many as counted
        typer.echo(f"  {problem}")
    rows = ", ".join(f"{t} {'unreadable' if n is None else n}" for t, n in report.rows.items())
    typer.echo("readable rows: " + (rows or "none"))
    if report.repaired:
        typer.echo(f"copied into {report.repaired}: " + ", ".join(f"{t} {n}" for t, n in report.copied.items()))
        typer.echo(f"next: `ari memory induce --memory {report.repaired}` re-learns the methodologies from the traces; "
                   f"then replace {report.memory} with it")


@app.command()
@llm_options
def induce(
    memory: MemoryOption = None,
    clusters: ClustersOption = 10,
    json_out: JsonOption = False,
    decider: Annotated[
        str, typer.Option("--decider", help="offline (induced text only) | openai:<model> | vllm:<model path>: also let the LLM write each methodology.")
    ] = "offline",
    *,
    llm: dict,  # the LLM options (--llm-timeout ... --no-cache), spliced in by @llm_options
) -> None:
    """Re-cluster the stored history and induce new methodologies (a new version), without running the
    agent. With an LLM decider, the LLM also writes each methodology from the paper's summary prompt
    (distinct correct and wrong samples); its text is stored beside the induced one, and a cluster whose
    request fails keeps the induced text (listed under llm_failures)."""
    complete = None
    if decider != "offline":
        from agents.deciders.base import get_decider
        from agents.deciders.chat import ChatDecider
        from ari.base.config import AgentConfig

        config = AgentConfig.from_env(decider=decider)
        for key, value in llm.items():
            setattr(config.llm, key, value)
        config.llm.json_replies = False  # a methodology is prose, not a JSON choice
        chosen = get_decider(decider, config)
        if not isinstance(chosen, ChatDecider):
            raise UsageError(f"decider {decider!r} is no LLM: it cannot write methodologies")
        complete = chosen.complete
    with _open(memory) as mem:
        summary = mem.learn(n_clusters=clusters, complete=complete)
    _print_learnt(summary.__dict__, json_out)
    if summary.llm_failures and not json_out:
        from ari.base.progress import plain, stderr_console

        stderr_console().print(plain(f"{len(summary.llm_failures)} clusters kept their induced methodology: the LLM request failed "
                                     f"({next(iter(summary.llm_failures.values()))})"))


@app.command()
def learn(
    dataset: Annotated[str, typer.Option("--dataset", help="Dataset name (multitq | cronquestions).")] = "multitq",
    split: Annotated[str, typer.Option("--split", help="Split file of the dataset (e.g. dev).")] = "dev",
    data_dir: Annotated[
        Optional[Path], typer.Option("--data-dir", help="The dataset's directory (default: $ARI_DATA/<dataset>).", envvar="ARI_DATA_DIR")
    ] = None,
    questions: Annotated[Optional[Path], typer.Option("--questions", help="A question file to read instead of the split.")] = None,
    limit: Annotated[Optional[int], typer.Option("--limit", min=1, help="Learn from N questions (a fixed stratified sample).")] = None,
    shard: Annotated[
        Optional[str], typer.Option("--shard", help="i/n: learn only from this share of the questions (split by id, as `ari bench run --shard`), e.g. 0/2 to keep 1/2 for evaluation.")
    ] = None,
    search: Annotated[bool, typer.Option("--search/--no-search", help="Also search action programs (<= max steps) for correct and failing traces.")] = False,
    generate: Annotated[
        int, typer.Option("--generate", min=0, help="Also learn from N questions of each shape the KG asks itself (MultiTQ's six: same time, before/after, first/last, same period, first after, last before; and counts, yes/no, lists, most often, relations, windows, n-th, 'apart from'); with no dataset, from these alone (with --search, searched too).")
    ] = 0,
    clusters: ClustersOption = 10,
    workers: Annotated[
        Optional[int], typer.Option("--workers", min=1, help="Processes answering and searching (default: one per core).")
    ] = None,
    db: DbOption = None,
    memory: MemoryOption = None,
    decider: DeciderOption = "offline",
    device: DeviceOption = "auto",
    json_out: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Answer labelled questions with the agent, record the labelled traces, then cluster and induce.

    Each question is recorded once per settings: an interrupted run resumes, a repeated one adds nothing."""
    from ari.api import resolve_db, resolve_memory
    from ari.base.config import AgentConfig
    from ari.base.embedding import use_device

    use_device(device)
    kg_only = generate > 0 and data_dir is None and questions is None and not os.environ.get("ARI_DATA")
    items = [] if kg_only else _load_questions(dataset, split, data_dir, questions, limit, shard)
    path = resolve_db(db)
    target = memory or resolve_memory(None, path) or str(path.with_name(path.name + ".memory.sqlite"))
    try:
        from agents.learning import LearnSettings, learn_generated
        from agents.learning import learn as learn_memory
    except ImportError as exc:
        raise AriError(f"the agent is not available in this build ({exc})") from None
    if generate:
        made = learn_generated(
            path, target, generate, search=search, config=AgentConfig.from_env(decider=decider), n_clusters=clusters, cluster=kg_only, quiet=quiet,
        )
        if kg_only:
            _print_learnt(made.to_dict(), json_out)
            return
    from memory.names import names_in_questions

    report = learn_memory(
        path, target, items,
        settings=LearnSettings(attempt=True, search=search),
        config=AgentConfig.from_env(decider=decider),
        dataset=dataset if questions is None else str(questions),
        split=split, workers=workers, n_clusters=clusters, quiet=quiet, names=names_in_questions(items),
    )
    if generate and made.questions and report.learnt is None:  # only the generated questions were new
        from memory.api import Memory

        with Memory.open(target) as mem:
            report.learnt = mem.learn(n_clusters=clusters)
    _print_learnt(report.to_dict(), json_out)


def _load_questions(
    dataset: str, split: str, data_dir: Path | None, questions: Path | None, limit: int | None, shard: str | None = None
) -> list:
    from benchmarks.loaders import get_loader
    from benchmarks.selection import parse_shard, take_shard

    loader = get_loader(dataset)
    if questions is None:
        if data_dir is None:
            import os

            root = os.environ.get("ARI_DATA")
            if not root:
                raise UsageError("where is the dataset? give --data-dir DIR (or set ARI_DATA to the folder of datasets)")
            data_dir = Path(root) / dataset
        questions = loader.split_path(data_dir, split)
    loaded = take_shard(loader.load(questions).questions, parse_shard(shard))
    if not limit:
        return loaded
    from benchmarks.selection import stratified_sample

    return stratified_sample(loaded, limit, seed=0)  # every question type, in proportion


def _print_learnt(data: dict, json_out: bool) -> None:
    if json_out:
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    typer.echo(" ".join(f"{k}={v}" for k, v in data.items()))
