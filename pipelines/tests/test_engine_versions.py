"""Several engine versions in one campaign: this checkout's harness drives each released engine.

`make bench VERSIONS="0.2.0 HEAD"` resolves the versions with bench-runner/bin/engine-versions, which
builds a release's engine from its commit (a git worktree, cached in .cache/engines/<commit>/). The
harness reaches the engine's changing API through EngineApi. 0.1.0's engine predates Action (its
Application.onAppMessage returns nothing), so the harness's EngineApi does not compile against it and
bench-runner/engine-api/0.1/EngineApi.java is compiled in its place; without it every 0.1.0 run waited
out its timeout. 0.2.0's compiles against the harness's own. The test makes one short real
run of each version over loopback, started the way a campaign starts its processes (bin/fixlab-bench
with the version's environment), and checks that the pipeline ingests both as the versions they
measured; with TLS, that both record the suite their handshake chose.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
from pathlib import Path

import duckdb
import pytest

from fixlab_pipelines.releases import read_releases
from portal_site import REPO

BIN = REPO / "bench-runner" / "bin"


def _released_commit(release: str) -> str:
    for row in read_releases(REPO / "data" / "releases.csv"):
        if row["product"] == "fixlab" and row["version"] == release:
            return row["commit"]
    raise AssertionError(f"data/releases.csv has no fixlab {release}")


def _ensure_built() -> None:
    if not (REPO / "bench-runner" / "target" / "build-commit.txt").is_file():
        subprocess.run(["make", "--no-print-directory", "-C", str(REPO), "build-java"], check=True, capture_output=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(version: dict[str, str], out: Path, config: str) -> Path:
    env = dict(os.environ, FIXLAB_ENGINE_JAR=version["jar"], FIXLAB_ENGINE_VERSION=version["label"],
               FIXLAB_ENGINE_COMMIT=version["commit"])
    env.pop("JAVA_OPTS", None)  # the launcher's own JVM options, as a campaign runs them
    port = _free_port()
    properties = str(Path(version["etc"]) / config / "engine.properties")
    common = ["--scenario", "rtt-echo", "--product", "fixlab", "--config", config, "--port", str(port),
              "--properties", properties, "--timeout", "60"]
    server = subprocess.Popen([str(BIN / "fixlab-bench"), "server", *common, "--bind", "127.0.0.1"], env=env, cwd=REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert server.stdout is not None
        for line in server.stdout:
            if line.startswith("server ready"):
                break
        client = subprocess.run(
            [str(BIN / "fixlab-bench"), "client", *common, "--host", "127.0.0.1", "--messages", "2000",
             "--warmup", "1000", "--mode", "closed-loop", "--campaign", "versions", "--out", str(out),
             "--run-id", f"rtt-echo.closed-loop.fixlab-{version['label']}.{config}.r1"],
            env=env, cwd=REPO, capture_output=True, text=True, timeout=120)
        assert client.returncode == 0, client.stdout + client.stderr
        written = [line for line in client.stdout.splitlines() if line.startswith("run written: ")]
        assert written, client.stdout
        return Path(written[-1].removeprefix("run written: "))
    finally:
        server.kill()
        server.wait()
        if server.stdout is not None:
            server.stdout.close()


@pytest.mark.parametrize(("release", "api_line", "config"), [
    ("0.1.0", "0.1", "optimized"),
    ("0.2.0", "current", "optimized-tls"),
])
def test_this_harness_measures_a_released_engine_beside_this_one(tmp_path: Path, release: str, api_line: str,
                                                                   config: str) -> None:
    _ensure_built()
    resolved = subprocess.run([str(BIN / "engine-versions"), release, "HEAD"], cwd=REPO, capture_output=True,
                              text=True, timeout=600)
    assert resolved.returncode == 0, resolved.stderr
    versions = [dict(zip(("label", "commit", "jar", "etc"), entry.split("|"), strict=True))
                for entry in resolved.stdout.strip().split(";")]
    released, head = versions
    assert (released["label"], released["commit"]) == (release, _released_commit(release))
    cache = Path(released["jar"]).parent
    assert (cache / "api.txt").read_text().strip() == api_line, f"{release}'s engine takes the {api_line} API"
    assert (cache / "engine-api.jar").is_file() == (api_line != "current")

    runs = [_run(version, tmp_path / "runs", config) for version in (released, head)]
    for run, version in zip(runs, (released, head), strict=True):
        manifest = json.loads((run / "manifest.json").read_text())
        product = manifest["product"]
        assert (product["version"], product["commit"]) == (version["label"], version["commit"])
        # both JVMs without the statistics sampler's wake-ups (bin/fixlab-bench says why), as the manifest records
        assert sorted(host["role"] for host in manifest["hardware"]["hosts"]) == ["client", "server"]
        for host in manifest["hardware"]["hosts"]:
            assert "-XX:-UsePerfData" in host["jvm_args"], host
        if config.endswith("-tls"):
            assert manifest["configuration"]["tls"]["protocol"] == "TLSv1.3", manifest["configuration"]
        else:
            assert "tls" not in manifest["configuration"], manifest["configuration"]

    db_path = tmp_path / "x.duckdb"
    ingest = subprocess.run([str(REPO / ".venv" / "bin" / "fixlab"), "ingest", "--db", str(db_path), "--keep-csv",
                             str(tmp_path / "runs")], capture_output=True, text=True)
    assert ingest.returncode == 0, ingest.stdout + ingest.stderr
    with duckdb.connect(str(db_path), read_only=True) as con:
        measured = con.execute("SELECT product_version, count(*) FROM runs GROUP BY 1 ORDER BY 1").fetchall()
    assert measured == sorted([(release, 1), (head["label"], 1)])


def test_head_is_this_checkouts_build_beside_the_jar_of_an_earlier_version() -> None:
    """target/ keeps the jar of the version before a bump until a clean: HEAD must be the jar of the pom's version
    (a release campaign once measured a stale 0.1.0 jar as 0.2.0)."""
    _ensure_built()
    version = re.search(r"^  <version>(.*)</version>", (REPO / "pom.xml").read_text(), re.MULTILINE).group(1)
    stale = REPO / "engine" / "target" / "fixlab-engine-0.0.0-stale.jar"
    stale.write_bytes(b"")
    try:
        resolved = subprocess.run([str(BIN / "engine-versions"), "HEAD"], cwd=REPO, capture_output=True, text=True,
                                  timeout=600)
    finally:
        stale.unlink()
    assert resolved.returncode == 0, resolved.stderr
    assert resolved.stdout.strip().split("|")[2] == str(REPO / "engine" / "target" / f"fixlab-engine-{version}.jar")
