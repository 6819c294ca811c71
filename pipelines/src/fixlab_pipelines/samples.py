"""Loading and validating a run's samples: latency.csv / throughput.csv, or their Parquet.

Two paths, one set of rules. The fast path lets DuckDB parse the file straight into a
temporary staging table and checks the rows in SQL (missing, negative, order, the
manifest's counts and summary figures). When DuckDB cannot parse the file at all, the slow
path re-reads it line by line in Python, only to name the first offending line and rule.
Staging-table rowids follow file order (DuckDB preserves insertion order), so a row found
in SQL is reported as line rowid + 2 (one for the header, one for 1-based lines).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

import duckdb

from . import inputs
from .errors import ValidationError
from .manifest import Manifest


@dataclass(frozen=True)
class Kind:
    name: str  # 'latency' | 'throughput'
    columns: tuple[str, ...]
    table: str  # the database table the samples go to

    @property
    def header(self) -> str:
        return ",".join(self.columns)


LATENCY = Kind("latency", ("seq", "send_ns", "latency_ns", "latency_from_intended_ns"), "latency_samples")
THROUGHPUT = Kind("throughput", ("elapsed_ns", "messages"), "throughput_points")
KINDS = {k.name: k for k in (LATENCY, THROUGHPUT)}

STAGE = "stage_samples"
STAGE_TEXT = "stage_samples_text"  # the CSV's values as text, until each is shown to be an integer
CANONICAL_INT = re.compile(r"0|[1-9][0-9]*")
INT64_MAX = 2**63 - 1


def stage_csv(con: duckdb.DuckDBPyConnection, path: Path, kind: Kind) -> None:
    """Parse `path` into the temporary table STAGE, or raise naming the first bad line.

    The values are read as text and checked to be canonical 64-bit integers, line by line in
    SQL, before they are cast: a CAST would round `12.5` to 13, and the summary check would
    then blame the manifest for what is a bad line of the CSV.
    """
    try:
        with path.open("r", encoding="utf-8", newline="") as f:
            first = f.readline(len(kind.header) + 2)
    except (OSError, UnicodeDecodeError) as e:
        raise ValidationError(path, 1, "samples-read", f"cannot read samples ({e})") from e
    if first.rstrip("\n") != kind.header:
        raise ValidationError(path, 1, "csv-header",
                              f"header must be exactly {kind.header!r}, got {first.rstrip(chr(10))!r}")
    columns = ", ".join(f"'{c}': 'VARCHAR'" for c in kind.columns)
    try:
        con.execute(
            f"CREATE OR REPLACE TEMP TABLE {STAGE_TEXT} AS SELECT * FROM read_csv(?, header = true, "
            "auto_detect = false, delim = ',', quote = '', escape = '', new_line = '\\n', "
            f"strict_mode = true, null_padding = false, columns = {{{columns}}})",
            [str(path)],
        )
    except duckdb.Error as e:
        raise diagnose_csv(path, kind) or ValidationError(path, 0, "csv-parse", str(e).splitlines()[0]) from e
    try:
        canonical = " OR ".join(f"{c} IS NULL OR NOT regexp_full_match({c}, '0|[1-9][0-9]{{0,18}}') "
                                f"OR TRY_CAST({c} AS BIGINT) IS NULL" for c in kind.columns)
        bad = con.execute(f"SELECT min(rowid) FROM {STAGE_TEXT} WHERE {canonical}").fetchone()[0]
        if bad is not None:
            raise diagnose_csv(path, kind) or ValidationError(path, bad + 2, "integer-type",
                                                              "values must be plain 64-bit non-negative integers")
        casts = ", ".join(f"CAST({c} AS BIGINT) AS {c}" for c in kind.columns)
        con.execute(f"CREATE OR REPLACE TEMP TABLE {STAGE} AS SELECT {casts} FROM {STAGE_TEXT} ORDER BY rowid")
    finally:
        con.execute(f"DROP TABLE IF EXISTS {STAGE_TEXT}")


def diagnose_csv(path: Path, kind: Kind) -> ValidationError | None:
    """The first line that breaks the text rules of the contract, or None if all are kept.

    Canonical integers (no sign, no leading zeros, no spaces) and '\\n' line ends are
    required because the CSV is stored as typed Parquet and must be re-created byte for byte.
    """
    n = len(kind.columns)
    with path.open("r", encoding="utf-8", newline="") as f:
        for number, raw in enumerate(f, start=1):
            if number == 1:
                continue  # the header was checked before parsing
            if not raw.endswith("\n"):
                return ValidationError(path, number, "line-ending", "the last line must end with '\\n'")
            line = raw[:-1]
            if line.endswith("\r"):
                return ValidationError(path, number, "line-ending", "lines must end with '\\n', not '\\r\\n'")
            if line == "":
                return ValidationError(path, number, "blank-line", "blank lines are not allowed")
            fields = line.split(",")
            if len(fields) != n:
                return ValidationError(path, number, "column-count",
                                       f"expected {n} values ({kind.header}), got {len(fields)}")
            for column, field in zip(kind.columns, fields, strict=True):
                error = _field_error(field, column)
                if error:
                    return ValidationError(path, number, *error)
    return None


def _field_error(field: str, column: str) -> tuple[str, str] | None:
    if field == "":
        return "missing-value", f"{column} is empty"
    if field.startswith("-") and field[1:].isdigit():
        return "negative-value", f"{column} is {field}; durations and counts cannot be negative"
    if not field.isascii() or not field.strip().lstrip("+").isdigit():
        return "integer-type", f"{column} must be an integer number of nanoseconds/messages, got {field!r}"
    if not CANONICAL_INT.fullmatch(field):
        return "canonical-integer", (f"{column} must be written plainly (no sign, spaces or leading zeros), "
                                     f"got {field!r}")
    if int(field) > INT64_MAX:
        return "integer-range", f"{column} {field} does not fit a 64-bit integer"
    return None


def check_rows(con: duckdb.DuckDBPyConnection, path: Path, kind: Kind, manifest: Manifest) -> int:
    """Check the staged rows against the row rules and the manifest; return the row count."""
    rules = []
    for c in kind.columns:
        rules.append(f"WHEN {c} IS NULL THEN 'missing-value|{c} is empty'")
        rules.append(f"WHEN {c} < 0 THEN 'negative-value|{c} is ' || {c} || '; it cannot be negative'")
    if kind is LATENCY:
        rules.append("WHEN seq <= lag(seq) OVER w THEN "
                     "'seq-order|seq must increase, got ' || seq || ' after ' || lag(seq) OVER w")
        rules.append("WHEN latency_from_intended_ns < latency_ns THEN 'intended-latency|"
                     "latency_from_intended_ns is below latency_ns; no message is sent before it was due'")
        if manifest.data["workload"]["mode"] != "paced":
            rules.append("WHEN latency_from_intended_ns <> latency_ns THEN 'intended-latency|"
                         "latency_from_intended_ns must equal latency_ns in an unpaced run'")
    else:
        for c in kind.columns:
            rules.append(f"WHEN {c} < lag({c}) OVER w THEN 'cumulative|{c} must not decrease, got ' "
                         f"|| {c} || ' after ' || lag({c}) OVER w")
    bad = con.execute(
        f"SELECT rowid, rule FROM (SELECT rowid, CASE {' '.join(rules)} END AS rule FROM {STAGE} "
        "WINDOW w AS (ORDER BY rowid)) WHERE rule IS NOT NULL ORDER BY rowid LIMIT 1"
    ).fetchone()
    if bad:
        rule, explanation = bad[1].split("|", 1)
        raise ValidationError(path, bad[0] + 2, rule, explanation)
    count = con.execute(f"SELECT count(*) FROM {STAGE}").fetchone()[0]
    if kind is LATENCY:
        _check_latency_results(con, path, manifest, count)
    else:
        _check_throughput_results(con, path, manifest, count)
    return count


def _check_latency_results(con: duckdb.DuckDBPyConnection, path: Path, m: Manifest, count: int) -> None:
    results = m.data["results"]
    if results["samples"] != count:
        raise ValidationError(path, count + 1, "sample-count",
                              f"{count} samples, but the manifest's results.samples is {results['samples']}")
    if count == 0:
        raise ValidationError(path, 1, "sample-count", "a latency run needs at least one sample")
    got = dict(zip(("min_ns", "max_ns", "mean_ns", "p50_ns", "p99_ns"), con.execute(
        f"SELECT min(latency_ns), max(latency_ns), avg(latency_ns), quantile_disc(latency_ns, 0.5), "
        f"quantile_disc(latency_ns, 0.99) FROM {STAGE}").fetchone(), strict=True))
    # The runner may compute percentiles and the mean from a histogram: allow its precision.
    tolerance = {"min_ns": 0.0, "max_ns": 0.0, "mean_ns": 0.001, "p50_ns": 0.01, "p99_ns": 0.01}
    _compare_results(m, got, tolerance)


def _check_throughput_results(con: duckdb.DuckDBPyConnection, path: Path, m: Manifest, count: int) -> None:
    results = m.data["results"]
    last = con.execute(f"SELECT elapsed_ns, messages FROM {STAGE} ORDER BY rowid DESC LIMIT 1").fetchone()
    if last is None or last[0] == 0:
        raise ValidationError(path, count + 1, "sample-count", "a throughput run needs a progress point after 0 ns")
    if results["messages"] != last[1]:
        raise ValidationError(path, count + 1, "sample-count",
                              f"the last progress point has {last[1]} messages, "
                              f"but the manifest's results.messages is {results['messages']}")
    _compare_results(m, {"messages_per_second": last[1] * 1e9 / last[0]}, {"messages_per_second": 0.001})


def _compare_results(m: Manifest, got: dict[str, float], tolerance: dict[str, float]) -> None:
    results = m.data["results"]
    for key, value in got.items():
        claimed = results[key]
        if abs(claimed - value) > tolerance[key] * abs(value) + 0.5:
            raise m.fail(("results", key), "results-mismatch",
                         f"results.{key} is {claimed}, but the samples give {value:g} "
                         f"(tolerance {tolerance[key]:.1%})")


def check_hgrm(path: Path, count: int) -> str:
    """The HdrHistogram text output beside a latency run must describe the same samples.
    Returns the file's SHA-256, which ingest records (runs are immutable)."""
    if not os.path.lexists(path):
        raise ValidationError(path, 0, "hgrm-missing", "a latency run must keep its latency.hgrm (contract v1)")
    data = inputs.read_bytes(path, inputs.HGRM_LIMIT)
    lines = inputs.decode_utf8(path, data).splitlines()
    for number, line in enumerate(lines, start=1):
        found = re.search(r"Total count\s*=\s*([0-9]{1,19})\b", line)
        if found:
            if int(found.group(1)) != count:
                raise ValidationError(path, number, "hgrm-count",
                                      f"the histogram counts {found.group(1)} values, the samples {count}")
            return hashlib.sha256(data).hexdigest()
    raise ValidationError(path, len(lines), "hgrm-format",
                          "no '#[Max = ..., Total count = N]' footer, as outputPercentileDistribution writes")


def hgrm_percentiles(path: Path) -> list[tuple[float, float]]:
    """(percentile 0..100, value in ns) pairs of an .hgrm file, whose values are in µs."""
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) >= 3 and not line.startswith("#") and parts[0][0].isdigit():
            pairs.append((float(parts[1]) * 100, float(parts[0]) * 1000))
    return pairs
