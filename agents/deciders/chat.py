"""The decision loop shared by LLM deciders: prompt, parse, feed a malformed reply back once.

A backend implements `send(messages) -> Reply` (one request) and may override `send_many` (a
batch: vLLM sends the whole batch as one `generate` call). Everything else is the same for a remote
endpoint and an in-process model: the reply cache, the prompts, parsing against the enumerated
candidates, the JTS verdict. How a backend's requests are kept in flight together:
`questions_in_flight` questions advance independently, each on its own thread, and a request gives
the agent's turn away while it waits (`agents.turns`): a remote endpoint gets `LLMConfig.concurrency`
of them. A backend that batches (vLLM) keeps 1: the graph hands it every question of a lockstep step
at once (`choose_many`, `judge_many`).

An endpoint failure (after the client's retries), and a reply that names no offered action even
after it was fed back, are never an answer nor an abstention: the decision comes back `failed`, and
the question's outcome is an error (`agents.graph`): not recorded in the memory, counted apart by
the runner (which retries it on resume), `ari ask` exits 1.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from actions.parse import parse_choice
from agents import prompts
from agents.deciders.base import BaseDecider, Decision, Judgement
from agents.deciders.reply_cache import ReplyCache, cache_key
from agents.turns import waiting
from ari.base.config import LLMConfig
from ari.base.errors import AriError, DeciderError

if TYPE_CHECKING:
    from agents.state import AgentState

_CONCLUSION = re.compile(r"conclusion\s*:\s*\**\s*(UNANSWERABLE|ANSWERABLE)", re.IGNORECASE)
Messages = list[dict]


@dataclass
class Reply:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False


Outcome = Reply | DeciderError  # one request's reply, or why the endpoint gave none


class ChatDecider(BaseDecider):
    """Base of LLM deciders. Subclasses set `name` and `model` and implement `send`."""

    name = "chat"
    model = "chat"

    def __init__(self, config: LLMConfig) -> None:
        self.llm = config
        self.cache = ReplyCache.open(config.cache)

    # -- what a backend provides -----------------------------------------------------------------

    def send(self, messages: Messages) -> Reply:
        """One request; raises `DeciderError` (one line) when the endpoint gives no reply."""
        raise NotImplementedError

    @property
    def questions_in_flight(self) -> int:
        """Questions that may wait on their requests at once, each advancing on its own (`Agent.ask_many`)."""
        return max(1, self.llm.concurrency)

    def send_many(self, batch: list[Messages]) -> list[Outcome]:
        """Every request of a batch (one question's, when questions advance independently)."""
        return [self._send_one(m) for m in batch]

    def _send_one(self, messages: Messages) -> Outcome:
        try:
            return self.send(messages)
        except DeciderError as exc:
            return exc

    # -- requests through the cache --------------------------------------------------------------

    def request(self, batch: list[Messages]) -> list[Outcome]:
        """Replies for a batch of conversations: cached ones from the cache, the rest sent together."""
        keys = [cache_key(self.model, m, self.llm.sampling()) for m in batch] if self.cache is not None else []
        outcomes: list[Outcome | None] = [None] * len(batch)
        if self.cache is not None:
            for i, key in enumerate(keys):
                hit = self.cache.get(key)
                if hit is not None:
                    outcomes[i] = Reply(hit[0], hit[1], hit[2], cached=True)
        missing = [i for i, o in enumerate(outcomes) if o is None]
        with waiting():  # other questions run the agent's code meanwhile
            sent = self.send_many([batch[i] for i in missing]) if missing else []
        for i, outcome in zip(missing, sent):
            outcomes[i] = outcome
            if self.cache is not None and isinstance(outcome, Reply):
                self.cache.put(keys[i], self.model, outcome.text, outcome.prompt_tokens, outcome.completion_tokens)
        return outcomes  # type: ignore[return-value]

    def complete(self, prompt: str) -> str:
        """One prompt, one reply text (methodology induction); raises `DeciderError` on failure."""
        outcome = self.request([[{"role": "user", "content": prompt}]])[0]
        if isinstance(outcome, DeciderError):
            raise outcome
        return outcome.text

    # -- decisions -------------------------------------------------------------------------------

    def choose(self, state: "AgentState") -> Decision:
        return self.choose_many([state])[0]

    def choose_many(self, states: list["AgentState"], display: Callable[[str], str] | None = None) -> list[Decision]:
        """A decision for each state; all first requests go out together, then one round of
        corrections for the replies that named no offered candidate."""
        shown = display or (lambda name: name.replace("_", " "))
        conversations = [prompts.decision_messages(s, self.llm, shown) for s in states]
        decisions = [Decision(None) for _ in states]
        pending = list(range(len(states)))
        for _attempt in range(2):  # the first reply, then one retry with the parse error fed back
            outcomes = self.request([conversations[i] for i in pending])
            retry = []
            for i, outcome in zip(pending, outcomes):
                decision = decisions[i]
                if isinstance(outcome, DeciderError):
                    decision.error, decision.failed = str(outcome), True
                    continue
                _count(decision, outcome)
                decision.raw = outcome.text
                try:
                    decision.index, decision.reason = parse_choice(outcome.text, states[i].candidates)
                    decision.error = None
                except AriError as exc:
                    decision.error = f"unparseable reply: {exc}"
                    conversations[i] = conversations[i] + [
                        {"role": "assistant", "content": outcome.text},
                        {"role": "user", "content": f"{exc}\n{prompts.REPLY_FORMAT}"},
                    ]
                    retry.append(i)
            pending = retry
            if not pending:
                break
        for i in pending:  # the corrected reply named no offered action either: the model failed, not the question
            why = (decisions[i].error or "").split(";")[0]  # the parse error's head, not the format it restates
            decisions[i].error, decisions[i].failed = f"{self.name} replied twice with no offered action ({why})", True
        return decisions

    # -- Judge-Then-Solve ------------------------------------------------------------------------

    def judge(self, state: "AgentState", audit: Judgement) -> Judgement:
        return self.judge_many([state], [audit])[0]

    def judge_many(self, states: list["AgentState"], audits: list[Judgement]) -> list[Judgement]:
        """The model's verdicts; code keeps the final say (the model can only add doubt), and an
        audit that already says UNANSWERABLE needs no model."""
        asked = [i for i, a in enumerate(audits) if a.answerable]
        outcomes = self.request([prompts.judge_messages(states[i], audits[i].audit) for i in asked])
        for i, outcome in zip(asked, outcomes):
            audit = audits[i]
            if isinstance(outcome, DeciderError):
                audit.error = str(outcome)
                continue
            _count(audit, outcome)
            _apply_verdict(audit, outcome.text)
        return audits


def _count(usage: Decision | Judgement, reply: Reply) -> None:
    if reply.cached:
        return
    usage.llm_calls += 1
    usage.prompt_tokens += reply.prompt_tokens
    usage.completion_tokens += reply.completion_tokens


def _apply_verdict(audit: Judgement, reply: str) -> None:
    conclusions = list(_CONCLUSION.finditer(reply))
    match = conclusions[-1] if conclusions else None  # the last conclusion counts
    audit.raw = reply
    if match and match.group(1).upper() == "UNANSWERABLE":
        audit.answerable = False
        audit.missing = audit.missing or "the model judged that the KG cannot support an answer"
        audit.audit.append("LLM judge: UNANSWERABLE")
    elif match is None:
        audit.audit.append("LLM judge gave no Conclusion line; the code audit stands")
