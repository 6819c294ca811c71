"""The SQL guides' commands, run exactly as printed from the repository root.

The cookbook prints `make data` then the `duckdb` command on the database; the SQL page
prints `make site` then the `duckdb` command on the summary file. Each pair runs here as
printed, with a query of its page on the CLI's standard input, and the rows must be those
Python reads from the same file. `make site` builds the portal from the committed data, so
this is the build step of `make test-site` too.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest

from duckdb_cli import cli_query, python_query, same_rows, sql_page_examples
from fixlab_pipelines import db
from portal_site import REPO

COOKBOOK = REPO / "site" / "guide" / "diffing-in-duckdb.md"
SQL_PAGE = REPO / "site" / "sql.md"


def printed_console(page: Path) -> list[str]:
    blocks = re.findall(r"```console\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 1, f"{page}: expected one console block"
    return blocks[0].splitlines()


def run_make(line: str) -> None:
    done = subprocess.run(shlex.split(line), cwd=REPO, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, f"{line}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def cli_file(line: str) -> Path:
    command = shlex.split(line)
    assert command[0] == ".venv/bin/duckdb" and len(command) == 2, line
    assert (REPO / command[0]).exists(), f"{command[0]} is not installed by make"
    return REPO / command[1]


@pytest.mark.parametrize("page,query", [
    (COOKBOOK, re.findall(r"```sql\n(.*?)```", COOKBOOK.read_text(encoding="utf-8"), re.S)[0]),
    (SQL_PAGE, sql_page_examples(SQL_PAGE)[1][1]),
], ids=["cookbook", "sql-page"])
def test_printed_commands_open_the_file_they_build(page: Path, query: str) -> None:
    build, open_cli = printed_console(page)
    run_make(build)
    path = cli_file(open_cli)
    columns, rows = cli_query(path, query)
    con = db.connect(path, read_only=True)
    try:
        expected_columns, expected = python_query(con, query)
    finally:
        con.close()
    assert rows and columns == expected_columns
    assert same_rows(rows, expected)
