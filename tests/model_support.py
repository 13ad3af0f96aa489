"""Model folders for tests: copies of the bundled model in other places and of other forms."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ari.base.embedding import bundled_model_path


def copied_model(to: Path, pooling: str = "mean", reading: dict[str, object] | None = None) -> Path:
    """A copy of the bundled model folder at `to`, pooling its token vectors by `pooling` (mean, as
    the bundled model does, or cls) and reading texts as `reading` says (sentence_bert_config.json)."""
    shutil.copytree(bundled_model_path(), to)
    config = to / "1_Pooling" / "config.json"
    modes = json.loads(config.read_text())
    modes.update(pooling_mode_mean_tokens=pooling == "mean", pooling_mode_cls_token=pooling == "cls")
    config.write_text(json.dumps(modes))
    sentence = to / "sentence_bert_config.json"
    sentence.write_text(json.dumps({**json.loads(sentence.read_text()), **(reading or {})}))
    return to
