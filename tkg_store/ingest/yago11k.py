"""YAGO11k (HyTE): `facts_named.tsv` of the folder, `head relation tail start end split` with a
header row, YAGO ids in angle brackets (`<Frances_Howard_(actress)>`, `<isMarriedTo>`).

The brackets are stripped: they mark every YAGO id alike and say nothing of the entity. Names keep
their underscores (`Frances_Howard_(actress)`), displayed with spaces as MultiTQ's are; a relation's
text splits its camel case (`isMarriedTo` -> "is married to"). Times are YYYY, YYYY-MM or
YYYY-MM-DD at the granularity stated, an empty start or end open; the split column is ignored. A
year that is not four digits (the file has a few BCE and three-digit years) is a malformed line.
"""

from __future__ import annotations

import re
from pathlib import Path

from ari.base.errors import IngestError
from tkg_store.ingest.core import ParsedKG
from tkg_store.ingest.lines import BadLine, BadLines, TimeCache, check_name, parse_stated_time, read_lines
from tkg_store.ingest.tsv import interval

NAME = "yago11k"
FILE = "facts_named.tsv"

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def read(path: Path, skip_bad: bool = False) -> ParsedKG:
    """`path`: the YAGO11k folder (its facts_named.tsv) or that file itself."""
    file = path / FILE if path.is_dir() else path
    if not file.is_file():
        raise IngestError(f"{file} not found (expected YAGO11k's {FILE}: head, relation, tail, start, end, split)")
    parsed = ParsedKG(source=NAME, paths=[file])
    bad = BadLines(skip=skip_bad)
    stated = TimeCache(parse_stated_time)
    for lineno, line in read_lines(file):
        fields = line.split("\t")
        if lineno == 1 and fields[:3] == ["head", "relation", "tail"]:
            continue
        if len(fields) != 6:
            bad.report(file, lineno, f"expected 6 tab-separated fields (head, relation, tail, start, end, split), found {len(fields)}")
            continue
        try:
            head, relation, tail = (check_name(strip_brackets(v), w) for v, w in zip(fields[:3], ("head", "relation", "tail")))
            start, end, granularity = interval(fields[3], fields[4], stated)
            parsed.add(head, relation, tail, start, end, granularity)
            parsed.relation_text.setdefault(relation, relation_text(relation))
        except BadLine as problem:
            bad.report(file, lineno, str(problem))
    parsed.skipped, parsed.skipped_examples = bad.count, bad.examples
    return parsed


def strip_brackets(name: str) -> str:
    """`<Samuel_Goldwyn>` -> `Samuel_Goldwyn` (a name without brackets is kept as it is)."""
    return name[1:-1] if len(name) > 2 and name.startswith("<") and name.endswith(">") else name


def relation_text(name: str) -> str:
    """`isMarriedTo` -> "is married to"."""
    return _CAMEL.sub(" ", name).lower()
