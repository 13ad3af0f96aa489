"""`ari serve`: keep a store, its memory and the embedder loaded and answer over HTTP (ari.serve)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ari.cli.options import DbOption, DeciderOption, DeviceOption, MemoryOption
from ari.serve_http import MAX_BODY_KB, TIMEOUT_S, Limits


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        db: DbOption = None,
        memory: MemoryOption = None,
        decider: DeciderOption = "offline",
        device: DeviceOption = "auto",
        host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8000,
        record: Annotated[bool, typer.Option("--record/--no-record", help="Store each answer's trace in the memory.")] = True,
        gather_ms: Annotated[
            float, typer.Option("--gather-ms", min=0, help="Wait this long for more questions to batch with the first (questions queued meanwhile are batched anyway).")
        ] = 0.0,
        max_body_kb: Annotated[
            int, typer.Option("--max-body-kb", min=1, help="Largest request body in KiB; a larger one gets 413 before it is read.")
        ] = MAX_BODY_KB,
        timeout: Annotated[
            float, typer.Option("--timeout", min=0.1, help="Seconds a client has to send a request's head, then its body (else the connection is closed / 408).")
        ] = TIMEOUT_S,
        allow_host: Annotated[
            Optional[list[str]],
            typer.Option("--allow-host", help="Also answer requests whose Host header names this host (repeatable; localhost, 127.0.0.1, [::1] and --host always)."),
        ] = None,
    ) -> None:
        """Answer questions over HTTP (POST /ask, POST /ask/batch, GET /health, GET /memory/clusters; docs at /docs)."""
        from ari.base.embedding import use_device
        from ari.serve import ServeSettings
        from ari.serve import serve as run

        use_device(device)
        settings = ServeSettings(db=db, memory=memory, decider=decider, record=record, gather_s=gather_ms / 1000)
        limits = Limits(max_body_kb=max_body_kb, timeout_s=timeout, allow_hosts=tuple(allow_host or ()))
        run(settings, host=host, port=port, limits=limits)
