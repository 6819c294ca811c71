"""Per-run downloads of the portal: the runner's raw CSV, its .hgrm, and the database.

The CSV is re-created from the committed Parquet by the pipeline's own exporter (byte for
byte the file the runner wrote) and gzip-compressed, since a full campaign's raw samples
would otherwise be hundreds of megabytes of site. The gzip header carries no timestamp,
so re-rendering the same data gives the same bytes. Re-creating a 200,000-sample CSV takes
seconds, so a download newer than its Parquet is kept rather than written again.
"""

from __future__ import annotations

import gzip
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import duckdb

from ..storage import export_csv
from .templating import href


def run_downloads(con: duckdb.DuckDBPyConnection, runs_dir: Path, site: Path, page: Path,
                  runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Write each run's files under site/downloads/ and return links relative to `page`."""
    out = []
    for run in runs:
        source = runs_dir / run["campaign"] / run["run_id"]
        target = site / "downloads" / run["campaign"] / run["run_id"]
        target.mkdir(parents=True, exist_ok=True)
        samples = target / f"{run['kind']}.csv.gz"
        parquet = source / f"{run['kind']}.parquet"
        if not parquet.exists():
            raise FileNotFoundError(f"{parquet}: the samples of run {run['run_key']} are not in {runs_dir}; "
                                    "render needs the same data/runs folder the database was ingested from")
        if not samples.exists() or samples.stat().st_mtime < parquet.stat().st_mtime:
            _gzip_csv(con, parquet, samples)
        entry = {"run_id": run["run_id"], "repetition": run["repetition"],
                 "samples_name": samples.name, "samples_link": link(samples, page),
                 "hgrm_name": None, "hgrm_link": None}
        hgrm = source / "latency.hgrm"
        if hgrm.exists():
            shutil.copyfile(hgrm, target / hgrm.name)
            entry.update(hgrm_name=hgrm.name, hgrm_link=link(target / hgrm.name, page))
        out.append(entry)
    return out


def prune(site: Path, runs: list[dict[str, Any]]) -> None:
    """Remove the downloads of runs that are no longer in the database."""
    keep = {(r["campaign"], r["run_id"]) for r in runs}
    root = site / "downloads"
    for run_dir in root.glob("*/*") if root.exists() else []:
        if run_dir.is_dir() and (run_dir.parent.name, run_dir.name) not in keep:
            shutil.rmtree(run_dir)
    for campaign in root.glob("*") if root.exists() else []:
        if campaign.is_dir() and not any(campaign.iterdir()):
            campaign.rmdir()


def database(db: Path, site: Path) -> Path:
    target = site / "downloads" / "fixlab.duckdb"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(db, target)
    return target


def _gzip_csv(con: duckdb.DuckDBPyConnection, parquet: Path, target: Path) -> None:
    fd, tmp = tempfile.mkstemp(suffix=".csv", dir=target.parent)
    os.close(fd)
    try:
        export_csv(con, parquet, Path(tmp))
        with open(tmp, "rb") as raw, open(target, "wb") as out, \
                gzip.GzipFile(filename=target.stem, mode="wb", fileobj=out, mtime=0, compresslevel=6) as packed:
            shutil.copyfileobj(raw, packed)
    finally:
        os.unlink(tmp)


def link(target: Path, page: Path) -> str:
    return href(Path(os.path.relpath(target, page.parent)).as_posix())
