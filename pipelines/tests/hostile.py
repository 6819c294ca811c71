"""A hostile contributor's run folder, and what every refusal must look like.

The tests of inputs.py think like someone who controls a run folder (or releases.csv, or a
reference file) that is committed through a pull request: they take a valid sample run,
change it the way an attacker could, run the real CLI on it and check the promise: exit 1
with a `PATH:LINE: rule` message and no traceback, the database exactly as it was, and the
folder's files exactly as they were.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import duckdb

from fixlab_pipelines import cli
from sample_data import SAMPLE_RUNS, snapshot

CAMPAIGN = "20261115T1000Z-sample"
LATENCY_RUN = "rtt-echo.paced.fixlab.balanced.r1"
THROUGHPUT_RUN = "throughput.stream.fixlab.optimized.r1"
# `refused: PATH:LINE: rule: explanation` (ingest) or `error: PATH:LINE: rule: ...` (tables).
REFUSAL = re.compile(r"^(?:refused|error): (?P<path>\S.*?):(?P<line>\d+): (?P<rule>[a-z0-9-]+): \S")


def copy_run(root: Path, run: str = LATENCY_RUN, campaign: str = CAMPAIGN) -> Path:
    target = root / "runs" / campaign / run
    shutil.copytree(SAMPLE_RUNS / CAMPAIGN / run, target)
    return target


def folder_state(folder: Path) -> dict[str, object]:
    """Every entry below `folder`: what it is and, for files, the hash of its bytes."""
    state: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        key = path.relative_to(folder).as_posix()
        if path.is_symlink():
            state[key] = ("link", str(path.readlink()))
        elif path.is_file():
            state[key] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            state[key] = "dir" if path.is_dir() else "other"
    return state


def db_state(path: Path) -> dict[str, list[tuple]]:
    con = duckdb.connect(str(path))
    try:
        return snapshot(con)
    finally:
        con.close()


def ingest(capsys, db: Path, data: Path, *paths: Path) -> tuple[int, str]:
    """The real `fixlab ingest`, in process; (exit code, stderr). Tracebacks fail the caller."""
    args = ["ingest", "--db", str(db), "--data", str(data), *(str(p) for p in paths)]
    code = cli.main(args)
    err = capsys.readouterr().err
    return code, err


def assert_refused(code: int, err: str, rule: str | None = None, path: Path | None = None,
                   line: int | None = None) -> re.Match:
    assert code == 1, err
    assert "Traceback" not in err, err
    found = [m for m in map(REFUSAL.match, err.splitlines()) if m]
    assert found, f"no PATH:LINE: rule line in {err!r}"
    first = found[0]
    if rule is not None:
        assert first["rule"] == rule, err
    if path is not None:
        assert Path(first["path"]) == path, err
    if line is not None:
        assert int(first["line"]) == line, err
    return first
