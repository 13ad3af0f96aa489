"""Names a KG's labelled questions use for its entities (`memory.names`): learned by `ari memory learn` from
questions that show which words name which entity, kept in the memory, and read by the linker when asking."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from memory import Memory
from memory.names import names_used, slot_surfaces
from tkg_store.ingest import POINT, ingest

ROWS = [  # (head, relation, tail, start, end): an interval KG written here
    ("Marshall Mathers", "award received", "Grammy Award for Best Rap Album", "2001", "2001"),
    ("Marshall Mathers", "award received", "Academy Award for Best Original Song", "2003", "2003"),
    ("Curtis Jackson", "award received", "Grammy Award for Best Rap Album", "2004", "2004"),
    ("Curtis Jackson", "award received", "Billboard Music Award", "2003", "2003"),
]


def test_a_name_is_learned_where_one_entity_stands_in_its_slot() -> None:
    template = "What award did {head} first receive"
    assert slot_surfaces(template, "What award did Slim Shady first receive") == {"head": "Slim Shady"}
    assert slot_surfaces(template, "Which award did Slim Shady win first") is None  # another wording: no slot is told
    names = names_used([
        (template, "What award did Marshall Mathers first receive", "What award did Slim Shady first receive"),
        (template, "What award did Curtis Jackson first receive", "What award did Curtis Jackson first receive"),  # the KG's name
        ("When did {head} last receive {tail}", "When did Marshall Mathers last receive Billboard Music Award",
         "When did Em last receive Billboard Music Award"),
        ("When did {head} last receive {tail}", "When did Curtis Jackson last receive Billboard Music Award",
         "When did Em last receive Billboard Music Award"),  # "Em" for two people: a guess, not a name
    ])
    assert names == {"Slim Shady": "Marshall Mathers"}


def test_ari_memory_learn_keeps_the_names_and_ari_ask_reads_them(tmp_path: Path) -> None:
    tsv = tmp_path / "kg.tsv"
    tsv.write_text("".join("\t".join(row) + "\n" for row in ROWS), encoding="utf-8")
    db, memory, questions = tmp_path / "kg.duckdb", tmp_path / "memory.sqlite", tmp_path / "questions.json"
    ingest("tsv", tsv, db, open_ends=POINT)
    records = [
        {"uniq_id": 1, "question": "What award did Marshall Mathers first receive", "paraphrases": ["What award did Slim Shady first receive"],
         "template": "What award did {head} first receive", "answers": ["Grammy Award for Best Rap Album"], "answer_type": "entity",
         "type": "first_last", "annotation": {"head": "Q1", "adj": "first"}},
        {"uniq_id": 2, "question": "What award did Curtis Jackson first receive", "paraphrases": ["What award did Curtis Jackson first receive"],
         "template": "What award did {head} first receive", "answers": ["Billboard Music Award"], "answer_type": "entity",
         "type": "first_last", "annotation": {"head": "Q2", "adj": "first"}},
    ]
    questions.write_text(json.dumps(records), encoding="utf-8")
    env = {**os.environ, "ARI_DATA": ""}

    def ask() -> dict:
        done = subprocess.run([sys.executable, "-m", "ari", "ask", "Which award did Slim Shady receive last?", "--db", str(db), "--memory",
                               str(memory), "--json", "--no-record"], capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    learn = [sys.executable, "-m", "ari", "memory", "learn", "--db", str(db), "--memory", str(memory), "--clusters", "2", "--workers", "1",
             "--quiet"]
    generated = subprocess.run([*learn, "--generate", "20"], capture_output=True, text=True, timeout=600, env=env)
    assert generated.returncode == 0, generated.stderr
    assert ask()["answers"] == []  # the KG alone does not know the name
    done = subprocess.run([*learn, "--dataset", "cronquestions", "--questions", str(questions)], capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    with Memory.open(str(memory), read_only=True) as kept:
        assert kept.names() == {"Slim Shady": "Marshall Mathers"}
    stats = subprocess.run([sys.executable, "-m", "ari", "memory", "stats", "--memory", str(memory), "--json"], capture_output=True, text=True,
                           timeout=120, env=env)
    assert json.loads(stats.stdout)["names"] == 1
    assert ask()["answers"] == ["Academy Award for Best Original Song"]
