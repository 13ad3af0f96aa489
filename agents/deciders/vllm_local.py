"""`vllm:<model path>`: vLLM in-process on a GPU (optional extra `ari-tkgqa[vllm]`), same prompts.

A lockstep step's prompts for the whole batch go to vLLM as one `chat` call (`send_many`), so the
engine batches them: questions do not advance independently here (`questions_in_flight` is 1), the
batch is the concurrency. JSON replies are asked for by guided decoding where the installed vLLM has it.
"""

from __future__ import annotations

from typing import Any, Protocol

from agents.deciders.base import register_decider
from agents.deciders.chat import ChatDecider, Outcome, Reply
from ari.base.config import AgentConfig
from ari.base.errors import DeciderError


class ChatEngine(Protocol):
    """What the decider uses of `vllm.LLM` (tests may pass a stand-in)."""

    def chat(self, messages: list[list[dict]], sampling_params: Any, use_tqdm: bool = ...) -> list[Any]: ...


class VLLMDecider(ChatDecider):
    def __init__(self, model_path: str, config: AgentConfig, engine: ChatEngine | None = None) -> None:
        """`engine`: an already built `vllm.LLM` (or anything with its `chat`), else one is built."""
        super().__init__(config.llm)
        self.name = f"vllm:{model_path}"
        self.model = model_path
        if engine is None:
            try:
                from vllm import LLM
            except ImportError:
                raise DeciderError("the vllm decider needs vLLM and a GPU: pip install 'ari-tkgqa[vllm]'") from None
            engine = LLM(model=model_path, **config.extra.get("vllm", {}))
        self._engine = engine
        self._params = sampling_params(config)

    @property
    def questions_in_flight(self) -> int:
        """One: the graph's lockstep batch reaches the engine as one generation call per step."""
        return 1

    def send(self, messages: list[dict]) -> Reply:
        outcome = self.send_many([messages])[0]
        if isinstance(outcome, DeciderError):
            raise outcome
        return outcome

    def send_many(self, batch: list[list[dict]]) -> list[Outcome]:
        """The whole batch as one generation call; a failure fails every request of it."""
        if not batch:
            return []
        try:
            outputs = self._engine.chat(batch, self._params, use_tqdm=False)
        except Exception as exc:  # vLLM raises many engine-specific errors; the step must fail cleanly
            error = DeciderError(f"vLLM generation failed: {type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}")
            return [error] * len(batch)
        return replies_of(outputs, len(batch))


def replies_of(outputs: list, expected: int) -> list[Outcome]:
    """One `Reply` per conversation from vLLM's `RequestOutput`s (in request order)."""
    if len(outputs) != expected:
        return [DeciderError(f"vLLM returned {len(outputs)} outputs for {expected} prompts")] * expected
    replies: list[Outcome] = []
    for output in outputs:
        completion = output.outputs[0]
        replies.append(Reply(completion.text, len(output.prompt_token_ids or []), len(completion.token_ids or [])))
    return replies


def sampling_params(config: AgentConfig):  # noqa: ANN201 - vllm.SamplingParams, or a dict without vLLM
    """vLLM's sampling parameters from the typed settings (guided JSON when asked and available)."""
    llm = config.llm
    values = {"temperature": llm.temperature or 0.0, "max_tokens": llm.max_tokens, "seed": llm.seed}
    values = {k: v for k, v in values.items() if v is not None}
    try:
        from vllm import SamplingParams
    except ImportError:
        return values
    if llm.json_replies:
        try:
            from vllm.sampling_params import GuidedDecodingParams

            values["guided_decoding"] = GuidedDecodingParams(json_object=True)
        except (ImportError, TypeError):
            pass  # an older vLLM: the prompt still asks for JSON, and the parser accepts any form
    return SamplingParams(**values)


register_decider("vllm", lambda model, config: VLLMDecider(model, config))
