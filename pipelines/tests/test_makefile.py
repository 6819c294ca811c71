"""`make help` lists every target of the Makefile and mk/*.mk, one line each with what it does."""

from __future__ import annotations

import re
import subprocess
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
