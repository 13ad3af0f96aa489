"""The temporal KG store: one DuckDB file per KG, exact parameterised lookups."""

from tkg_store.store import Fact, Neighbour, TKGStore
from tkg_store.temporal import Granularity, TimeSpan, format_time, parse_time

__all__ = ["Fact", "Granularity", "Neighbour", "TKGStore", "TimeSpan", "format_time", "parse_time"]
