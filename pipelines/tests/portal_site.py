"""Build the results portal from the sample runs in a temporary folder, for the portal tests.

Everything is real: the pipeline's ingest into DuckDB, `render`, and `mkdocs build --strict`
over a copy of the repository's site/ and mkdocs.yml. One run's manifest and one reference
file carry markup in free-text fields, so the tests can check that data stays text.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from fixlab_pipelines import db
from fixlab_pipelines.ingest import ingest_paths
from fixlab_pipelines.reference import load_reference
from fixlab_pipelines.releases import load_releases
from fixlab_pipelines.render.site import GENERATED, render_site

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parents[1]
SAMPLE_RUNS = TESTS / "data" / "runs"
BASE_CAMPAIGN = "20261101T1000Z-sample"  # fixlab 0.0.9
HEAD_CAMPAIGN = "20261115T1000Z-sample"  # fixlab 0.1.0
RELEASES = (
    "product,version,commit,date,campaign\n"
    f"fixlab,0.0.9,a1b2c3d,2026-11-01,{BASE_CAMPAIGN}\n"
    f"fixlab,0.1.0,3f2a9c1,2026-11-15,{HEAD_CAMPAIGN}\n"
)
# Markup of every kind a page could turn into HTML: tags, an event handler, Markdown emphasis,
# a link, an attr_list block, a table pipe and a code span.
MARKUP = ('<img src=x onerror="window.__fixlabInjected=1"><b>bold</b> *em* '
          '[link](https://example.invalid) {: onclick="window.__fixlabInjected=2" } | `tick`')
MARKED_RUN = (HEAD_CAMPAIGN, "internal-send.closed-loop.fixlab.optimized.r1")


@dataclass(frozen=True)
class PortalSite:
    root: Path
    data: Path
    db: Path
    docs: Path
    mkdocs_yml: Path
    build: Path

    def page(self, path: str) -> str:
        return (self.build / path).read_text(encoding="utf-8")


def copy_sources(root: Path) -> tuple[Path, Path]:
    """The repository's docs folder and mkdocs.yml, without anything rendered before.

    The rendered paths are left out, not copied and replaced: a test running `make site` in the
    repository at the same time (another pytest worker) may be rewriting them."""
    docs = root / "site"
    rendered = {(REPO / "site" / name).resolve() for name in GENERATED}

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if n.endswith(".pyc") or (Path(folder) / n).resolve() in rendered}

    shutil.copytree(REPO / "site", docs, ignore=ignore)
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copy(REPO / "CHANGELOG.md", root / "CHANGELOG.md")
    return docs, root / "mkdocs.yml"


def sample_data(root: Path) -> Path:
    data = root / "data"
    shutil.copytree(SAMPLE_RUNS, data / "runs")
    shutil.copytree(REPO / "data" / "reference", data / "reference")
    (data / "releases.csv").write_text(RELEASES, encoding="utf-8")
    manifest_path = data / "runs" / MARKED_RUN[0] / MARKED_RUN[1] / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    for host in manifest["hardware"]["hosts"]:
        host["nic"] = MARKUP
        host["jvm_args"] = [*host["jvm_args"], MARKUP]
    manifest_path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    with (data / "reference" / "zz-markup.csv").open("w", encoding="utf-8") as f:
        f.write("source,product,version,hardware,configuration,scenario,statistic,value,unit,note\n")
        quoted = '"' + MARKUP.replace('"', '""') + '"'
        f.write(f"test,{quoted},1.0,{quoted},{quoted},rtt-echo,p50,1.5,us,{quoted}\n")
    return data


# Markup that runs a script if any page or title lets it through: a script tag, event handlers,
# a javascript: link in Markdown, an attr_list handler, and a </title> that would end the title.
SCRIPTED = ('</title><script>window.__fixlabInjected="script"</script>'
            '<img src=x onerror="window.__fixlabInjected=\'img\'"><svg onload="window.__fixlabInjected=\'svg\'"/>'
            '[x](javascript:window.__fixlabInjected=1) {: onclick="window.__fixlabInjected=\'attr\'" } '
            '<a href="javascript:window.__fixlabInjected=1">a</a> `tick` *em*')
# Every free-text field of a manifest; names (versions, campaigns, configurations) cannot hold
# markup at all, ingest refuses them (tests/test_inputs.py).
FREE_TEXT = {
    ("product",): ("label",),
    ("configuration",): ("storage", "queue", "idle_strategy"),
    ("workload",): ("message_type", "fix_version"),
    ("topology", "hosts"): ("hostname", "address"),
    ("hardware", "hosts"): ("hostname", "cpu_model", "kernel", "os", "nic", "jdk_vendor", "jdk_version", "memory"),
}


def hostile_data(root: Path) -> Path:
    """One campaign (fixlab 0.1.0 beside QuickFIX/J) whose every free-text field, in every
    run, is SCRIPTED, and a reference file made of it: what a hostile pull request could add."""
    data = root / "data"
    shutil.copytree(SAMPLE_RUNS / HEAD_CAMPAIGN, data / "runs" / HEAD_CAMPAIGN)
    (data / "releases.csv").write_text(RELEASES.splitlines()[0] + "\n" + RELEASES.splitlines()[2] + "\n",
                                       encoding="utf-8")
    for manifest_path in sorted((data / "runs").rglob("manifest.json")):
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        for keys, fields in FREE_TEXT.items():
            node = manifest
            for key in keys:
                node = node[key]
            for item in node if isinstance(node, list) else [node]:
                item.update({field: f"{field} {SCRIPTED}" for field in fields})
        for host in manifest["hardware"]["hosts"]:
            host["jvm_args"] = [*host["jvm_args"], SCRIPTED]
        manifest["reproduce"]["commands"] = [*manifest["reproduce"]["commands"], f"echo '{SCRIPTED}'"]
        manifest_path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    reference = data / "reference" / "hostile.csv"
    reference.parent.mkdir()
    quoted = '"' + SCRIPTED.replace('"', '""') + '"'
    reference.write_text("source,product,version,hardware,configuration,scenario,statistic,value,unit,note\n"
                         f"{quoted},{quoted},{quoted},{quoted},{quoted},rtt-echo,p50,1.5,us,{quoted}\n",
                         encoding="utf-8")
    return data


def ingest(data: Path) -> Path:
    path = data / "fixlab.duckdb"
    con = db.connect(path)
    try:
        refused = [o.message for o in ingest_paths(con, [data / "runs"]) if o.status == "refused"]
        assert refused == [], refused
        load_releases(con, data / "releases.csv")
        load_reference(con, data / "reference")
    finally:
        con.close()
    return path


def mkdocs_build(mkdocs_yml: Path, site_url: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if site_url:
        env["FIXLAB_SITE_URL"] = site_url
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(mkdocs_yml)],
        cwd=mkdocs_yml.parent, capture_output=True, text=True, env=env,
    )


def committed_data(root: Path) -> Path:
    """A copy of the repository's data/ (without the database, which is rebuilt)."""
    data = root / "data"
    shutil.copytree(REPO / "data", data, ignore=shutil.ignore_patterns("*.duckdb", "*.wal"))
    return data


def build_portal(root: Path, site_url: str | None = None, committed: bool = False, make_data=None) -> PortalSite:
    """Ingest, render and build into root/. site_url: where the site will be served.
    Material's instant navigation only takes over links whose scheme, host and port match
    the sitemap's, so a browser test passes the address of its own server. make_data(root)
    writes root/data when neither the committed nor the sample data is wanted."""
    docs, mkdocs_yml = copy_sources(root)
    data = committed_data(root) if committed else (make_data or sample_data)(root)
    database = ingest(data)
    con = db.connect(database, read_only=True)
    try:
        render_site(con, database, data / "runs", docs, mkdocs_yml)
    finally:
        con.close()
    built = mkdocs_build(mkdocs_yml, site_url)
    assert built.returncode == 0, built.stdout + built.stderr
    return PortalSite(root, data, database, docs, mkdocs_yml, root / "site-build")
