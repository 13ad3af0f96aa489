"""`ari ask`: answer one question."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def ask(question: str) -> None:
        """Answer a temporal question from the KG (or abstain, saying what is missing)."""
        raise NotImplementedError
