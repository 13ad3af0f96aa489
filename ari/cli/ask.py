"""`ari ask`: answer one question (or abstain, saying what is missing)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ari.base.errors import AriError
from ari.cli.options import DbOption, DeciderOption, JsonOption, MemoryOption, QuietOption


def register(app: typer.Typer) -> None:
    @app.command()
    def ask(
        question: Annotated[str, typer.Argument(help="The question, in free text.")],
        db: DbOption = None,
        memory: MemoryOption = None,
        decider: DeciderOption = "offline",
        trace: Annotated[bool, typer.Option("--trace", help="Show every step as a table.")] = False,
        json_out: JsonOption = False,
        max_steps: Annotated[int, typer.Option("--max-steps", min=1, help="Most KG actions.")] = 5,
        top_k: Annotated[int, typer.Option("--top-k", min=1, help="Candidates kept after filtering.")] = 10,
        quiet: QuietOption = False,
        record: Annotated[
            bool, typer.Option("--record/--no-record", help="Record the attempt in the memory (--no-record: only read it).")
        ] = True,
    ) -> None:
        """Answer a temporal question from the KG (or abstain, saying what is missing)."""
        from ari.api import answer_question

        unrecorded: list[AriError] = []  # the answer is printed first; then the failed recording is the error
        result = answer_question(question, db=db, memory=memory, decider=decider, max_steps=max_steps, top_k=top_k,
                                 record=record, on_record_error=unrecorded.append)
        _print(result, json_out, trace)
        if unrecorded:
            raise type(unrecorded[0])(f"the answer was not recorded: {unrecorded[0]}")


def _print(result, json_out: bool, trace: bool) -> None:  # noqa: ANN001
    if json_out:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False))
        return
    out = Console()
    if result.abstained:
        out.print(f"[bold]No Answer[/bold] — {result.reason}")
    else:
        more = f"  (also: {', '.join(result.answers[1:6])})" if len(result.answers) > 1 else ""
        out.print(f"[bold]{result.answer}[/bold]{more}")
    if trace:
        out.print(_trace_table(result))


def _trace_table(result) -> Table:
    table = Table(title="Trace", show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("action")
    table.add_column("result", justify="right")
    table.add_column("chosen because")
    for line in result.judgement:
        table.add_row("", "[dim]judge[/dim]", "", line)
    for step in result.steps:
        table.add_row(str(step.step), step.chosen, str(step.result_size), step.reason)
    return table
