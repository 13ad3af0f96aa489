"""`ari kg`: look inside a temporal KG store (counts, time range, metadata, matching facts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from ari.base.errors import UsageError
from ari.cli.options import DbOption, JsonOption

app = typer.Typer(help="Inspect a temporal KG store: summary and fact lookups.", no_args_is_help=True)


def _store(db: Path | None):  # noqa: ANN202 - TKGStore
    from tkg_store.demo import demo_store_path
    from tkg_store.store import TKGStore

    return TKGStore.open(db if db is not None else demo_store_path())


@app.command()
def info(db: DbOption = None, json_out: JsonOption = False) -> None:
    """Counts, time range and metadata of the store (default: the bundled demo KG)."""
    with _store(db) as store:
        data = kg_info(store)
    if json_out:
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    from rich.console import Console

    from ari.base.progress import plain

    out = Console()
    out.print(plain(data["db"], "bold"))
    counts = data["counts"]
    out.print(f"entities: {counts['entities']:,}  relations: {counts['relations']:,}  facts: {counts['facts']:,}")
    span = data["time_range"]
    if span:
        out.print(f"time range: {span['start'] or 'open'} .. {span['end'] or 'open (open-ended facts)'}")
    else:
        out.print("time range: - (empty)")
    for key, value in data["meta"].items():
        if key != "ingests":
            out.print(plain(f"{key}: {value}"))
    for item in data["meta"].get("ingests", []):
        out.print(plain(f"ingest {item['at']}: {item['source']} {', '.join(item['paths'])} (+{item['facts_added']:,} facts)"))


def kg_info(store) -> dict:  # noqa: ANN001 - TKGStore
    """The machine-readable summary `ari kg info --json` prints (stable keys; a time_range bound
    that open-ended facts leave open is null)."""
    from tkg_store.temporal import OPEN_END, OPEN_START

    span = store.time_range()
    meta: dict[str, object] = dict(store.meta())
    if "ingests" in meta:
        meta["ingests"] = json.loads(str(meta["ingests"]))
    return {
        "db": str(store.path),
        "counts": store.counts(),
        "time_range": {
            "start": None if span.start == OPEN_START else span.start.isoformat(),
            "end": None if span.end == OPEN_END else span.end.isoformat(),
        } if span else None,
        "meta": meta,
    }


NameOption = Optional[str]


@app.command()
def facts(
    db: DbOption = None,
    head: Annotated[NameOption, typer.Option("--head", help="Head entity, as the KG names it (Pervez_Musharraf).")] = None,
    relation: Annotated[NameOption, typer.Option("--relation", help="Relation name (Criticize_or_denounce).")] = None,
    tail: Annotated[NameOption, typer.Option("--tail", help="Tail entity name.")] = None,
    time: Annotated[NameOption, typer.Option("--time", help="Keep facts overlapping YYYY, YYYY-MM or YYYY-MM-DD.")] = None,
    limit: Annotated[int, typer.Option("--limit", min=0, help="Print at most this many facts (0: all).")] = 50,
    json_out: JsonOption = False,
) -> None:
    """Facts matching every given part, in time order."""
    from tkg_store.temporal import parse_time

    within = parse_time(time) if time is not None else None
    with _store(db) as store:
        for value, kind in ((head, "entity"), (tail, "entity"), (relation, "relation")):
            if value is not None:
                _check_name(store, value, kind)
        found = store.facts(head=head, relation=relation, tail=tail, within=within)
    shown = found if limit == 0 else found[:limit]
    if json_out:
        typer.echo(json.dumps([_fact_dict(f) for f in shown], ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    from ari.base.progress import plain

    table = Table(title=f"{len(found):,} facts" + (f" (first {len(shown)})" if len(shown) < len(found) else ""))
    for column in ("head", "relation", "tail", "start", "end", "granularity"):
        table.add_column(column, overflow="fold")
    for f in shown:
        d = _fact_dict(f)
        table.add_row(*(plain(d[key]) for key in ("head", "relation", "tail")), d["start"] or "open", d["end"] or "open", d["granularity"])
    Console().print(table)


def _check_name(store, value: str, kind: str) -> None:  # noqa: ANN001 - TKGStore
    """An unknown name is a usage error here (a typo), with the closest stored names as hints."""
    known = store.has_entity(value) if kind == "entity" else store.has_relation(value)
    if known:
        return
    if kind == "entity":
        hints = store.find_entities(value, limit=3)
    else:
        hints = [r for r in store.relation_names() if value.lower().replace(" ", "_") in r.lower()][:3]
    hint = f" (did you mean {', '.join(hints)}?)" if hints else ""
    raise UsageError(f"no {kind} named {value!r} in {store.path}{hint}")


def _fact_dict(fact) -> dict:  # noqa: ANN001 - Fact
    return {
        "head": fact.head,
        "relation": fact.relation,
        "tail": fact.tail,
        "start": fact.start.isoformat() if fact.start else None,
        "end": fact.end.isoformat() if fact.end else None,
        "granularity": fact.granularity.value,
    }
