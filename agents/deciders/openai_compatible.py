"""`openai:<model>`: any OpenAI-compatible chat endpoint (OpenAI, a vLLM server, llama.cpp, ...).

The `openai` client retries timeouts, connection errors, 429 and 5xx with exponential backoff
(`max_retries`); whatever still fails becomes a `DeciderError`, which fails the step cleanly.
"""

from __future__ import annotations

from ari.base.config import AgentConfig
from ari.base.errors import DeciderError
from agents.deciders.base import register_decider
from agents.deciders.chat import ChatDecider


class OpenAICompatibleDecider(ChatDecider):
    def __init__(self, model: str, config: AgentConfig) -> None:
        import openai

        self.name = f"openai:{model}"
        self.model = model
        self.temperature = config.llm_temperature
        self.max_candidates = config.top_k
        self._errors = (openai.APIError, openai.APIConnectionError, openai.APITimeoutError)
        self._client = openai.OpenAI(
            base_url=config.llm_base_url,
            api_key=config.llm_api_key or "not-needed",  # local servers accept any key
            timeout=config.llm_timeout_s,
            max_retries=config.llm_retries,
        )

    def complete(self, messages: list[dict]) -> tuple[str, int]:
        try:
            response = self._client.chat.completions.create(
                model=self.model, messages=messages, temperature=self.temperature, max_tokens=512
            )
        except self._errors as exc:
            where = self._client.base_url
            raise DeciderError(f"LLM endpoint {where} failed: {type(exc).__name__}: {_one_line(exc)}") from None
        if not response.choices:
            raise DeciderError("LLM endpoint returned no choices")
        text = response.choices[0].message.content or ""
        tokens = response.usage.total_tokens if response.usage else 0
        return text, int(tokens or 0)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else ""


register_decider("openai", lambda model, config: OpenAICompatibleDecider(model, config))
