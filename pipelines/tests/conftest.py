"""Shared fixtures: copies of the sample runs and databases built from them in tmp paths.

Ingest converts run folders in place (CSV -> Parquet), so tests always work on copies.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from fixlab_pipelines import db
from fixlab_pipelines.ingest import ingest_paths

TESTS = Path(__file__).resolve().parent
SAMPLE_RUNS = TESTS / "data" / "runs"
REPO = TESTS.parents[1]
BASE_CAMPAIGN = "20261101T1000Z-sample"  # fixlab 0.0.9
HEAD_CAMPAIGN = "20261115T1000Z-sample"  # fixlab 0.1.0
TABLES = ("releases", "campaigns", "runs", "hosts", "latency_samples", "throughput_points", "reference_results")


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    """A writable copy of the sample runs."""
    target = tmp_path / "runs"
    shutil.copytree(SAMPLE_RUNS, target)
    return target


@pytest.fixture(scope="session")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with every sample run ingested (read it, do not change it)."""
    root = tmp_path_factory.mktemp("loaded")
    shutil.copytree(SAMPLE_RUNS, root / "runs")
    path = root / "fixlab.duckdb"
    con = db.connect(path)
    outcomes = ingest_paths(con, [root / "runs"])
    assert [o.message for o in outcomes if o.status != "ingested"] == []
    con.close()
    return path


@pytest.fixture
def con(loaded: Path):
    connection = db.connect(loaded, read_only=True)
    yield connection
    connection.close()


def snapshot(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple]]:
    """Every row of every table, to prove that a refused ingest changed nothing."""
    return {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}


def run_dir(runs: Path, campaign: str, run_id: str) -> Path:
    return runs / campaign / run_id
