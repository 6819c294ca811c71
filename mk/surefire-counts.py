#!/usr/bin/env python3
"""One counts line per Maven module from its Surefire reports, for `make test-java`.

Maven runs quietly (-q) and Surefire keeps each test's output in target/surefire-reports/, so
this prints what is left to say: per module, "<module>: N passed, N failed, N skipped", then
for every failed or erroneous test, its class and the files that hold its report and output.
Only reports written since the --since file was touched count: a module's folder keeps the
reports of classes an earlier, narrower run (-Dtest=...) ran.

    surefire-counts.py --since STAMP MODULE_DIR...
Exit status 1 when a test failed or a module has no report at all.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def module_counts(module: Path, since: float) -> tuple[dict[str, int], list[str]] | None:
    reports = [p for p in sorted((module / "target" / "surefire-reports").glob("TEST-*.xml"))
               if p.stat().st_mtime >= since]
    if not reports:
        return None
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    failed: list[str] = []
    for report in reports:
        suite = ET.parse(report).getroot()
        for key in totals:
            totals[key] += int(suite.get(key, "0"))
        for case in suite.iter("testcase"):
            if case.find("failure") is not None or case.find("error") is not None:
                name = f"{case.get('classname')}#{case.get('name')}"
                output = report.with_name(f"{case.get('classname')}-output.txt")
                failed.append(f"  {name}: {report}" + (f", output in {output}" if output.exists() else ""))
    return totals, failed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--since", type=Path, required=True, help="a file touched before the test run")
    p.add_argument("modules", type=Path, nargs="+")
    options = p.parse_args(argv)
    since = options.since.stat().st_mtime
    status = 0
    for module in options.modules:
        counts = module_counts(module, since)
        if counts is None:
            print(f"{module.name}: no test report written by this run")
            status = 1
            continue
        totals, failed = counts
        bad = totals["failures"] + totals["errors"]
        passed = totals["tests"] - bad - totals["skipped"]
        print(f"{module.name}: {passed} passed, {bad} failed, {totals['skipped']} skipped")
        for line in failed:
            print(line)
        status |= 1 if bad else 0
    return status


if __name__ == "__main__":
    sys.exit(main())
