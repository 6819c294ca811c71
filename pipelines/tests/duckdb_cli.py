"""Run SQL through the `duckdb` command (the pinned duckdb-cli) and compare its rows with Python's.

The CLI prints CSV, so every value arrives as text; both sides are brought to one comparable
form: NULL as None (the text NULL too, as the CLI prints it), numbers as floats (compared with
a relative tolerance, since engines may print the last digit of a double differently),
everything else as its text.
"""

from __future__ import annotations

import csv
import io
import math
import re
import subprocess
import sys
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import duckdb

# The command `make venv` installs beside the interpreter running the tests (.venv/bin/duckdb).
CLI = Path(sys.executable).parent / "duckdb"

Row = tuple[object, ...]


def cli_query(db_file: Path | None, sql: str, setup: str = "") -> tuple[list[str], list[Row]]:
    """(column names, rows) of `sql` fed to `duckdb -readonly -csv db_file` on standard input;
    without a file, an in-memory database prepared by the `setup` statements."""
    command = [str(CLI), "-csv"] + (["-readonly", str(db_file)] if db_file else [])
    if setup:  # its statements print nothing; only the query's CSV follows
        command[2:2] = ["-cmd", setup]
    done = subprocess.run(command, input=sql, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr.strip(), f"duckdb CLI failed on\n{sql}\n{done.stderr}"
    return parse_csv(done.stdout)


def sql_page_examples(page: Path) -> list[tuple[str, str]]:
    """(title, query) of every example of the portal's SQL page, in page order."""
    text = page.read_text(encoding="utf-8")
    return re.findall(r'<div class="fixlab-sql-example" markdown>\n\*\*(.+?)\*\*.*?```sql\n(.*?)```', text, re.S)


def parse_csv(text: str) -> tuple[list[str], list[Row]]:
    records = list(csv.reader(io.StringIO(text)))
    if not records:
        return [], []
    # The CLI prints NULL as NULL in CSV mode, as the SQL page does.
    return records[0], [tuple(normal(None if cell == "NULL" else cell) for cell in r) for r in records[1:]]


def python_query(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[list[str], list[Row]]:
    cursor = con.execute(sql)
    columns = [d[0] for d in cursor.description]
    return columns, [tuple(normal(v) for v in row) for row in cursor.fetchall()]


def normal(value: object) -> object:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | Decimal):
        return float(value)
    if isinstance(value, datetime | date):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join("NULL" if v is None else str(v) for v in value) + "]"
    text = str(value)
    try:
        return float(text)
    except ValueError:
        return text


def same_rows(a: list[Row], b: list[Row]) -> bool:
    """The same rows, in any order (ties of an ORDER BY may come out either way)."""
    if len(a) != len(b):
        return False
    key = lambda row: tuple((0, "") if v is None else (1, v) if isinstance(v, float) else (2, v)  # noqa: E731
                            for v in row)
    return all(len(x) == len(y) and all(same_value(v, w) for v, w in zip(x, y, strict=True))
               for x, y in zip(sorted(a, key=key), sorted(b, key=key), strict=True))


def same_value(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9) or (math.isnan(a) and math.isnan(b))
    return a == b
