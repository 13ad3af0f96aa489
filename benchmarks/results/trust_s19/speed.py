"""What the answer check costs, measured where the machine is shared: the same questions answered with the check off and
on in one process, alternating by batch (and which goes first), so other jobs' load falls on both alike.

    ARI_RELATION_LEXICON=lexicon_shard0.json python benchmarks/results/trust_s19/speed.py STORE MEMORY_COPY DEV_JSON
"""

import json
import sys
import time
from pathlib import Path

from agents.agent import Agent
from ari.base.config import AgentConfig
from benchmarks.loaders.multitq import MultiTQLoader
from benchmarks.selection import stratified_sample, take_shard
from benchmarks.solver import open_memory
from tkg_store.store import TKGStore

BATCH = 64


def main() -> None:
    store, memory, dev = sys.argv[1:4]
    questions = stratified_sample(take_shard(MultiTQLoader().load(Path(dev)).questions, (1, 2)), 1200, 7)
    agent = Agent(TKGStore.open(store), memory=open_memory(memory), config=AgentConfig.from_env()).warm_up()
    agent.ask_many([q.text for q in questions[:BATCH]])  # caches warmed for both
    spent = {False: 0.0, True: 0.0}
    for offset in range(BATCH, len(questions), BATCH):
        batch = [q.text for q in questions[offset : offset + BATCH]]
        for on in (False, True) if (offset // BATCH) % 2 else (True, False):
            agent.config.abstention.learned_check = on
            start = time.perf_counter()
            agent.ask_many(batch)
            spent[on] += time.perf_counter() - start
    n = len(questions) - BATCH
    print(json.dumps({"questions": n, "off_q_per_s": n / spent[False], "on_q_per_s": n / spent[True], "on_cost_share": spent[True] / spent[False] - 1}))


main()
