"""Steady state: each rule on its own, and every ingested run assessed and stored."""

from __future__ import annotations

from fixlab_pipelines import steady


def test_a_flat_latency_run_is_steady() -> None:
    assert steady.assess_latency(10_000, 10_400, 10_100, 10_500, 10_300, 50_000) == (True, "steady")


def test_a_run_still_warming_up_is_not() -> None:
    ok, reason = steady.assess_latency(30_000, 10_000, 30_000, 10_000, 15_000, None)
    assert not ok and "first third" in reason


def test_a_paced_run_that_cannot_keep_up_is_not() -> None:
    # 50,000 msg/s is a send every 20 µs; a median 5 ms behind schedule is a queue.
    ok, reason = steady.assess_latency(9_000, 9_500, 5_000_000, 5_100_000, 5_000_000, 50_000)
    assert not ok and "keep up" in reason


def test_a_growing_backlog_is_not_steady() -> None:
    ok, reason = steady.assess_latency(9_000, 9_500, 20_000, 150_000, 90_000, 50_000)
    assert not ok and "backlog" in reason


def test_a_small_absolute_backlog_change_is_tolerated() -> None:
    # Doubling from 5 to 11 µs is less than one 20 µs send interval: jitter, not a backlog.
    assert steady.assess_latency(5_000, 5_500, 5_000, 11_000, 7_000, 50_000)[0]


def test_throughput_rules() -> None:
    assert steady.assess_throughput(2.0e6, 2.2e6)[0]
    ok, reason = steady.assess_throughput(1.0e6, 2.5e6)
    assert not ok and "warmed up" in reason


def test_every_ingested_run_is_assessed(con) -> None:
    missing = con.execute("SELECT count(*) FROM runs WHERE run_key NOT IN (SELECT run_key FROM run_steadiness)"
                          ).fetchone()[0]
    assert missing == 0
    assert con.execute("SELECT count(*) FROM run_steadiness WHERE steady").fetchone()[0] > 0
    # run_stat_values and config_stats carry the assessment.
    assert con.execute("SELECT count(*) FROM run_stat_values WHERE steady IS NULL").fetchone()[0] == 0
    assert "unsteady_repetitions" in con.execute("SELECT * FROM config_stats LIMIT 0").df().columns


def test_cpu_readings_that_agree_are_steady_and_missing_ones_judge_nothing() -> None:
    assert steady.assess_cpu_distance({"cpus": [0, 1], "before_ns": 61, "after_ns": 118}) == (True, "steady")
    assert steady.assess_cpu_distance({"cpus": [0, 1], "before_ns": 330, "after_ns": 318}) == (True, "steady")
    assert steady.assess_cpu_distance({"cpus": [0, 1], "before_ns": None, "after_ns": 318}) == (True, "steady")
    assert steady.assess_cpu_distance(None) == (True, "steady")


def test_cpu_readings_apart_by_more_than_the_bound_either_way_are_not() -> None:
    assert steady.assess_cpu_distance({"cpus": [0, 1], "before_ns": 51, "after_ns": 127})[0]  # both near, here
    assert not steady.assess_cpu_distance({"cpus": [0, 1], "before_ns": 61, "after_ns": 190})[0]
    ok, reason = steady.assess_cpu_distance({"cpus": [2, 7], "before_ns": 340, "after_ns": 65})
    assert not ok
    assert "between CPUs 2 and 7 took 340 ns before it and 65 ns after it" in reason
