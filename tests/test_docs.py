"""Docs that cannot drift: every `ari` command, subcommand, option and argument explains itself."""

from __future__ import annotations

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from ari.cli import app


def _walk(command, path: tuple[str, ...] = ("ari",)):
    """(path, command) for the whole command tree, groups included."""
    yield path, command
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from _walk(sub, path + (name,))


COMMANDS = list(_walk(get_command(app)))


def test_the_tree_has_every_command_group():
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"ari ask", "ari ingest", "ari kg", "ari memory", "ari bench", "ari memory learn"} <= names


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_command_has_help_text(path, command):
    assert (command.help or "").strip(), f"{' '.join(path)} has no help text"


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_option_and_argument_has_help_text(path, command):
    undocumented = [
        p.name for p in command.params if p.param_type_name in ("option", "argument") and not (getattr(p, "help", None) or "").strip()
    ]
    assert undocumented == [], f"{' '.join(path)}: no help for {undocumented}"


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=[" ".join(p) for p, _ in COMMANDS])
def test_help_runs_and_shows_the_text(path):
    result = CliRunner().invoke(app, [*path[1:], "--help"])
    assert result.exit_code == 0, result.output
    command = dict((p, c) for p, c in COMMANDS)[path]
    first_words = " ".join(command.help.split()[:3])
    assert first_words in " ".join(result.output.split())
