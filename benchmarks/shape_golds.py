"""Gold answers of the shape question sets (issue 23), computed from the KG file by brute force.

Writers describe each question by a spec (`/work/shapes-sets/SPEC.md`: who acts on whom, which
relations, which time constraints, what is asked); this script turns the specs into the records
`ari bench run shapes` reads. It is an independent reference: it reads the TSV with pandas and
never imports ARI's actions or agents, so a bug there cannot hide in the golds.

Semantics (SPEC.md):
- a fact matches when its relation is one of the spec's, the given head / tail are its head / tail,
  and its day is inside `window` (inclusive), strictly after `after`, strictly before `before`, and
  strictly after / before the FIRST day of the `reference` event (found over the whole KG by the same
  matching rule, either side of it may be null);
- `X Make_a_visit Y` on a day is also `Y Host_a_visit X` (and the reverse); the SYMMETRIC relations
  hold in either direction; every other relation only from head to tail;
- count days: distinct matching days; count entities: distinct entities in the asked role; yesno:
  "Yes" when any fact matches; entity asks: the entities in the asked role (all of them; with
  `ordinal`, those of the n-th distinct day; with `extreme`, the ones with the most / fewest distinct
  days, ties all answered); time asks: the matching days (or the n-th one) at the asked granularity;
  relation asks: the distinct relations between head and tail in either direction;
- `entity_type: country` keeps only COUNTRIES (below) in the asked role, `except` drops entities;
- unanswerable: no answers, `abstain: true`.

Countries are read off the KG's names: a sector entity names its country in brackets
(`Military_(Iran)`), so a country is a KG entity that qualifies at least COUNTRY_MIN_SECTORS other
entities, one of them a civil state body (a name containing one of STATE_BODIES), which drops armed
groups (`Militant_(Boko_Haram)`), news agencies, towns (`Ministry_(The_Hague)` has too few) and
regions (`Military_(Middle_East)`: an army alone does not make a state). On MultiTQ this gives 52
names, from Angola to Yemen. (MultiTQ has no entity for several large countries, such as India or
Russia: only their sectors.)

Records that cannot be computed (unknown names or relations, missing or contradictory fields) are
reported by id and reason and left out, as are answerable specs whose gold is empty (an entity,
time or relation ask that nothing matches is unanswerable as written). Output is deterministic:
the input files in the given order, records in file order, answers sorted.

    python -m benchmarks.shape_golds --kg ../shared/data/multitq/kg/full.txt \\
        --in /work/shapes-sets/w1_dev.json ... --out benchmarks/data/shapes/dev.json [--report FILE]

Problems found in a `*_held.json` file are reported by id and reason code only (no names, no text):
those questions stay unread until the final measurement.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pandas as pd

from benchmarks.results_io import write_json

MIRRORS = {"Make_a_visit": "Host_a_visit", "Host_a_visit": "Make_a_visit"}
SYMMETRIC = frozenset(
    {"Consult", "Engage_in_negotiation", "Sign_formal_agreement", "Meet_at_a_'third'_location", "Discuss_by_telephone"}
)
SHAPES = ("count", "yesno", "list", "most", "relations", "window", "nth", "unanswerable")
ASKS = ("number", "yesno", "entity", "time", "relation")
SHAPE_ASKS = {"count": "number", "yesno": "yesno", "relations": "relation"}  # shapes that fix the ask
GRANULARITY_CHARS = {"day": 10, "month": 7, "year": 4}
COUNTRY_MIN_SECTORS = 5
STATE_BODIES = ("Government", "Ministry", "Foreign_Affairs", "Police", "Cabinet", "Domestic_Affairs")
_QUALIFIED = re.compile(r"^(.+)_\(([^()]+)\)$")
_FACT_COLUMNS = ["head", "tail", "day"]


class SpecError(ValueError):
    """A spec that cannot be computed: `code` is a short reason, `detail` may name what was wrong."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


@dataclass
class KG:
    """The KG's facts grouped by relation (head, tail, day as ISO text), and its names."""

    by_relation: dict[str, pd.DataFrame]
    entities: frozenset[str]
    countries: frozenset[str]

    @property
    def relations(self) -> frozenset[str]:
        return frozenset(self.by_relation)


def load_kg(path: Path) -> KG:
    """Read `head<TAB>relation<TAB>tail<TAB>YYYY-MM-DD` lines."""
    facts = pd.read_csv(path, sep="\t", header=None, names=["head", "relation", "tail", "day"], dtype=str,
                        keep_default_na=False, quoting=3)
    by_relation = {str(r): group[_FACT_COLUMNS].reset_index(drop=True) for r, group in facts.groupby("relation")}
    entities = frozenset(facts["head"]) | frozenset(facts["tail"])
    return KG(by_relation, entities, countries_of(entities))


def countries_of(entities: frozenset[str]) -> frozenset[str]:
    """The entities that qualify at least COUNTRY_MIN_SECTORS others, a state body among them."""
    sectors: dict[str, set[str]] = {}
    for name in entities:
        match = _QUALIFIED.match(name)
        if match:
            sectors.setdefault(match.group(2), set()).add(match.group(1))
    return frozenset(
        qualifier for qualifier, names in sectors.items()
        if qualifier in entities and len(names) >= COUNTRY_MIN_SECTORS
        and any(body in name for name in names for body in STATE_BODIES)
    )


# -- matching facts ---------------------------------------------------------------------------

def oriented(kg: KG, relation: str) -> pd.DataFrame:
    """The facts of `relation` seen from its head: its own, its mirror's reversed, and, for a
    symmetric relation, its own reversed too."""
    frames = [kg.by_relation.get(relation, pd.DataFrame(columns=_FACT_COLUMNS))]
    reverse = [MIRRORS[relation]] if relation in MIRRORS else [relation] if relation in SYMMETRIC else []
    for other in reverse:
        if other in kg.by_relation:
            flipped = kg.by_relation[other].rename(columns={"head": "tail", "tail": "head"})
            frames.append(flipped[_FACT_COLUMNS])
    return pd.concat(frames, ignore_index=True)


def facts_of(kg: KG, relations: Sequence[str], head: str | None, tail: str | None) -> pd.DataFrame:
    """Distinct (head, tail, day) of the facts of `relations` with the given sides."""
    frame = pd.concat([oriented(kg, r) for r in relations], ignore_index=True)
    if head is not None:
        frame = frame[frame["head"] == head]
    if tail is not None:
        frame = frame[frame["tail"] == tail]
    return frame.drop_duplicates()


def within_time(frame: pd.DataFrame, spec: dict, kg: KG) -> pd.DataFrame:
    """The rows whose day satisfies the window, after / before and the reference event."""
    days = frame["day"]
    keep = pd.Series(True, index=frame.index)
    window = spec.get("window")
    if window:
        keep &= (days >= window["from"]) & (days <= window["to"])
    if spec.get("after"):
        keep &= days > spec["after"]
    if spec.get("before"):
        keep &= days < spec["before"]
    reference = spec.get("reference")
    if reference:
        first = reference_day(kg, reference)
        keep &= days > first if reference["direction"] == "after" else days < first
    return frame[keep]


def reference_day(kg: KG, reference: dict) -> str:
    """The first day of the reference event, over the whole KG."""
    facts = facts_of(kg, [reference["relation"]], reference.get("head"), reference.get("tail"))
    if facts.empty:
        raise SpecError("reference_not_in_kg", f"{reference.get('head')} {reference['relation']} {reference.get('tail')}")
    return str(facts["day"].min())


def in_role(frame: pd.DataFrame, spec: dict, kg: KG) -> pd.DataFrame:
    """The rows whose asked-role entity passes entity_type and except."""
    role = spec.get("asked")
    if role not in ("head", "tail"):
        return frame
    keep = ~frame[role].isin(set(spec.get("except") or []))
    if spec.get("entity_type") == "country":
        keep &= frame[role].isin(kg.countries)
    return frame[keep]


def matching(kg: KG, spec: dict) -> pd.DataFrame:
    """Every matching (head, tail, day), oriented as the spec reads it."""
    frame = facts_of(kg, spec["relations"], spec.get("head"), spec.get("tail"))
    return in_role(within_time(frame, spec, kg), spec, kg)


# -- answers ----------------------------------------------------------------------------------

def display(name: str) -> str:
    """A KG name as the questions write it: underscores are spaces."""
    return " ".join(name.replace("_", " ").split())


def nth_day(frame: pd.DataFrame, ordinal: dict) -> str | None:
    """The n-th distinct day from the start or the end (None when there are fewer)."""
    days = sorted(set(frame["day"]), reverse=ordinal["from"] == "end")
    n = ordinal["n"]
    return days[n - 1] if n <= len(days) else None


def extreme_values(frame: pd.DataFrame, column: str, extreme: str) -> list[str]:
    """The values of `column` with the most (or fewest) distinct days, every tie."""
    if frame.empty:
        return []
    counts = frame.groupby(column)["day"].nunique()
    best = counts.max() if extreme == "most" else counts.min()
    return [str(v) for v in counts[counts == best].index]


def entity_answers(frame: pd.DataFrame, spec: dict) -> list[str]:
    role = spec["asked"]
    if spec.get("ordinal"):
        day = nth_day(frame, spec["ordinal"])
        frame = frame[frame["day"] == day]
    if spec.get("extreme"):
        return sorted(display(e) for e in extreme_values(frame, role, spec["extreme"]))
    return sorted({display(e) for e in frame[role]})


def time_answers(frame: pd.DataFrame, spec: dict) -> list[str]:
    width = GRANULARITY_CHARS[spec["granularity"]]
    if spec.get("ordinal"):
        day = nth_day(frame, spec["ordinal"])
        return [] if day is None else [day[:width]]
    periods = frame.assign(period=frame["day"].str[:width])
    if spec.get("extreme"):  # periods ranked by their distinct matching days
        return sorted(extreme_values(periods, "period", spec["extreme"]))
    return sorted(set(periods["period"]))


def relation_answers(kg: KG, spec: dict) -> list[str]:
    """The distinct relations of the facts between head and tail, either direction, in time."""
    head, tail = spec["head"], spec["tail"]
    pairs = [facts[((facts["head"] == head) & (facts["tail"] == tail)) | ((facts["head"] == tail) & (facts["tail"] == head))]
             .assign(relation=relation) for relation, facts in kg.by_relation.items()]
    return sorted({display(r) for r in within_time(pd.concat(pairs, ignore_index=True), spec, kg)["relation"]})


def answers_of(kg: KG, spec: dict) -> list[str]:
    """The gold answers of a valid answerable spec."""
    ask = spec["ask"]
    if ask == "relation":
        return relation_answers(kg, spec)
    frame = matching(kg, spec)
    if ask == "yesno":
        return ["Yes" if not frame.empty else "No"]
    if ask == "number":
        if spec["count"] == "days":
            return [str(frame["day"].nunique())]
        return [str(frame[spec["asked"]].nunique())]
    if ask == "time":
        return time_answers(frame, spec)
    return entity_answers(frame, spec)


def gold_record(kg: KG, record: dict) -> dict:
    """The record with its gold: answers, answer_type, is_list, abstain, time_level."""
    if record["shape"] == "unanswerable":
        return {**record, "answers": [], "answer_type": "none", "is_list": False, "abstain": True, "time_level": None}
    spec = record["spec"]
    ask = spec["ask"]
    answers = answers_of(kg, spec)
    if not answers:
        raise SpecError("empty_gold", "nothing in the KG matches the spec")
    is_list = ask == "relation" or (ask == "entity" and bool(spec.get("list")))
    time_level = spec["granularity"] if ask == "time" else None
    return {**record, "answers": answers, "answer_type": ask, "is_list": is_list, "abstain": False, "time_level": time_level}


# -- validation -------------------------------------------------------------------------------

def validate(record: object, kg: KG) -> None:
    """Raise SpecError when the record cannot be computed as SPEC.md describes it."""
    if not isinstance(record, dict):
        raise SpecError("not_an_object")
    for key in ("id", "shape", "question"):
        if not record.get(key):
            raise SpecError("missing_field", key)
    if record["shape"] not in SHAPES:
        raise SpecError("unknown_shape", str(record["shape"]))
    if record["shape"] == "unanswerable":
        return
    spec = record.get("spec")
    if not isinstance(spec, dict):
        raise SpecError("missing_field", "spec")
    _validate_ask(record["shape"], spec)
    _validate_names(spec, kg)
    _validate_times(spec)
    _validate_order(spec)


def _validate_ask(shape: str, spec: dict) -> None:
    ask = spec.get("ask")
    if ask not in ASKS:
        raise SpecError("bad_ask", str(ask))
    if SHAPE_ASKS.get(shape, ask) != ask:
        raise SpecError("shape_ask_mismatch", f"shape {shape} with ask {ask}")
    asked = spec.get("asked")
    if asked not in ("head", "tail", None):
        raise SpecError("bad_asked", str(asked))
    if ask == "number" and spec.get("count") not in ("days", "entities"):
        raise SpecError("bad_count", str(spec.get("count")))
    needs_role = ask == "entity" or (ask == "number" and spec.get("count") == "entities")
    if needs_role and asked is None:
        raise SpecError("missing_field", "asked")
    if asked is not None and spec.get(asked) is not None:
        raise SpecError("asked_side_named", f"{asked} is asked but given as {spec.get(asked)}")
    if ask == "relation" and (spec.get("head") is None or spec.get("tail") is None):
        raise SpecError("missing_field", "head and tail")
    if ask == "time" and spec.get("granularity") not in GRANULARITY_CHARS:
        raise SpecError("bad_granularity", str(spec.get("granularity")))
    if spec.get("entity_type") not in ("country", None):
        raise SpecError("bad_entity_type", str(spec.get("entity_type")))


def _validate_names(spec: dict, kg: KG) -> None:
    relations = spec.get("relations")
    if spec["ask"] != "relation":
        if not isinstance(relations, list) or not relations:
            raise SpecError("missing_field", "relations")
        _known_relations(relations, kg)
    entities = [spec.get("head"), spec.get("tail"), *(spec.get("except") or [])]
    reference = spec.get("reference")
    if reference is not None:
        if not isinstance(reference, dict) or reference.get("direction") not in ("before", "after"):
            raise SpecError("bad_reference", "needs relation, head / tail and direction before|after")
        _known_relations([reference.get("relation")], kg)
        entities += [reference.get("head"), reference.get("tail")]
    for name in entities:
        if name is not None and name not in kg.entities:
            raise SpecError("unknown_entity", str(name))


def _known_relations(relations: list, kg: KG) -> None:
    for relation in relations:
        if relation not in kg.by_relation:
            raise SpecError("unknown_relation", str(relation))


def _validate_times(spec: dict) -> None:
    window = spec.get("window")
    if window is not None:
        if not isinstance(window, dict):
            raise SpecError("bad_window", "not an object with from and to")
        start, end = _day(window.get("from"), "window.from"), _day(window.get("to"), "window.to")
        if start > end:
            raise SpecError("bad_window", f"{start} after {end}")
    for key in ("after", "before"):
        if spec.get(key) is not None:
            _day(spec[key], key)


def _day(value: object, what: str) -> date:
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise SpecError("bad_date", f"{what} = {value!r}") from None


def _validate_order(spec: dict) -> None:
    ordinal, extreme = spec.get("ordinal"), spec.get("extreme")
    if ordinal is not None and extreme is not None:
        raise SpecError("ordinal_and_extreme")
    if (ordinal is not None or extreme is not None) and spec["ask"] not in ("entity", "time"):
        raise SpecError("unsupported", f"ordinal / extreme with ask {spec['ask']}")
    if ordinal is not None:
        n = ordinal.get("n") if isinstance(ordinal, dict) else None
        if not isinstance(n, int) or isinstance(n, bool) or n < 1 or ordinal.get("from") not in ("start", "end"):
            raise SpecError("bad_ordinal", str(ordinal))
    if extreme not in ("most", "least", None):
        raise SpecError("bad_extreme", str(extreme))


# -- files ------------------------------------------------------------------------------------

@dataclass
class Problem:
    """A record left out (or only worth a warning): where, which id, and why."""

    source: str
    record_id: str
    code: str
    detail: str = ""

    def line(self) -> str:
        """One report line; held files get the id and the code only."""
        if self.source.endswith("_held.json") or not self.detail:
            return f"{self.source}\t{self.record_id}\t{self.code}"
        return f"{self.source}\t{self.record_id}\t{self.code}\t{self.detail}"


@dataclass
class Golds:
    records: list[dict] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def shape_counts(self) -> dict[str, int]:
        return dict(sorted(Counter(r["shape"] for r in self.records).items()))

    def writer_counts(self) -> dict[str, int]:
        return dict(sorted(Counter(str(r.get("writer")) for r in self.records).items()))

    def problem_counts(self) -> tuple[dict[str, int], dict[str, int]]:
        """(records left out, warnings) per reason code."""
        codes = Counter(p.code for p in self.problems)
        skipped = {c: n for c, n in sorted(codes.items()) if not c.startswith("warning")}
        return skipped, {c: n for c, n in sorted(codes.items()) if c.startswith("warning")}


def compute_golds(sources: Sequence[tuple[str, list]], kg: KG) -> Golds:
    """Golds of every record of every (source name, records) pair, in order; duplicate ids after
    the first, invalid specs and empty golds are reported instead."""
    golds = Golds()
    seen: set[str] = set()
    for source, records in sources:
        for index, record in enumerate(records):
            record_id = str(record.get("id") or f"#{index}") if isinstance(record, dict) else f"#{index}"
            try:
                validate(record, kg)
                if record_id in seen:
                    raise SpecError("duplicate_id")
                golds.records.append(gold_record(kg, record))  # type: ignore[arg-type]
            except SpecError as exc:
                golds.problems.append(Problem(source, record_id, exc.code, exc.detail))
                continue
            except (KeyError, TypeError, AttributeError) as exc:  # a field of the wrong kind
                golds.problems.append(Problem(source, record_id, "malformed", f"{type(exc).__name__}: {exc}"))
                continue
            seen.add(record_id)
            golds.problems += [Problem(source, record_id, code) for code in warnings_of(kg, record)]  # type: ignore[arg-type]
    return golds


def warnings_of(kg: KG, record: dict) -> list[str]:
    """Codes of what is computed but may not be what the wording means (the record is kept)."""
    if record["shape"] == "unanswerable":
        return [] if record.get("missing") else ["warning_no_missing_reason"]
    spec = record["spec"]
    if spec["ask"] == "entity" and spec.get("ordinal") and nth_repeats(matching(kg, spec), spec):
        return ["warning_nth_day_entity_seen_before"]
    return []


def nth_repeats(frame: pd.DataFrame, spec: dict) -> bool:
    """Whether an entity of the n-th day already appears on an earlier day of the count: "the third
    to praise X" then differs by days (the gold) and by new entities."""
    role, ordinal = spec["asked"], spec["ordinal"]
    day = nth_day(frame, ordinal)
    if day is None:
        return False
    earlier = frame["day"] < day if ordinal["from"] == "start" else frame["day"] > day
    return bool(set(frame.loc[frame["day"] == day, role]) & set(frame.loc[earlier, role]))


def read_sources(paths: Sequence[Path]) -> list[tuple[str, list]]:
    """(file name, its list of records) per file; a file that is no JSON list is an error."""
    sources = []
    for path in paths:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(data, list):
            raise SystemExit(f"{path}: expected a JSON list of records")
        sources.append((Path(path).name, data))
    return sources


def report(golds: Golds) -> str:
    """The problems, one a line, then what was left out and kept, per reason, shape and writer."""
    skipped, warnings = golds.problem_counts()
    lines = [problem.line() for problem in golds.problems]
    lines.append(f"left out {sum(skipped.values())} records: {_counts(skipped)}; warnings {sum(warnings.values())}: {_counts(warnings)}")
    lines.append(f"kept {len(golds.records)} records; per shape: {_counts(golds.shape_counts())}")
    lines.append(f"per writer: {_counts(golds.writer_counts())}")
    return "\n".join(lines) + "\n"


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{key} {n}" for key, n in counts.items()) or "none"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kg", type=Path, required=True, help="the KG's TSV (head, relation, tail, day)")
    parser.add_argument("--in", dest="inputs", type=Path, nargs="+", required=True, help="spec files (JSON lists)")
    parser.add_argument("--out", type=Path, required=True, help="where to write the records with their golds")
    parser.add_argument("--report", type=Path, help="also write the problems and counts here")
    args = parser.parse_args(argv)
    golds = compute_golds(read_sources(args.inputs), load_kg(args.kg))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_json(args.out, golds.records, indent=1, ensure_ascii=False)
    text = report(golds)
    sys.stderr.write(text)
    if args.report is not None:
        args.report.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
