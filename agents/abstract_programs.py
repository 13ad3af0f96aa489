"""What an abstract program does, read off its steps: pure functions the offline planner uses to
order and adapt a methodology's programs for one question.

A program is a list of step signatures such as ["getTime(E2, R, E1)", "getHeadEntity(E1, R, #1)",
"answer(#2)"]. Results are cached per program: a memory holds a few hundred distinct programs and
the planner looks at all of them for every question.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CUE_OPERATION = {"before": "before", "after": "after", "first": "first", "last": "last", "between": "between"}
_TEMPLATE_OPERATION = {"getBefore": "before", "getAfter": "after", "getFirst": "first", "getLast": "last", "getBetween": "between"}
_ROLE = re.compile(r"\bE\d+\b")
_TIME_ARGUMENT = re.compile(r"\bT\d?\b")
_UNDATED_LOOKUP = re.compile(r"(get(?:Head|Tail)Entity\(E\d+, R)\)")
_STEP = re.compile(r"(\w+)\((.*)\)")


def temporal_operations(cues: list[str]) -> frozenset[str]:
    """The temporal operations a question's cue words ask for ("same month as" -> a same-period join)."""
    return frozenset("same" if cue.startswith("same") else _CUE_OPERATION.get(cue, cue) for cue in cues)


@lru_cache(maxsize=4096)
def program_operations(program: tuple[str, ...]) -> frozenset[str]:
    """The temporal operations a program performs (a lookup joined on #k is "same")."""
    found = set()
    for name, args in _steps(program):
        if name in _TEMPLATE_OPERATION:
            found.add(_TEMPLATE_OPERATION[name])
        elif name in ("getHeadEntity", "getTailEntity") and args[-1].startswith("#"):
            found.add("same")
    return frozenset(found)


@lru_cache(maxsize=4096)
def uses_time(program: tuple[str, ...]) -> bool:
    """Whether a program constrains by a question time (T, T1, T2)."""
    return any(_TIME_ARGUMENT.search(step) for step in program)


@lru_cache(maxsize=4096)
def roles_used(program: tuple[str, ...]) -> frozenset[str]:
    """The entity roles (E1, E2 ...) a program binds: a question with fewer mentions cannot bind it."""
    return frozenset(_ROLE.findall(" ".join(program)))


@lru_cache(maxsize=4096)
def dated(program: tuple[str, ...]) -> tuple[str, ...] | None:
    """The program with its answer lookup (the last entity lookup without a time) restricted to
    the question's time; None when it already uses one or has no such lookup.

    "Who first criticised Iraq in 2006?" fits the cluster of "Who first criticised Iraq?" except
    for the year: the methodology need not have seen the dated form of every program."""
    if uses_time(program):
        return None
    for index in range(len(program) - 1, -1, -1):
        match = _UNDATED_LOOKUP.fullmatch(program[index])
        if match:
            return (*program[:index], f"{match.group(1)}, T)", *program[index + 1 :])
    return None


@lru_cache(maxsize=4096)
def consistent_joins(program: tuple[str, ...]) -> bool:
    """Whether every same-period join keeps its entity where the referenced getTime had it.

    After getTime(E2, R, E1) (E1 the tail), "who else did R to E1 that day" is getHeadEntity(E1,
    R, #1): E1 stays the tail. getTailEntity(E1, R, #1) asks what E1 did to others, which answers
    the question only when R happens to be symmetric."""
    steps = _steps(program)
    for name, args in steps:
        if name not in ("getHeadEntity", "getTailEntity") or not args[-1].startswith("#"):
            continue
        reference = int(args[-1][1:])
        if not 1 <= reference <= len(steps) or steps[reference - 1][0] != "getTime":
            continue
        head, _relation, tail = steps[reference - 1][1]
        entity = args[0]
        if (entity == tail and name != "getHeadEntity") or (entity == head and entity != tail and name != "getTailEntity"):
            return False
    return True


def _steps(program: tuple[str, ...]) -> list[tuple[str, list[str]]]:
    parsed = []
    for step in program:
        match = _STEP.fullmatch(step)
        name, args = (match.group(1), match.group(2)) if match else (step, "")
        parsed.append((name, [a.strip() for a in args.split(",")]))
    return parsed
