"""`ari memory` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="TODO", no_args_is_help=True)
