"""Prompts in the reference ARI layout, shared by every LLM decider (remote or in-process)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agents.state import AgentState

TASK = (
    "You answer a question by acting on a temporal knowledge graph (KG). At each step you choose exactly "
    "one action from the candidate actions. Actions return lists of (entity, time) items; later actions "
    "may refer to the result of step k as #k. Finish with answer(#k) on the step whose result answers "
    "the question."
)

ACTION_DEFINITIONS = """\
getHeadEntity(tail, relation, time?): entities that did <relation> to <tail> (in <time>, or in the same period as step #k).
getTailEntity(head, relation, time?): entities that <head> did <relation> to (in <time>, or in the same period as #k).
getTime(head, relation, tail): the times at which <head> did <relation> to <tail>.
getBefore(#j, reference): items of step j strictly before the reference time (a time, or the earliest time of step #k).
getAfter(#j, reference): items of step j strictly after the reference time.
getBetween(#j, t1, t2): items of step j between t1 and t2 inclusive.
getFirst(#j): the earliest items of step j (all ties).
getLast(#j): the latest items of step j (all ties).
answer(#j): answer the question with the entities (or times) of step j."""

REPLY_FORMAT = "Reply with exactly two lines:\nAction: $<one candidate action, copied exactly>$\nReason: <one sentence>"

JUDGE_FORMAT = (
    "Judge whether the KG can support an answer before any action is taken. Write an answerability block:\n"
    "Entities: <are the question's entities in the KG?>\n"
    "Relation: <does a fact link them through the asked relation?>\n"
    "Time: <is the asked time inside the KG's range?>\n"
    "Conclusion: ANSWERABLE or UNANSWERABLE"
)


def _summarise(result_size: int, preview: list[str]) -> str:
    shown = ", ".join(preview[:5])
    more = f" (+{result_size - 5} more)" if result_size > 5 else ""
    return f"{result_size} items: {shown}{more}" if result_size else "no items"


def decision_messages(state: "AgentState", max_candidates: int | None = None) -> list[dict]:
    """The chat messages for one decision: task, actions, methodology, history, candidates, format."""
    parts = [TASK, "Action definitions:\n" + ACTION_DEFINITIONS]
    if state.methodology is not None and getattr(state.methodology, "text", ""):
        parts.append("Methodology for this kind of question:\n" + state.methodology.text)
    parts.append(f"Question: {state.question}")
    if state.records:
        history = []
        for record, result in zip(state.records, state.results):
            preview = [_item_text(i) for i in result]
            history.append(f"Step {record.step}: {record.chosen} -> {_summarise(len(result), preview)}")
        parts.append("Previous actions:\n" + "\n".join(history))
    candidates = state.candidates[:max_candidates] if max_candidates else state.candidates
    listing = "\n".join(f"{i + 1}. {c.rendering}" for i, c in enumerate(candidates))
    parts.append("Candidate actions:\n" + listing)
    parts.append(REPLY_FORMAT)
    messages = [{"role": "user", "content": "\n\n".join(parts)}]
    return messages


def judge_messages(state: "AgentState", audit_lines: list[str]) -> list[dict]:
    text = "\n\n".join(
        [
            TASK,
            f"Question: {state.question}",
            "What the KG shows:\n" + "\n".join(f"- {line}" for line in audit_lines),
            JUDGE_FORMAT,
        ]
    )
    return [{"role": "user", "content": text}]


def _item_text(item) -> str:
    if item.entity is not None:
        return item.entity if item.start is None else f"{item.entity} ({item.start})"
    return str(item.start)
