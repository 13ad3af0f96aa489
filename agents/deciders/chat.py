"""The decision loop shared by LLM deciders: prompt, parse, feed a malformed reply back once.

A backend only implements `complete(messages) -> (text, tokens)`; everything else (prompt layout,
parsing against the enumerated candidates, the JTS verdict) is the same for a remote endpoint and
an in-process model.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agents import prompts
from agents.deciders.base import Decision, Judgement
from ari.base.errors import AriError, DeciderError

if TYPE_CHECKING:
    from agents.state import AgentState

_CONCLUSION = re.compile(r"conclusion\s*:\s*\**\s*(UNANSWERABLE|ANSWERABLE)", re.IGNORECASE)
_REASON = re.compile(r"reason\s*:\s*(.+)", re.IGNORECASE)


class ChatDecider:
    """Base of LLM deciders. Subclasses set `name` and implement `complete`."""

    name = "chat"
    max_candidates: int | None = None

    def complete(self, messages: list[dict]) -> tuple[str, int]:
        raise NotImplementedError

    def choose(self, state: "AgentState") -> Decision:
        from actions.parse import parse_action

        messages = prompts.decision_messages(state, self.max_candidates)
        calls = tokens = 0
        reply = ""
        for attempt in range(2):  # the first reply, then one retry with the parse error fed back
            try:
                reply, used = self.complete(messages)
            except DeciderError as exc:
                return Decision(None, raw=reply, llm_calls=calls, tokens=tokens, error=str(exc))
            calls += 1
            tokens += used
            try:
                chosen = parse_action(reply, state.candidates)
                index = state.candidates.index(chosen)
            except AriError as exc:
                if attempt == 0:
                    messages = messages + [
                        {"role": "assistant", "content": reply},
                        {"role": "user", "content": f"{exc}\n{prompts.REPLY_FORMAT}"},
                    ]
                    continue
                return Decision(None, raw=reply, llm_calls=calls, tokens=tokens, error=f"unparseable reply: {exc}")
            reason = _REASON.search(reply)
            return Decision(index, reason=reason.group(1).strip() if reason else "", raw=reply, llm_calls=calls, tokens=tokens)
        return Decision(None, raw=reply, llm_calls=calls, tokens=tokens, error="no valid reply")

    def judge(self, state: "AgentState", audit: Judgement) -> Judgement:
        """Ask the model for a JTS verdict; code keeps the final say (the model can only add doubt)."""
        if not audit.answerable:
            return audit
        try:
            reply, used = self.complete(prompts.judge_messages(state, audit.audit))
        except DeciderError as exc:
            audit.audit.append(f"LLM judge unavailable ({exc}); the code audit stands")
            return audit
        match = None
        for match in _CONCLUSION.finditer(reply):
            pass  # the last conclusion counts
        audit.raw, audit.llm_calls, audit.tokens = reply, 1, used
        if match and match.group(1).upper() == "UNANSWERABLE":
            audit.answerable = False
            audit.missing = audit.missing or "the model judged that the KG cannot support an answer"
            audit.audit.append("LLM judge: UNANSWERABLE")
        elif match is None:
            audit.audit.append("LLM judge gave no Conclusion line; the code audit stands")
        return audit
