"""add-version and the releases file: the one command for a new version's data."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from fixlab_pipelines import cli, db
from fixlab_pipelines.errors import ValidationError
from fixlab_pipelines.releases import read_releases
from sample_data import BASE_CAMPAIGN, HEAD_CAMPAIGN, SAMPLE_RUNS, snapshot


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    (data / "runs").mkdir(parents=True)
    return data


def _add(data: Path, version: str, campaign: Path, *extra: str) -> int:
    return cli.main(["add-version", version, "--db", str(data / "fixlab.duckdb"), "--data", str(data),
                     "--campaign", str(campaign), "--date", "2026-11-16", *extra])


def test_add_version_records_release_and_ingests_campaign(data_dir: Path, tmp_path: Path) -> None:
    shutil.copytree(SAMPLE_RUNS / HEAD_CAMPAIGN, tmp_path / "incoming" / HEAD_CAMPAIGN)
    assert _add(data_dir, "0.1.0", tmp_path / "incoming" / HEAD_CAMPAIGN) == 0
    assert read_releases(data_dir / "releases.csv") == [
        {"product": "fixlab", "version": "0.1.0", "commit": "3f2a9c1", "date": "2026-11-16",
         "campaign": HEAD_CAMPAIGN}]
    stored = data_dir / "runs" / HEAD_CAMPAIGN / "rtt-echo.paced.fixlab.optimized.r1"
    assert sorted(p.name for p in stored.iterdir()) == ["latency.hgrm", "latency.parquet", "manifest.json"]
    con = db.connect(data_dir / "fixlab.duckdb")
    assert con.execute("SELECT version, commit, released_on::VARCHAR, campaign FROM releases").fetchall() == [
        ("0.1.0", "3f2a9c1", "2026-11-16", HEAD_CAMPAIGN)]
    assert con.execute("SELECT count(*) FROM runs").fetchone()[0] == 33


def test_release_versions_resolve_in_diff(data_dir: Path, capsys) -> None:
    shutil.copytree(SAMPLE_RUNS, data_dir / "runs", dirs_exist_ok=True)
    assert _add(data_dir, "0.0.9", data_dir / "runs" / BASE_CAMPAIGN) == 0
    assert _add(data_dir, "0.1.0", data_dir / "runs" / HEAD_CAMPAIGN) == 0
    capsys.readouterr()
    assert cli.main(["diff", "--db", str(data_dir / "fixlab.duckdb"), "--format", "json", "0.0.9", "0.1.0"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["base_versions"] for r in rows if r["product"] == "fixlab"} == {"0.0.9"}
    assert [v for v, _ in [(r["version"], 0) for r in read_releases(data_dir / "releases.csv")]] == ["0.0.9", "0.1.0"]


def test_data_folder_rebuilds_the_same_database(data_dir: Path, tmp_path: Path) -> None:
    shutil.copytree(SAMPLE_RUNS, data_dir / "runs", dirs_exist_ok=True)
    shutil.copytree(Path(__file__).parents[2] / "data" / "reference", data_dir / "reference")
    assert _add(data_dir, "0.0.9", data_dir / "runs" / BASE_CAMPAIGN) == 0
    assert _add(data_dir, "0.1.0", data_dir / "runs" / HEAD_CAMPAIGN) == 0
    assert cli.main(["ingest", "--db", str(data_dir / "fixlab.duckdb"), "--data", str(data_dir)]) == 0
    assert not list((data_dir / "runs").glob("*/*/*.csv"))  # only what gets committed is left
    rebuilt = tmp_path / "rebuilt.duckdb"
    assert cli.main(["ingest", "--rebuild", "--db", str(rebuilt), "--data", str(data_dir)]) == 0
    first, second = db.connect(data_dir / "fixlab.duckdb"), db.connect(rebuilt)
    a, b = snapshot(first), snapshot(second)
    for table in a:
        if table != "runs":
            assert a[table] == b[table], table
    no_time = "SELECT * EXCLUDE (ingested_at) FROM runs ORDER BY run_key"
    assert first.execute(no_time).fetchall() == second.execute(no_time).fetchall()
    assert len(a["reference_results"]) > 50 and len(a["releases"]) == 2


def test_refused_campaign_records_no_release(data_dir: Path, tmp_path: Path) -> None:
    incoming = tmp_path / "incoming" / HEAD_CAMPAIGN
    shutil.copytree(SAMPLE_RUNS / HEAD_CAMPAIGN, incoming)
    bad = incoming / "internal-send.closed-loop.fixlab.optimized.r2" / "latency.csv"
    bad.write_text(bad.read_text().replace("\n5,", "\n5,-", 1))
    assert _add(data_dir, "0.1.0", incoming) == 1
    assert not (data_dir / "releases.csv").exists()
    con = db.connect(data_dir / "fixlab.duckdb")
    assert con.execute("SELECT count(*) FROM releases").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM runs WHERE run_id LIKE 'internal-send.closed-loop%r2'").fetchone()[0] == 0


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file under a folder with its bytes: what 'unchanged' means."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("in_place", [False, True])
def test_refused_add_version_leaves_data_byte_for_byte(data_dir: Path, tmp_path: Path, in_place: bool) -> None:
    shutil.copytree(SAMPLE_RUNS / BASE_CAMPAIGN, tmp_path / "incoming" / BASE_CAMPAIGN)
    assert _add(data_dir, "0.0.9", tmp_path / "incoming" / BASE_CAMPAIGN) == 0
    incoming = (data_dir / "runs" if in_place else tmp_path / "incoming") / HEAD_CAMPAIGN
    shutil.copytree(SAMPLE_RUNS / HEAD_CAMPAIGN, incoming)
    # One good run, one broken run further down the campaign: the good one must not stay behind.
    bad = incoming / "rtt-echo.paced.fixlab.optimized.r3" / "latency.csv"
    bad.write_text(bad.read_text().replace("\n7,", "\n7,x", 1))
    before = _tree(data_dir)
    assert _add(data_dir, "0.1.0", incoming) == 1
    assert _tree(data_dir) == before
    assert not list(data_dir.glob(".add-version-*"))


def test_version_must_be_measured_by_the_campaign(data_dir: Path, capsys) -> None:
    shutil.copytree(SAMPLE_RUNS / HEAD_CAMPAIGN, data_dir / "runs" / HEAD_CAMPAIGN)
    assert _add(data_dir, "0.0.9", data_dir / "runs" / HEAD_CAMPAIGN) == 2
    assert "has no fixlab 0.0.9 runs" in capsys.readouterr().err
    assert _add(data_dir, "0.1.0", data_dir / "runs" / HEAD_CAMPAIGN, "--commit", "deadbee") == 2
    assert not (data_dir / "releases.csv").exists()


def test_bad_releases_file_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "releases.csv"
    path.write_text("product,version,commit,date,campaign\nfixlab,0.1.0,3f2a9c1,16/11/2026,x\n")
    with pytest.raises(ValidationError, match=r"releases\.csv:2: date: "):
        read_releases(path)
