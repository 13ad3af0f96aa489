"""Learning a memory from labelled questions with the agent and the program search, in processes.

`learn` is what `ari memory learn` and the learning scripts call. Each worker process opens the
store (read-only) and the memory (read-only, for the agent's guidance) itself, answers a batch of
questions with the agent in one `ask_many` call, runs the bounded program search on each from the
agent's own question analysis, and labels every trace against the gold answers. The parent is the
only writer: `memory.learn.learn_from_dataset` records each question once per settings as the
batches come back, then clusters and induces.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ari.base.config import AgentConfig, SearchConfig
from ari.base.processes import die_with_parent, limit_threads, threads_per_worker, usable_cores
from memory.api import Memory
from memory.learn import GoldQuestion, LearnReport, Solved, labelled, learn_from_dataset
from memory.trace import Trace

if TYPE_CHECKING:
    from agents.analysis.types import QuestionAnalysis
    from tkg_store.store import TKGStore

BATCH_SIZE = 64  # questions per ask_many call and per task sent to a worker


@dataclass(frozen=True)
class LearnSettings:
    """What decides which traces a question leaves; `key()` is stored with each learnt question,
    so a run repeated with the same settings records nothing twice."""

    attempt: bool = True  # record the agent's own answer (with the configured decider)
    search: bool = False  # also record what the bounded program search finds
    wrong_per_question: int = SearchConfig.wrong_traces_kept  # failing search programs kept per question

    def key(self, config: AgentConfig) -> str:
        parts = [f"agent={config.decider}", f"max_steps={config.max_steps}"] if self.attempt else []
        if self.search:
            parts += [f"search_steps={config.max_steps}", f"wrong={self.wrong_per_question}"]
        return ";".join(parts)


def learn(
    db: str | Path,
    memory: str,
    questions: Sequence[Any],
    *,
    settings: LearnSettings,
    config: AgentConfig | None = None,
    dataset: str | None = None,
    split: str | None = None,
    workers: int | None = None,
    n_clusters: int = 10,
    cluster: bool = True,
    quiet: bool = False,
    names: dict[str, str] | None = None,
) -> LearnReport:
    """Learn `memory` (a path or URL, created when missing) from labelled `questions` over the
    store at `db`: record each question's traces once, then cluster and induce (`cluster=True`).
    `names` (`memory.names`: the names the questions use for the KG's entities) are kept first, so
    the questions are answered reading them."""
    config = config or AgentConfig.from_env()
    workers = workers or usable_cores()
    from tkg_store.store import TKGStore

    with Memory.open(memory, create=True) as mem:
        with TKGStore.open(db, memory_index=False) as store:
            mem.note_kg(store)  # so the memory, used with another KG, says so
            mem.add_names({name: entity for name, entity in (names or {}).items() if store.has_entity(entity)})
        job = _Job(str(db), memory, config, settings)
        solve = _in_processes(job, workers) if workers > 1 else _in_this_process(job)
        return learn_from_dataset(
            mem, questions, solve, settings=settings.key(config), dataset=dataset, split=split,
            n_clusters=n_clusters, cluster=cluster, quiet=quiet,
        )


def learn_generated(
    db: str | Path,
    memory: str,
    per_shape: int,
    *,
    seed: int = 0,
    search: bool = False,
    lexicon: bool = True,
    config: AgentConfig | None = None,
    n_clusters: int = 10,
    cluster: bool = True,
    quiet: bool = False,
    dataset: str = "generated",
    split: str | None = None,
) -> LearnReport:
    """Learn `memory` from questions the store at `db` asks itself (`agents.generate`): `per_shape`
    of each shape, solved in this process (binding one program is cheap), recorded once per seed.
    With `search`, the bounded program search also runs on each, as on a labelled question.
    `lexicon=False`: the questions are read without the store's default relation lexicon (one
    learned from labelled questions), so nothing but the KG goes into the memory."""
    from agents.analysis.analyzer import QuestionAnalyzer
    from agents.generate import blueprints_key, generate, solve_generated
    from agents.holdings import nearest_holdings
    from ari.base.embedding import get_embedder
    from tkg_store.store import TKGStore

    config = config or AgentConfig.from_env()
    with TKGStore.open(db) as store, Memory.open(memory, create=True) as mem:
        mem.note_kg(store)  # as `learn` does: the memory, used with another KG, says so
        made = generate(store, per_shape, seed)
        analyzer = QuestionAnalyzer(
            store, get_embedder(config.embedding_model), use_default_lexicon=lexicon, linking=config.linking, judge=config.judge_check,
        )
        analyses = nearest_holdings(store, analyzer.analyze_batch([g.gold.text for g in made]))
        by_id = {g.gold.qid: (g, a) for g, a in zip(made, analyses)}

        def solve(golds: list[GoldQuestion]) -> Iterator[Solved]:
            pairs = [by_id[g.qid] for g in golds]
            for solved, (_, analysis) in zip(solve_generated(store, [g for g, _ in pairs], [a for _, a in pairs], config.planner), pairs):
                if search:
                    solved.found += searched(store, solved.gold, analysis, config, SearchConfig.wrong_traces_kept)
                yield solved

        settings = f"generated;per_shape={per_shape};blueprints={blueprints_key()}" + (f";search_steps={config.max_steps}" if search else "")
        return learn_from_dataset(
            mem, [_as_record(g.gold) for g in made], solve, settings=settings, dataset=dataset,
            split=split or f"generated-seed-{seed}", n_clusters=n_clusters, cluster=cluster, quiet=quiet,
        )


def _as_record(gold: GoldQuestion) -> dict:
    return {"quid": gold.qid, "question": gold.text, "answers": gold.answers, "answer_type": gold.answer_type,
            "qtype": gold.qtype, "time_level": gold.time_level}


@dataclass(frozen=True)
class _Job:
    """What a worker needs to build its learner (picklable: it crosses into spawned processes)."""

    db: str
    memory: str
    config: AgentConfig
    settings: LearnSettings


class _Learner:
    """One process's agent over its own store connection, memory reader and embedder."""

    def __init__(self, job: _Job) -> None:
        from agents.agent import Agent
        from tkg_store.store import TKGStore

        self.settings = job.settings
        self.store = TKGStore.open(job.db, memory_index=True)  # the program search reads the fact index
        self.memory = Memory.open(job.memory, create=False, read_only=True)  # guidance only
        self.agent = Agent(self.store, self.memory, job.config)

    def solve(self, batch: list[GoldQuestion]) -> list[Solved]:
        try:
            results = self.agent.ask_many([g.text for g in batch])
        except Exception:  # something in the batch breaks the batched analysis: one at a time
            return [solved for gold in batch for solved in self._one_by_one(gold)]
        return [self._solved(gold, result) for gold, result in zip(batch, results, strict=True)]

    def _one_by_one(self, gold: GoldQuestion) -> list[Solved]:
        try:
            [result] = self.agent.ask_many([gold.text])
        except Exception as exc:
            return [Solved(gold, error=f"{type(exc).__name__}: {exc}")]
        return [self._solved(gold, result)]

    def _solved(self, gold: GoldQuestion, result: Any) -> Solved:
        try:
            attempt = labelled(result, gold) if self.settings.attempt else None
            found = self._search(gold, result.analysis) if self.settings.search else []
        except Exception as exc:  # one question's failure is its own, never the batch's
            return Solved(gold, error=f"{type(exc).__name__}: {exc}")
        return Solved(gold, attempt, found)

    def _search(self, gold: GoldQuestion, analysis: QuestionAnalysis) -> list[Trace]:
        if analysis is None:
            from agents.holdings import nearest_holdings

            analysis = nearest_holdings(self.store, self.agent.analyzer.analyze_batch([gold.text]))[0]
        return searched(self.store, gold, analysis, self.agent.config, self.settings.wrong_per_question)

    def close(self) -> None:
        self.memory.close()
        self.store.close()


def searched(store: TKGStore, gold: GoldQuestion, analysis: QuestionAnalysis, config: AgentConfig, wrong_per_question: int) -> list[Trace]:
    """What the bounded program search finds for one labelled question, from its analysis: every
    correct program, and the best-bound failing ones as negative examples."""
    from agents.explore import search_programs
    from memory.labels import gold_matcher

    found = search_programs(
        store, analysis, gold_matcher(gold.answers, gold.answer_type, gold.time_level),
        max_steps=config.max_steps, config=config.search, relation_floor=config.planner.relation_floor,
    )
    correct = [t for t in found if t.outcome == "correct"]
    wrong = [t for t in found if t.outcome != "correct"][:wrong_per_question]
    return [labelled(t, gold) for t in correct + wrong]


def _batches(questions: list[GoldQuestion]) -> list[list[GoldQuestion]]:
    return [questions[i : i + BATCH_SIZE] for i in range(0, len(questions), BATCH_SIZE)]


def _in_this_process(job: _Job):  # noqa: ANN202
    def solve(questions: list[GoldQuestion]) -> Iterator[Solved]:
        learner = _Learner(job)
        try:
            for batch in _batches(questions):
                yield from learner.solve(batch)
        finally:
            learner.close()

    return solve


def _in_processes(job: _Job, workers: int):  # noqa: ANN202
    def solve(questions: list[GoldQuestion]) -> Iterator[Solved]:
        batches = _batches(questions)
        # Spawned, not from a fork server: a learning run is minutes long, so one import a worker
        # costs little, and its workers' CPU then counts as the command's (learn_bench reports it).
        context = multiprocessing.get_context("spawn")
        threads = threads_per_worker(workers)
        with context.Pool(min(workers, len(batches)), initializer=_init_worker, initargs=(job, threads)) as pool:
            for solved in pool.imap_unordered(_solve_in_worker, batches):
                yield from solved
            # leaving the block terminates the workers, also when the caller stops early (Ctrl-C)

    return solve


_WORKER: _Learner | None = None


def _init_worker(job: _Job, threads: int) -> None:
    """Build this process's learner once; numeric libraries get their share of the cores only.
    Ctrl-C is the parent's to handle: it stops the pool, and what was recorded stays. The worker
    ends with the parent, however the parent ends (kill -9 included)."""
    global _WORKER
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    limit_threads(threads)
    _WORKER = _Learner(job)


def _solve_in_worker(batch: list[GoldQuestion]) -> list[Solved]:
    assert _WORKER is not None, "worker not initialised"
    return _WORKER.solve(batch)
