"""Learn the names people use for a KG's entities from labelled questions that say which words name
which entity: CronQuestions records carry a template ("When did {head} first play for {tail}"), the
entity of each slot (`annotation`, a Qid) and the text people read (`paraphrases[0]`), which often
writes an entity by another name than the KG's ("the King of Hip Hop", "President of the Argentine
Nation"). No rule of English names these; only seeing them used teaches them.

    python -m benchmarks.cron_devset ... --ids ids.json      # the development set's uniq_ids per part
    python -m benchmarks.learn_aliases --cron ../shared/data/cronquestions --ids ids.json \
        --out agents/analysis/data/cronquestions_aliases.json

Learned from the complex *valid* questions less those of the development set's check part, which
measures what the names bring to questions never read (as the test split's are: other questions,
often about the same entities); the test split is never read. A name is kept when:
- the text's words in the slot differ from the entity's KG name (case and spacing aside);
- every question that writes it means the same entity (a name used for two is a guess);
- it is no KG name of another entity (a name of its own is read as that entity).
The table also lists the KG's relation names: the reader applies it only to a store whose relations
are all among them (`agents.analysis.aliases.learned_aliases`), as the bundled relation lexicon fits.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from ari.base.text import normalize_name
from benchmarks.cron_devset import read_names
from benchmarks.loaders.safe_pickle import load_plain_pickle
from memory.names import one_meaning, slot_surfaces


def renamed_slots(records: Iterable[dict], labels: dict[str, str]) -> Iterator[tuple[str, str, str]]:
    """(the text people read, the words in a template slot, the Qid the slot is annotated with) wherever the words
    differ from the entity's KG name (`labels`: Qid -> KG name)."""
    for record in records:
        text = str((record.get("paraphrases") or [record.get("question", "")])[0])
        for slot, surface in (slot_surfaces(str(record.get("template", "")), text) or {}).items():
            qid = (record.get("annotation") or {}).get(slot)
            if isinstance(qid, str) and qid in labels and normalize_name(surface) != normalize_name(labels[qid]):
                yield text, surface, qid


def store_name(qid: str, labels: dict[str, str], named: Counter[str]) -> str:
    """The store's name of the entity: its label, or "Label (Qid)" where several entities share the label (`named`:
    how many labels each key is), as a store of the KG writes namesakes."""
    return labels[qid] if named[normalize_name(labels[qid])] == 1 else f"{labels[qid]} ({qid})"


def learned_names(records: Iterable[dict], labels: dict[str, str]) -> dict[str, str]:
    """surface -> the entity's KG name by the rules of the module docstring; `labels`: Qid -> KG name. A label
    several entities share is written "Name (Qid)", so the name never stands for one of them that the questions
    did not mean."""
    named = Counter(normalize_name(label) for label in labels.values())
    uses = ((surface, qid) for _, surface, qid in renamed_slots(records, labels))
    return {surface: store_name(qid, labels, named) for surface, qid in one_meaning(uses).items() if normalize_name(surface) not in named}


def one_entry_a_line(table: dict) -> str:
    """JSON with one entry of each list or mapping a line: a table a person can read and diff."""
    lines = [f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}" for key, value in table.items() if not isinstance(value, (dict, list))]
    for key, value in table.items():
        if isinstance(value, (dict, list)):
            items = [f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}" for k, v in value.items()] if isinstance(value, dict) else [json.dumps(v, ensure_ascii=False) for v in value]
            opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
            lines.append(f"{json.dumps(key)}: {opening}\n" + ",\n".join(items) + f"\n{closing}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cron", required=True, type=Path, help="the CronQuestions folder (kg/, questions/)")
    parser.add_argument("--ids", required=True, type=Path, help="benchmarks.cron_devset's --ids file: its check part is left out")
    parser.add_argument("--out", required=True, type=Path, help="where to write the table (JSON)")
    args = parser.parse_args(argv)
    records = load_plain_pickle(args.cron / "questions" / "complex_valid.pickle")
    if not isinstance(records, list):
        raise SystemExit("complex_valid.pickle: expected a list of records")
    held = {str(uid) for uid in json.loads(args.ids.read_text(encoding="utf-8"))["check"]}
    kept = [r for r in records if isinstance(r, dict) and str(r.get("uniq_id")) not in held]
    names = learned_names(kept, read_names(args.cron / "kg" / "wd_id2entity_text.txt"))
    table = {
        "_about": (
            "Names people used for entities in CronQuestions complex valid questions less the check part of benchmarks/cron_devset, "
            "learned by benchmarks/learn_aliases.py: surface -> KG name (Name (Qid) for a label several entities share). "
            "Applied to a store whose relations are all among `relations`."
        ),
        "relations": sorted(set(read_names(args.cron / "kg" / "wd_id2relation_text.txt").values())),
        "aliases": names,
    }
    args.out.write_text(one_entry_a_line(table), encoding="utf-8")
    print(f"{len(names)} names learned from {len(kept)} questions -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
