"""The committed samples format: lossless for any int64 input, compact, and versioned."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from fixlab_pipelines import db
from fixlab_pipelines.errors import ValidationError
from fixlab_pipelines.ingest import ingest_run
from fixlab_pipelines.samples import LATENCY, STAGE, THROUGHPUT, Kind
from fixlab_pipelines.storage import FORMAT, export_csv, read_samples, sha256_of, write_parquet
from sample_data import HEAD_CAMPAIGN, SAMPLE_RUNS, run_dir

PACED = "rtt-echo.paced.fixlab.optimized.r1"
INT64_MAX = 2**63 - 1


def _round_trip(tmp_path: Path, kind: Kind, rows: np.ndarray) -> pd.DataFrame:
    con = db.connect(tmp_path / "t.duckdb")
    frame = pd.DataFrame(rows.astype(np.int64), columns=list(kind.columns))  # noqa: F841 (scanned below)
    con.execute(f"CREATE OR REPLACE TEMP TABLE {STAGE} AS SELECT * FROM frame")
    write_parquet(con, tmp_path / f"{kind.name}.parquet", "unused", kind)
    return read_samples(con, tmp_path / f"{kind.name}.parquet")


@pytest.mark.parametrize("rows", [
    np.array([[0, 0, 0, 0]]),
    np.array([[5, INT64_MAX, INT64_MAX, INT64_MAX], [9, 0, 1, INT64_MAX], [INT64_MAX, INT64_MAX, 0, 0]]),
    np.random.default_rng(1).integers(0, INT64_MAX, (1000, 4), dtype=np.int64, endpoint=True),
    np.column_stack([np.arange(7, 2007) * 3, np.arange(2000) * 20000 + 17, np.full(2000, 6000), np.full(2000, 6050)]),
], ids=["one-row", "extremes", "random-int64", "regular"])
def test_any_int64_rows_round_trip(tmp_path: Path, rows: np.ndarray) -> None:
    again = _round_trip(tmp_path, LATENCY, rows)
    assert again.to_numpy().tolist() == rows.tolist()


def test_throughput_round_trips(tmp_path: Path) -> None:
    rows = np.column_stack([np.cumsum(np.arange(1, 21) * 1_000_003), np.arange(1, 21) * 50_000])
    assert _round_trip(tmp_path, THROUGHPUT, rows).to_numpy().tolist() == rows.tolist()


def test_regular_columns_cost_nothing(tmp_path: Path) -> None:
    # seq 0..n-1, a paced schedule and no lateness: only the latency's planes carry data.
    n = 100_000
    latency = np.random.default_rng(2).integers(5000, 5256, n)
    rows = np.column_stack([np.arange(n), np.arange(n) * 20000, latency, latency])
    _round_trip(tmp_path, LATENCY, rows)
    assert (tmp_path / "latency.parquet").stat().st_size < n * 1.1 + 4000  # ~8 bits of noise a sample


def test_format_1_files_are_still_read(runs: Path, tmp_path: Path) -> None:
    folder = run_dir(runs, HEAD_CAMPAIGN, PACED)
    original = folder / "latency.csv"
    con = db.connect(tmp_path / "t.duckdb")
    con.execute(f"COPY (SELECT * FROM read_csv('{original}', columns = {{'seq': 'BIGINT', 'send_ns': 'BIGINT', "
                "'latency_ns': 'BIGINT', 'latency_from_intended_ns': 'BIGINT'}, header = true)) "
                f"TO '{folder}/latency.parquet' (FORMAT parquet, COMPRESSION zstd, KV_METADATA {{"
                f"'fixlab.csv_sha256': '{sha256_of(original)}', 'fixlab.samples_format': 'fixlab-samples/1'}})")
    original.unlink()
    assert ingest_run(con, folder) == "ingested"
    export_csv(con, folder / "latency.parquet", tmp_path / "again.csv")
    assert sha256_of(tmp_path / "again.csv") == sha256_of(run_dir(SAMPLE_RUNS, HEAD_CAMPAIGN, PACED) / "latency.csv")


def test_an_unknown_format_is_refused(runs: Path, tmp_path: Path) -> None:
    folder = run_dir(runs, HEAD_CAMPAIGN, PACED)
    con = db.connect(tmp_path / "t.duckdb")
    ingest_run(con, folder)
    parquet = folder / "latency.parquet"
    con.execute(f"COPY (SELECT * FROM read_parquet('{parquet}')) TO '{tmp_path}/x.parquet' "
                "(FORMAT parquet, KV_METADATA {'fixlab.csv_sha256': 'abc', "
                "'fixlab.samples_format': 'fixlab-samples/9'})")
    (tmp_path / "x.parquet").replace(parquet)
    with pytest.raises(ValidationError, match=r"latency\.parquet:0: parquet-format: samples format 'fixlab-samples/9'"):
        ingest_run(db.connect(tmp_path / "fresh.duckdb"), folder)
    assert FORMAT == "fixlab-samples/2"


COMMITTED_RUNS = Path(__file__).resolve().parents[2] / "data" / "runs"
CAMPAIGN_BUDGET_BYTES = 25_000_000  # issue: a full campaign, 3 repetitions, under 25 MB


@pytest.mark.parametrize("campaign", sorted(p.name for p in COMMITTED_RUNS.iterdir() if p.is_dir())
                         if COMMITTED_RUNS.is_dir() else [])
def test_every_committed_campaign_fits_the_size_budget(campaign: str) -> None:
    folder = COMMITTED_RUNS / campaign
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert not [p for p in files if p.suffix == ".csv"], "raw CSVs are replaced by Parquet on ingest"
    total = sum(p.stat().st_size for p in files)
    assert total < CAMPAIGN_BUDGET_BYTES, f"{campaign}: {total / 1e6:.1f} MB committed"
