"""`ari ask`: answer one question (or abstain, saying what is missing)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from ari.base.errors import AriError
from ari.base.progress import warn
from ari.cli.options import DbOption, DeciderOption, DeviceOption, JsonOption, MemoryOption, QuietOption, llm_options


def register(app: typer.Typer) -> None:
    @app.command()
    @llm_options
    def ask(
        question: Annotated[str, typer.Argument(help="The question, in free text.")],
        db: DbOption = None,
        memory: MemoryOption = None,
        decider: DeciderOption = "offline",
        trace: Annotated[bool, typer.Option("--trace", help="Show every step as a table.")] = False,
        json_out: JsonOption = False,
        max_steps: Annotated[int, typer.Option("--max-steps", min=1, help="Most KG actions.")] = 5,
        top_k: Annotated[int, typer.Option("--top-k", min=1, help="Candidates kept after filtering.")] = 10,
        unguided: Annotated[
            bool,
            typer.Option("--unguided", help="Without a learned memory, answer anyway by a greedy walk (marked unguided; often wrong)."),
        ] = False,
        quiet: QuietOption = False,
        device: DeviceOption = "auto",
        server: Annotated[
            str | None,
            typer.Option(
                "--server",
                envvar="ARI_SERVER",
                help="Ask a running `ari serve` at this URL (its store, memory and settings apply).",
            ),
        ] = None,
        *,
        llm: dict,  # the LLM options (--llm-timeout ... --no-cache), spliced in by @llm_options
        record: Annotated[
            bool, typer.Option("--record/--no-record", help="Record the attempt in the memory (--no-record: only read it).")
        ] = True,
    ) -> None:
        """Answer a temporal question from the KG (or abstain, saying what is missing)."""
        from ari.base.errors import DeciderError, UsageError
        from ari.base.text import question_problem

        why = question_problem(question)
        if why is not None:  # empty, too long, or bytes that are not UTF-8 in argv
            raise UsageError(f"the question {why}")
        unrecorded: list[AriError] = []  # the answer is printed first; then the failed recording is the error
        if server:
            from ari.client import ask_server

            result = ask_server(server, question)
        else:
            from ari.base.processes import blas_on_one_thread

            blas_on_one_thread()  # before ari.api imports numpy
            from ari.api import answer_question
            from ari.base.embedding import use_device

            # one question embeds one short text, milliseconds on the CPU; telling whether a GPU is usable
            # imports torch, seconds on a machine that has one (benchmarks/results/gpu_check): so auto
            # means the CPU here, and the GPU is left to bulk work (ingest's tables, learning, bench runs)
            use_device("cpu" if device == "auto" else device)
            answered = answer_question(
                question, db=db, memory=memory, decider=decider, max_steps=max_steps, top_k=top_k, unguided=unguided, llm=llm,
                record=record, on_record_error=unrecorded.append, on_warning=warn,
            )
            result = answered.to_dict()
        if json_out:
            typer.echo(json.dumps(result, ensure_ascii=False))
        if result.get("error") is not None:  # an endpoint failure is not an answer: exit non-zero
            raise DeciderError(result["error"])
        if not json_out:
            _print(result, trace)
        if unrecorded:
            raise type(unrecorded[0])(f"the answer was not recorded: {unrecorded[0]}")


def _print(result: dict, trace: bool) -> None:
    from rich.console import Console  # imported here: `--json` and `--server` never pay for it
    from rich.text import Text

    from ari.base.progress import plain

    out = Console()
    mark = [("  (unguided: a greedy walk, no learned methodology)", "dim")] if result.get("unguided") else []
    if result["abstained"]:
        evidence = result.get("evidence") or []
        nearest = f" (nearest: {'; '.join(evidence)})" if evidence else ""
        out.print(Text.assemble(("No Answer", "bold"), " — ", plain(f"{result['reason']}{nearest}"), *mark), soft_wrap=True)
    elif result.get("is_list") and len(result["answers"]) > 1:
        answers = result["answers"]
        out.print(Text.assemble((f"{len(answers)} answer{'s' if len(answers) != 1 else ''}", "bold"), *mark))
        for answer in answers:
            out.print(Text.assemble("  - ", plain(answer)), soft_wrap=True)
    else:
        answers = result["answers"]
        more = f"  (also: {', '.join(answers[1:6])})" if len(answers) > 1 else ""
        out.print(Text.assemble(plain(result["answer"], "bold"), plain(more), *mark))
    if not result["abstained"] and result.get("evidence"):
        out.print(Text("because:", "dim"))
        for line in result["evidence"]:
            out.print(Text.assemble("  ", plain(line)), soft_wrap=True)
    if trace:
        out.print(_trace_table(result))


def _trace_table(result: dict) -> Any:
    from rich.table import Table

    from ari.base.progress import plain

    table = Table(title="Trace", show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("action")
    table.add_column("result", justify="right")
    table.add_column("chosen because")
    for line in result["judgement"]:
        table.add_row("", plain("judge", "dim"), "", plain(line))
    for step in result["steps"]:
        table.add_row(str(step["step"]), plain(step["chosen"]), str(step["result_size"]), plain(step["reason"]))
    return table
