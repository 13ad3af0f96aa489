"""Methodology induction: how to solve a kind of question, learnt from the attempts themselves.

ARI's knowledge-agnostic half. A cluster holds traces of questions with the same shape; what they
share is not their entities but their *abstract program*, the entity-free sequence of actions
(`getTime(E1, R, E2) -> getHeadEntity(E2, R) -> getAfter(#2, #1) -> getFirst(#3) -> answer(#4)`).
Without an LLM the methodology is read off the traces:

1. group the labelled traces of the cluster by program;
2. a program's success rate is correct / all traces that followed it in the cluster, so a program
   that only works by luck on a few questions is not mistaken for the method;
3. rank by Laplace-smoothed success rate x support: (c + 1) / (n + 2) * c. Smoothing keeps a
   program seen once and right once from outranking one right 40 times out of 45; multiplying by c
   prefers what has been shown to work often;
4. programs that never succeeded are pitfalls: negative examples the decider should avoid;
5. render all of it as the same two-part text an LLM would write ("Overall Instruction" +
   "Step-by-step Guide"), entity-free, so the offline decider (which reads the programs) and an LLM
   decider (which reads the text) are guided by one methodology.

With an LLM the text comes from the reference summarisation prompt (correct and incorrect samples
in, methodology out), sent through a `complete(prompt) -> str` callable given by the caller; the
programs and pitfalls are still the induced ones.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable

from actions.programs import Program, describe_step
from ari.base.config import MemoryConfig
from memory.trace import Trace
from memory.types import Methodology, ProgramStat

LABELLED = ("correct", "wrong", "abstained")
# what a methodology keeps: the values and why are in ari/base/config.py (MemoryConfig)
MAX_PROGRAMS = MemoryConfig.max_programs
MAX_EXEMPLARS = MemoryConfig.max_exemplars
MAX_PITFALLS = MemoryConfig.max_pitfalls


def program_stats(traces: list[Trace]) -> tuple[list[ProgramStat], list[ProgramStat]]:
    """(programs that succeeded, best first; pitfalls, most often failed first) over labelled traces."""
    correct: Counter[tuple[str, ...]] = Counter()
    total: Counter[tuple[str, ...]] = Counter()
    solved: dict[tuple[str, ...], Counter[str]] = defaultdict(Counter)
    for trace in traces:
        program = trace.program.texts
        if not program or trace.outcome not in LABELLED:
            continue  # unlabelled attempts say nothing about what works
        total[program] += 1
        correct[program] += trace.outcome == "correct"
        if trace.outcome == "correct":
            solved[program][trace.masked_question] += 1

    def score(p: tuple[str, ...]) -> float:
        c, n = correct[p], total[p]
        return (c + 1) / (n + 2) * c

    def stat(p: tuple[str, ...], support: int) -> ProgramStat:
        exemplars = tuple(q for q, _ in solved[p].most_common(MAX_EXEMPLARS))
        return ProgramStat(Program.parse(p), support, round(correct[p] / total[p], 4), exemplars)

    good = sorted((p for p in total if correct[p]), key=lambda p: (-score(p), -correct[p], len(p), p))
    bad = sorted((p for p in total if not correct[p]), key=lambda p: (-total[p], len(p), p))
    return [stat(p, correct[p]) for p in _with_every_kind(good)], [stat(p, total[p]) for p in bad[:MAX_PITFALLS]]


def _with_every_kind(good: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The best MAX_PROGRAMS programs, and the best one of each kind (its set of templates) they
    leave out: a kind of question that is rare in a cluster (a count among many "who" questions)
    keeps a program, where ranking by support alone would drop every program that answers it."""
    kept = good[:MAX_PROGRAMS]
    kinds = {_kind(p) for p in kept}
    for program in good[MAX_PROGRAMS:]:
        if _kind(program) not in kinds:
            kinds.add(_kind(program))
            kept.append(program)
    return kept


def _kind(program: tuple[str, ...]) -> frozenset[str]:
    """Its templates, each with the literals that change what it answers: a count of days and a
    count of distinct entities, or a country filter, answer different questions."""
    steps = Program.parse(program).steps
    return frozenset(" ".join((step.template, *(a for a in step.args if not _symbolic(a)))) for step in steps)


def _symbolic(argument: str) -> bool:
    """A role, time, relation or ordinal of the question (`E1`, `T2`, `R`, `N`) or an earlier result (`#2`)."""
    return argument in ("R", "N", "E?") or (argument[:1] in "ET#" and argument[1:].isdigit()) or argument == "T"


def induce(cluster_id: int, traces: list[Trace]) -> Methodology:
    """The methodology of one cluster (or of the whole history, cluster -1), without an LLM."""
    programs, pitfalls = program_stats(traces)
    text = render(programs, pitfalls, traces)
    return Methodology(cluster_id=cluster_id, text=text, programs=programs, pitfalls=pitfalls, source="induced")


def render(programs: list[ProgramStat], pitfalls: list[ProgramStat], traces: list[Trace]) -> str:
    """The two-part methodology text, in words, with each step's signature for the offline decider."""
    lines = ["Overall Instruction:", _overview(traces)]
    if programs:
        best = programs[0]
        lines.append(
            f"Solve them with this {len(best.program)}-step program, which was right {best.support} times "
            f"({best.success_rate:.0%} of the attempts that followed it here): {best.program.render()}."
        )
        for alt in programs[1:]:
            lines.append(f"If a step finds nothing, an alternative that also worked ({alt.support} times, "
                         f"{alt.success_rate:.0%}): {alt.program.render()}.")
    else:
        lines.append("No attempt at these questions has succeeded yet: look up the facts that link the question's "
                     "entities through its relation, apply its time constraint, and abstain when nothing supports an answer.")
    for pit in pitfalls:
        lines.append(f"Pitfall, failed {pit.support} times and never right here: {pit.program.render()}.")
    lines.append("")
    lines.append("Step-by-step Guide:")
    if programs:
        lines += [f"{i}. {describe_step(step)} [{step}]" for i, step in enumerate(programs[0].program, 1)]
    else:
        lines.append("1. Find the facts that match the question's entities and relation, then filter them by its time "
                     "constraint; answer only from what is found.")
    return "\n".join(lines)


def _overview(traces: list[Trace]) -> str:
    """One sentence on what the questions look like: two common shapes, type and answer kind."""
    shapes = [q for q, _ in Counter(t.masked_question for t in traces).most_common(2)]
    qtype = _majority(t.qtype for t in traces)
    answer = _majority(t.answer_type for t in traces)
    examples = " / ".join(f'"{s}"' for s in shapes) or "(no examples)"
    kind = f" ({qtype} questions" + (f" asking for {'a time' if answer == 'time' else 'an entity'})" if answer else ")") if qtype else ""
    return f"These questions look like {examples}{kind}."


def _majority(values) -> str | None:  # noqa: ANN001
    counts = Counter(v for v in values if v)
    return counts.most_common(1)[0][0] if counts else None


# -- with an LLM ---------------------------------------------------------------------------------

SUMMARY_PROMPT = """Study the correct and incorrect attempts below at one type of temporal question over a knowledge graph. \
Work out what the correct attempts have in common and where the incorrect ones went wrong, and write a methodology \
for this type of question: the key steps, which action to use at each step and why, and the pitfalls to avoid.

Actions available to the solver:
- getHeadEntity(TAIL, RELATION, TIME?): subjects of facts with this relation and object, optionally at a time.
- getTailEntity(HEAD, RELATION, TIME?): objects of facts with this subject and relation, optionally at a time.
- getTime(HEAD, RELATION, TAIL): the times of the facts linking two entities.
- getBefore(STEP, TIME) / getAfter(STEP, TIME): results of an earlier step strictly before / after a time.
- getBetween(STEP, START, END): results of an earlier step inside a time range.
- getFirst(STEP) / getLast(STEP): the earliest / latest results of an earlier step.
- answer(STEP): give the entities (or times) of an earlier step as the answer.
In abstract programs E1, E2 are the question's entities in order of mention, R its relation, T its time and #k the result of step k.

Programs that worked for this type of question (support, success rate):
{programs}

Correct samples:
{correct}

Incorrect samples:
{incorrect}
(end of samples)

Write a methodology for the type of question, not for any one sample: name no entities and no dates. \
Use exactly this format:

Overall Instruction:
<what this type of question asks and how to approach it>

Step-by-step Guide:
1. <step: which action to use and why>
2. ...
"""


def summary_prompt(traces: list[Trace], programs: list[ProgramStat], samples: int = 5) -> str:
    """The reference summarisation prompt for one cluster: up to `samples` distinct correct and
    incorrect attempts."""
    correct = distinct_samples([t for t in traces if t.outcome == "correct"], samples)
    incorrect = distinct_samples([t for t in traces if t.outcome in ("wrong", "abstained")], samples)
    listed = "\n".join(f"- {p.program.render()} ({p.support}, {p.success_rate:.0%})" for p in programs) or "- none yet"
    return SUMMARY_PROMPT.format(
        programs=listed,
        correct="\n\n".join(_sample(t) for t in correct) or "(none)",
        incorrect="\n\n".join(_sample(t) for t in incorrect) or "(none)",
    )


def distinct_samples(traces: list[Trace], samples: int) -> list[Trace]:
    """Up to `samples` traces of different questions, spread over the question shapes (masked
    questions) and programs: a cluster often holds one question many times (learning runs and
    program search record it again), and five copies of it teach a model nothing."""
    seen_questions: set[str] = set()
    by_shape: dict[tuple[str, tuple[str, ...]], list[Trace]] = defaultdict(list)
    for trace in traces:
        if trace.question in seen_questions:
            continue
        seen_questions.add(trace.question)
        by_shape[(trace.masked_question, trace.program.texts)].append(trace)
    chosen: list[Trace] = []
    queues = list(by_shape.values())
    while len(chosen) < samples and any(queues):
        for queue in queues:  # one of each shape and program before a second of any
            if queue and len(chosen) < samples:
                chosen.append(queue.pop(0))
    return chosen


def _sample(trace: Trace) -> str:
    lines = [f"Question: {trace.question}"]
    for s in trace.steps:
        lines.append(f"Action {s.step}: {s.chosen or s.abstract} -> {s.result_size} results")
    answer = "abstained" if trace.abstained or not trace.answers else ", ".join(trace.answers[:3])
    lines.append(f"Answer: {answer} ({trace.outcome})")
    return "\n".join(lines)


def with_llm(induced: Methodology, traces: list[Trace], complete: Callable[[str], str]) -> Methodology:
    """Replace the induced text with the LLM's; keep the induced programs and pitfalls.

    A reply without a step-by-step part gets the induced guide appended, so the methodology keeps
    its two-part form whatever the model wrote.
    """
    reply = complete(summary_prompt(traces, induced.programs)).strip()
    start = reply.find("Overall Instruction")
    text = reply[start:] if start >= 0 else f"Overall Instruction:\n{reply}"
    if "Step-by-step Guide" not in text:
        text += "\n\n" + induced.text[induced.text.index("Step-by-step Guide:"):]
    return Methodology(induced.cluster_id, text, induced.programs, induced.pitfalls, source="llm")


def group_by_cluster(labels: list[int], traces: list[Trace]) -> dict[int, list[Trace]]:
    groups: dict[int, list[Trace]] = defaultdict(list)
    for label, trace in zip(labels, traces):
        groups[int(label)].append(trace)
    return dict(groups)
