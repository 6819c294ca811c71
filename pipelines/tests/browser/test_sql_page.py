"""The SQL page in Chromium: DuckDB-Wasm, served by the portal itself, over the summary Parquet.

Each example button runs its query in the browser; the table it draws must hold the rows the
`duckdb` command returns for the same query on the same Parquet file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from duckdb_cli import cli_query, normal, same_rows, sql_page_examples  # noqa: E402

pytestmark = pytest.mark.browser

RESULT_DONE = """() => ['done', 'error'].includes(document.querySelector('#fixlab-sql').dataset.state)"""
RESULT_TABLE = """() => {
    const table = document.querySelector('#fixlab-sql .fixlab-sql-result table');
    if (!table) return null;
    return {
        columns: [...table.tHead.rows[0].cells].map(c => c.textContent),
        rows: [...table.tBodies[0].rows].map(r => [...r.cells].map(c => c.textContent)),
    };
}"""


def browser_rows(table: dict) -> tuple[list[str], list[tuple]]:
    return table["columns"], [tuple(None if cell == "NULL" else normal(cell) for cell in row)
                              for row in table["rows"]]


def test_each_example_returns_the_rows_of_the_cli(portal, base_url, page):
    assert (portal.docs / "assets" / "duckdb" / "duckdb-eh.wasm").exists(), \
        "DuckDB-Wasm is not in site/assets/duckdb: `make duckdb-wasm` fetches it (make test-site does)"
    examples = sql_page_examples(portal.docs / "sql.md")
    assert len(examples) >= 5
    parquet = portal.docs / "downloads" / "fixlab-summary.parquet"
    setup = f"CREATE VIEW run_stat_values AS SELECT * FROM read_parquet('{parquet}');"
    wasm_requests = []
    page.on("request", lambda r: wasm_requests.append(r.url) if r.url.endswith(".wasm") else None)
    page.goto(base_url + "sql.html")
    page.wait_for_load_state("networkidle")
    assert wasm_requests == [], "DuckDB-Wasm was fetched before any query ran"
    buttons = page.locator("#fixlab-sql .fixlab-sql-examples button")
    assert buttons.all_text_contents() == [title for title, _ in examples]

    for index, (title, query) in enumerate(examples):
        page.evaluate("() => { delete document.querySelector('#fixlab-sql').dataset.state; }")
        buttons.nth(index).click()
        page.wait_for_function(RESULT_DONE, timeout=120_000)
        status = page.locator("#fixlab-sql .fixlab-sql-status").text_content()
        assert not status.startswith("Error"), f"{title}: {status}"
        assert page.locator("#fixlab-sql .fixlab-sql-query").input_value() == query.strip()
        columns, rows = browser_rows(page.evaluate(RESULT_TABLE))
        cli_columns, cli_rows = cli_query(None, query, setup=setup)
        assert columns == cli_columns, title
        assert rows, f"{title}: no rows on the sample data"
        assert same_rows(rows, cli_rows), f"{title}\nbrowser: {rows[:5]}\nCLI: {cli_rows[:5]}"

    # served by the portal, nothing from another host
    assert wasm_requests and all(url.startswith(base_url) for url in wasm_requests), wasm_requests
    assert page.errors == []


def test_a_bad_query_says_why_and_the_next_one_runs(portal, base_url, page):
    page.goto(base_url + "sql.html")
    box = page.locator("#fixlab-sql .fixlab-sql-query")
    box.fill("SELECT no_such_column FROM run_stat_values;")
    page.locator("#fixlab-sql .fixlab-sql-run").click()
    page.wait_for_function(RESULT_DONE, timeout=120_000)
    assert "no_such_column" in page.locator("#fixlab-sql .fixlab-sql-status").text_content()
    page.evaluate("() => { delete document.querySelector('#fixlab-sql').dataset.state; }")
    box.fill("SELECT '<b>x</b>' AS markup, 42 AS answer;")
    page.locator("#fixlab-sql .fixlab-sql-run").click()
    page.wait_for_function(RESULT_DONE, timeout=120_000)
    assert page.evaluate(RESULT_TABLE) == {"columns": ["markup", "answer"], "rows": [["<b>x</b>", "42"]]}
    assert page.locator("#fixlab-sql .fixlab-sql-result b").count() == 0  # text, never markup


def test_the_summary_downloads_hold_every_run_statistic(portal):
    """The Parquet and the summary DuckDB file: one row per run and statistic, as the view."""
    from fixlab_pipelines import db

    con = db.connect(portal.db, read_only=True)
    try:
        expected = con.execute("SELECT count(*) FROM run_stat_values").fetchone()[0]
    finally:
        con.close()
    downloads = portal.docs / "downloads"
    _, parquet_rows = cli_query(None, f"SELECT count(*) FROM read_parquet('{downloads / 'fixlab-summary.parquet'}');")
    _, duckdb_rows = cli_query(downloads / "fixlab-summary.duckdb", "SELECT count(*) FROM run_stat_values;")
    assert expected > 0 and parquet_rows == duckdb_rows == [(float(expected),)]
    assert (portal.build / "downloads" / "fixlab-summary.parquet").exists()


def test_the_page_works_after_instant_navigation(base_url, page):
    page.goto(base_url + "guide/diffing-in-duckdb.html")
    page.wait_for_load_state("networkidle")
    page.evaluate("() => { window.__samePageLoad = true; }")
    page.locator("article a[href$='sql.html']").first.click()
    page.wait_for_url("**/sql.html")
    page.locator("#fixlab-sql .fixlab-sql-examples button").first.click()
    page.wait_for_function(RESULT_DONE, timeout=120_000)
    assert page.evaluate("() => window.__samePageLoad") is True  # swapped in, not reloaded
    assert page.locator("#fixlab-sql .fixlab-sql-status").text_content().endswith(" ms")
    assert page.errors == []
