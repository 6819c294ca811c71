"""Statistics: exact against an independent computation, and within HdrHistogram's precision."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hdrh.histogram import HdrHistogram

from fixlab_pipelines import stats
from fixlab_pipelines.samples import hgrm_percentiles
from sample_data import HEAD_CAMPAIGN, SAMPLE_RUNS

PERCENTILES = {"p50_ns": 50.0, "p90_ns": 90.0, "p95_ns": 95.0, "p99_ns": 99.0, "p999_ns": 99.9, "p9999_ns": 99.99}


def _samples(con, run_key: str, column: str = "latency_ns") -> np.ndarray:
    return con.execute(f"SELECT {column} FROM latency_samples WHERE run_key = ?", [run_key]).fetchnumpy()[column]


def _nearest_rank(values: np.ndarray, percentile: float) -> int:
    ordered = np.sort(values)
    rank = max(1, math.ceil(round(percentile / 100 * len(values), 9)))
    return int(ordered[rank - 1])


def _latency_runs(con) -> list[str]:
    return [r[0] for r in con.execute("SELECT run_key FROM runs WHERE kind = 'latency' ORDER BY 1").fetchall()]


def test_run_stats_are_exact(con) -> None:
    for run_key in _latency_runs(con):
        for metric, column in (("latency", "latency_ns"), ("latency_from_intended", "latency_from_intended_ns")):
            values = _samples(con, run_key, column)
            row = con.execute("SELECT * FROM run_stats WHERE run_key = ? AND metric = ?",
                              [run_key, metric]).df().iloc[0]
            assert row["count"] == len(values)
            assert row["min_ns"] == values.min() and row["max_ns"] == values.max()
            assert row["mean_ns"] == pytest.approx(values.mean(), rel=1e-12)
            assert row["stddev_ns"] == pytest.approx(values.std(ddof=0), rel=1e-9)
            for name, p in PERCENTILES.items():
                assert row[name] == _nearest_rank(values, p), (run_key, metric, name)


def test_golden_figures_of_one_run(con) -> None:
    # Pinned so that a change in the generator or the definitions shows up here first.
    row = con.execute(
        "SELECT count, min_ns, p50_ns, p99_ns, max_ns FROM run_stats WHERE metric = 'latency' AND run_key = ?",
        [f"{HEAD_CAMPAIGN}/rtt-echo.paced.fixlab.optimized.r1"]).fetchone()
    assert row == (2000, 4077, 6086, 8085, 149116)


def test_percentiles_agree_with_hdrhistogram(con) -> None:
    for run_key in _latency_runs(con):
        values = _samples(con, run_key)
        histogram = HdrHistogram(1, 3_600_000_000_000, 3)
        for v in values:
            histogram.record_value(int(v))
        row = con.execute("SELECT * FROM run_stats WHERE run_key = ? AND metric = 'latency'", [run_key]).df().iloc[0]
        for name, p in PERCENTILES.items():
            ours, theirs = int(row[name]), histogram.get_value_at_percentile(p)
            # Same rank at these sample counts; HdrHistogram reports its bucket's top value.
            assert histogram.values_are_equivalent(ours, theirs), (run_key, name, ours, theirs)
        assert row["mean_ns"] == pytest.approx(histogram.get_mean_value(), rel=1e-3)
        assert histogram.values_are_equivalent(int(row["min_ns"]), histogram.get_min_value())
        assert histogram.values_are_equivalent(int(row["max_ns"]), histogram.get_max_value())


def test_percentiles_agree_with_the_runs_hgrm_files(con) -> None:
    checked = 0
    for hgrm in sorted(SAMPLE_RUNS.glob("*/*/latency.hgrm")):
        run_key = f"{hgrm.parent.parent.name}/{hgrm.parent.name}"
        values = np.sort(_samples(con, run_key))
        for percentile, value_ns in hgrm_percentiles(hgrm):
            if percentile in (0.0, 100.0):
                continue
            ours = con.execute("SELECT quantile_disc(latency_ns, ?) FROM latency_samples WHERE run_key = ?",
                               [percentile / 100, run_key]).fetchone()[0]
            # .hgrm values are printed in µs with 3 decimals: 1 ns of rounding, plus
            # HdrHistogram's 3 significant digits (its bucket is at most 1/1024 of the value).
            assert abs(ours - value_ns) <= value_ns / 1024 + 1, (hgrm, percentile, ours, value_ns)
            checked += 1
        assert len(values) > 0
    assert checked > 1000


def test_config_stats_summarise_repetitions(con) -> None:
    frame = stats.config_stats(con, "latency", campaign=HEAD_CAMPAIGN, scenario="rtt-echo",
                               workload_mode="paced", product="fixlab", configuration="optimized")
    p99 = frame[frame.statistic == "p99_ns"].iloc[0]
    per_run = con.execute(
        "SELECT p99_ns FROM run_stats WHERE campaign = ? AND scenario = 'rtt-echo' AND workload_mode = 'paced' "
        "AND product = 'fixlab' AND configuration = 'optimized' AND metric = 'latency'",
        [HEAD_CAMPAIGN]).fetchnumpy()["p99_ns"]
    assert p99["repetitions"] == 3
    assert p99["median"] == np.median(per_run)
    assert p99["min"] == per_run.min() and p99["max"] == per_run.max()
    assert p99["spread_pct"] == pytest.approx((per_run.max() - per_run.min()) / np.median(per_run) * 100)


def test_throughput_stats(con) -> None:
    row = con.execute(
        "SELECT messages, elapsed_ns, messages_per_second FROM throughput_stats WHERE run_key = ?",
        [f"{HEAD_CAMPAIGN}/throughput.stream.fixlab.optimized.r1"]).fetchone()
    assert row[0] == 1_000_000
    assert row[2] == pytest.approx(row[0] * 1e9 / row[1])


def test_reference_figures_stay_out_of_our_statistics(con) -> None:
    names = {r[0] for r in con.execute("SELECT DISTINCT product FROM run_stat_values").fetchall()}
    assert names == {"fixlab", "quickfixj"}
