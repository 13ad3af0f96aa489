"""Prompts shared by every LLM decider (remote or in-process): a system prompt that says what the
task and the actions are, and one user message per decision grounded in this question.

Grounding means the model is never left to map the methodology's E1/E2/R/T onto the question by
itself: the prompt gives the program the planner bound to this question, which KG names play E1,
E2, R and T, and the concrete next action that program calls for, marked among the numbered
candidates. Programs that were right too rarely (`LLMConfig.min_program_support`,
`min_program_success`) or never (pitfalls) are not shown as advice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from agents.analysis.query import Query
from ari.base.config import LLMConfig

if TYPE_CHECKING:
    from agents.methodology import Guide
    from agents.state import AgentState
    from memory.types import ProgramStat

TASK = (
    "You answer a question by acting on a temporal knowledge graph (KG). At each step you choose exactly "
    "one action from the numbered candidate actions. Actions return lists of (entity, time) items; later "
    "actions may refer to the result of step k as #k. Finish with answer(#k) on the step whose result "
    "answers the question."
)

ACTION_DEFINITIONS = """\
getHeadEntity(tail, relation, time?): entities that did <relation> to <tail> (in <time>, or in the same period as step #k).
getTailEntity(head, relation, time?): entities that <head> did <relation> to (in <time>, or in the same period as #k).
getTime(head, relation, tail, time?): the times at which <head> did <relation> to <tail> (in <time>: both sides of a visit/hosting counted).
getRelation(e1, e2, time?): what happened between e1 and e2, either way: the relations of their facts.
getBefore(#j, reference): items of step j strictly before the reference time (a time, or the earliest time of step #k).
getAfter(#j, reference): items of step j strictly after the reference time.
getBetween(#j, t1, t2): items of step j between t1 and t2 inclusive.
getDuring(#j, #k): items of step j whose interval meets the interval of some item of step k (held while it held).
getFirst(#j): the earliest items of step j (all ties).
getLast(#j): the latest items of step j (all ties).
getNth(#j, n) / getNthLast(#j, n): the items of step j on its n-th distinct day from the start / from the end.
getMost(#j) / getLeast(#j): the entities of step j on the most / fewest distinct days (all ties).
getMost(#j, year|month) / getLeast(#j, year|month): the items of step j in the years (months) with the most / fewest distinct days (all ties): "which year ... the most".
count(#j, days|entities): how many distinct days, or distinct entities, step j holds.
exists(#j): Yes when step j holds anything, else No.
ofType(#j, country): the items of step j whose entity is a country (not a sector of one).
exclude(#j, entity): the items of step j without that entity.
includes(#j, entity): Yes when that entity is among the items of step j, else No.
answer(#j): answer the question with the entities, times or value (a count, Yes/No, relations) of step j."""

REPLY_FORMAT = (
    'Reply with one JSON object: {"action": <the number of one candidate>, "reason": "<one sentence>"}. '
    "(Also accepted: a line \"Action: <number>\" or the candidate action copied exactly.)"
)

SUGGESTED = "<- suggested by the methodology"

SYSTEM = "\n\n".join([TASK, "Action definitions:\n" + ACTION_DEFINITIONS, REPLY_FORMAT])

JUDGE_FORMAT = (
    "Judge whether the KG can support an answer before any action is taken. Write an answerability block:\n"
    "Entities: <are the question's entities in the KG?>\n"
    "Relation: <does a fact link them through the asked relation?>\n"
    "Time: <is the asked time inside the KG's range?>\n"
    "Conclusion: ANSWERABLE or UNANSWERABLE"
)

Display = Callable[[str], str]


def _plain(name: str) -> str:
    return name.replace("_", " ")


def is_advice(stat: ProgramStat | Guide, config: LLMConfig) -> bool:
    """Whether a program's record makes it advice: right often enough, and more often than not."""
    return stat.support >= config.min_program_support and stat.success_rate >= config.min_program_success


def advised(state: "AgentState", config: LLMConfig) -> bool:
    """Whether the plan's next action is shown to the model as the methodology's suggestion."""
    return state.plan is not None and state.plan.guide is not None and is_advice(state.plan.guide, config)


def bindings_text(state: "AgentState", display: Display = _plain) -> str:
    """`E1 = Iran, E2 = Pervez Musharraf, R = Criticize_or_denounce, T = none` for the plan."""
    bound = dict(state.plan.bindings) if state.plan is not None else {}
    roles = sorted(r for r in bound if r.startswith("E")) or ["E1"]
    parts = [f"{role} = {display(bound[role]) if role in bound else 'none'}" for role in roles]
    parts.append(f"R = {bound.get('R', 'none')}")
    times = [t.text for t in state.analysis.times] if state.analysis is not None else []
    parts.append(f"T = {', '.join(times) if times else 'none'}")
    return ", ".join(parts)


def query_text(query: Query) -> str:
    """The typed query in words: `a number (distinct days); ...` (`agents.analysis.query`)."""
    asked = {"number": f"a number ({query.count})", "yesno": "yes or no", "relation": "the relations between the two entities"}
    parts = [asked.get(query.asks, f"{'every' if query.is_list else 'an'} {query.entity_type or query.asks}")]
    if query.window:
        parts.append("within the window of its two times, both ends included")
    if query.ordinal:
        parts.append(f"the {query.ordinal}-th distinct day{' from the end' if query.from_end else ''}")
    if query.extreme:
        parts.append(f"the {query.extreme} often, by distinct days")
    if query.excluded:
        parts.append("leaving out " + ", ".join(f"E{r}" for r in query.excluded))
    if query.ranked:
        parts.append(f"whether E{query.ranked} is the one placed so")
    return "; ".join(parts)


def _guidance(state: "AgentState", config: LLMConfig, display: Display) -> list[str]:
    """The methodology, as far as it is advice: the bound program and its next action, other
    programs that worked, pitfalls, and a text an LLM wrote for the cluster."""
    parts: list[str] = []
    methodology = state.methodology
    plan, step = state.plan, len(state.actions)
    if plan is not None and plan.guide is not None and advised(state, config):  # advised() implies both
        guide = plan.guide
        lines = [
            f"The methodology for this kind of question suggests this program (right {guide.support} times, "
            f"{guide.success_rate:.0%} of the attempts that followed it): {plan.program.render()}",
            f"Bound to this question: {bindings_text(state, display)}",
        ]
        wanted = plan.next_action(step)
        if wanted is not None:
            lines.append(f"Its next action (step {step + 1}): {wanted.render()} (marked below)")
        parts.append("\n".join(lines))
    if methodology is not None:
        others = [p for p in methodology.programs if is_advice(p, config)]
        if state.plan is not None:
            others = [p for p in others if p.program != state.plan.program]
        if others:
            parts.append("Other programs that solved questions like this one:\n" + "\n".join(
                f"- {p.program.render()} (right {p.support} times, {p.success_rate:.0%})" for p in others[:3]))
        if methodology.pitfalls:
            parts.append("Programs that never solved questions like this one (avoid them):\n" + "\n".join(
                f"- {p.program.render()} (failed {p.support} times)" for p in methodology.pitfalls[:3]))
        if methodology.source == "llm" and methodology.text:
            parts.append("Methodology for this kind of question:\n" + methodology.text)
    return parts


def _summarise(result_size: int, preview: list[str]) -> str:
    shown = ", ".join(preview[:5])
    more = f" (+{result_size - 5} more)" if result_size > 5 else ""
    return f"{result_size} items: {shown}{more}" if result_size else "no items"


def candidate_listing(state: "AgentState", config: LLMConfig) -> str:
    """The numbered candidates, the methodology's suggestion marked (when it is advice)."""
    mark = advised(state, config)
    return "\n".join(
        f"{i}. {c.rendering}" + (f"   {SUGGESTED}" if mark and c.suggested else "")
        for i, c in enumerate(state.candidates, 1)
    )


def decision_messages(state: "AgentState", config: LLMConfig | None = None, display: Display = _plain) -> list[dict]:
    """The chat messages for one decision: the system prompt, then the question, its grounded
    guidance, the steps so far and the numbered candidates."""
    config = config or LLMConfig()
    parts = [f"Question: {state.question}"]
    if state.analysis is not None and state.analysis.query.operations():
        parts.append("What it asks: " + query_text(state.analysis.query))
    parts += _guidance(state, config, display)
    if state.records:
        history = []
        for record, result in zip(state.records, state.results):
            preview = [_item_text(i) for i in result]
            history.append(f"Step {record.step}: {record.chosen} -> {_summarise(len(result), preview)}")
        parts.append("Previous actions:\n" + "\n".join(history))
    parts.append("Candidate actions:\n" + candidate_listing(state, config))
    parts.append(REPLY_FORMAT)
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n\n".join(parts)}]


def judge_messages(state: "AgentState", audit_lines: list[str]) -> list[dict]:
    text = "\n\n".join(
        [
            f"Question: {state.question}",
            "What the KG shows:\n" + "\n".join(f"- {line}" for line in audit_lines),
            JUDGE_FORMAT,
        ]
    )
    return [{"role": "system", "content": TASK}, {"role": "user", "content": text}]


def _item_text(item) -> str:
    if item.entity is not None:
        return item.entity if item.start is None else f"{item.entity} ({item.start})"
    return str(item.start)
