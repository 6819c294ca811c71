"""Diff: verdicts need effect and support, noise is not a regression, hardware must match."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from fixlab_pipelines import cli, db, diff
from fixlab_pipelines.errors import UsageError
from fixlab_pipelines.ingest import ingest_paths
from sample_data import BASE_CAMPAIGN, HEAD_CAMPAIGN


def _verdicts(frame: pd.DataFrame, statistic: str) -> dict[tuple[str, str, str, str], str]:
    rows = frame[frame.statistic == statistic]
    return {(r.scenario, r.workload_mode, r.product, r.configuration): r.verdict for r in rows.itertuples()}


def test_release_diff_finds_the_planted_changes(con) -> None:
    frame = diff.compare(con, diff.parse_side(con, BASE_CAMPAIGN), diff.parse_side(con, HEAD_CAMPAIGN))
    p50 = _verdicts(frame, "p50_ns")
    assert p50[("rtt-echo", "paced", "fixlab", "optimized")] == "faster"
    assert p50[("rtt-echo", "paced", "fixlab", "balanced")] == "faster"
    assert p50[("internal-receive", "closed-loop", "fixlab", "optimized")] == "slower"
    # Unchanged code (fixlab elsewhere, QuickFIX/J 2.3.1 on both sides): only noise.
    for series in [("internal-send", "closed-loop", "fixlab", "optimized"),
                   ("conversion-42-44", "paced", "fixlab", "optimized"),
                   ("rtt-echo", "paced", "quickfixj", "default")]:
        assert p50[series] == "no change", series
    assert _verdicts(frame, "messages_per_second")[("throughput", "stream", "quickfixj", "default")] == "no change"
    assert set(frame.base_versions[frame["product"] == "fixlab"]) == {"0.0.9"}
    assert not frame.hardware_differs.any()


def test_a_campaign_against_itself_never_changes(con) -> None:
    side = diff.parse_side(con, HEAD_CAMPAIGN)
    frame = diff.compare(con, side, side)
    assert set(frame.verdict) <= {"no change", "inconclusive"}
    assert "no change" in set(frame.verdict)
    assert (frame.change_pct == 0).all()


def test_large_noisy_change_is_inconclusive() -> None:
    e = diff.evidence(np.array([100.0, 160.0, 90.0]), np.array([95.0, 170.0, 140.0]))
    assert diff._percent(e.change) > 5
    assert diff.verdict("p99_ns", e, 5.0) == "inconclusive"


def test_small_quiet_change_is_no_change_and_a_clear_one_a_verdict() -> None:
    quiet = np.array([100.0, 100.5, 99.5])
    assert diff.verdict("p50_ns", diff.evidence(quiet, quiet * 0.98), 5.0) == "no change"
    assert diff.verdict("p50_ns", diff.evidence(quiet, quiet * 0.90), 5.0) == "faster"
    assert diff.verdict("messages_per_second", diff.evidence(quiet, quiet * 0.90), 5.0) == "slower"


def test_overlapping_repetitions_never_give_a_verdict() -> None:
    # A 15% change in the means, but one repetition of each side crosses the other side.
    e = diff.evidence(np.array([100.0, 101.0, 125.0]), np.array([118.0, 119.0, 121.0]) * 1.05)
    assert not e.ranked
    assert diff.verdict("p50_ns", e, 5.0) != "slower"


def test_campaign_floor_keeps_a_lucky_quiet_series_honest() -> None:
    # Three repetitions that happen to agree closely, in a campaign whose noise is 10%.
    base, head = np.array([100.0, 100.1, 100.2]), np.array([107.0, 107.1, 107.2])
    assert diff.verdict("p50_ns", diff.evidence(base, head), 5.0) == "slower"
    assert diff.verdict("p50_ns", diff.evidence(base, head, noise_floor=0.10), 5.0) == "inconclusive"


def test_configuration_diff_pairs_configurations(con) -> None:
    frame = diff.compare(con, diff.parse_side(con, f"campaign={HEAD_CAMPAIGN},configuration=balanced"),
                         diff.parse_side(con, f"campaign={HEAD_CAMPAIGN},configuration=optimized"))
    assert set(zip(frame.scenario, frame.workload_mode, frame["product"], strict=True)) == {
        ("rtt-echo", "paced", "fixlab")}
    assert set(frame[frame.statistic == "p50_ns"].verdict) == {"faster"}


def test_a_side_spanning_campaigns_is_refused(con) -> None:
    with pytest.raises(UsageError, match="several campaigns"):
        diff.compare(con, diff.parse_side(con, "product=quickfixj"), diff.parse_side(con, "product=fixlab"))


def test_paired_diff_pairs_repetitions_of_one_campaign(con, loaded: Path, capsys) -> None:
    balanced = diff.parse_side(con, f"campaign={HEAD_CAMPAIGN},configuration=balanced")
    optimized = diff.parse_side(con, f"campaign={HEAD_CAMPAIGN},configuration=optimized")
    frame = diff.compare(con, balanced, optimized, paired=True)
    # the sample campaign has three repetitions: paired, that is too few for a verdict, and it says so
    assert set(frame.verdict) == {"inconclusive"}
    assert set(frame.reason) == {f"3 steady pairs, {diff.MIN_PAIRS} needed"}
    assert cli.main(["diff", "--db", str(loaded), "--paired", f"campaign={HEAD_CAMPAIGN},configuration=balanced",
                     f"campaign={HEAD_CAMPAIGN},configuration=optimized"]) == 0
    assert "3 steady pairs, 5 needed" in capsys.readouterr().out


def test_paired_diff_refuses_two_campaigns(con) -> None:
    with pytest.raises(UsageError, match="one campaign repetition by repetition"):
        diff.compare(con, diff.parse_side(con, BASE_CAMPAIGN), diff.parse_side(con, HEAD_CAMPAIGN), paired=True)


def _runs(values: dict[int, tuple[float, bool]]) -> pd.DataFrame:
    return pd.DataFrame([{"campaign": "c", "repetition": r, "value": v, "steady": steady}
                         for r, (v, steady) in values.items()])


def test_pairs_are_the_repetitions_steady_on_both_sides_in_order() -> None:
    base = _runs({3: (30.0, True), 1: (10.0, True), 2: (20.0, False), 4: (40.0, True)})
    head = _runs({1: (11.0, True), 2: (22.0, True), 3: (33.0, True), 5: (55.0, True)})
    b, h = diff.steady_values(base, head, paired=True)
    assert b.tolist() == [10.0, 30.0] and h.tolist() == [11.0, 33.0]
    # unpaired, each side keeps its own steady runs
    b, h = diff.steady_values(base, head, paired=False)
    assert sorted(b.tolist()) == [10.0, 30.0, 40.0] and sorted(h.tolist()) == [11.0, 22.0, 33.0, 55.0]


def test_a_side_with_two_runs_of_a_repetition_cannot_be_paired() -> None:
    twice = pd.concat([_runs({1: (10.0, True)}), _runs({1: (12.0, True)})])
    with pytest.raises(UsageError, match="several runs of repetition 1"):
        diff._check_pairable(diff.Side("a", {}), diff.Side("b", {}),
                             [(("rtt-echo", "paced", "p50_ns"), twice, _runs({1: (11.0, True)}))])


def test_unknown_side_is_refused(con) -> None:
    with pytest.raises(UsageError, match="neither a release"):
        diff.parse_side(con, "9.9.9")


@pytest.fixture
def other_hardware(runs: Path, tmp_path: Path) -> Path:
    """The sample runs plus a copy of the 0.1.0 campaign taken on a different CPU."""
    other = runs / "20261116T1000Z-otherbox"
    shutil.copytree(runs / HEAD_CAMPAIGN, other)
    for manifest in other.glob("*/manifest.json"):
        data = json.loads(manifest.read_text())
        data["campaign"] = other.name
        for host in data["hardware"]["hosts"]:
            host["cpu_model"] = "Intel(R) Xeon(R) Gold 6338"
        manifest.write_text(json.dumps(data, indent=2))
    path = tmp_path / "hw.duckdb"
    con = db.connect(path)
    assert {o.status for o in ingest_paths(con, [runs])} == {"ingested"}
    con.close()
    return path


def test_different_hardware_is_refused(other_hardware: Path, capsys) -> None:
    code = cli.main(["diff", "--db", str(other_hardware), HEAD_CAMPAIGN, "20261116T1000Z-otherbox"])
    err = capsys.readouterr().err
    assert code == 2
    assert "refusing to compare runs taken on different hardware" in err
    assert "Intel(R) Xeon(R) Gold 6338" in err and "AMD EPYC" in err


def test_different_hardware_can_be_compared_flagged(other_hardware: Path, capsys) -> None:
    code = cli.main(["diff", "--db", str(other_hardware), "--allow-different-hardware", "--format", "json",
                     HEAD_CAMPAIGN, "20261116T1000Z-otherbox"])
    captured = capsys.readouterr()
    rows = json.loads(captured.out)
    assert code == 0
    assert rows and all(r["hardware_differs"] for r in rows)
    assert "DIFFERENT HARDWARE" in captured.err
    code = cli.main(["diff", "--db", str(other_hardware), "--allow-different-hardware",
                     HEAD_CAMPAIGN, "20261116T1000Z-otherbox"])
    assert "!!! DIFFERENT HARDWARE" in capsys.readouterr().out


def test_diff_outputs_for_scripts(loaded: Path, capsys) -> None:
    assert cli.main(["diff", "--db", str(loaded), "--format", "csv", BASE_CAMPAIGN, HEAD_CAMPAIGN]) == 0
    frame = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert {"scenario", "statistic", "base", "head", "change_pct", "ci_low_pct", "ci_high_pct",
            "verdict", "hardware_differs"} <= set(frame.columns)
    assert cli.main(["diff", "--db", str(loaded), "--format", "json", BASE_CAMPAIGN, HEAD_CAMPAIGN]) == 0
    assert len(json.loads(capsys.readouterr().out)) == len(frame)
    assert cli.main(["diff", "--db", str(loaded), BASE_CAMPAIGN, HEAD_CAMPAIGN]) == 0
    table = capsys.readouterr().out
    assert "faster" in table and "slower" in table and "p50_us" in table


def test_each_sides_figure_is_the_median_of_its_steady_runs(loaded: Path, tmp_path: Path) -> None:
    """A run that did not reach a steady state stays on its page but is never averaged into a comparison."""
    copy = tmp_path / "c.duckdb"
    shutil.copy(loaded, copy)
    con = db.connect(copy)
    balanced = diff.parse_side(con, f"campaign={HEAD_CAMPAIGN},configuration=balanced")
    optimized = diff.parse_side(con, f"campaign={HEAD_CAMPAIGN},configuration=optimized")
    steady_key = "run_key LIKE '%rtt-echo.paced.fixlab.optimized.r%'"
    p50 = dict(con.execute(f"SELECT repetition, value FROM run_stat_values WHERE {steady_key} "
                           "AND metric = 'latency' AND statistic = 'p50_ns'").fetchall())
    con.execute(f"UPDATE run_steadiness SET steady = false, reason = 'test' WHERE {steady_key} AND run_key LIKE '%.r3'")
    frame = diff.compare(con, balanced, optimized)
    row = frame[(frame.statistic == "p50_ns") & (frame.metric == "latency")].iloc[0]
    assert row["head"] == pytest.approx(np.median([p50[1], p50[2]]))
    assert row["head_repetitions"] == 2


def test_the_change_is_that_of_the_geometric_means_the_figures_medians(con) -> None:
    """What the comparison pages say: each side's figure is the median of its steady runs, the change (which
    the interval and the verdict are about) that of their geometric means."""
    frame = diff.compare(con, diff.parse_side(con, BASE_CAMPAIGN), diff.parse_side(con, HEAD_CAMPAIGN))
    series = {"scenario": "rtt-echo", "workload_mode": "paced", "product": "fixlab", "configuration": "optimized"}
    row = frame[(frame.statistic == "p50_ns") & (frame.metric == "latency")
                & np.logical_and.reduce([frame[k] == v for k, v in series.items()])].iloc[0]

    def steady(campaign: str) -> np.ndarray:
        where = " AND ".join(f"{k} = ?" for k in series)
        return np.array([v for (v,) in con.execute(
            f"SELECT value FROM run_stat_values WHERE campaign = ? AND {where} AND metric = 'latency' "
            "AND statistic = 'p50_ns' AND steady", [campaign, *series.values()]).fetchall()])

    base, head = steady(BASE_CAMPAIGN), steady(HEAD_CAMPAIGN)
    assert len(base) >= 3 and len(head) >= 3
    assert row["base"] == pytest.approx(np.median(base)) and row["head"] == pytest.approx(np.median(head))
    assert row["change_pct"] == pytest.approx(np.expm1(np.log(head).mean() - np.log(base).mean()) * 100)
