"""Published figures of other vendors' reports (data/reference/*.csv), as reference results.

They are transcribed by hand from the seed reports, one figure per row, with the report
they come from and the hardware it names. They go to their own table and are never
mixed into our statistics: different engines, machines and methods.
"""

from __future__ import annotations

import math
from pathlib import Path

import duckdb

from . import db, inputs
from .errors import ValidationError

COLUMNS = ("source", "product", "version", "hardware", "configuration", "scenario",
           "statistic", "value", "unit", "note")
UNITS = {"us", "ms", "s", "msg/s"}


def read_reference(directory: Path) -> list[list[object]]:
    rows: list[list[object]] = []
    for path in sorted(directory.glob("*.csv")) if directory.exists() else []:
        for line, row in inputs.read_table(path, COLUMNS, names=("scenario", "statistic")):
            missing = [c for c in COLUMNS[:-1] if not row[c]]
            if missing:
                raise ValidationError(path, line, "missing-value", f"{', '.join(missing)} must be given")
            if row["unit"] not in UNITS:
                raise ValidationError(path, line, "unit", f"unit must be one of {sorted(UNITS)}")
            try:
                value = float(row["value"])
            except ValueError:
                raise ValidationError(path, line, "number", f"value {row['value']!r} is not a number") from None
            if not math.isfinite(value) or value < 0:
                raise ValidationError(path, line, "negative-value", "value must be a finite number >= 0")
            rows.append([*(row[c] for c in COLUMNS[:7]), value, row["unit"], row["note"] or None])
    return rows


def load_reference(con: duckdb.DuckDBPyConnection, directory: Path) -> int:
    """Replace reference_results with the directory's files."""
    return db.replace_rows(con, "reference_results", read_reference(directory))
