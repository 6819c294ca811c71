"""Opening the results database with the current schema applied.

The schema file is idempotent (CREATE ... IF NOT EXISTS, CREATE OR REPLACE VIEW), so every
connection applies it: a fresh file becomes a valid empty store, an existing one gets the
current views.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import duckdb

DEFAULT_DB = Path("data") / "fixlab.duckdb"


def schema_sql() -> str:
    return files(__package__).joinpath("schema.sql").read_text(encoding="utf-8")


def connect(path: Path | str = DEFAULT_DB, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    path = Path(path)
    if read_only:
        return duckdb.connect(str(path), read_only=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(path))
    con.execute(schema_sql())
    return con


def remove(path: Path | str) -> None:
    """Delete a database file (and its write-ahead log) so it can be rebuilt from data/."""
    path = Path(path)
    for p in (path, path.with_name(path.name + ".wal")):
        p.unlink(missing_ok=True)
