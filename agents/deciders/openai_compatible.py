"""`openai:<model>`: any OpenAI-compatible chat endpoint (OpenAI, a vLLM server, llama.cpp, ...).

The `openai` client retries timeouts, connection errors, 429 and 5xx with exponential backoff
(`LLMConfig.retries`, each request at most `timeout_s`); whatever still fails, and a reply that is
not a chat completion (a malformed JSON body), becomes a one-line `DeciderError`. A server that
rejects one of the optional settings (reasoning models reject `temperature` and want
`max_completion_tokens`; some servers have no `response_format` or `seed`) is asked again without
it, and the setting stays dropped for this decider.

Requests go through the client's `post` (its documented way to any endpoint) with the body as a
plain dict, and the reply's JSON is read here: the client's retries, timeouts and error classes
stay, without the typed `chat.completions.create` walking every request's messages and building
models of every reply: that took ~1.3 of the ~3.5 ms of CPU a request cost here, and with questions
in flight the agent's CPU is what bounds the rate (benchmarks/results/llm_path/README.md).
"""

from __future__ import annotations

import json
import threading

from agents.deciders.base import register_decider
from agents.deciders.chat import ChatDecider, Reply
from ari.base.config import AgentConfig
from ari.base.errors import DeciderError

# the word in a 400 message that names the setting the server rejects, and what to do about it
_REJECTABLE = ("temperature", "max_tokens", "max_completion_tokens", "response_format", "seed")


class OpenAICompatibleDecider(ChatDecider):
    def __init__(self, model: str, config: AgentConfig) -> None:
        import httpx
        import openai

        super().__init__(config.llm)
        self.name = f"openai:{model}"
        self.model = model
        self._bad_request = openai.BadRequestError
        self._errors = (openai.APIError, httpx.HTTPError, ValueError)  # ValueError: a body that is not JSON
        self._client = openai.OpenAI(
            base_url=config.llm.base_url,
            api_key=config.llm.api_key or "not-needed",  # local servers accept any key
            timeout=config.llm.timeout_s,
            max_retries=config.llm.retries,
        )
        self._dropped: set[str] = set()
        self._lock = threading.Lock()

    def settings(self) -> dict:
        """The optional request settings, less those the server has rejected."""
        llm = self.llm
        wanted = {
            "temperature": llm.temperature,
            "max_tokens": llm.max_tokens,
            "seed": llm.seed,
            "response_format": {"type": "json_object"} if llm.json_replies else None,
        }
        with self._lock:
            dropped = set(self._dropped)
        if "max_tokens" in dropped and "max_completion_tokens" not in dropped and llm.max_tokens is not None:
            wanted["max_completion_tokens"] = llm.max_tokens
        return {k: v for k, v in wanted.items() if v is not None and k not in dropped}

    def send(self, messages: list[dict]) -> Reply:
        for _ in range(len(_REJECTABLE) + 1):
            settings = self.settings()
            try:
                body = self._client.post(
                    "/chat/completions", body={"model": self.model, "messages": messages, **settings}, cast_to=bytes
                )
                break
            except self._bad_request as exc:
                rejected = next((s for s in _REJECTABLE if s in settings and s in str(exc)), None)
                if rejected is None:
                    raise self._failure(exc) from None
                with self._lock:
                    self._dropped.add(rejected)
            except self._errors as exc:
                raise self._failure(exc) from None
        else:
            raise DeciderError(f"LLM endpoint {self._client.base_url} rejected every setting")
        try:
            payload = json.loads(body)
        except ValueError as exc:  # a body that is not JSON (a proxy's error page)
            raise self._failure(exc) from None
        return _reply_of(payload, self._client.base_url)

    def _failure(self, exc: BaseException) -> DeciderError:
        return DeciderError(f"LLM endpoint {self._client.base_url} failed: {type(exc).__name__}: {_one_line(exc)}")


def _reply_of(payload: object, where: object) -> Reply:
    """The reply text and token counts of a chat completion's JSON."""
    choices = payload.get("choices") if isinstance(payload, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise DeciderError(f"LLM endpoint {where} returned no choices")
    message = choices[0].get("message")
    text = message.get("content") if isinstance(message, dict) else None
    usage = payload.get("usage") if isinstance(payload, dict) else None
    usage = usage if isinstance(usage, dict) else {}
    return Reply(str(text or ""), _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens")))


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else ""


register_decider("openai", lambda model, config: OpenAICompatibleDecider(model, config))
