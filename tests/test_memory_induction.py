"""Methodology induction from traces alone, its two-part text, and the optional LLM path."""

from __future__ import annotations

from actions.programs import describe_step
from memory.induction import induce, program_stats, summary_prompt, with_llm
from memory.trace import StepRecord, Trace


def stats(found: list) -> list[tuple]:
    """(program, support, success_rate) of each ProgramStat; fields added later are not compared here."""
    return [(list(p.program.texts), p.support, p.success_rate) for p in found]


def trace(program: list[str], outcome: str | None, masked: str = "Who did {E1} criticise in {T1}?") -> Trace:
    steps = [StepRecord(i, [step], step, step, 3) for i, step in enumerate(program, 1)]
    return Trace("q", masked, steps, ["x"], outcome=outcome, qtype="equal", answer_type="entity")


TAIL = ["getTailEntity(E1, R, T)", "answer(#1)"]
HEAD = ["getHeadEntity(E1, R, T)", "answer(#1)"]
LONG = ["getTailEntity(E1, R)", "getBetween(#1, T1, T2)", "answer(#2)"]


def test_ranking_prefers_well_supported_success_over_lucky_one_offs():
    traces = (
        [trace(TAIL, "correct")] * 40 + [trace(TAIL, "wrong")] * 5  # 40 / 45
        + [trace(LONG, "correct")]  # 1 / 1: a perfect rate on one question is not a method
        + [trace(HEAD, "wrong")] * 6 + [trace(HEAD, "abstained")] * 2
        + [trace(["getTime(E1, R, E2)", "answer(#1)"], None)] * 9  # unlabelled: ignored
    )
    programs, pitfalls = program_stats(traces)
    assert stats(programs) == [(TAIL, 40, round(40 / 45, 4)), (LONG, 1, 1.0)]
    assert stats(pitfalls) == [(HEAD, 8, 0.0)]


def test_ranking_is_smoothed_rate_times_support():
    # (9+1)/(30+2)*9 = 2.81 beats (3+1)/(3+2)*3 = 2.4 although its rate is far lower
    traces = [trace(TAIL, "correct")] * 9 + [trace(TAIL, "wrong")] * 21 + [trace(LONG, "correct")] * 3
    programs, _ = program_stats(traces)
    assert [list(p.program.texts) for p in programs] == [TAIL, LONG]


def test_induced_text_has_both_parts_entity_free_and_numbered():
    m = induce(2, [trace(TAIL, "correct")] * 3 + [trace(HEAD, "wrong")] * 2)
    overall, guide = m.text.split("Step-by-step Guide:")
    assert overall.startswith("Overall Instruction:")
    assert '"Who did {E1} criticise in {T1}?"' in overall and "equal questions asking for an entity" in overall
    assert "getTailEntity(E1, R, T) -> answer(#1)" in overall
    assert "Pitfall, failed 2 times" in overall and "getHeadEntity(E1, R, T) -> answer(#1)" in overall
    assert guide.strip().splitlines() == [
        "1. Find who or what E1 did R to at the question's time T. [getTailEntity(E1, R, T)]",
        "2. Answer with the entities of step 1, or its times at the question's granularity. [answer(#1)]",
    ]
    assert (m.cluster_id, m.source) == (2, "induced")


def test_cluster_without_success_still_gets_a_guide():
    m = induce(0, [trace(HEAD, "wrong")])
    assert m.programs == [] and stats(m.pitfalls) == [(HEAD, 1, 0.0)]
    assert "No attempt at these questions has succeeded yet" in m.text
    assert "Step-by-step Guide:\n1. " in m.text


def test_describe_every_template():
    assert describe_step("getTime(E1, R, E2)") == "Find when E1 did R to E2."
    assert describe_step("getHeadEntity(E2, R)") == "Find who or what did R to E2."
    assert describe_step("getHeadEntity(E1, R, #1)") == "Find who or what did R to E1 in the same period as the time found in step 1."
    assert describe_step("getAfter(#2, #1)") == "Keep the results of step 2 that come strictly after the earliest time found in step 1."
    assert describe_step("getBefore(#1, T)") == "Keep the results of step 1 that come strictly before the question's time T."
    assert describe_step("getBetween(#1, T1, T2)") == "Keep the results of step 1 between T1 and T2, inclusive."
    assert describe_step("getFirst(#3)") == "Keep the earliest result(s) of step 3."
    assert describe_step("getLast(#3)") == "Keep the latest result(s) of step 3."
    assert describe_step("answer(#4)").startswith("Answer with the entities of step 4")
    assert describe_step("somethingNew(#1)") == "Apply somethingNew(#1)."


class ScriptedLLM:
    """Replies from a queue and keeps the prompts it was sent."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.replies.pop(0)


def test_llm_methodology_uses_reference_prompt_and_keeps_programs():
    traces = [trace(TAIL, "correct")] * 2 + [trace(HEAD, "wrong")]
    induced = induce(1, traces)
    llm = ScriptedLLM("Sure.\nOverall Instruction:\nFind what the entity did.\n\nStep-by-step Guide:\n1. Use getTailEntity.")
    m = with_llm(induced, traces, llm)
    assert m.source == "llm" and m.text.startswith("Overall Instruction:\nFind what the entity did.")
    assert m.programs == induced.programs and m.pitfalls == induced.pitfalls
    prompt = llm.prompts[0]
    assert "Correct samples:" in prompt and "Incorrect samples:" in prompt
    assert "Action 1: getHeadEntity(E1, R, T) -> 3 results" in prompt.split("Incorrect samples:")[1]
    assert "- getTailEntity(E1, R, T) -> answer(#1) (2, 100%)" in prompt


def test_llm_reply_without_guide_gets_the_induced_guide():
    traces = [trace(TAIL, "correct")]
    m = with_llm(induce(0, traces), traces, ScriptedLLM("Look up the entity's actions at the time."))
    assert m.text.startswith("Overall Instruction:\nLook up")
    assert "Step-by-step Guide:\n1. Find who or what E1 did R to" in m.text


def test_summary_prompt_without_failures():
    prompt = summary_prompt([trace(TAIL, "correct")], [])
    assert "Incorrect samples:\n(none)" in prompt and "- none yet" in prompt


def test_a_count_of_entities_keeps_its_program_beside_many_counts_of_days():
    # one kind of question (a count of distinct entities) rare in a cluster full of another (a count
    # of days): the cap on programs must not drop it for sharing the other's templates
    days = [[f"get{side}Entity(E1, R, T)", "count(#1, days)", "answer(#2)"] for side in ("Head", "Tail")]
    fillers = [[f"getTailEntity(E1, R, T{k})", "answer(#1)"] for k in range(20)]
    entities = ["getHeadEntity(E1, R, T)", "count(#1, entities)", "answer(#2)"]
    traces = [trace(p, "correct") for p in days for _ in range(50)] + [trace(p, "correct") for p in fillers for _ in range(10)]
    programs, _ = program_stats(traces + [trace(entities, "correct")] * 3)
    kept = [list(p.program.texts) for p in programs]
    assert entities in kept and all(p in kept for p in days)
