"""ARI's memory: the history of attempts, their clusters, and the methodologies induced from them."""

from memory.api import LearnSummary, Memory, snapshot
from memory.bundled import bundled_memory_path
from memory.history import HistoryStore, TraceRecord
from memory.types import ALL_TRACES, Methodology, ProgramStat

__all__ = [
    "ALL_TRACES",
    "HistoryStore",
    "LearnSummary",
    "Memory",
    "Methodology",
    "ProgramStat",
    "TraceRecord",
    "bundled_memory_path",
    "snapshot",
]
