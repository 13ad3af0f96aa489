"""What following the wording of a referred event costs on MultiTQ: two runs side by side, and which
direction the after_first / before_last golds follow.

"Who was the first to criticise {E1} after {E2}?" refers to E2 criticising E1, and asks who
criticised E1 first after that: with E1 the object, the faithful program is
getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getAfter(#2, #1) -> getFirst(#3). Two readings
reverse it: the *direction* reversed (E1 the subject: getTime(E1, R, E2) -> getTailEntity(E1, R),
whom E1 criticised first after criticising E2) and the *roles* reversed (E1 and E2 swapped:
getTime(E1, R, E2) -> getHeadEntity(E2, R), who criticised E2 first after E1 did). Each question's
three programs are bound as the planner binds (`agents.planner.bind_program`) and their first
answers compared with the gold; a gold that a reversed reading gives and the faithful one does not
follows the reversed direction. Which of head / tail the wording asks for comes from the answer
check's reading (`agents.analysis.clause_roles.head_role` and the clause role of E1); with a symmetric
relation either is faithful (the KG states its facts both ways, so only the roles can be reversed),
and a question whose clause leaves E1's role open ("honoured by {E1}") is counted apart.

    python -m benchmarks.reference_direction --base RUN --branch RUN --db STORE [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from actions.programs import Program
from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.clause_roles import OBJECT, SUBJECT, clause_roles, head_role
from agents.analysis.types import QuestionAnalysis
from agents.answers import ranked_answers
from agents.planner import bind_program
from ari.base.config import PlannerConfig
from ari.base.embedding import get_embedder
from benchmarks.compare import Run, load_runs
from memory.labels import hit
from tkg_store.learned import symmetric_relations
from tkg_store.store import TKGStore

ORDERED = {"after_first": ("getAfter", "getFirst"), "before_last": ("getBefore", "getLast")}
READINGS = ("faithful", "direction_reversed", "roles_reversed")


def outcome_changes(base: Run, branch: Run) -> dict[str, Counter]:
    """Per question type (and "all"): how the branch's outcome differs from the base's."""
    changes: dict[str, Counter] = {}
    for qid, before in base.records.items():
        after = branch.records.get(qid)
        if after is None:
            continue
        kinds = []
        if before.get("hit1") and not after.get("hit1"):
            kinds.append("right_to_wrong")
        if not before.get("hit1") and after.get("hit1"):
            kinds.append("wrong_to_right")
        if not before.get("abstained") and after.get("abstained"):
            kinds.append("answered_to_abstained")
        if before.get("abstained") and not after.get("abstained"):
            kinds.append("abstained_to_answered")
        if not before.get("abstained") and not after.get("abstained") and before.get("answer") != after.get("answer"):
            kinds.append("other_answer")
        for key in ("all", str(before.get("qtype"))):
            changes.setdefault(key, Counter()).update(kinds)
    return changes


def programs(qtype: str, answer_is_head: bool) -> dict[str, Program]:
    """The faithful program of an after_first / before_last question and its two reversals."""
    cut, pick = ORDERED[qtype]
    tail = f"{cut}(#2, #1) -> {pick}(#3) -> answer(#4)"
    head_form = f"getTime(E2, R, E1) -> getHeadEntity(E1, R) -> {tail}"
    tail_form = f"getTime(E1, R, E2) -> getTailEntity(E1, R) -> {tail}"
    faithful, direction = (head_form, tail_form) if answer_is_head else (tail_form, head_form)
    swapped = faithful.replace("E1", "E#").replace("E2", "E1").replace("E#", "E2")
    return {"faithful": Program.parse(faithful), "direction_reversed": Program.parse(direction), "roles_reversed": Program.parse(swapped)}


def answer_is_head(store: TKGStore, analysis: QuestionAnalysis) -> bool | None:
    """Whether the wording puts the answer at the head of its fact (E1 the object); None when it
    cannot tell."""
    role = clause_roles(analysis.masked).get(1)
    relation = analysis.relations[0][0] if analysis.relations else None
    heads = head_role(store, analysis.masked, relation) if relation and role is not None else None
    if heads is None or role not in (SUBJECT, OBJECT):
        return None
    return (role == SUBJECT) != (heads == SUBJECT)


def first_answer(store: TKGStore, analysis: QuestionAnalysis, program: Program) -> str | None:
    plan = bind_program(store, analysis, program, PlannerConfig())
    answers = ranked_answers(store, analysis, plan.results[-1]) if plan is not None else []
    return answers[0] if answers else None


def gold_directions(store: TKGStore, analyzer: QuestionAnalyzer, records: list[dict]) -> tuple[dict[str, Counter], list[str]]:
    """Per question type: which readings give the gold (see the module doc); and the ids of the
    questions whose gold only a reversed reading gives."""
    counts: dict[str, Counter] = {}
    reversed_golds = []
    chosen = [r for r in records if r.get("qtype") in ORDERED]
    for record, analysis in zip(chosen, analyzer.analyze_batch([r["question"] for r in chosen])):
        count = counts.setdefault(record["qtype"], Counter())
        count["questions"] += 1
        head = answer_is_head(store, analysis) if len(analysis.entities) == 2 else None
        if head is None and len(analysis.entities) == 2 and analysis.relations and analysis.relations[0][0] in symmetric_relations(store):
            head = True
            count["symmetric_relation"] += 1
        if head is None:
            count["role_open"] += 1
            continue
        right = {
            name: (answer := first_answer(store, analysis, program)) is not None and hit(answer, record["gold"], record["answer_type"])
            for name, program in programs(record["qtype"], head).items()
        }
        count.update(f"{name}_gives_gold" for name, ok in right.items() if ok)
        if not right["faithful"] and (right["direction_reversed"] or right["roles_reversed"]):
            count["gold_follows_reversed"] += 1
            count.update(f"gold_follows_{name}_only" for name in READINGS[1:] if right[name])
            reversed_golds.append(str(record["qid"]))
    return counts, reversed_golds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="the run of the code before the change")
    parser.add_argument("--branch", type=Path, required=True, help="the run of the code that follows the wording")
    parser.add_argument("--db", type=Path, required=True, help="the store the branch's run used")
    parser.add_argument("--out", type=Path, help="write the figures here as JSON")
    args = parser.parse_args(argv)
    base, branch = load_runs([args.base, args.branch])
    with TKGStore.open(args.db) as store:
        directions, reversed_golds = gold_directions(store, QuestionAnalyzer(store, get_embedder()), list(base.records.values()))
    figures = {
        "hits_at_1": {run.name: {"all": run.summary.get("hits_at_1"), **run.summary.get("by_qtype", {})} for run in (base, branch)},
        "changes": {k: dict(v) for k, v in outcome_changes(base, branch).items()},
        "gold_directions": {k: dict(v) for k, v in directions.items()},
        "gold_follows_reversed": {
            qid: {run.name: "right" if run.records[qid].get("hit1") else "wrong" for run in (base, branch)} for qid in reversed_golds
        },
    }
    text = json.dumps(figures, indent=2, sort_keys=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
