"""Which questions a run covers: a stratified sample with a fixed seed, then one shard of it.

Sampling is stratified by question type so a 3,000-question sample keeps the split's type mix;
sharding hashes the question id, so every machine computes the same split without talking to the
others and each question lands in exactly one shard.
"""

from __future__ import annotations

import hashlib
import random
from collections import defaultdict
from collections.abc import Sequence

from ari.base.errors import UsageError
from benchmarks.loaders.types import Question


def stratified_sample(questions: Sequence[Question], size: int | None, seed: int = 0) -> list[Question]:
    """`size` questions with each qtype represented in proportion (largest remainder), in file order."""
    if size is None or size >= len(questions):
        return list(questions)
    if size <= 0:
        raise UsageError(f"--sample must be positive, got {size}")
    strata: dict[str, list[int]] = defaultdict(list)
    for index, question in enumerate(questions):
        strata[question.qtype].append(index)
    total = len(questions)
    quotas = {qtype: size * len(members) / total for qtype, members in strata.items()}
    counts = {qtype: int(quota) for qtype, quota in quotas.items()}
    leftover = size - sum(counts.values())
    by_remainder = sorted(strata, key=lambda q: (-(quotas[q] - counts[q]), q))
    for qtype in by_remainder[:leftover]:
        counts[qtype] += 1
    rng = random.Random(seed)
    chosen: list[int] = []
    for qtype in sorted(strata):
        chosen += rng.sample(strata[qtype], counts[qtype])
    return [questions[i] for i in sorted(chosen)]


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """"i/n" (0 <= i < n) -> (i, n)."""
    if text is None:
        return None
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise UsageError(f"--shard must look like i/n (e.g. 0/4), got {text!r}") from None
    if count < 1 or not 0 <= index < count:
        raise UsageError(f"--shard {text}: need 0 <= i < n")
    return index, count


def shard_of(qid: str, count: int) -> int:
    """The shard a question id belongs to (stable across machines and Python versions)."""
    digest = hashlib.sha1(qid.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % count


def take_shard(questions: Sequence[Question], shard: tuple[int, int] | None) -> list[Question]:
    if shard is None:
        return list(questions)
    index, count = shard
    return [q for q in questions if shard_of(q.qid, count) == index]
