"""The releases table: data/releases.csv, and `fixlab add-version`.

data/releases.csv is the committed source (product,version,commit,date,campaign); the
`releases` table is loaded from it on every ingest. add-version is the one command for a
new version's data: it brings the campaign into data/runs (with --run, measuring it first:
the new version beside the previous release, interleaved on this machine), ingests it,
checks that it measured that version, and records the release, all or nothing.
"""

from __future__ import annotations

import csv
import datetime as dt
import os
import re
import shutil
import subprocess
import tempfile
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


def previous_release(path: Path, version: str) -> str | None:
    """The newest fixlab release before `version` in the releases file, if any."""
    older = [r["version"] for r in read_releases(path)
             if r["product"] == "fixlab" and _version_key(r["version"]) < _version_key(version)]
    return max(older, key=_version_key) if older else None


def run_campaign(repo: Path, profile: str, runs_dir: Path, version: str, previous: str | None) -> Path:
    """Measure `version` (this checkout) beside the previous release in one campaign
    (`make bench PROFILE=... VERSIONS="<previous> <version>=HEAD"`); return the new campaign folder."""
    versions = f"{previous} {version}=HEAD" if previous else f"{version}=HEAD"
    before = {p.name for p in runs_dir.iterdir()} if runs_dir.exists() else set()
    command = ["make", "-C", str(repo), "bench", f"PROFILE={profile}", f"VERSIONS={versions}"]
    result = subprocess.run(command, check=False)
    if result.returncode != 0:
        raise UsageError(f"`{' '.join(command[3:])}` failed (exit {result.returncode})")
    new = sorted(p for p in runs_dir.iterdir() if p.name not in before) if runs_dir.exists() else []
    if len(new) != 1:
        raise UsageError(f"`make bench PROFILE={profile}` should write one new campaign under {runs_dir}, "
                         f"found {len(new)}")
    return new[0]


def add_version(db_path: Path, data_dir: Path, version: str, campaign_dir: Path,
                commit: str | None = None, date: str | None = None) -> list[Outcome]:
    """Ingest `campaign_dir` into data/runs and record the release, all or nothing.

    Everything happens on copies in a staging folder inside data/ (same file system, so the
    final moves are renames): the campaign, the database and the releases file. Only when
    every run is ingested and the campaign measured that version are they moved into place;
    a refusal, an error or an interruption leaves data/ as it was, byte for byte.
    """
    runs_dir = data_dir / "runs"
    target = runs_dir / campaign_dir.name
    in_place = campaign_dir.resolve() == target.resolve()
    if not in_place and os.path.lexists(target):
        raise UsageError(f"{target} exists already; a campaign is added once")
    data_dir.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=".add-version-", dir=data_dir))
    try:
        staged_runs = stage / "runs" / campaign_dir.name
        shutil.copytree(campaign_dir, staged_runs, symlinks=True)
        staged_db = stage / db_path.name
        if db_path.exists():
            shutil.copy2(db_path, staged_db)
        con = db.connect(staged_db)
        try:
            outcomes = ingest_paths(con, [staged_runs])
            if any(o.status == "refused" for o in outcomes):
                return [Outcome(target / o.run_dir.relative_to(staged_runs), o.status,
                                o.message.replace(str(staged_runs), str(target))) for o in outcomes]
            commit = _measured_commit(con, campaign_dir.name, version, commit)
            path = data_dir / "releases.csv"
            rows = [r for r in read_releases(path) if not (r["product"] == "fixlab" and r["version"] == version)]
            rows.append({"product": "fixlab", "version": version, "commit": commit,
                         "date": date or dt.datetime.now(dt.UTC).date().isoformat(),
                         "campaign": campaign_dir.name})
            staged_releases = stage / "releases.csv"
            write_releases(staged_releases, rows)
            load_releases(con, staged_releases)
        finally:
            con.close()
        # Commit: the campaign, then the releases file (the record of the release), then the
        # database (a cache of the two: `make data` rebuilds it if this last move is lost).
        if in_place:
            shutil.rmtree(target)
        runs_dir.mkdir(parents=True, exist_ok=True)
        os.replace(staged_runs, target)
        os.replace(staged_releases, path)
        os.replace(staged_db, db_path)
        wal = staged_db.with_name(staged_db.name + ".wal")
        if wal.exists():
            os.replace(wal, db_path.with_name(db_path.name + ".wal"))
        return [Outcome(target / o.run_dir.relative_to(staged_runs), o.status, o.message) for o in outcomes]
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _measured_commit(con: duckdb.DuckDBPyConnection, campaign: str, version: str, commit: str | None) -> str:
    commits = [r[0] for r in con.execute(
        "SELECT DISTINCT product_commit FROM runs WHERE campaign = ? AND product = 'fixlab' "
        "AND product_version = ?", [campaign, version]).fetchall()]
    if not commits:
        raise UsageError(f"campaign {campaign} has no fixlab {version} runs; is it the right campaign?")
    if commit is None:
        if len(commits) > 1:
            raise UsageError(f"campaign {campaign} measured fixlab {version} at commits {commits}; pass --commit")
        return commits[0]
    if commit not in commits:
        raise UsageError(f"campaign {campaign} measured fixlab {version} at {commits}, not {commit}")
    return commit
