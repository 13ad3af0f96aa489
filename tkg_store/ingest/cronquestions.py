"""CronQuestions' Wikidata KG in the official wikidata_big layout.

Facts: DIR/kg/full.txt, or else DIR/kg/{train,valid,test}.txt, lines
`Qid<TAB>Pid<TAB>Qid<TAB>start_year<TAB>end_year` (an empty year is open; a four-field line has an
open end). Display text comes from kg/wd_id2entity_text.txt and kg/wd_id2relation_text.txt
(`id<TAB>text`); names stay the Wikidata ids. Facts are year intervals.
"""

from __future__ import annotations

from pathlib import Path

from ari.base.errors import IngestError
from tkg_store.ingest.core import ParsedKG
from tkg_store.ingest.lines import BadLine, BadLines, TimeCache, check_name, parse_year, read_lines
from tkg_store.temporal import Granularity

NAME = "cronquestions"

_SPLITS = ("train.txt", "valid.txt", "test.txt")


def read(directory: Path, skip_bad: bool = False) -> ParsedKG:
    kg = directory / "kg" if (directory / "kg").is_dir() else directory
    files = fact_files(kg)
    parsed = ParsedKG(source=NAME, paths=list(files))
    bad = BadLines(skip=skip_bad)
    year = TimeCache(parse_year)
    for path in files:
        for lineno, line in read_lines(path):
            fields = line.split("\t")
            if len(fields) not in (4, 5):
                bad.report(path, lineno, f"expected 5 tab-separated fields (Qid, Pid, Qid, start_year, end_year), found {len(fields)}")
                continue
            try:
                head, relation, tail = (check_name(v, w) for v, w in zip(fields[:3], ("head", "relation", "tail")))
                start = year(fields[3])[0] if fields[3] else None
                end = year(fields[4])[1] if len(fields) == 5 and fields[4] else None
                if start and end and end < start:
                    raise BadLine(f"interval ends before it starts: {fields[3]} > {fields[4]}")
                parsed.add(head, relation, tail, start, end, Granularity.YEAR)
            except BadLine as problem:
                bad.report(path, lineno, str(problem))
    parsed.entity_display = _texts(kg / "wd_id2entity_text.txt", bad)
    parsed.relation_text = _texts(kg / "wd_id2relation_text.txt", bad)
    parsed.paths += [p for p in (kg / "wd_id2entity_text.txt", kg / "wd_id2relation_text.txt") if p.is_file()]
    parsed.skipped, parsed.skipped_examples = bad.count, bad.examples
    return parsed


def fact_files(kg: Path) -> list[Path]:
    """full.txt when released, else whichever of the train/valid/test splits exist."""
    if (kg / "full.txt").is_file():
        return [kg / "full.txt"]
    splits = [kg / name for name in _SPLITS if (kg / name).is_file()]
    if not splits:
        raise IngestError(f"no facts in {kg} (expected full.txt or train/valid/test.txt of wikidata_big)")
    return splits


def _texts(path: Path, bad: BadLines) -> dict[str, str]:
    """`id<TAB>text` lines (text may be absent: the id then stands for itself)."""
    texts: dict[str, str] = {}
    if not path.is_file():
        return texts
    for lineno, line in read_lines(path):
        key, sep, text = line.partition("\t")
        if not sep or not key.strip() or not text.strip() or "\t" in text:
            bad.report(path, lineno, "expected 2 tab-separated fields (id, text)")
            continue
        texts[key] = text
    return texts
