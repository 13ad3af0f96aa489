"""Benchmark dataset loaders: one small module per dataset behind `DatasetLoader`."""

from __future__ import annotations

from ari.base.errors import UsageError
from benchmarks.loaders.cronquestions import CronQuestionsLoader
from benchmarks.loaders.multitq import MultiTQLoader
from benchmarks.loaders.shapes import ShapesLoader
from benchmarks.loaders.types import DatasetLoader, LoadResult, Question

DATASETS = ("multitq", "cronquestions", "shapes")


def get_loader(name: str, gold_annotations: bool = False) -> DatasetLoader:
    """The loader registered under exactly `name`."""
    if name not in DATASETS:
        raise UsageError(f"unknown dataset {name!r} (known: {', '.join(DATASETS)})")
    if name == "cronquestions":
        return CronQuestionsLoader(gold_annotations=gold_annotations)
    if gold_annotations:
        raise UsageError(f"--gold-annotations applies to cronquestions only ({name} has no annotations)")
    return MultiTQLoader() if name == "multitq" else ShapesLoader()


__all__ = ["DATASETS", "CronQuestionsLoader", "DatasetLoader", "LoadResult", "MultiTQLoader", "Question", "ShapesLoader", "get_loader"]
