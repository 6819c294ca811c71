"""The releases table: data/releases.csv, and `fixlab add-version`.

data/releases.csv is the committed source (product,version,commit,date,campaign); the
`releases` table is loaded from it on every ingest. add-version is the one command for a
new version's data: it brings the campaign into data/runs (running it first with --run),
ingests it, checks that it measured that version, and records the release.
"""

from __future__ import annotations

import csv
import datetime as dt
import os
import re
import shutil
import subprocess
from pathlib import Path

import duckdb

from . import db, inputs
from .errors import UsageError, ValidationError
from .ingest import Outcome, ingest_paths

COLUMNS = ("product", "version", "commit", "date", "campaign")


def read_releases(path: Path) -> list[dict[str, str]]:
    if not os.path.lexists(path):
        return []
    numbered = inputs.read_table(path, COLUMNS, names=("product", "version", "commit", "campaign"))
    rows = [row for _, row in numbered]
    seen: set[tuple[str, str]] = set()
    for line, row in numbered:
        if not all(row[c] for c in COLUMNS[:4]):
            raise ValidationError(path, line, "missing-value", "product, version, commit and date are required")
        try:
            if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", row["date"]):
                raise ValueError(row["date"])
            dt.date.fromisoformat(row["date"])
        except ValueError:
            raise ValidationError(path, line, "date", f"date must be YYYY-MM-DD, got {row['date']!r}") from None
        key = (row["product"], row["version"])
        if key in seen:
            raise ValidationError(path, line, "duplicate-release", f"{key[0]} {key[1]} is listed twice")
        seen.add(key)
    return rows


def write_releases(path: Path, rows: list[dict[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(sorted(rows, key=lambda r: (r["product"], _version_key(r["version"]))))


def _version_key(version: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in version.replace("-", ".").split("."))


def load_releases(con: duckdb.DuckDBPyConnection, path: Path) -> int:
    """Replace the releases table with the file's contents."""
    rows = read_releases(path)
    return db.replace_rows(con, "releases", [[r["product"], r["version"], r["commit"], r["date"],
                                              r["campaign"] or None] for r in rows])


def run_campaign(repo: Path, profile: str, runs_dir: Path) -> Path:
    """Run the benchmark campaign with `make bench PROFILE=...`; return the new campaign folder."""
    before = {p.name for p in runs_dir.iterdir()} if runs_dir.exists() else set()
    result = subprocess.run(["make", "-C", str(repo), "bench", f"PROFILE={profile}"], check=False)
    if result.returncode != 0:
        raise UsageError(f"`make bench PROFILE={profile}` failed (exit {result.returncode})")
    new = sorted(p for p in runs_dir.iterdir() if p.name not in before) if runs_dir.exists() else []
    if len(new) != 1:
        raise UsageError(f"`make bench PROFILE={profile}` should write one new campaign under {runs_dir}, "
                         f"found {len(new)}")
    return new[0]


def add_version(con: duckdb.DuckDBPyConnection, data_dir: Path, version: str, campaign_dir: Path,
                commit: str | None = None, date: str | None = None) -> list[Outcome]:
    """Ingest `campaign_dir` into data/runs and record the release; nothing is recorded on failure."""
    runs_dir = data_dir / "runs"
    target = runs_dir / campaign_dir.name
    if campaign_dir.resolve() != target.resolve():
        if target.exists():
            raise UsageError(f"{target} exists already; a campaign is added once")
        shutil.copytree(campaign_dir, target)
    outcomes = ingest_paths(con, [target])
    if any(o.status == "refused" for o in outcomes):
        return outcomes
    campaign = target.name
    commits = [r[0] for r in con.execute(
        "SELECT DISTINCT product_commit FROM runs WHERE campaign = ? AND product = 'fixlab' "
        "AND product_version = ?", [campaign, version]).fetchall()]
    if not commits:
        raise UsageError(f"campaign {campaign} has no fixlab {version} runs; is it the right campaign?")
    if commit is None:
        if len(commits) > 1:
            raise UsageError(f"campaign {campaign} measured fixlab {version} at commits {commits}; pass --commit")
        commit = commits[0]
    elif commit not in commits:
        raise UsageError(f"campaign {campaign} measured fixlab {version} at {commits}, not {commit}")
    path = data_dir / "releases.csv"
    rows = [r for r in read_releases(path) if not (r["product"] == "fixlab" and r["version"] == version)]
    rows.append({"product": "fixlab", "version": version, "commit": commit,
                 "date": date or dt.datetime.now(dt.UTC).date().isoformat(), "campaign": campaign})
    write_releases(path, rows)
    load_releases(con, path)
    return outcomes
