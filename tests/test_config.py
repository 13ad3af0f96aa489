"""Typed configuration: nested groups survive the round trip through run.json and the environment."""

from __future__ import annotations

import json

from ari.base.config import AgentConfig, LLMConfig, PlannerConfig


def test_a_saved_config_reads_back_equal_with_its_groups_typed():
    config = AgentConfig(top_k=7, planner=PlannerConfig(relation_floor=0.3, max_programs=8))
    again = AgentConfig.from_dict(json.loads(json.dumps(config.to_dict())))
    assert again == config and isinstance(again.planner, PlannerConfig)


def test_environment_then_explicit_values(monkeypatch):
    monkeypatch.setenv("ARI_DECIDER", "openai:some-model")
    config = AgentConfig.from_env(top_k=3, planner={"relation_floor": 0.7})
    assert config.decider == "openai:some-model" and config.top_k == 3
    assert config.planner == PlannerConfig(relation_floor=0.7)


def test_the_api_key_is_never_saved():
    assert "api_key" not in AgentConfig(llm=LLMConfig(api_key="secret")).to_dict()["llm"]
