"""MultiTQ (ICEWS05-15) in its official layout: DIR/kg/full.txt plus the official id maps.

`full.txt` lines are `head<TAB>relation<TAB>tail<TAB>YYYY-MM-DD`, one day-point event each. When
`entity2id.json` / `relation2id.json` are present, new names get ids in the official order, so a
fresh store's ids equal the official ones. Display text is the name with underscores as spaces.
"""

from __future__ import annotations

import json
from pathlib import Path

from ari.base.errors import IngestError
from tkg_store.ingest.core import ParsedKG
from tkg_store.ingest.lines import BadLine, BadLines, TimeCache, check_name, parse_stated_time, read_lines
from tkg_store.temporal import Granularity

NAME = "multitq"


def read(directory: Path, skip_bad: bool = False) -> ParsedKG:
    """Parse a MultiTQ directory (the dataset root, or its kg/ folder)."""
    kg = directory / "kg" if (directory / "kg").is_dir() else directory
    facts_file = kg / "full.txt"
    if not facts_file.is_file():
        raise IngestError(f"{facts_file} not found (expected the MultiTQ layout DIR/kg/full.txt)")
    parsed = ParsedKG(source=NAME, paths=[facts_file])
    bad = BadLines(skip=skip_bad)
    day = TimeCache(_parse_day)
    for lineno, line in read_lines(facts_file):
        fields = line.split("\t")
        if len(fields) != 4:
            bad.report(facts_file, lineno, f"expected 4 tab-separated fields (head, relation, tail, YYYY-MM-DD), found {len(fields)}")
            continue
        head, relation, tail, when = fields
        try:
            start, end, granularity = day(when)
            parsed.add(check_name(head, "head"), check_name(relation, "relation"), check_name(tail, "tail"), start, end, granularity)
        except BadLine as problem:
            bad.report(facts_file, lineno, str(problem))
    parsed.entity_order = _official_order(kg / "entity2id.json")
    parsed.relation_order = _official_order(kg / "relation2id.json")
    parsed.skipped, parsed.skipped_examples = bad.count, bad.examples
    return parsed


def _parse_day(text: str):
    stated = parse_stated_time(text)
    if stated[2] is not Granularity.DAY:
        raise BadLine(f"bad time {text!r} (MultiTQ events are days: YYYY-MM-DD)")
    return stated


def _official_order(path: Path) -> list[str]:
    """Names of an official `name -> id` JSON map sorted by id ([] when the file is absent)."""
    if not path.is_file():
        return []
    try:
        mapping = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise IngestError(f"{path}: not a readable JSON id map ({exc})") from None
    if not isinstance(mapping, dict) or not all(isinstance(v, int) for v in mapping.values()):
        raise IngestError(f"{path}: expected a JSON object mapping names to integer ids")
    for name in mapping:
        if not name.strip():
            raise IngestError(f"{path}: empty name in the id map")
    return sorted(mapping, key=mapping.__getitem__)
