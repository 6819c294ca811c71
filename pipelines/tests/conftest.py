"""Shared fixtures: copies of the sample runs and databases built from them in tmp paths.

Ingest converts run folders in place (CSV -> Parquet), so tests always work on copies.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fixlab_pipelines import db
from fixlab_pipelines.ingest import ingest_paths
from sample_data import SAMPLE_RUNS


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
