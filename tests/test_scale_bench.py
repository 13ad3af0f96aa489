"""The pure parts of benchmarks/scale_bench.py: sizes, renamed copies, the stride sample, the exponent."""

from __future__ import annotations

import argparse
import math

import pytest

from benchmarks.scale_bench import (
    compare_answers,
    copy_name,
    copy_plan,
    growth_exponent,
    parse_size,
    project,
    scaled_lines,
    size_label,
    stride_kept,
    write_kg,
)

FACTS = [
    "Angela_Merkel\tMake_a_visit\tChina\t2005-01-02",
    "China\tHost_a_visit\tAngela_Merkel\t2005-01-02",
    "Defense_/_Security_Ministry_(Denmark)\tSign_formal_agreement\tChina\t2009-03-04",
    "Barack_Obama\tPraise\tAngela_Merkel\t2014-12-31",
]


def test_sizes_read_and_print() -> None:
    assert parse_size("0.5M") == 500_000
    assert parse_size("2.5m") == 2_500_000
    assert parse_size("50k") == 50_000
    assert parse_size("1200") == 1200
    assert [size_label(n) for n in (500_000, 10_000_000, 50_000, 999)] == ["0.5M", "10M", "50k", "999"]
    for bad in ("", "M", "-1M", "ten"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_size(bad)


def test_copy_zero_keeps_names_and_others_read_as_copies() -> None:
    assert copy_name("Angela_Merkel", 0) == "Angela_Merkel"
    assert copy_name("Angela_Merkel", 3).replace("_", " ") == "Angela Merkel (copy 3)"
    names = {copy_name("China", c) for c in range(25)}
    assert len(names) == 25  # every copy's entity is distinct


def test_plan_takes_whole_copies_then_a_part() -> None:
    assert copy_plan(461_329, 500_000) == [(0, 461_329), (1, 38_671)]
    assert copy_plan(4, 8) == [(0, 4), (1, 4)]
    assert copy_plan(4, 3) == [(0, 3)]
    assert sum(kept for _, kept in copy_plan(461_329, 10_000_000)) == 10_000_000


@pytest.mark.parametrize("total,keep", [(10, 3), (461, 38), (7, 7), (5, 0), (1000, 999)])
def test_stride_keeps_exactly_keep_lines_spread_out(total: int, keep: int) -> None:
    kept = [i for i in range(total) if stride_kept(i, total, keep)]
    assert len(kept) == keep
    if keep >= 2:  # evenly: no gap more than one stride wider than the others
        gaps = [b - a for a, b in zip(kept, kept[1:])]
        assert max(gaps) - min(gaps) <= 1


def test_scaled_kg_renames_every_entity_of_later_copies_only() -> None:
    lines = list(scaled_lines(FACTS, 10))
    assert len(lines) == 10 and len(set(lines)) == 10
    assert lines[:4] == FACTS  # copy 0 unchanged: the dataset's own questions still apply
    assert lines[4] == "Angela_Merkel_(copy_1)\tMake_a_visit\tChina_(copy_1)\t2005-01-02"
    assert lines[6] == "Defense_/_Security_Ministry_(Denmark)_(copy_1)\tSign_formal_agreement\tChina_(copy_1)\t2009-03-04"
    relations_and_times = {tuple(line.split("\t")[1::2]) for line in lines}
    assert relations_and_times == {tuple(f.split("\t")[1::2]) for f in FACTS}
    assert all("(copy_2)" in line for line in lines[8:])


def test_written_kg_is_reused_only_when_its_size_is_right(tmp_path) -> None:
    source, out = tmp_path / "full.txt", tmp_path / "kg.tsv"
    source.write_text("\n".join(FACTS) + "\n", encoding="utf-8")
    assert write_kg(source, 6, out) >= 0
    assert out.read_text(encoding="utf-8").splitlines() == list(scaled_lines(FACTS, 6))
    out.write_text("changed\n" * 6, encoding="utf-8")
    assert write_kg(source, 6, out) == 0.0  # six lines there: reused as it is
    write_kg(source, 7, out)
    assert len(out.read_text(encoding="utf-8").splitlines()) == 7


def test_growth_exponent_is_the_log_log_slope() -> None:
    sizes = [0.5e6, 2.5e6, 10e6]
    assert growth_exponent(sizes, [1.0, 5.0, 20.0]) == pytest.approx(1.0)
    assert growth_exponent(sizes, [3.0, 3.0, 3.0]) == pytest.approx(0.0)
    assert growth_exponent(sizes, [s**2 for s in sizes]) == pytest.approx(2.0)
    assert growth_exponent([1, 4], [2.0, 4.0]) == pytest.approx(math.log(2) / math.log(4))
    assert growth_exponent(sizes, [1.0, None, 20.0]) == pytest.approx(math.log(20) / math.log(20))
    assert growth_exponent(sizes, [None, None, 20.0]) is None  # a failed size leaves too few points
    assert growth_exponent([5, 5], [1.0, 2.0]) is None


def test_projection_follows_the_power_law() -> None:
    assert project(2_500_000, 10.0, 1.0) == pytest.approx(40.0)
    assert project(2_500_000, 10.0, 0.0) == pytest.approx(10.0)
    assert project(10_000_000, 7.0, 2.0) == pytest.approx(7.0)  # measured at 10M: unchanged


def test_answers_compared_wholly_by_top_and_as_a_set() -> None:
    def served(*answers: list[str]) -> dict:
        return {"serve": {"answers": [{"answer": a[0] if a else None, "answers": a, "abstained": not a} for a in answers]}}

    questions = [{"quid": i, "question": f"q{i}"} for i in range(4)]
    reference = served(["A", "B"], ["C"], ["D", "E"], [])
    here = served(["A", "B"], ["C", "X"], ["E", "D"], [])
    compared = compare_answers(reference, here, questions)
    assert (compared["compared"], compared["same"], compared["same_top"], compared["same_set"]) == (4, 2, 3, 3)
    assert [d["quid"] for d in compared["differ"]] == [1, 2]
    assert compare_answers(reference, {}, questions) == {"compared": 0}
