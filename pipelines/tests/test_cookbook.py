"""The SQL cookbook in the site docs: every query in it runs and returns rows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fixlab_pipelines import db
from fixlab_pipelines.releases import load_releases

COOKBOOK = Path(__file__).parents[2] / "site" / "guide" / "diffing-in-duckdb.md"
QUERIES = re.findall(r"```sql\n(.*?)```", COOKBOOK.read_text(encoding="utf-8"), flags=re.DOTALL)
REFERENCE = Path(__file__).parents[2] / "data" / "reference"


def test_cookbook_has_queries() -> None:
    assert len(QUERIES) >= 6


@pytest.fixture(scope="module")
def cookbook_db(loaded: Path, tmp_path_factory: pytest.TempPathFactory):
    from fixlab_pipelines.reference import load_reference

    path = tmp_path_factory.mktemp("cookbook") / "fixlab.duckdb"
    path.write_bytes(loaded.read_bytes())
    releases = path.parent / "releases.csv"
    releases.write_text("product,version,commit,date,campaign\n"
                        "fixlab,0.0.9,a1b2c3d,2026-11-01,20261101T1000Z-sample\n"
                        "fixlab,0.1.0,3f2a9c1,2026-11-15,20261115T1000Z-sample\n")
    con = db.connect(path)
    load_releases(con, releases)
    load_reference(con, REFERENCE)
    yield con
    con.close()


@pytest.mark.parametrize("query", QUERIES, ids=[f"query{i + 1}" for i in range(len(QUERIES))])
def test_cookbook_query_runs(cookbook_db, query: str) -> None:
    rows = cookbook_db.execute(query).fetchall()
    assert rows, query


def test_release_query_agrees_with_config_stats(cookbook_db) -> None:
    diff_query = next(q for q in QUERIES if "change_pct" in q)
    frame = cookbook_db.execute(diff_query).df()
    row = frame[(frame.scenario == "rtt-echo") & (frame.workload_mode == "paced") & (frame["product"] == "fixlab")
                & (frame.configuration == "optimized") & (frame.statistic == "p50_ns")].iloc[0]
    assert -20 < row.change_pct < -10  # the generator made 0.1.0 about 15% faster here
    assert row.same_hardware
