"""`ari`: a thin Typer layer over the library. Each command opens what it needs, calls one library
function, and turns an `AriError` into a one-line message on stderr with a non-zero exit code."""

from __future__ import annotations

import sys

import typer

from ari.base.errors import AriError

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


def main() -> None:
    """Console entry point: domain errors become one line on stderr and exit code 1 or 2."""
    try:
        app(standalone_mode=False)
    except AriError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        print("Aborted.", file=sys.stderr)
        sys.exit(130)
    except Exception as exc:  # click usage errors and the like
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        raise
