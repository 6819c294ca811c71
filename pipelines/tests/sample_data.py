"""Where the sample runs are and what they hold, for the tests (a module, not conftest,
so that its names can be imported without clashing with other conftest files)."""

from __future__ import annotations

from pathlib import Path

import duckdb

TESTS = Path(__file__).resolve().parent
SAMPLE_RUNS = TESTS / "data" / "runs"
REPO = TESTS.parents[1]
BASE_CAMPAIGN = "20261101T1000Z-sample"  # fixlab 0.0.9
HEAD_CAMPAIGN = "20261115T1000Z-sample"  # fixlab 0.1.0
TABLES = ("releases", "campaigns", "runs", "hosts", "run_contents", "run_steadiness", "latency_samples",
          "throughput_points", "reference_results")


def snapshot(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple]]:
    """Every row of every table, to prove that a refused ingest changed nothing."""
    return {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}


def run_dir(runs: Path, campaign: str, run_id: str) -> Path:
    return runs / campaign / run_id
