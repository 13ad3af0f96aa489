"""Label audit of a set with answerable twins (`ari bench make-unanswerable`, issue 12): which twins
does no gold answer of survive the answer check?

A twin is labelled answerable with the answers its facts give. The audit analyses each twin as the
agent does and runs the answer check (`agents.faithfulness.check_answers`) on its gold answers,
without solving anything: a twin whose every gold answer is rejected is either labelled against
its wording (a generator bug: the gold comes from a fact in the other direction, or about another
entity than the one written) or read wrongly by the analysis (a wrong link, a wrong role). Either
way it is worth reading before its run is; the audit prints them with the analysis' links, so the
two can be told apart by eye.

    python -m benchmarks.twin_audit SET.json [SET.json ...] --db STORE [--kinds no_event_pair,...] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from agents.analysis.analyzer import QuestionAnalyzer
from agents.faithfulness import check_answers
from ari.base.embedding import get_embedder
from benchmarks.results_io import write_json
from tkg_store.store import TKGStore


def audit(records: list[dict], analyzer: QuestionAnalyzer, store: TKGStore, kinds: set[str] | None = None) -> list[dict]:
    """The twins (of `kinds`, all when None) no gold answer of survives the check, with their links."""
    twins = [r for r in records if r.get("answerable") and str(r.get("quid", "")).endswith("-twin")]
    if kinds is not None:
        twins = [r for r in twins if str(r["quid"]).split("-")[-2] in kinds]
    analyses = analyzer.analyze_batch([r["question"] for r in twins])
    plausible = analyzer.relation_linker.plausible
    flagged = []
    for record, analysis in zip(twins, analyses):
        verdict = check_answers(store, analysis, list(record["answers"]), plausible)
        if verdict.answers:
            continue
        flagged.append({
            "quid": record["quid"],
            "question": record["question"],
            "gold": record["answers"],
            "links": [(m.text, [n for n, _ in m.candidates[:2]]) for m in analysis.entities],
            "relations": [r for r, _ in analysis.relations[:3]],
            "reason": verdict.reason,
        })
    return flagged


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path)
    parser.add_argument("--db", required=True, type=Path)
    parser.add_argument("--kinds", default=None, help="comma-separated twin kinds (default: all)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    kinds = set(args.kinds.split(",")) if args.kinds else None
    with TKGStore.open(args.db) as store:
        analyzer = QuestionAnalyzer(store, get_embedder())
        report = {}
        for path in args.sets:
            records = json.loads(path.read_text(encoding="utf-8"))
            flagged = audit(records, analyzer, store, kinds)
            total = sum(1 for r in records if r.get("answerable") and str(r.get("quid", "")).endswith("-twin"))
            report[str(path)] = {"twins": total, "flagged": flagged}
            print(f"{path}: {len(flagged)} of {total} twins have no gold answer the check accepts", file=sys.stderr)
            for row in flagged:
                print(json.dumps(row, ensure_ascii=False))
    if args.out:
        write_json(args.out, report, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
