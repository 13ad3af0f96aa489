"""Options shared by several commands, defined once (as sqlite-utils bundles its output options)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Optional

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
DeviceOption = Annotated[
    str,
    typer.Option(
        "--device",
        envvar="ARI_DEVICE",
        help="Where embeddings run: auto (a CUDA GPU when one is present, else the CPU) | cpu | cuda.",
    ),
]
DeciderOption = Annotated[
    str,
    typer.Option("--decider", help="offline | openai:<model> | vllm:<model path>.", envvar="ARI_DECIDER"),
]

# -- LLM decider settings (each also from the environment; see ari.base.config.LLMConfig) -----------
TimeoutOption = Annotated[
    Optional[float], typer.Option("--llm-timeout", min=0.1, help="Seconds per LLM request (env ARI_LLM_TIMEOUT; default 30).")
]
RetriesOption = Annotated[
    Optional[int], typer.Option("--llm-retries", min=0, help="Retries of a failed LLM request (env ARI_LLM_RETRIES; default 2).")
]
TemperatureOption = Annotated[
    Optional[float], typer.Option("--temperature", min=0.0, help="Sampling temperature (env ARI_LLM_TEMPERATURE; default 0).")
]
MaxTokensOption = Annotated[
    Optional[int], typer.Option("--max-tokens", min=1, help="Most tokens of one reply (env ARI_LLM_MAX_TOKENS; default 512).")
]
SeedOption = Annotated[Optional[int], typer.Option("--llm-seed", help="Sampling seed (env ARI_LLM_SEED; default 0).")]
NoCacheOption = Annotated[bool, typer.Option("--no-cache", help="Bypass the LLM reply cache (env ARI_LLM_CACHE=off).")]


def llm_overrides(
    timeout: float | None = None,
    retries: int | None = None,
    temperature: float | None = None,
    max_tokens: int | None = None,
    seed: int | None = None,
    no_cache: bool = False,
    **more: object,
) -> dict:
    """The LLMConfig fields given on the command line (the rest keep their environment values)."""
    given = {"timeout_s": timeout, "retries": retries, "temperature": temperature, "max_tokens": max_tokens, "seed": seed, **more}
    overrides = {k: v for k, v in given.items() if v is not None}
    if no_cache:
        overrides["cache"] = None
    return overrides


# The six above as a command's parameters: (name, option, default), in the order `--help` lists them.
_LLM_PARAMETERS = (
    ("llm_timeout", TimeoutOption, None),
    ("llm_retries", RetriesOption, None),
    ("temperature", TemperatureOption, None),
    ("max_tokens", MaxTokensOption, None),
    ("llm_seed", SeedOption, None),
    ("no_cache", NoCacheOption, False),
)


def llm_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give `command` the LLM options (--llm-timeout ... --no-cache) where its keyword-only `llm: dict`
    parameter stands, and call it with `llm` = the LLMConfig fields given (`llm_overrides`).

    Typer reads a command's options from its signature, so the six are spliced into it here: an LLM
    setting is added or changed in this module alone, for every command that takes them (as
    sqlite-utils bundles `@output_options`)."""
    signature = inspect.signature(command, eval_str=True)
    parameters = list(signature.parameters.values())
    at = [p.name for p in parameters].index("llm")
    spliced = [inspect.Parameter(name, parameters[at].kind, default=default, annotation=option) for name, option, default in _LLM_PARAMETERS]
    parameters[at:at + 1] = spliced

    @functools.wraps(command)
    def with_llm_options(*args: Any, **kwargs: Any) -> Any:
        given = [kwargs.pop(name) for name, _, _ in _LLM_PARAMETERS]
        return command(*args, llm=llm_overrides(*given), **kwargs)

    with_llm_options.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    with_llm_options.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": signature.return_annotation}
    return with_llm_options
