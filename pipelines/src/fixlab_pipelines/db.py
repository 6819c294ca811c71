"""Opening the results database with the current schema applied.

The schema file is idempotent (CREATE ... IF NOT EXISTS, CREATE OR REPLACE VIEW), so every
connection applies it: a fresh file becomes a valid empty store, an existing one gets the
current views.

Files are created in the storage format of the DuckDB CLI pinned beside the Python package
(pipelines/pyproject.toml): the duckdb 2.x package writes a newer format by default, which the
`duckdb` command (the duckdb-cli package, 1.5.x) refuses. The format is chosen when a file is
created and kept by every later write, so `make data` (a rebuild) is what brings an older file
in line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path

import duckdb

from . import steady

DEFAULT_DB = Path("data") / "fixlab.duckdb"
# The newest format the pinned duckdb-cli reads; test_cookbook opens files written here with it.
CLI_STORAGE_VERSION = "v1.5.0"


# The steady-state rules' constants that schema.sql's views use, written into its text where it names them in braces:
# one number for a rule in Python and in SQL, baked into each view as it is created, so that the database file
# answers the duckdb command as it answers the pipeline.
SCHEMA_CONSTANTS = ("CAMPAIGN_PLACEMENT_BOUND", "CPU_REFERENCE_BOUND")


def schema_sql() -> str:
    text = files(__package__).joinpath("schema.sql").read_text(encoding="utf-8")
    for name in SCHEMA_CONSTANTS:
        text = text.replace("{" + name + "}", repr(getattr(steady, name)))
    unknown = re.search(r"\{[A-Z][A-Z_]*\}", text)
    if unknown:
        raise RuntimeError(f"schema.sql names {unknown.group()}, which is not one of db.SCHEMA_CONSTANTS")
    return text


def connect(path: Path | str = DEFAULT_DB, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    path = Path(path)
    if read_only:
        return duckdb.connect(str(path), read_only=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(path), config={"storage_compatibility_version": CLI_STORAGE_VERSION})
    con.execute(schema_sql())
    return con


def remove(path: Path | str) -> None:
    """Delete a database file (and its write-ahead log) so it can be rebuilt from data/."""
    path = Path(path)
    for p in (path, path.with_name(path.name + ".wal")):
        p.unlink(missing_ok=True)


def replace_rows(con: duckdb.DuckDBPyConnection, table: str, rows: Sequence[Sequence[object]]) -> int:
    """Replace a table loaded from a committed file with that file's rows, in one transaction."""
    con.begin()
    try:
        con.execute(f"DELETE FROM {table}")
        if rows:  # executemany refuses an empty list
            con.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' for _ in rows[0])})", rows)
        con.commit()
    except BaseException:
        con.rollback()
        raise
    return len(rows)
