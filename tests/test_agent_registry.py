"""The decider registry resolves exact names only, and says clearly what it knows otherwise."""

from __future__ import annotations

import pytest

from agents.deciders.base import get_decider
from ari.base.config import AgentConfig, LLMConfig
from ari.base.errors import UnknownDeciderError, UsageError


def test_offline_is_the_default_backend():
    decider = get_decider("offline")
    assert decider.name == "offline"


def test_openai_backend_takes_the_model_after_the_colon():
    config = AgentConfig(llm=LLMConfig(base_url="http://127.0.0.1:9/v1", timeout_s=1, retries=0, cache=None))
    decider = get_decider("openai:my-model", config)
    assert decider.name == "openai:my-model"
    assert decider.model == "my-model"


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(UnknownDeciderError) as caught:
        get_decider("nope")
    message = str(caught.value)
    assert "'nope'" in message
    for known in ("offline", "openai:<model>", "vllm:<model>"):
        assert known in message
    assert "\n" not in message
    assert caught.value.exit_code == 2  # a usage error


@pytest.mark.parametrize("name", ["openai", "openai:", "vllm"])
def test_a_model_backend_without_a_model_is_refused(name):
    with pytest.raises(UnknownDeciderError, match=r"needs a model: (openai|vllm):<model>"):
        get_decider(name)


@pytest.mark.parametrize("name", ["Offline", "offline-v2", "gpt-4o", "openai-gpt:4", " offline", ""])
def test_no_guessing_by_case_or_substring(name):
    with pytest.raises(UsageError):
        get_decider(name)
