"""A generic temporal KG as tab-separated lines.

Each line is `head<TAB>relation<TAB>tail<TAB>time` or `head<TAB>relation<TAB>tail<TAB>start<TAB>end`,
times as YYYY, YYYY-MM or YYYY-MM-DD; in the five-field form an empty start or end is open. A fact
keeps the granularity its time was stated at (the coarser of start and end). A first line whose
time columns read `time` / `start` / `end` is taken as a header. Names are MultiTQ-style: display
text is the name with underscores as spaces.
"""

from __future__ import annotations

from pathlib import Path

from ari.base.errors import IngestError
from tkg_store.ingest.core import ParsedKG
from tkg_store.ingest.lines import BadLine, BadLines, TimeCache, check_name, parse_stated_time, read_lines

NAME = "tsv"

_HEADER_WORDS = {"time", "start", "end", "date", "timestamp"}


def read(path: Path, skip_bad: bool = False) -> ParsedKG:
    if not path.is_file():
        raise IngestError(f"{path} not found (expected a tab-separated file of facts)")
    parsed = ParsedKG(source=NAME, paths=[path])
    bad = BadLines(skip=skip_bad)
    stated = TimeCache(parse_stated_time)
    first = True
    for lineno, line in read_lines(path):
        is_first, first = first, False
        fields = line.split("\t")
        if len(fields) not in (4, 5):
            bad.report(path, lineno, f"expected 4 or 5 tab-separated fields (head, relation, tail, time | start, end), found {len(fields)}")
            continue
        if is_first and fields[3].strip().lower() in _HEADER_WORDS:
            continue
        try:
            head, relation, tail = (check_name(v, w) for v, w in zip(fields[:3], ("head", "relation", "tail")))
            if len(fields) == 4:
                start, end, granularity = stated(fields[3])
            else:
                start, end, granularity = interval(fields[3], fields[4], stated)
            parsed.add(head, relation, tail, start, end, granularity)
        except BadLine as problem:
            bad.report(path, lineno, str(problem))
    parsed.skipped, parsed.skipped_examples = bad.count, bad.examples
    return parsed


def interval(start_text: str, end_text: str, stated: TimeCache):
    """(start, end, granularity) of a five-field line's times; an empty end is open."""
    if not start_text and not end_text:
        raise BadLine("no time: start and end are both empty")
    start = stated(start_text) if start_text else None
    end = stated(end_text) if end_text else None
    if start and end and end[1] < start[0]:
        raise BadLine(f"interval ends before it starts: {start_text} > {end_text}")
    grains = [s[2] for s in (start, end) if s]
    granularity = grains[0] if len(grains) == 1 else grains[0].coarser(grains[1])
    return (start[0] if start else None), (end[1] if end else None), granularity

