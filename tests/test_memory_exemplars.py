"""A methodology's programs keep the questions each of them solved."""

from memory.induction import program_stats
from memory.trace import StepRecord, Trace

HEAD = ["getHeadEntity(E1, R)", "answer(#1)"]
TAIL = ["getTailEntity(E1, R)", "answer(#1)"]


def _trace(masked: str, program: list[str], outcome: str) -> Trace:
    steps = [StepRecord(i + 1, [], s, s, 1) for i, s in enumerate(program)]
    return Trace(question=masked, masked_question=masked, steps=steps, outcome=outcome)


def test_program_stats_keep_the_questions_each_program_solved():
    traces = [
        _trace("Who visited {E1}?", HEAD, "correct"),
        _trace("Who visited {E1}?", HEAD, "correct"),
        _trace("Whom did {E1} visit?", TAIL, "correct"),
        _trace("Whom did {E1} visit?", HEAD, "wrong"),
    ]
    programs, _ = program_stats(traces)
    by_program = {p.program.texts: p for p in programs}
    assert by_program[tuple(HEAD)].exemplars == ("Who visited {E1}?",)
    assert by_program[tuple(TAIL)].exemplars == ("Whom did {E1} visit?",)
