"""Options shared by several commands, defined once (as sqlite-utils bundles its output options)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

DbOption = Annotated[
    Optional[Path],
    typer.Option("--db", help="DuckDB file of the temporal KG (default: $ARI_DB, else the bundled demo KG).", envvar="ARI_DB"),
]
MemoryOption = Annotated[
    Optional[str],
    typer.Option(
        "--memory",
        help="History store: a SQLite path or any SQLAlchemy URL (default: $ARI_MEMORY, else the bundled demo memory).",
        envvar="ARI_MEMORY",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON to stdout.")]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars or diagnostics on stderr.")]
DeciderOption = Annotated[
    str,
    typer.Option("--decider", help="offline | openai:<model> | vllm:<model path>.", envvar="ARI_DECIDER"),
]
