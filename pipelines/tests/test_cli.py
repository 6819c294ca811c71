"""The `fixlab` command as scripts and people use it: exit codes, formats, messages."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pandas as pd

from fixlab_pipelines import cli, db
from fixlab_pipelines.storage import sha256_of
from sample_data import HEAD_CAMPAIGN, REPO, SAMPLE_RUNS

PACED = "rtt-echo.paced.fixlab.optimized.r1"


def test_ingest_reports_and_refuses_with_file_line_rule(runs: Path, tmp_path: Path, capsys) -> None:
    bad = runs / HEAD_CAMPAIGN / PACED / "latency.csv"
    lines = bad.read_text().split("\n")
    lines[41] = "41,820000,abc,7000"
    bad.write_text("\n".join(lines))
    data = tmp_path / "data"
    code = cli.main(["ingest", "--db", str(tmp_path / "x.duckdb"), "--data", str(data), str(runs)])
    captured = capsys.readouterr()
    assert code == 1
    assert f"{bad}:42: integer-type: latency_ns must be an integer" in captured.err
    assert "65 runs ingested, 0 unchanged, 1 refused" in captured.out


def test_stats_formats(loaded: Path, capsys) -> None:
    assert cli.main(["stats", "--db", str(loaded), "--per", "run", "--format", "csv",
                     "--campaign", HEAD_CAMPAIGN, "--scenario", "rtt-echo"]) == 0
    frame = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert len(frame) == 12 and {"p50_ns", "p9999_ns", "stddev_ns"} <= set(frame.columns)
    assert cli.main(["stats", "--db", str(loaded), "--format", "json", "--metric", "latency_from_intended",
                     "--campaign", HEAD_CAMPAIGN, "--scenario", "rtt-echo", "--workload-mode", "paced"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["metric"] for r in rows} == {"latency_from_intended"}
    assert {r["repetitions"] for r in rows} == {3}
    assert cli.main(["stats", "--db", str(loaded), "--campaign", HEAD_CAMPAIGN]) == 0
    table = capsys.readouterr().out
    assert "p99_us" in table and "spread_p99_pct" in table and "internal-send-receive" in table


def test_export_csv_recreates_the_runners_file(runs: Path, tmp_path: Path, capsys) -> None:
    folder = runs / HEAD_CAMPAIGN / PACED
    assert cli.main(["ingest", "--db", str(tmp_path / "x.duckdb"), "--data", str(tmp_path), str(folder)]) == 0
    assert not (folder / "latency.csv").exists()
    assert cli.main(["export-csv", str(folder), "-o", str(tmp_path / "out.csv")]) == 0
    assert sha256_of(tmp_path / "out.csv") == sha256_of(SAMPLE_RUNS / HEAD_CAMPAIGN / PACED / "latency.csv")


def test_render_dispatches_to_the_portal(capsys) -> None:
    # Arguments after `render`, --help included, go to the portal's own parser.
    try:
        code = cli.main(["render", "--help"])
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr().out
    assert code == 0
    assert "usage:" in out and "its options: fixlab render" not in out


def test_committed_data_folder_ingests_cleanly(tmp_path: Path) -> None:
    """What is committed in data/ must always rebuild a database without a refusal."""
    data = tmp_path / "data"
    shutil.copytree(REPO / "data", data, ignore=shutil.ignore_patterns("*.duckdb", "*.wal"))
    (data / "runs").mkdir(exist_ok=True)
    assert cli.main(["ingest", "--rebuild", "--db", str(tmp_path / "x.duckdb"), "--data", str(data)]) == 0
    con = db.connect(tmp_path / "x.duckdb")
    committed_runs = len(list((REPO / "data" / "runs").glob("*/*/manifest.json")))
    assert con.execute("SELECT count(*) FROM runs").fetchone()[0] == committed_runs
    assert con.execute("SELECT count(*) FROM reference_results").fetchone()[0] > 0
