"""Rich output: progress bars on stderr that disappear when quiet or when stderr is not a terminal,
and `plain`, the one way KG, question and answer text (and any other data) goes into a Rich print."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

T = TypeVar("T")


@cache
def stderr_console() -> Console:
    """The Rich console on stderr, made on first use: a command that draws nothing never imports Rich."""
    from rich.console import Console

    return Console(stderr=True)


def plain(value: object, style: str = "") -> Text:
    """`value` as text printed exactly as written: an entity named "Evil[/x]Corp" or "[red]Acme", or a
    path with ":smile:" in it, is data, never Rich markup, an emoji code or highlighting."""
    from rich.text import Text

    return Text(str(value), style=style)


def warn(line: str) -> None:
    """One line on stderr, `Warning: ...`: the command goes on (its exit code is its own)."""
    print(f"Warning: {line}", file=sys.stderr)


def progress(items: Iterable[T], description: str, total: int | None = None, quiet: bool = False) -> Iterator[T]:
    """Yield `items`, drawing a Rich progress bar on stderr when it is a TTY and not quiet."""
    if quiet or not sys.stderr.isatty():
        yield from items
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=stderr_console(), transient=True) as bar:
        task = bar.add_task(description, total=total if total is not None else _len(items))
        for item in items:
            yield item
            bar.advance(task)


def _len(items: Iterable) -> int | None:
    try:
        return len(items)  # type: ignore[arg-type]
    except TypeError:
        return None
