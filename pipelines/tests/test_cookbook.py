"""The SQL cookbook in the site docs: every query in it runs, in Python and in the `duckdb`
command the guide tells readers to open, and both return the same rows."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from duckdb_cli import CLI, cli_query, python_query, same_rows
from fixlab_pipelines import db
from fixlab_pipelines.releases import load_releases

REPO = Path(__file__).parents[2]
COOKBOOK = REPO / "site" / "guide" / "diffing-in-duckdb.md"
QUERIES = re.findall(r"```sql\n(.*?)```", COOKBOOK.read_text(encoding="utf-8"), flags=re.DOTALL)
REFERENCE = REPO / "data" / "reference"


def test_cookbook_has_queries() -> None:
    assert len(QUERIES) >= 6


def test_the_guide_opens_the_database_with_the_duckdb_command_make_venv_installs() -> None:
    block = re.search(r"```console\n(.*?)```", COOKBOOK.read_text(encoding="utf-8"), flags=re.DOTALL).group(1)
    assert block.splitlines() == ["make data", ".venv/bin/duckdb data/fixlab.duckdb"]
    assert CLI.exists(), f"{CLI}: the duckdb-cli package of pyproject.toml is not installed"


@pytest.fixture(scope="module")
def cookbook_file(loaded: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample database with releases and reference results, closed so the CLI can open it too."""
    from fixlab_pipelines.reference import load_reference

    path = tmp_path_factory.mktemp("cookbook") / "fixlab.duckdb"
    shutil.copyfile(loaded, path)
    releases = path.parent / "releases.csv"
    releases.write_text("product,version,commit,date,campaign\n"
                        "fixlab,0.0.9,a1b2c3d,2026-11-01,20261101T1000Z-sample\n"
                        "fixlab,0.1.0,3f2a9c1,2026-11-15,20261115T1000Z-sample\n")
    con = db.connect(path)
    try:
        load_releases(con, releases)
        load_reference(con, REFERENCE)
    finally:
        con.close()
    return path


@pytest.fixture(scope="module")
def cookbook_db(cookbook_file: Path):
    con = db.connect(cookbook_file, read_only=True)
    yield con
    con.close()


@pytest.mark.parametrize("query", QUERIES, ids=[f"query{i + 1}" for i in range(len(QUERIES))])
def test_cookbook_query_gives_the_same_rows_in_python_and_in_the_cli(cookbook_db, cookbook_file: Path,
                                                                     query: str) -> None:
    columns, rows = python_query(cookbook_db, query)
    assert rows, query
    cli_columns, cli_rows = cli_query(cookbook_file, query)
    assert cli_columns == columns
    assert same_rows(cli_rows, rows), f"{query}\nPython: {rows[:5]}\nCLI: {cli_rows[:5]}"


def test_the_cli_reads_a_file_the_pipeline_created(tmp_path: Path) -> None:
    """db.connect writes in the storage format of the pinned CLI (duckdb 2.x's own it refuses)."""
    path = tmp_path / "fresh.duckdb"
    db.connect(path).close()
    columns, rows = cli_query(path, "SELECT count(*) AS views FROM duckdb_views() WHERE NOT internal;")
    assert columns == ["views"] and rows[0][0] >= 4


def test_release_query_agrees_with_config_stats(cookbook_db) -> None:
    diff_query = next(q for q in QUERIES if "change_pct" in q)
    frame = cookbook_db.execute(diff_query).df()
    row = frame[(frame.scenario == "rtt-echo") & (frame.workload_mode == "paced") & (frame["product"] == "fixlab")
                & (frame.configuration == "optimized") & (frame.statistic == "p50_ns")].iloc[0]
    assert -20 < row.change_pct < -10  # the generator made 0.1.0 about 15% faster here
    assert row.same_hardware
