"""Reproduction: the commands a release page prints, run exactly as printed, reproduce the run.

The page says: from a clone of fixlab at the commit of the harness that measured the release
(`git checkout <commit>`), run the build step its manifests recorded, then the commands the
runner recorded. The test takes the latest release page
built from the committed data, clones the repository's current commit (HEAD) into a temporary
folder with ../shared beside it, and runs there, exactly as printed, the build step and the
first one-host command block of the page. The recorded message counts are small (a few
seconds of traffic), so nothing is shrunk. The run folder the commands write must record the
same scenario, product, configuration (every effective setting) and workload mode.

`make test-reproduce` runs the first block of every scenario instead (FIXLAB_REPRODUCE=scenarios),
outside `make test`. The clone is at HEAD, not at the recorded commit, to keep the test's time
and network use bounded; the printed build step is the recorded one, which HEAD also has.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fixlab_pipelines import db
from portal_site import REPO, build_portal

RUNNER_BIN = REPO / "bench-runner" / "bin"
SHARED = REPO.parent / "shared"


def runner_scripts() -> list[Path]:
    return [p for p in RUNNER_BIN.glob("*") if p.is_file() and os.access(p, os.X_OK)] if RUNNER_BIN.is_dir() else []


needs_runner = pytest.mark.skipif(
    not runner_scripts(),
    reason="bench-runner/bin/ has no launch scripts yet (the runner issue): nothing to run the printed commands with",
)


def how_to_reproduce(page_html: str) -> str:
    section = page_html[page_html.index('id="how-to-reproduce"'):]
    return section[:section.index('id="downloads"')]


def printed_blocks(page_html: str) -> list[tuple[str, list[str]]]:
    """(run id, commands) of every block in the one-host tab of "How to reproduce", in page order."""
    section = how_to_reproduce(page_html)
    # Material's tabs: the labels first, then one <div class="tabbed-block"> per tab, "One host" first.
    one_host = section.split('<div class="tabbed-block">')[1]
    # Each block is introduced by "**label** (<code>run id</code>, N repetitions)".
    run_ids = [html.unescape(r) for r in re.findall(r"</strong> \(<code>(.*?)</code>", one_host)]
    blocks = [html.unescape(re.sub(r"<[^>]+>", "", b)) for b in re.findall(r"<pre[^>]*>(.*?)</pre>", one_host, re.S)]
    assert run_ids and len(run_ids) == len(blocks), "a command block without its run id"
    return [(run_id, [line for line in block.splitlines() if line.strip()])
            for run_id, block in zip(run_ids, blocks, strict=True)]


def printed_commands(page_html: str) -> tuple[str, list[str]]:
    """(run id, commands) of the first block in the one-host tab of "How to reproduce"."""
    return printed_blocks(page_html)[0]


def printed_build_step(page_html: str) -> tuple[str, str]:
    """(checkout, build): the commands of "... at commit c (`git checkout c`), after `make build-java`"."""
    text = html.unescape(re.sub(r"</?code>", "`", how_to_reproduce(page_html)))
    checkout = re.search(r"`(git checkout [0-9a-f]+)`", text).group(1)
    build = re.search(r"after `([^`]+)`", text).group(1)
    return checkout, build


def manifests_under(root: Path) -> set[Path]:
    return set(root.rglob("manifest.json")) if root.exists() else set()


def test_the_page_prints_a_run_s_recorded_commands_and_its_build_step(tmp_path: Path):
    portal = build_portal(tmp_path / "portal")
    page = portal.page(first_release_page(portal))
    run_id, commands = printed_commands(page)
    con = db.connect(portal.db, read_only=True)
    try:
        recorded, build, harness = con.execute(
            """SELECT reproduce, json_extract_string(manifest, '$.reproduce.build'),
                      json_extract_string(manifest, '$.harness.commit') FROM runs WHERE run_id = ? LIMIT 1""",
            [run_id]).fetchone()
        commit = con.execute("SELECT max(commit) FROM releases WHERE version = '0.1.0'").fetchone()[0]
    finally:
        con.close()
    assert commands == list(recorded)
    assert len(printed_blocks(page)) > 1
    # the harness that measured the runs, at the build step its manifests recorded (the release's own
    # commit predates `make build`; its runs recorded `make build-java`)
    assert printed_build_step(page) == (f"git checkout {harness or commit}", build or "make build-java")


@needs_runner
def test_printed_commands_reproduce_the_run_from_a_fresh_clone(tmp_path: Path):
    if not manifests_under(REPO / "data" / "runs"):
        pytest.skip("no campaign in data/runs yet: the sample runs' commands are stand-ins, not the runner's")
    portal = build_portal(tmp_path / "portal", committed=True)
    page = portal.page(first_release_page(portal))
    checkout, build = printed_build_step(page)
    con = db.connect(portal.db, read_only=True)
    try:
        manifests = {run_id: json.loads(m) for run_id, m in con.execute("SELECT run_id, manifest FROM runs").fetchall()}
    finally:
        con.close()
    blocks = printed_blocks(page)
    if os.environ.get("FIXLAB_REPRODUCE") == "scenarios":  # make test-reproduce
        firsts: dict[str, tuple[str, list[str]]] = {}
        for run_id, commands in blocks:
            firsts.setdefault(manifests[run_id]["scenario"], (run_id, commands))
        blocks = list(firsts.values())
    else:
        blocks = blocks[:1]

    # the two-host tab prints the two-host form the same run recorded, as it runs in any clone
    from fixlab_pipelines.render.release import in_any_clone
    for run_id, _ in blocks:
        two_host = manifests[run_id]["reproduce"].get("two_host_commands")
        if two_host:
            printed = in_any_clone(two_host[-1], manifests[run_id]["configuration"]["name"])
            assert printed in html.unescape(re.sub(r"<[^>]+>", "", how_to_reproduce(page)))

    clone = fresh_clone(tmp_path)
    assert checkout.split()[:2] == ["git", "checkout"]  # printed; the clone stays at HEAD (module doc)
    run_printed(build, clone, timeout=1800)
    for run_id, commands in blocks:
        before = manifests_under(clone / "data" / "runs")
        run_block(commands, clone)
        produced = manifests_under(clone / "data" / "runs") - before
        assert produced, f"{commands[-1]}: wrote no run folder under data/runs of the clone"
        expected = manifests[run_id]
        for path in produced:
            got = json.loads(path.read_text(encoding="utf-8"))
            assert got["scenario"] == expected["scenario"]
            assert got["product"]["name"] == expected["product"]["name"]
            # where each side's thread ran is an outcome of the run (a free CPU or not), not a setting
            assert_settings_kept(settings(expected["configuration"]), settings(got["configuration"]))
            assert got["workload"]["mode"] == expected["workload"]["mode"]
            assert got["reproduce"]["commands"] == commands


def fresh_clone(tmp_path: Path) -> Path:
    """A clone of the repository's current commit, with ../shared beside it as in the checkout."""
    clone = tmp_path / "fixlab"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(clone)], check=True,
                   capture_output=True)
    if SHARED.is_dir():
        (tmp_path / "shared").symlink_to(SHARED, target_is_directory=True)
    return clone


def run_printed(command: str, cwd: Path, timeout: int) -> None:
    done = subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=clean_env())
    assert done.returncode == 0, f"{command}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"


def run_block(commands: list[str], cwd: Path) -> None:
    """All but the last command are servers ("start first"): they run in the background,
    announce readiness on their first output line, and exit after serving the client."""
    servers = [subprocess.Popen(c, shell=True, cwd=cwd, env=clean_env(), text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for c in commands[:-1]]
    try:
        for server in servers:
            assert server.stdout.readline(), "a server command exited before it was ready"
        run_printed(commands[-1], cwd, timeout=600)
        for server, command in zip(servers, commands, strict=False):
            assert server.wait(timeout=120) == 0, command
    finally:
        for server in servers:
            if server.poll() is None:
                server.kill()
                server.wait()
            server.stdout.close()


def clean_env() -> dict[str, str]:
    """The environment of a reader's shell: not this test's virtualenv, make level or runs folder."""
    drop = ("VIRTUAL_ENV", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "FIXLAB_RUNS_DIR")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    venv_bin = os.path.dirname(os.path.abspath(sys.executable))
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    return env


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



def test_recorded_commands_are_printed_as_they_run_in_any_clone():
    from fixlab_pipelines.render.release import in_any_clone

    recorded = ("bench-runner/bin/runClientRoundTripLatencyBM --scenario rtt-echo --product fixlab --properties "
                "/home/someone/fixlab/bench-runner/etc/balanced/engine.properties --host 127.0.0.1 --port 9948")
    assert in_any_clone(recorded, "balanced") == recorded.replace(
        "--properties /home/someone/fixlab/", "--config balanced --properties ")
    older = "x --properties /srv/ci/fixlab/.cache/engines/9e05406/etc/optimized/engine.properties --bind 0.0.0.0"
    assert in_any_clone(older, "optimized") == ("x --config optimized --properties "
                                                ".cache/engines/9e05406/etc/optimized/engine.properties --bind 0.0.0.0")
    # anything else is printed as recorded
    other = "x --out /tmp/runs --config a --properties etc/a.properties"
    assert in_any_clone(other, "a") == other
