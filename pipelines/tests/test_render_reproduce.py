"""Reproduction: the commands a release page prints produce a run of the same thing.

The test reads the first one-host command block under "How to reproduce" of a built release
page, shrinks the message counts to a quick workload, runs it from the repository root and
checks the manifest of the run it wrote: same scenario, product and configuration (name and
every effective setting). It uses the committed data when there is any (commands of the real
runner), else the sample runs.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from fixlab_pipelines import db
from portal_site import REPO, build_portal

RUNNER_BIN = REPO / "bench-runner" / "bin"
QUICK = {"--messages": "2000", "--warmup-messages": "500", "--warmup": "500", "--repetitions": "1"}


def runner_scripts() -> list[Path]:
    return [p for p in RUNNER_BIN.glob("*") if p.is_file() and os.access(p, os.X_OK)] if RUNNER_BIN.is_dir() else []


needs_runner = pytest.mark.skipif(
    not runner_scripts(),
    reason="bench-runner/bin/ has no launch scripts yet (the runner issue): nothing to run the printed commands with",
)


def printed_commands(page_html: str) -> tuple[str, list[str]]:
    """(run id, commands) of the first block in the one-host tab of "How to reproduce"."""
    section = page_html[page_html.index('id="how-to-reproduce"'):]
    section = section[:section.index('id="downloads"')]
    # Each block is introduced by "**label** (<code>run id</code>, N repetitions)".
    run_id = html.unescape(re.search(r"</strong> \(<code>(.*?)</code>", section).group(1))
    block = re.search(r"<pre[^>]*>(.*?)</pre>", section, re.S).group(1)
    text = html.unescape(re.sub(r"<[^>]+>", "", block))
    return run_id, [line for line in text.splitlines() if line.strip()]


def quick(command: str) -> str:
    """The same command with a small workload: flag values in QUICK replace the recorded ones."""
    for flag, value in QUICK.items():
        command = re.sub(rf"(?<!\S){re.escape(flag)}(=|\s+)\S+", rf"{flag}\g<1>{value}", command)
    return command


def manifests_under(root: Path) -> set[Path]:
    return set(root.rglob("manifest.json")) if root.exists() else set()


def test_the_page_prints_a_run_s_recorded_commands_and_quick_shrinks_only_counts(tmp_path: Path):
    portal = build_portal(tmp_path / "portal")
    run_id, commands = printed_commands(portal.page(first_release_page(portal)))
    con = db.connect(portal.db, read_only=True)
    try:
        recorded = con.execute("SELECT reproduce FROM runs WHERE run_id = ? LIMIT 1", [run_id]).fetchone()[0]
    finally:
        con.close()
    assert commands == list(recorded)
    assert quick("bin/run --scenario rtt-echo --messages 200000 --warmup-messages=50000 --rate 50000") == \
        "bin/run --scenario rtt-echo --messages 2000 --warmup-messages=500 --rate 50000"


@needs_runner
def test_printed_commands_reproduce_the_run(tmp_path: Path):
    committed = REPO / "data" / "runs"
    if not manifests_under(committed):
        pytest.skip("no campaign in data/runs yet: the sample runs' commands are stand-ins, not the runner's")
    portal = build_portal(tmp_path / "portal", committed=True)
    run_id, commands = printed_commands(portal.page(first_release_page(portal)))
    con = db.connect(portal.db, read_only=True)
    try:
        expected = json.loads(con.execute("SELECT manifest FROM runs WHERE run_id = ? LIMIT 1",
                                          [run_id]).fetchone()[0])
    finally:
        con.close()

    # the two-host tab prints the two-host form the same run recorded
    two_host = expected["reproduce"].get("two_host_commands")
    if two_host:
        page = portal.page(first_release_page(portal))
        section = page[page.index('id="how-to-reproduce"'):page.index('id="downloads"')]
        assert two_host[-1] in html.unescape(re.sub(r"<[^>]+>", "", section))

    before = manifests_under(committed) | manifests_under(tmp_path / "out")
    started = time.time()
    env = {**os.environ, "FIXLAB_RUNS_DIR": str(tmp_path / "out")}
    # All but the last command are servers ("start first"): they run in the background,
    # announce readiness on their first output line, and exit after serving the client.
    servers = [subprocess.Popen(quick(c), shell=True, cwd=REPO, env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for c in commands[:-1]]
    for server in servers:
        assert server.stdout.readline(), "a server command exited before it was ready"
    done = subprocess.run(quick(commands[-1]), shell=True, cwd=REPO, capture_output=True, text=True,
                          timeout=600, env=env)
    assert done.returncode == 0, f"{commands[-1]}\n{done.stdout}\n{done.stderr}"
    for server, command in zip(servers, commands, strict=False):
        assert server.wait(timeout=120) == 0, command
        server.stdout.close()
    produced = [p for p in (manifests_under(committed) | manifests_under(tmp_path / "out")) - before
                if p.stat().st_mtime >= started]
    try:
        assert produced, f"the commands wrote no run folder under {committed} or {tmp_path / 'out'}"
        for path in produced:
            got = json.loads(path.read_text(encoding="utf-8"))
            assert got["scenario"] == expected["scenario"]
            assert got["product"]["name"] == expected["product"]["name"]
            # where each side's thread ran is an outcome of the run (a free CPU or not), not a setting
            assert_settings_kept(settings(expected["configuration"]), settings(got["configuration"]))
            assert got["workload"]["mode"] == expected["workload"]["mode"]
    finally:
        for path in produced:  # leave the committed data as it was
            if committed in path.parents:
                shutil.rmtree(path.parent)


def assert_settings_kept(expected: dict, got: dict, path: str = "configuration") -> None:
    """Every setting the recorded run had comes back with the same value. Options a later engine
    added may appear beside them: the page reproduces the recorded configuration, not a frozen
    list of option names."""
    for key, value in expected.items():
        assert key in got, f"{path}.{key} is missing from the reproduced run"
        if isinstance(value, dict):
            assert_settings_kept(value, got[key], f"{path}.{key}")
        else:
            assert got[key] == value, f"{path}.{key}: recorded {value!r}, reproduced {got[key]!r}"


def settings(configuration: dict) -> dict:
    return {k: v for k, v in configuration.items() if k not in ("client_thread", "server_thread")}


def first_release_page(portal) -> str:
    pages = sorted(p.name for p in (portal.build / "results").glob("*.html") if p.name != "index.html")
    assert pages, "no release page was rendered"
    return f"results/{pages[-1]}"

