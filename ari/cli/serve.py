"""`ari serve`: keep a store, its memory and the embedder loaded and answer over HTTP (ari.serve)."""

from __future__ import annotations

from typing import Annotated

import typer

from ari.cli.options import DbOption, DeciderOption, MemoryOption


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        db: DbOption = None,
        memory: MemoryOption = None,
        decider: DeciderOption = "offline",
        host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8000,
        record: Annotated[bool, typer.Option("--record/--no-record", help="Store each answer's trace in the memory.")] = True,
        gather_ms: Annotated[
            float, typer.Option("--gather-ms", min=0, help="Wait this long for more questions to batch with the first (questions queued meanwhile are batched anyway).")
        ] = 0.0,
    ) -> None:
        """Answer questions over HTTP (POST /ask, POST /ask/batch, GET /health, GET /memory/clusters; docs at /docs)."""
        from ari.serve import ServeSettings
        from ari.serve import serve as run

        typer.echo(f"ari serve: loading, then listening on http://{host}:{port} (docs at /docs)", err=True)
        settings = ServeSettings(db=db, memory=memory, decider=decider, record=record, gather_s=gather_ms / 1000)
        run(settings, host=host, port=port)
