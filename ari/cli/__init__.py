"""`ari`: a thin Typer layer over the library. Each command opens what it needs, calls one library
function, and turns an `AriError` into a one-line message on stderr with a non-zero exit code."""

from __future__ import annotations

import os
import sys

import typer

from ari.base.errors import AriError
from ari.base.processes import TERMINATED_EXIT_CODE, Terminated, interruptions_reported_once, sigterm_as_interrupt

app = typer.Typer(
    name="ari",
    help="ARI: temporal knowledge-graph question answering by abstract reasoning induction.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    # Imported here so each command group stays in its own module.
    from ari.cli import ask, bench, ingest, kg, memory, serve

    app.add_typer(ingest.app, name="ingest")
    app.add_typer(kg.app, name="kg")
    app.add_typer(memory.app, name="memory")
    app.add_typer(bench.app, name="bench")
    ask.register(app)
    serve.register(app)


_register()


def run(args: list[str] | None = None) -> int:
    """Run `ari ARGS` and return its exit code: 0 done; 1 a domain error; 2 a usage error (the usage
    line and one message, never a traceback); 130 interrupted (Ctrl-C), 143 terminated (SIGTERM),
    after the command has saved what it finished: TERM raises a KeyboardInterrupt too
    (`sigterm_as_interrupt`), so every command keeps its work on TERM as it does on Ctrl-C.

    The Click command is driven here rather than through Typer's standalone mode, which under
    `standalone_mode=False` turns Ctrl-C into a returned code that is easy to drop. Typer >= 0.29
    ships its own copy of Click, whose exceptions derive from `typer.TyperException`; an older Typer
    uses the `click` package, so both are handled."""
    command = typer.main.get_command(app)
    try:
        with interruptions_reported_once(), sigterm_as_interrupt(), command.make_context("ari", list(sys.argv[1:] if args is None else args)) as ctx:
            command.invoke(ctx)
        return 0
    except Terminated:
        print("terminated", file=sys.stderr)
        return TERMINATED_EXIT_CODE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except typer.Exit as exc:  # --help, or a command that ends early
        return exc.exit_code
    except typer.Abort:  # end of input at a prompt
        print("interrupted", file=sys.stderr)
        return 130
    except AriError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:  # `ari kg facts | head`: the reader left, nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit's flush cannot fail
        return 1
    except Exception as exc:
        if _is_click_error(exc):
            exc.show()  # type: ignore[attr-defined]
            return int(exc.exit_code)  # type: ignore[attr-defined]
        raise


def _is_click_error(exc: Exception) -> bool:
    if isinstance(exc, typer.TyperException) and hasattr(exc, "show"):
        return True
    try:
        import click
    except ImportError:
        return False
    return isinstance(exc, click.ClickException)


def main() -> None:
    """Console entry point (`ari`, `python -m ari`): exits with `run`'s code."""
    sys.exit(run())
