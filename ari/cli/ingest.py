"""`ari ingest`: load a dataset's temporal KG into a store (created when missing, appended otherwise)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ari.base.errors import UsageError
from ari.base.progress import plain, stderr_console
from ari.cli.options import DbOption, DeviceOption, JsonOption, QuietOption

app = typer.Typer(
    help="Load a temporal KG (MultiTQ, CronQuestions, YAGO11k, or a generic TSV file) into a DuckDB store.",
    no_args_is_help=True,
)

SkipBadOption = Annotated[
    bool, typer.Option("--skip-bad", help="Skip malformed lines and count them (default: stop, store unchanged).")
]
NoTablesOption = Annotated[
    bool,
    typer.Option("--no-tables", help="Do not build the per-store tables (name vectors, linker tables) now: the first question builds them."),
]
DirArgument = Annotated[Path, typer.Argument(help="Dataset directory in its official layout (with kg/).")]


@app.command()
def multitq(
    directory: DirArgument,
    db: DbOption = None,
    skip_bad: SkipBadOption = False,
    quiet: QuietOption = False,
    json_out: JsonOption = False,
    device: DeviceOption = "auto",
    no_tables: NoTablesOption = False,
) -> None:
    """MultiTQ: DIR/kg/full.txt (head, relation, tail, YYYY-MM-DD) and the official id maps."""
    _run("multitq", directory, db, skip_bad, quiet, json_out, device, not no_tables)


@app.command()
def cronquestions(
    directory: DirArgument,
    db: DbOption = None,
    skip_bad: SkipBadOption = False,
    quiet: QuietOption = False,
    json_out: JsonOption = False,
    device: DeviceOption = "auto",
    no_tables: NoTablesOption = False,
) -> None:
    """CronQuestions (wikidata_big): DIR/kg/full.txt or train/valid/test.txt, plus the id-to-text files."""
    _run("cronquestions", directory, db, skip_bad, quiet, json_out, device, not no_tables)


@app.command()
def tsv(
    file: Annotated[Path, typer.Argument(help="Lines of head, relation, tail, time | start, end (tab-separated).")],
    db: DbOption = None,
    skip_bad: SkipBadOption = False,
    quiet: QuietOption = False,
    json_out: JsonOption = False,
    open_ends: Annotated[
        str, typer.Option("--open-ends", help="A fact with one stated end: 'open' (held since ever / still held) or 'point' (held at that time only, CronQuestions' reading).")
    ] = "open",
    device: DeviceOption = "auto",
    no_tables: NoTablesOption = False,
) -> None:
    """A generic TSV file; times as YYYY, YYYY-MM or YYYY-MM-DD, kept at the granularity stated."""
    _run("tsv", file, db, skip_bad, quiet, json_out, device, not no_tables, open_ends)


@app.command()
def yago11k(
    path: Annotated[Path, typer.Argument(help="The YAGO11k folder (its facts_named.tsv) or that file.")],
    db: DbOption = None,
    skip_bad: SkipBadOption = False,
    quiet: QuietOption = False,
    json_out: JsonOption = False,
    device: DeviceOption = "auto",
    no_tables: NoTablesOption = False,
) -> None:
    """YAGO11k: facts_named.tsv (<head>, <relation>, <tail>, start, end, split); brackets stripped, underscores kept."""
    _run("yago11k", path, db, skip_bad, quiet, json_out, device, not no_tables)


def _run(
    fmt: str, path: Path, db: Path | None, skip_bad: bool, quiet: bool, json_out: bool, device: str, tables: bool,
    open_ends: str = "open",
) -> None:
    from ari.api import build_store_tables
    from ari.base.embedding import use_device
    from tkg_store.ingest import ingest

    use_device(device)
    if db is None:
        raise UsageError("say where to write the store: --db PATH (or set ARI_DB)")
    with _PhaseBar(quiet) as bar:
        summary = ingest(fmt, path, db, skip_bad=skip_bad, steps=bar, open_ends=open_ends)
    built = build_store_tables(db, quiet=quiet) if tables else None
    if json_out:
        typer.echo(json.dumps({"db": str(db), **summary.to_dict(), "tables": built}, ensure_ascii=False))
        return
    _print_summary(db, summary, built)
    if summary.skipped_examples and not quiet:
        for example in summary.skipped_examples:
            stderr_console().print(plain(f"skipped {example}"))


class _PhaseBar:
    """A Rich progress bar over the ingest phases, on stderr, only when it is a terminal and not quiet."""

    PHASES = 6  # reading + the writer's phases (schema, entities, facts, sorting, metadata)

    def __init__(self, quiet: bool) -> None:
        self._bar = None
        if not quiet and sys.stderr.isatty():
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            columns = (TextColumn("{task.description:<18}"), BarColumn(), TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn())
            self._bar = Progress(*columns, console=stderr_console(), transient=True)

    def __enter__(self) -> "_PhaseBar":
        if self._bar is not None:
            self._bar.start()
            self._task = self._bar.add_task("ingest", total=self.PHASES)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()

    def __call__(self, phases) -> None:  # noqa: ANN001 - list of (name, step)
        for name, step in phases:
            if self._bar is not None:
                self._bar.update(self._task, description=name)
            step()
            if self._bar is not None:
                self._bar.advance(self._task)


def _print_summary(db: Path, summary, tables: dict | None) -> None:  # noqa: ANN001 - IngestSummary
    from rich.console import Console
    from rich.table import Table

    from tkg_store.temporal import OPEN_END, OPEN_START

    table = Table(title=f"{summary.source} -> {db}")
    table.add_column("")
    table.add_column("added", justify="right")
    table.add_column("total", justify="right")
    table.add_row("entities", f"{summary.entities_added:,}", f"{summary.entities:,}")
    table.add_row("relations", f"{summary.relations_added:,}", f"{summary.relations:,}")
    table.add_row("facts", f"{summary.facts_added:,}", f"{summary.facts:,}")
    table.add_row("lines read", f"{summary.facts_read:,}", "")
    table.add_row("skipped lines", f"{summary.skipped_lines:,}", "")
    span = summary.time_range
    if span:
        start = "open" if span.start == OPEN_START else span.start
        end = "open (open-ended facts)" if span.end == OPEN_END else span.end
    table.add_row("time range", "", f"{start} .. {end}" if span else "-")
    table.add_row("seconds", "", f"{summary.elapsed_s:.1f}")
    if tables is not None:
        table.add_row("names embedded", f"{tables['names_embedded']:,}", f"{tables['names_embedded'] + tables['names_kept']:,}")
        table.add_row("tables seconds", "", f"{tables['seconds']:.1f} ({tables['device']})")
    Console().print(table)
