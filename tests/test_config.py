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


def test_a_worker_builds_the_run_config_with_typed_sections_and_the_environment_key(monkeypatch):
    from benchmarks.solver import agent_config

    monkeypatch.setenv("OPENAI_API_KEY", "from-env")
    saved = AgentConfig(top_k=4, planner=PlannerConfig(max_programs=9)).to_dict()  # as run.json has it
    config = agent_config(json.loads(json.dumps(saved)))
    assert config.top_k == 4 and config.planner == PlannerConfig(max_programs=9)
    assert isinstance(config.abstention, type(AgentConfig().abstention))
    assert config.llm.api_key == "from-env"
