"""Reference results: the seed reports' published figures, kept apart and labelled."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixlab_pipelines import db
from fixlab_pipelines.errors import ValidationError
from fixlab_pipelines.reference import COLUMNS, load_reference

REFERENCE = Path(__file__).parents[2] / "data" / "reference"


def test_seed_figures_load_with_their_labels(tmp_path: Path) -> None:
    con = db.connect(tmp_path / "r.duckdb")
    assert load_reference(con, REFERENCE) == 106
    row = con.execute(
        "SELECT value, unit, hardware LIKE '%E5-2687W%' FROM reference_results WHERE product = 'QuickFIX/J' "
        "AND version = '1.6.3' AND configuration = 'Default' AND statistic = 'p99'").fetchone()
    assert row == (2107.0, "us", True)
    assert con.execute("SELECT count(*) FROM reference_results WHERE source = '' OR hardware = ''").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM run_stat_values").fetchone()[0] == 0
    assert load_reference(con, REFERENCE) == 106  # replaced, not appended
    assert con.execute("SELECT count(*) FROM reference_results").fetchone()[0] == 106


def test_each_report_is_named_by_title_and_publisher_with_statistics_in_the_report_s_order(tmp_path: Path) -> None:
    from fixlab_pipelines.render.site import reference_groups

    con = db.connect(tmp_path / "r.duckdb")
    load_reference(con, REFERENCE)
    groups = reference_groups(con)
    assert groups
    for group in groups:
        assert group["source"].startswith("“") and "published by" in group["source"], group["source"]
        assert "seed" not in group["source"].lower()
    antenna = next(g for g in groups if g["version"] == "2.17.0" and g["product"] == "FIX Antenna Java")
    # as the report prints them: Min, Max, Average, 50%, 95%, 99%
    assert [name for name, _, _ in antenna["rows"]] == ["Min", "Max", "Average", "50%", "95%", "99%"]


def test_bad_reference_row_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "ref.csv").write_text(
        ",".join(COLUMNS) + "\nseed 000,FIX Antenna Java,2.17.0,hw,Balanced,rtt-echo,p50,43.9,us,\n"
        "seed 000,FIX Antenna Java,2.17.0,hw,Balanced,rtt-echo,p99,72.4,usec,\n")
    with pytest.raises(ValidationError, match=r"ref\.csv:3: unit: "):
        load_reference(db.connect(tmp_path / "r.duckdb"), tmp_path)
