"""Write agents/analysis/data/wordnet_verbs.json: each English verb's plainer words, from WordNet 3.0.

A question may name an act with a verb that neither the learned lexicon nor a relation's texts hold
("bankrolled", "haggled"). WordNet, a general-English lexical database, lists for each verb its senses
in order of frequency; the most frequent sense's synonyms and the verb it is a kind of (its direct
hypernym: "haggle" is a kind of "negotiate", "implore" of "request") are the plainer words an embedding
model reads better. Only the first sense is kept: reading a rarer one is guessing.

Built once from WordNet's dictionary files (Debian's wordnet-base puts them in /usr/share/wordnet);
the output is bundled, so nothing reads WordNet at run time. WordNet 3.0 Copyright 2006 by Princeton
University; its licence, which allows redistribution with this notice, is copied into the output.

    python -m benchmarks.wordnet_verbs --wordnet /usr/share/wordnet [--out agents/analysis/data/wordnet_verbs.json]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "agents" / "analysis" / "data" / "wordnet_verbs.json"
LICENCE = (
    "WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. Permission to use, copy, modify and "
    "distribute this software and database and its documentation for any purpose and without fee or royalty is hereby "
    "granted, provided that you agree to comply with the following copyright notice and statements, including the "
    "disclaimer, and that the same appear on ALL copies of the software, database and documentation, including "
    "modifications that you make for internal use or for distribution. THIS SOFTWARE AND DATABASE IS PROVIDED \"AS IS\" "
    "AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. The name of Princeton "
    "University or Princeton may not be used in advertising or publicity pertaining to distribution of the software "
    "and/or database. Title to copyright in this software, database and any associated documentation shall at all "
    "times remain with Princeton University and LICENSEE agrees to preserve same."
)


def _lemma(word: str) -> str:
    return re.sub(r"\(.*\)$", "", word).replace("_", " ").lower()


def synsets(folder: Path) -> dict[str, tuple[list[str], list[str]]]:
    """Verb synset offset -> (its lemmas, the offsets of its verb hypernyms), from data.verb."""
    found = {}
    for line in (folder / "data.verb").read_text(encoding="latin-1").splitlines():
        if line.startswith("  "):
            continue  # the licence header
        fields = line.split(" | ")[0].split()
        count = int(fields[3], 16)
        lemmas = [_lemma(fields[4 + 2 * i]) for i in range(count)]
        at = 4 + 2 * count
        pointers = [fields[at + 1 + 4 * k : at + 5 + 4 * k] for k in range(int(fields[at]))]
        found[fields[0]] = (lemmas, [p[1] for p in pointers if p[0] == "@" and p[2] == "v"])
    return found


def first_senses(folder: Path) -> dict[str, str]:
    """Verb lemma -> the offset of its most frequent sense (index.verb lists senses by frequency)."""
    first = {}
    for line in (folder / "index.verb").read_text(encoding="latin-1").splitlines():
        if line.startswith("  "):
            continue
        fields = line.split()
        first[fields[0].replace("_", " ")] = fields[4 + int(fields[3]) + 2]
    return first


def build(folder: Path) -> dict:
    by_offset, first = synsets(folder), first_senses(folder)
    verbs = {}
    for lemma, offset in sorted(first.items()):
        own, hypernyms = by_offset[offset]
        words = [w for w in own if w != lemma] + [w for h in hypernyms for w in by_offset[h][0][:2]]
        if words:
            verbs[lemma] = list(dict.fromkeys(words))
    forms = {}
    for line in (folder / "verb.exc").read_text(encoding="latin-1").splitlines():
        form, base, *_ = line.split()
        if base.replace("_", " ") in verbs:
            forms[form.replace("_", " ")] = base.replace("_", " ")
    return {
        "_about": "WordNet 3.0: each verb's most frequent sense -> its other lemmas and the first two lemmas of each of its "
        "direct hypernyms; 'forms': irregular inflections -> lemma. Written by benchmarks/wordnet_verbs.py.",
        "_licence": LICENCE,
        "verbs": verbs,
        "forms": forms,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"), help="WordNet 3.0's dict folder")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    data = build(args.wordnet)
    args.out.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(data['verbs'])} verbs, {len(data['forms'])} irregular forms -> {args.out} ({args.out.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
