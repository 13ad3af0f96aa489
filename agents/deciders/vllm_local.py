"""`vllm:<model path>`: vLLM in-process on a GPU (optional extra `ari-tkgqa[vllm]`), same prompts."""

from __future__ import annotations

from ari.base.config import AgentConfig
from ari.base.errors import DeciderError
from agents.deciders.base import register_decider
from agents.deciders.chat import ChatDecider


class VLLMDecider(ChatDecider):
    def __init__(self, model_path: str, config: AgentConfig) -> None:
        try:
            from vllm import LLM, SamplingParams
        except ImportError:
            raise DeciderError("the vllm decider needs vLLM and a GPU: pip install 'ari-tkgqa[vllm]'") from None
        self.name = f"vllm:{model_path}"
        self.max_candidates = config.top_k
        self._llm = LLM(model=model_path, **config.extra.get("vllm", {}))
        self._params = SamplingParams(temperature=config.llm_temperature, max_tokens=512)

    def complete(self, messages: list[dict]) -> tuple[str, int]:
        try:
            output = self._llm.chat(messages, self._params, use_tqdm=False)[0]
        except Exception as exc:  # vLLM raises many engine-specific errors; the step must fail cleanly
            raise DeciderError(f"vLLM generation failed: {type(exc).__name__}: {exc}") from None
        completion = output.outputs[0]
        tokens = len(output.prompt_token_ids or []) + len(completion.token_ids or [])
        return completion.text, tokens


register_decider("vllm", lambda model, config: VLLMDecider(model, config))
