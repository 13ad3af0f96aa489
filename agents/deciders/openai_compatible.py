"""`openai:<model>`: any OpenAI-compatible chat endpoint (OpenAI, a vLLM server, llama.cpp, ...).

The `openai` client retries timeouts, connection errors, 429 and 5xx with exponential backoff
(`LLMConfig.retries`, each request at most `timeout_s`); whatever still fails, and a reply that is
not a chat completion (a malformed JSON body), becomes a one-line `DeciderError`. A server that
rejects one of the optional settings (reasoning models reject `temperature` and want
`max_completion_tokens`; some servers have no `response_format` or `seed`) is asked again without
it, and the setting stays dropped for this decider.
"""

from __future__ import annotations

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
                response = self._client.chat.completions.create(
                    model=self.model, messages=messages, **settings  # type: ignore[arg-type]  # OpenAI-format dicts; the SDK wants its TypedDicts
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
        return _reply_of(response, self._client.base_url)

    def _failure(self, exc: BaseException) -> DeciderError:
        return DeciderError(f"LLM endpoint {self._client.base_url} failed: {type(exc).__name__}: {_one_line(exc)}")


def _reply_of(response: object, where: object) -> Reply:
    choices = getattr(response, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise DeciderError(f"LLM endpoint {where} returned no choices")
    message = getattr(choices[0], "message", None)
    text = getattr(message, "content", None) or ""
    usage = getattr(response, "usage", None)
    prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
    completion = int(getattr(usage, "completion_tokens", 0) or 0)
    return Reply(str(text), prompt, completion)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else ""


register_decider("openai", lambda model, config: OpenAICompatibleDecider(model, config))
