"""`make help` lists every target of the Makefile and mk/*.mk, one line each with what it does."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MAKEFILES = [REPO / "Makefile", *sorted((REPO / "mk").glob("*.mk"))]
# A rule whose target is a name (file targets such as $(VENV)/.installed start with "$(").
RULE = re.compile(r"^([a-zA-Z][a-zA-Z0-9_-]*)\s*:(?![=:])", re.M)


def targets() -> set[str]:
    return {name for path in MAKEFILES for name in RULE.findall(path.read_text(encoding="utf-8"))}


def test_every_target_has_one_help_line() -> None:
    done = subprocess.run(["make", "--no-print-directory", "-s", "help"], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    listed = [line.split()[1] for line in lines]
    assert len(listed) == len(set(listed)), "a target is listed twice"
    assert set(listed) == targets(), f"missing from make help: {sorted(targets() - set(listed))}"
    for line in lines:
        assert re.fullmatch(r"make \S+\s+\S.*", line), f"no description: {line!r}"


def test_the_rule_pattern_finds_targets_and_skips_variables() -> None:
    text = "help: ## this list\nPROFILE ?= quick\nROOT := x\n$(VENV)/.installed: x\nsite: data ## y\n"
    assert RULE.findall(text) == ["help", "site"]
    assert {"help", "test", "site", "data", "test-java", "duckdb-wasm", "sql"} <= targets()


def test_surefire_counts_prints_a_line_a_module_and_points_at_failed_tests(tmp_path: Path) -> None:
    """mk/surefire-counts.py, which `make test-java` runs after a quiet `mvn verify`."""
    stale = tmp_path / "engine" / "target" / "surefire-reports" / "TEST-Old.xml"
    stale.parent.mkdir(parents=True)
    stale.write_text('<testsuite tests="9" failures="9" errors="0" skipped="0"/>')
    old = time.time() - 3600
    os.utime(stale, (old, old))
    since = tmp_path / "stamp"
    since.touch()
    os.utime(since, (old + 60, old + 60))
    report = stale.with_name("TEST-org.x.ATest.xml")
    report.write_text('<testsuite tests="3" failures="1" errors="0" skipped="1">'
                      '<testcase classname="org.x.ATest" name="passes"/>'
                      '<testcase classname="org.x.ATest" name="fails"><failure message="no"/></testcase>'
                      '<testcase classname="org.x.ATest" name="skipped"><skipped/></testcase></testsuite>')
    report.with_name("org.x.ATest-output.txt").write_text("log lines\n")
    (tmp_path / "bench-runner").mkdir()
    done = subprocess.run([sys.executable, str(REPO / "mk" / "surefire-counts.py"), "--since", str(since),
                           str(tmp_path / "engine"), str(tmp_path / "bench-runner")],
                          capture_output=True, text=True, timeout=60)
    lines = done.stdout.splitlines()
    assert done.returncode == 1
    assert lines[0] == "engine: 1 passed, 1 failed, 1 skipped"  # the stale report is not counted
    assert lines[1].startswith("  org.x.ATest#fails: ") and lines[1].endswith("org.x.ATest-output.txt")
    assert lines[2] == "bench-runner: no test report written by this run"
