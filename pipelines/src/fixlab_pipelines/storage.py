"""How samples are kept in the repository: zstd Parquet beside the manifest, lossless.

A runner writes `latency.csv` (or `throughput.csv`); ingest stores the same columns as
typed 64-bit integers in `latency.parquet`, zstd-compressed with delta encoding (Parquet
format v2), which is several times smaller than the CSV. The CSV's SHA-256 goes into the
Parquet key-value metadata, and the file is only accepted after the CSV re-created from
it hashes the same, so the raw file can always be handed out again byte for byte
(`fixlab export-csv`). The CSV is then removed: the Parquet is what gets committed.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import duckdb

from .errors import ValidationError
from .samples import STAGE, Kind

SHA_KEY = "fixlab.csv_sha256"
FORMAT_KEY = "fixlab.samples_format"
FORMAT = "fixlab-samples/1"


def parquet_path(run_dir: Path, kind: Kind) -> Path:
    return run_dir / f"{kind.name}.parquet"


def csv_path(run_dir: Path, kind: Kind) -> Path:
    return run_dir / f"{kind.name}.csv"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_parquet(con: duckdb.DuckDBPyConnection, target: Path, csv_sha256: str) -> None:
    """Write the staged samples (in file order) to `target`, with the CSV's hash."""
    con.execute(
        f"COPY (SELECT * FROM {STAGE} ORDER BY rowid) TO '{_sql_path(target)}' (FORMAT parquet, "
        "COMPRESSION zstd, COMPRESSION_LEVEL 9, PARQUET_VERSION v2, ROW_GROUP_SIZE 1000000, "
        f"KV_METADATA {{'{SHA_KEY}': '{csv_sha256}', '{FORMAT_KEY}': '{FORMAT}'}})"
    )


def stored_sha256(con: duckdb.DuckDBPyConnection, parquet: Path) -> str | None:
    rows = con.execute(
        "SELECT decode(key), decode(value) FROM parquet_kv_metadata(?)", [str(parquet)]).fetchall()
    return dict(rows).get(SHA_KEY)


def export_csv(con: duckdb.DuckDBPyConnection, parquet: Path, target: Path) -> None:
    """Re-create the runner's CSV from committed Parquet."""
    con.execute(
        f"COPY (SELECT * FROM read_parquet('{_sql_path(parquet)}')) TO '{_sql_path(target)}' "
        "(FORMAT csv, HEADER true, DELIMITER ',', QUOTE '', NEW_LINE '\\n')"
    )


def verify_lossless(con: duckdb.DuckDBPyConnection, parquet: Path, original: Path | None = None) -> None:
    """Refuse Parquet that does not re-create, byte for byte, the CSV it came from."""
    expected = stored_sha256(con, parquet)
    if expected is None:
        raise ValidationError(parquet, 0, "parquet-metadata",
                              f"no {SHA_KEY} in the Parquet metadata; re-ingest the run's CSV")
    fd, tmp = tempfile.mkstemp(suffix=".csv", dir=parquet.parent)
    os.close(fd)
    try:
        export_csv(con, parquet, Path(tmp))
        if sha256_of(Path(tmp)) != expected:
            where = original or parquet
            raise ValidationError(where, 0, "lossless",
                                  "the stored samples do not re-create the original CSV byte for byte")
    finally:
        os.unlink(tmp)


def _sql_path(path: Path) -> str:
    # COPY takes a literal, not a parameter; quote it for SQL.
    return str(path).replace("'", "''")
