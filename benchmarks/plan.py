"""From command-line choices to a run: load and select the questions, describe the run, pick the solver.

Kept apart from the runner so the runner stays about running and the CLI stays one call.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from ari.base.errors import UsageError
from benchmarks.loaders import get_loader
from benchmarks.loaders.types import Question
from benchmarks.runner import RunOptions, RunOutcome, git_commit, prepare_workers, run_benchmark
from benchmarks.selection import parse_shard, stratified_sample, take_shard
from benchmarks.solver import AGENT_MODULES, AgentSolverFactory, SolverFactory, agent_config


@dataclass
class RunSpec:
    """Everything `ari bench run` was asked for."""

    dataset: str
    out: Path
    db: Path | None
    split: str | None = None  # None: the dataset's default split (DEFAULT_SPLITS)
    questions_file: Path | None = None  # any file in the dataset's official format (overrides split)
    data_dir: Path | None = None  # the dataset's directory (holding questions/)
    sample: int | None = None
    seed: int = 0
    shard: str | None = None
    gold_annotations: bool = False
    skip_bad: bool = False
    memory_url: str | None = None
    workers: int = 1
    batch_size: int = 64
    quiet: bool = False
    restart: bool = False  # set aside a previous run in `out` and start anew (else resume, refusing a different run)
    retry_errors: bool = False  # answer again the questions whose outcome was an error
    agent: dict = field(default_factory=dict)  # AgentConfig overrides (decider, use_methodology, ...)


DEFAULT_SPLITS = {"multitq": "dev", "cronquestions": "complex_valid", "shapes": "dev"}


def default_data_dir(dataset: str) -> Path:
    """$ARI_DATA_DIR/<dataset>, else ../shared/data/<dataset> (the project's data layout)."""
    root = os.environ.get("ARI_DATA_DIR")
    return Path(root) / dataset if root else Path("..") / "shared" / "data" / dataset


def select_questions(spec: RunSpec) -> tuple[list[Question], dict]:
    """The questions this run (and shard) covers, and what describes that choice."""
    loader = get_loader(spec.dataset, gold_annotations=spec.gold_annotations)
    split = None
    if spec.questions_file is not None:
        path = Path(spec.questions_file)
    else:
        split = spec.split or DEFAULT_SPLITS[spec.dataset]
        path = loader.split_path(spec.data_dir or default_data_dir(spec.dataset), split)
    loaded = loader.load(path, skip_bad=spec.skip_bad)
    sample = stratified_sample(loaded.questions, spec.sample, spec.seed)
    shard = parse_shard(spec.shard)
    chosen = take_shard(sample, shard)
    described = {
        "dataset": spec.dataset,
        "split": None if spec.questions_file is not None else split,
        "questions_file": str(path.resolve()),
        "questions_in_file": len(loaded.questions) + loaded.skipped,
        "skipped_bad": loaded.skipped,
        "skipped_records": loaded.bad,  # which records, and why (`ari bench run` names this file)
        "sample": spec.sample,
        "seed": spec.seed,
        "shard": spec.shard,
        "questions_in_run": len(chosen),
        "gold_annotations": spec.gold_annotations,
        # a relation lexicon other than the bundled one (e.g. learned on the other shard only)
        "relation_lexicon": os.environ.get("ARI_RELATION_LEXICON"),
    }
    return chosen, described


def run(spec: RunSpec, factory: SolverFactory | None = None) -> RunOutcome:
    """Select, describe, and run (with the ARI agent unless another solver factory is given)."""
    if spec.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {spec.workers}")
    if spec.batch_size < 1:
        raise UsageError(f"--batch-size must be at least 1, got {spec.batch_size}")
    if factory is None:
        prepare_workers(spec.workers, AGENT_MODULES)  # the workers' imports load while the questions are read
    questions, described = select_questions(spec)
    config = agent_config(spec.agent)
    measured, operation = split_llm_settings(config.to_dict())
    run_info = {
        **described,
        "db": str(Path(spec.db).resolve()) if spec.db else None,  # resolved: a resume from elsewhere is the same run
        "memory": _where(spec.memory_url),
        "workers": spec.workers,
        "batch_size": spec.batch_size,
        "agent_config": measured,
        "llm_operation": operation,
        "git_commit": git_commit(),
    }
    agent = factory is None
    if factory is None:
        if spec.db is None:
            raise UsageError("--db is required: the ingested KG store to answer from")
        factory = AgentSolverFactory(str(spec.db), spec.memory_url, config.to_dict())
    # the agent opens the memory: one it cannot open is said here, once (another solver may not read it)
    agent_memory = spec.memory_url if agent else None
    gold_display = _gold_display(spec.db, questions, agent_memory) if spec.db is not None else None
    options = RunOptions(workers=spec.workers, batch_size=spec.batch_size, quiet=spec.quiet, restart=spec.restart,
                         gold_display=gold_display, retry_errors=spec.retry_errors,
                         worker_modules=AGENT_MODULES if agent else ())
    return run_benchmark(questions, factory, spec.out, run_info, options)


def _warn_of_other_kg(memory_url: str, store) -> None:  # noqa: ANN001 - TKGStore
    """A warning line when the memory was learned on another KG. A memory that cannot be opened is
    this run's one-line error here, before any worker starts (a worker's would be a traceback)."""
    from ari.base.progress import warn
    from memory.api import Memory, warn_of_other_kg

    with Memory.open(memory_url, create=False) as memory:
        warn_of_other_kg(memory, store, warn)


def _where(memory_url: str | None) -> str | None:
    """A memory file as its resolved path; a URL (postgresql://..., sqlite:///...) as written."""
    if memory_url is None or "://" in memory_url:
        return memory_url
    return str(Path(memory_url).resolve())


# How an LLM is reached, not what it is asked: may change between sessions of one run.
LLM_OPERATION = ("concurrency", "timeout_s", "retries", "cache", "base_url")


def split_llm_settings(config: dict) -> tuple[dict, dict]:
    """(the agent config that identifies a run, the LLM settings that only say how it was run)."""
    llm = dict(config.get("llm") or {})
    operation = {k: llm.pop(k) for k in LLM_OPERATION if k in llm}
    return {**config, "llm": llm}, operation


def _gold_display(db: Path, questions: list[Question], memory_url: str | None = None):  # noqa: ANN202 - Callable[[str], str]
    """The run's gold entity answers -> display form, read once (CronQuestions gold answers are
    Qids); on the way, a warning line when the memory was learned on another KG. Names only: the
    fact index is not loaded, and only the run's answers are looked up, so this costs the same on
    a KG of any size."""
    from tkg_store.store import TKGStore

    with TKGStore.open(db, memory_index=False) as store:
        names = {g: store.display(g) for q in questions if q.answer_type == "entity" for g in q.answers}
        if memory_url is not None:
            _warn_of_other_kg(memory_url, store)
    return lambda name: names.get(name, name)


def memory_with_clusters(memory_url: str, k: int, directory: Path) -> str:
    """A SQLite copy of the memory re-learnt with `k` clusters (reused when it already exists)."""
    from memory.api import Memory, snapshot

    target = Path(directory) / f"memory_k{k}.sqlite"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        with Memory.open(memory_url, create=False) as source:
            snapshot(source.history, target)
        with Memory.open(str(target), create=False) as copy:
            copy.learn(n_clusters=k)
    return str(target)


def with_clusters(spec: RunSpec, k: int) -> RunSpec:
    """The spec with its memory re-learnt at k clusters, k recorded in AgentConfig.extra."""
    if spec.memory_url is None:
        raise UsageError("--clusters needs --memory (the memory to re-learn with K clusters)")
    memory = memory_with_clusters(spec.memory_url, k, Path(spec.out))
    agent = {**spec.agent, "extra": {**spec.agent.get("extra", {}), "n_clusters": k}}
    return replace(spec, memory_url=memory, agent=agent)
