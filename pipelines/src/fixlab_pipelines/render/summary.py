"""The portal's summary downloads: every run's statistics without the raw samples.

`run_stat_values` (one row per run and statistic) is small where the full database is not:
it is written as Parquet, which the SQL page of the portal loads into DuckDB-Wasm, and as a
DuckDB file of that one table for the `duckdb` command. Both keep the view's name, so a query
on the summary runs unchanged on the full database.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

from .. import db

TABLE = "run_stat_values"
PARQUET_NAME = "fixlab-summary.parquet"
DATABASE_NAME = "fixlab-summary.duckdb"
# A stable row order makes the same data give the same file.
ORDER = "campaign, run_key, metric, statistic"


@dataclass(frozen=True)
class SummaryFiles:
    parquet: Path
    database: Path
    rows: int


def export(con: duckdb.DuckDBPyConnection, site: Path) -> SummaryFiles:
    """Write site/downloads/fixlab-summary.{parquet,duckdb} from the results database `con`."""
    target = site / "downloads"
    target.mkdir(parents=True, exist_ok=True)
    parquet = target / PARQUET_NAME
    con.execute(f"COPY (SELECT * FROM {TABLE} ORDER BY {ORDER}) TO '{_sql_path(parquet)}' "
                "(FORMAT parquet, COMPRESSION zstd)")
    database = target / DATABASE_NAME
    db.remove(database)
    # A connection of its own, created in the format the pinned CLI reads (see db.py).
    out = duckdb.connect(str(database), config={"storage_compatibility_version": db.CLI_STORAGE_VERSION})
    try:
        out.execute(f"CREATE TABLE {TABLE} AS SELECT * FROM read_parquet('{_sql_path(parquet)}')")
        rows = out.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0]
    finally:
        out.close()
    return SummaryFiles(parquet, database, rows)


def _sql_path(path: Path) -> str:
    """A path as a SQL string literal's content (COPY takes no parameters)."""
    return str(path).replace("'", "''")
